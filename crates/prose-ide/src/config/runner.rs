//! The `[runner]` table of `prose.toml`: how `prose run` runs programs.
//!
//! ```toml
//! [runner]
//! backend = "claude"          # claude | codex | openai | anthropic | command | mock
//! command = "my-agent --quiet" # the program of the `command` backend
//! model = "sonnet"            # the alias of sessions that name no model
//! timeout = "10m"             # per backend request: "500ms", "90s", "10m", "1h" or seconds
//! max_parallel = 8            # sessions running at once (default: no limit)
//! env = ["OPENAI_API_KEY"]    # environment variables passed to backend processes
//!
//! [runner.claude]             # also [runner.codex]
//! executable = "claude"
//! args = ["--max-budget-usd", "5"]
//! models = { sonnet = "claude-sonnet-4-5", opus = "claude-opus-4-1" }
//!
//! [runner.openai]             # also [runner.anthropic]
//! base_url = "http://127.0.0.1:8080/v1"
//! api_key_env = "OPENAI_API_KEY"
//! model = "llama-3.1-8b"      # the model of aliases `models` does not map
//! models = { opus = "llama-3.1-70b" }
//!
//! [runner.mock]
//! script = "mock.toml"
//! ```
//!
//! The table is plain data here (the analysis does not use it); the runner
//! validates it further and records where each value came from. API keys
//! are never read from a file: a key-like entry is an error that says to
//! name an environment variable instead.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::ConfigError;

/// The backends `backend = "..."` may name.
pub const BACKENDS: [&str; 6] = ["claude", "codex", "openai", "anthropic", "command", "mock"];

/// The `[runner]` table.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct RunnerTable {
    pub backend: Option<String>,
    pub command: Option<String>,
    /// The default model alias.
    pub model: Option<String>,
    /// Per-request timeout in milliseconds.
    pub timeout_ms: Option<u64>,
    pub max_parallel: Option<u64>,
    pub env: Vec<String>,
    /// `[runner.claude]`, `[runner.codex]`, ... by backend name.
    pub backends: BTreeMap<String, BackendTable>,
}

/// A `[runner.<backend>]` table. Which keys a backend takes is checked when
/// parsing: `executable`/`args` for the CLI backends (claude, codex),
/// `base_url`/`api_key_env`/`model` for the HTTP ones (openai, anthropic),
/// `script` for mock, `models` for all but mock.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct BackendTable {
    /// Alias (`sonnet`) -> the backend's model name.
    pub models: BTreeMap<String, String>,
    pub executable: Option<String>,
    pub args: Vec<String>,
    pub base_url: Option<String>,
    pub api_key_env: Option<String>,
    pub model: Option<String>,
    pub script: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawRunner {
    backend: Option<String>,
    command: Option<String>,
    model: Option<String>,
    timeout: Option<RawDuration>,
    max_parallel: Option<u64>,
    #[serde(default)]
    env: Vec<String>,
    claude: Option<RawCli>,
    codex: Option<RawCli>,
    openai: Option<RawHttp>,
    anthropic: Option<RawHttp>,
    mock: Option<RawMock>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RawDuration {
    Seconds(u64),
    Text(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCli {
    executable: Option<String>,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default)]
    models: BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHttp {
    base_url: Option<String>,
    api_key_env: Option<String>,
    model: Option<String>,
    #[serde(default)]
    models: BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMock {
    script: Option<String>,
}

fn error(message: impl Into<String>) -> ConfigError {
    ConfigError {
        message: message.into(),
    }
}

/// Keys that would hold a secret: refused with a message naming the way to
/// give one.
const SECRET_KEYS: [&str; 6] = ["api_key", "key", "token", "api_token", "secret", "password"];

/// Refuses secrets anywhere in the `[runner]` table, before serde reports
/// them as mere unknown keys.
pub(super) fn refuse_secrets(table: &toml::Value, path: &str) -> Result<(), ConfigError> {
    let toml::Value::Table(t) = table else {
        return Ok(());
    };
    for (k, v) in t {
        let here = format!("{path}.{k}");
        if SECRET_KEYS.contains(&k.as_str()) {
            return Err(error(format!(
                "`{here}`: API keys are never read from prose.toml; put the key in an environment variable and name it with `api_key_env = \"VARIABLE\"`"
            )));
        }
        refuse_secrets(v, &here)?;
    }
    Ok(())
}

impl RawRunner {
    pub(super) fn validate(self) -> Result<RunnerTable, ConfigError> {
        if let Some(b) = &self.backend
            && !BACKENDS.contains(&b.as_str())
        {
            return Err(error(format!(
                "unknown backend `{b}` in [runner]: expected one of {}",
                BACKENDS.join(", ")
            )));
        }
        if self.command.as_deref().is_some_and(|c| c.trim().is_empty()) {
            return Err(error("`runner.command` is empty"));
        }
        if self.max_parallel == Some(0) {
            return Err(error("`runner.max_parallel` must be at least 1"));
        }
        let timeout_ms = match self.timeout {
            None => None,
            Some(RawDuration::Seconds(0)) => {
                return Err(error("`runner.timeout` must be more than 0"));
            }
            Some(RawDuration::Seconds(s)) => Some(s.saturating_mul(1000)),
            Some(RawDuration::Text(t)) => Some(parse_duration_ms(&t).ok_or_else(|| {
                error(format!(
                    "`runner.timeout = \"{t}\"`: expected a duration such as \"500ms\", \"90s\", \"10m\" or \"1h\""
                ))
            })?),
        };
        for name in &self.env {
            if name.is_empty() || name.contains('=') {
                return Err(error(format!(
                    "`runner.env`: `{name}` is not an environment variable name"
                )));
            }
        }
        let mut backends = BTreeMap::new();
        let cli = |raw: RawCli| BackendTable {
            models: raw.models,
            executable: raw.executable,
            args: raw.args,
            ..BackendTable::default()
        };
        let http = |raw: RawHttp| BackendTable {
            models: raw.models,
            base_url: raw.base_url,
            api_key_env: raw.api_key_env,
            model: raw.model,
            ..BackendTable::default()
        };
        if let Some(t) = self.claude {
            backends.insert("claude".to_string(), cli(t));
        }
        if let Some(t) = self.codex {
            backends.insert("codex".to_string(), cli(t));
        }
        if let Some(t) = self.openai {
            backends.insert("openai".to_string(), http(t));
        }
        if let Some(t) = self.anthropic {
            backends.insert("anthropic".to_string(), http(t));
        }
        if let Some(t) = self.mock {
            backends.insert(
                "mock".to_string(),
                BackendTable {
                    script: t.script,
                    ..BackendTable::default()
                },
            );
        }
        Ok(RunnerTable {
            backend: self.backend,
            command: self.command,
            model: self.model,
            timeout_ms,
            max_parallel: self.max_parallel,
            env: self.env,
            backends,
        })
    }
}

/// `"500ms"`, `"90s"`, `"10m"`, `"1h"`, or a bare number of seconds, in
/// milliseconds; `None` for anything else and for zero.
pub fn parse_duration_ms(text: &str) -> Option<u64> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (digits, unit) = t.split_at(split);
    let n: u64 = digits.parse().ok()?;
    let factor = match unit.trim() {
        "ms" => 1,
        "" | "s" => 1000,
        "m" | "min" => 60_000,
        "h" => 3_600_000,
        _ => return None,
    };
    let ms = n.checked_mul(factor)?;
    (ms > 0).then_some(ms)
}

#[cfg(test)]
mod tests {
    use crate::config::Config;

    #[test]
    fn parses_the_whole_table() {
        let c = Config::from_toml(
            r#"
[runner]
backend = "openai"
command = "agent --quiet"
model = "haiku"
timeout = "90s"
max_parallel = 4
env = ["OPENAI_API_KEY", "HTTPS_PROXY"]

[runner.claude]
executable = "/opt/claude"
args = ["--max-budget-usd", "5"]
models = { sonnet = "claude-sonnet-4-5" }

[runner.openai]
base_url = "http://127.0.0.1:8080/v1"
api_key_env = "LLAMA_KEY"
model = "llama"
models = { opus = "llama-70b" }

[runner.mock]
script = "mock.toml"
"#,
        )
        .unwrap();
        let r = &c.runner;
        assert_eq!(r.backend.as_deref(), Some("openai"));
        assert_eq!(r.command.as_deref(), Some("agent --quiet"));
        assert_eq!(r.model.as_deref(), Some("haiku"));
        assert_eq!(r.timeout_ms, Some(90_000));
        assert_eq!(r.max_parallel, Some(4));
        assert_eq!(r.env, ["OPENAI_API_KEY", "HTTPS_PROXY"]);
        let claude = &r.backends["claude"];
        assert_eq!(claude.executable.as_deref(), Some("/opt/claude"));
        assert_eq!(claude.args, ["--max-budget-usd", "5"]);
        assert_eq!(claude.models["sonnet"], "claude-sonnet-4-5");
        let openai = &r.backends["openai"];
        assert_eq!(openai.base_url.as_deref(), Some("http://127.0.0.1:8080/v1"));
        assert_eq!(openai.api_key_env.as_deref(), Some("LLAMA_KEY"));
        assert_eq!(openai.model.as_deref(), Some("llama"));
        assert_eq!(openai.models["opus"], "llama-70b");
        assert_eq!(r.backends["mock"].script.as_deref(), Some("mock.toml"));
    }

    #[test]
    fn durations() {
        use super::parse_duration_ms as p;
        assert_eq!(p("500ms"), Some(500));
        assert_eq!(p("90"), Some(90_000));
        assert_eq!(p("10m"), Some(600_000));
        assert_eq!(p("1h"), Some(3_600_000));
        assert_eq!(p("0s"), None);
        assert_eq!(p("soon"), None);
        assert_eq!(p("5d"), None);
        let c = Config::from_toml("[runner]\ntimeout = 30\n").unwrap();
        assert_eq!(c.runner.timeout_ms, Some(30_000));
    }

    fn err(text: &str) -> String {
        Config::from_toml(text).unwrap_err().message
    }

    #[test]
    fn rejects_typos_secrets_and_misplaced_keys() {
        assert!(err("[runner]\nbackend = \"gpt\"\n").contains("unknown backend `gpt`"));
        assert!(err("[runner]\nbakend = \"mock\"\n").contains("bakend"));
        assert!(err("[runner.openai]\napi_key = \"sk-123\"\n").contains("api_key_env"));
        assert!(err("[runner.anthropic]\ntoken = \"x\"\n").contains("never read from prose.toml"));
        // A key of the HTTP backends is not one of the CLI backends.
        assert!(err("[runner.claude]\nbase_url = \"http://x\"\n").contains("base_url"));
        assert!(err("[runner.mock]\nmodels = {}\n").contains("models"));
        assert!(err("[runner]\ntimeout = \"soon\"\n").contains("expected a duration"));
        assert!(err("[runner]\ntimeout = 0\n").contains("more than 0"));
        assert!(err("[runner]\nmax_parallel = 0\n").contains("at least 1"));
        assert!(err("[runner]\nenv = [\"A=B\"]\n").contains("not an environment variable"));
        assert!(err("[runner]\ncommand = \"  \"\n").contains("empty"));
        assert!(err("[runner.gpt]\nmodel = \"x\"\n").contains("gpt"));
    }
}
