//! The environment the agent backends read, and keeping secrets out of
//! what they return.
//!
//! A backend reads API keys and CLI settings from the runner's own
//! environment at the moment of a request. [`Env`] adds overrides on top
//! of it: an embedder (or a test, which cannot change its own process's
//! environment safely) gives a backend variables as if they were set
//! (`ClaudeBackend::with_env`, `OpenAiBackend::with_env`, ...).
//!
//! Whatever a backend hands back to the runner (answer text, error
//! messages) goes into events and state files, so it passes through
//! [`redact`] first: every secret the backend knows of (the API key it
//! sent, the secret-looking variables it passed to a CLI) is replaced by
//! `[redacted]`.

/// The process environment plus overrides.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Env {
    overrides: Vec<(String, String)>,
}

impl Env {
    /// The process environment with `overrides` laid over it.
    pub fn with_overrides(overrides: Vec<(String, String)>) -> Self {
        Env { overrides }
    }

    /// The value of `name`: the last override of that name, else the
    /// process's variable. Empty values count as unset.
    pub fn get(&self, name: &str) -> Option<String> {
        self.overrides
            .iter()
            .rev()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .or_else(|| std::env::var(name).ok())
            .filter(|v| !v.is_empty())
    }

    /// The overrides, in the order given.
    pub fn overrides(&self) -> &[(String, String)] {
        &self.overrides
    }

    /// Every variable whose name starts with one of `prefixes`, from the
    /// process and the overrides (overrides win), sorted by name.
    pub fn with_prefixes(&self, prefixes: &[&str]) -> Vec<(String, String)> {
        let wanted = |k: &str| prefixes.iter().any(|p| k.starts_with(p));
        let mut out: std::collections::BTreeMap<String, String> = std::env::vars_os()
            .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
            .filter(|(k, _)| wanted(k))
            .collect();
        for (k, v) in &self.overrides {
            if wanted(k) {
                out.insert(k.clone(), v.clone());
            }
        }
        out.into_iter().collect()
    }
}

/// Whether a variable's name says it holds a secret (`ANTHROPIC_API_KEY`,
/// `GITHUB_TOKEN`, `AWS_SECRET_ACCESS_KEY`, `DB_PASSWORD`, ...).
pub fn is_secret_name(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    ["KEY", "TOKEN", "SECRET", "PASSWORD", "CREDENTIAL", "AUTH"]
        .iter()
        .any(|w| upper.contains(w))
}

/// The values among `vars` that [`redact`] must hide: those of
/// secret-looking names, long enough not to be a common word.
pub fn secret_values(vars: &[(String, String)]) -> Vec<String> {
    let mut out: Vec<String> = vars
        .iter()
        .filter(|(k, v)| is_secret_name(k) && v.len() >= MIN_SECRET_LEN)
        .map(|(_, v)| v.clone())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Values shorter than this are not treated as secrets (`1`, `true`).
pub const MIN_SECRET_LEN: usize = 6;

/// `text` with every occurrence of each secret replaced by `[redacted]`.
pub fn redact(text: &str, secrets: &[String]) -> String {
    let mut out = text.to_string();
    for s in secrets {
        if s.len() >= MIN_SECRET_LEN && out.contains(s.as_str()) {
            out = out.replace(s.as_str(), "[redacted]");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_win_and_empty_is_unset() {
        let env = Env::with_overrides(vec![
            ("PROSE_TEST_ENV_A".into(), "one".into()),
            ("PROSE_TEST_ENV_A".into(), "two".into()),
            ("PROSE_TEST_ENV_EMPTY".into(), String::new()),
            ("PATH".into(), "/override/bin".into()),
        ]);
        assert_eq!(env.get("PROSE_TEST_ENV_A").as_deref(), Some("two"));
        assert_eq!(env.get("PROSE_TEST_ENV_EMPTY"), None);
        assert_eq!(env.get("PATH").as_deref(), Some("/override/bin"));
        assert_eq!(env.get("PROSE_TEST_ENV_NEVER_SET"), None);
        let prefixed = env.with_prefixes(&["PROSE_TEST_ENV_"]);
        assert_eq!(
            prefixed,
            [
                ("PROSE_TEST_ENV_A".to_string(), "two".to_string()),
                ("PROSE_TEST_ENV_EMPTY".to_string(), String::new())
            ]
        );
    }

    #[test]
    fn secrets_are_found_by_name_and_redacted() {
        let vars = vec![
            ("ANTHROPIC_API_KEY".to_string(), "sk-ant-123456".to_string()),
            ("GITHUB_TOKEN".to_string(), "ghp_abcdef".to_string()),
            ("CODEX_HOME".to_string(), "/home/u/.codex".to_string()),
            ("SHORT_KEY".to_string(), "1".to_string()),
        ];
        let secrets = secret_values(&vars);
        assert_eq!(secrets, ["ghp_abcdef", "sk-ant-123456"]);
        assert_eq!(
            redact(
                "key sk-ant-123456 and ghp_abcdef, home /home/u/.codex, 1",
                &secrets
            ),
            "key [redacted] and [redacted], home /home/u/.codex, 1"
        );
    }
}
