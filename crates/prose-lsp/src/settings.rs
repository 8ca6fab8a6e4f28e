//! Editor settings: the `prose` section of the client's configuration
//! (`initializationOptions`, `workspace/configuration`,
//! `workspace/didChangeConfiguration`), layered over `prose.toml`.
//!
//! ```json
//! { "profile": "strict", "severity": { "W005": "off", "E019": "warning" },
//!   "docsUrl": "https://example.com/prose/diagnostics/{code}.html" }
//! ```
//!
//! Unknown keys are ignored (editors send their own settings in the same
//! section, such as `trace`); a bad value of a known key is reported and
//! ignored, so a typo never stops the server.

use std::collections::BTreeMap;

use prose_ide::{Config, Profile, config::Level};
use serde_json::Value;

use crate::run_settings::RunnerSettings;

/// The settings an editor sends; `None`/absent means "as `prose.toml` says".
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClientSettings {
    pub profile: Option<Profile>,
    /// Code (`"W005"`) -> level; these override `prose.toml`'s `[severity]`.
    pub severity: BTreeMap<String, Level>,
    /// `docsUrl`: overrides `prose.toml`'s `docs-url`; `Some("")` turns
    /// the links off.
    pub docs_url: Option<String>,
    /// `trusted`: whether the client trusts the workspace (absent: yes).
    pub trusted: Option<bool>,
    /// `runner`: how programs run (see `run_settings.rs`).
    pub runner: RunnerSettings,
}

impl ClientSettings {
    /// Reads settings from JSON: the section itself, or an object with a
    /// `prose` key holding it. `null` means no settings. Returns the
    /// settings and one message per ignored value.
    pub fn from_json(value: &Value) -> (ClientSettings, Vec<String>) {
        let mut settings = ClientSettings::default();
        let mut problems = Vec::new();
        let section = match value {
            Value::Null => return (settings, problems),
            Value::Object(map)
                if !["profile", "severity", "docsUrl", "trusted", "runner"]
                    .iter()
                    .any(|k| map.contains_key(*k)) =>
            {
                match map.get("prose") {
                    Some(inner) => inner,
                    None => value,
                }
            }
            _ => value,
        };
        let Value::Object(map) = section else {
            if !section.is_null() {
                problems.push(format!(
                    "prose settings: expected an object, found `{section}`"
                ));
            }
            return (settings, problems);
        };
        match map.get("profile") {
            None | Some(Value::Null) => {}
            Some(Value::String(s)) => match Profile::parse(s) {
                Some(p) => settings.profile = Some(p),
                None => problems.push(format!(
                    "prose.profile: unknown profile `{s}`: expected \"default\" or \"strict\""
                )),
            },
            Some(other) => problems.push(format!(
                "prose.profile: expected \"default\" or \"strict\", found `{other}`"
            )),
        }
        match map.get("severity") {
            None | Some(Value::Null) => {}
            Some(Value::Object(levels)) => {
                for (code, level) in levels {
                    let Some(rule) = prose_ide::rule(code) else {
                        problems.push(format!("prose.severity: unknown diagnostic code `{code}`"));
                        continue;
                    };
                    if matches!(rule.check, prose_ide::Check::Host) {
                        problems.push(format!(
                            "prose.severity: {} cannot be configured (a file that could not be read is always reported)",
                            rule.code
                        ));
                        continue;
                    }
                    match level.as_str().and_then(Level::parse) {
                        Some(level) => {
                            settings.severity.insert(rule.code.to_string(), level);
                        }
                        None => problems.push(format!(
                            "prose.severity.{code}: unknown severity `{level}`: expected error, warning, info, hint or off"
                        )),
                    }
                }
            }
            Some(other) => problems.push(format!(
                "prose.severity: expected an object of code -> level, found `{other}`"
            )),
        }
        match map.get("docsUrl") {
            None | Some(Value::Null) => {}
            Some(Value::String(url)) if url.is_empty() => settings.docs_url = Some(String::new()),
            Some(Value::String(url)) => match prose_ide::config::check_docs_url(url) {
                Ok(()) => settings.docs_url = Some(url.clone()),
                Err(e) => problems.push(format!("prose.docsUrl: {e}")),
            },
            Some(other) => problems.push(format!(
                "prose.docsUrl: expected a URL string, found `{other}`"
            )),
        }
        match map.get("trusted") {
            None | Some(Value::Null) => {}
            Some(Value::Bool(b)) => settings.trusted = Some(*b),
            // Anything else is not a yes.
            Some(other) => {
                settings.trusted = Some(false);
                problems.push(format!(
                    "prose.trusted: expected true or false, found `{other}`; running programs is disabled"
                ));
            }
        }
        settings.runner = RunnerSettings::from_json(map.get("runner"), &mut problems);
        (settings, problems)
    }

    /// Lays these settings over `config`.
    pub fn apply(&self, config: &mut Config) {
        if let Some(profile) = self.profile {
            config.profile = profile;
        }
        for (code, level) in &self.severity {
            config.severity.insert(code.clone(), *level);
        }
        if let Some(url) = &self.docs_url {
            config.docs_url = (!url.is_empty()).then(|| url.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use prose_ide::Severity;
    use serde_json::json;

    #[test]
    fn reads_profile_and_severity() {
        let (s, problems) = ClientSettings::from_json(
            &json!({ "profile": "strict", "severity": { "E006": "off", "E007": "warning" }, "trace": "verbose" }),
        );
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(s.profile, Some(Profile::Strict));
        assert_eq!(s.severity["E006"], Level::Off);
        assert_eq!(s.severity["E007"], Level::On(Severity::Warning));
        // Nested under `prose`, as `didChangeConfiguration` sends it.
        let (nested, _) = ClientSettings::from_json(&json!({ "prose": { "profile": "strict" } }));
        assert_eq!(nested.profile, Some(Profile::Strict));
        assert_eq!(
            ClientSettings::from_json(&Value::Null).0,
            ClientSettings::default()
        );
    }

    #[test]
    fn reports_and_skips_bad_values() {
        let (s, problems) = ClientSettings::from_json(
            &json!({ "profile": "lenient", "severity": { "X999": "off", "E006": "loud", "E007": "hint" } }),
        );
        assert_eq!(s.profile, None);
        assert_eq!(s.severity.len(), 1);
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(problems[0].contains("lenient"));
    }

    #[test]
    fn docs_url_and_host_codes() {
        let (s, problems) = ClientSettings::from_json(
            &json!({ "docsUrl": "file:///ext/docs", "severity": { "F001": "off" } }),
        );
        assert_eq!(s.docs_url.as_deref(), Some("file:///ext/docs"));
        assert!(s.severity.is_empty());
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].contains("F001 cannot be configured"),
            "{problems:?}"
        );
        let (_, problems) = ClientSettings::from_json(&json!({ "docsUrl": "docs" }));
        assert!(problems[0].starts_with("prose.docsUrl: `docs` is not an absolute URL"));
        // Over prose.toml's, and "" turns the links off.
        let mut config = Config::from_toml("docs-url = \"https://example.com/d\"").unwrap();
        ClientSettings::from_json(&json!({ "prose": { "docsUrl": "" } }))
            .0
            .apply(&mut config);
        assert_eq!(config.docs_url, None);
    }

    #[test]
    fn layers_over_the_file() {
        let mut config =
            Config::from_toml("profile = \"strict\"\n[severity]\nE006 = \"off\"\n").unwrap();
        let (s, _) = ClientSettings::from_json(&json!({ "severity": { "E006": "error" } }));
        s.apply(&mut config);
        assert_eq!(config.profile, Profile::Strict);
        assert_eq!(config.severity["E006"], Level::On(Severity::Error));
    }
}
