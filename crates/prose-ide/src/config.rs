//! Workspace configuration: the `prose.toml` file at the workspace root.
//!
//! ```toml
//! profile = "default"        # or "strict": report compiler.md literally
//!
//! [severity]                 # per-code overrides
//! W005 = "off"
//! E019 = "warning"
//!
//! [imports]                  # where `use "@handle/slug"` programs live locally
//! "@alice/research" = "vendor/research.prose"
//!
//! [runner]                   # how `prose run` runs programs (see [`runner`])
//! backend = "mock"
//! ```
//!
//! Parsing is pure: the host reads the file and passes its text.

pub mod runner;

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::Severity;
pub use runner::RunnerTable;

/// The name of the configuration file at a workspace root.
pub const CONFIG_FILE: &str = "prose.toml";

/// Which reading of the specification to apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Profile {
    /// Calibrated on the official programs: constructs that real programs and
    /// the runtime accept are reported at a lower severity.
    #[default]
    Default,
    /// compiler.md, literally.
    Strict,
}

impl Profile {
    pub fn parse(s: &str) -> Option<Profile> {
        match s {
            "default" => Some(Profile::Default),
            "strict" => Some(Profile::Strict),
            _ => None,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            Profile::Default => "default",
            Profile::Strict => "strict",
        }
    }
}

/// A severity override: a severity, or `off` to silence the code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Level {
    Off,
    On(Severity),
}

impl Level {
    pub fn parse(s: &str) -> Option<Level> {
        Some(match s {
            "off" | "none" | "allow" => Level::Off,
            "error" => Level::On(Severity::Error),
            "warning" | "warn" => Level::On(Severity::Warning),
            "info" | "information" => Level::On(Severity::Info),
            "hint" => Level::On(Severity::Hint),
            _ => return None,
        })
    }
}

/// The effective configuration.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Config {
    pub profile: Profile,
    /// Code (`"W005"`) -> level.
    pub severity: BTreeMap<String, Level>,
    /// `"@handle/slug"` -> path of the program, relative to the workspace root.
    pub imports: BTreeMap<String, String>,
    /// The `[runner]` table (used by `prose run`, not by the analysis).
    pub runner: RunnerTable,
}

/// A problem in the configuration file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    pub message: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    profile: Option<String>,
    #[serde(default)]
    severity: BTreeMap<String, String>,
    #[serde(default)]
    imports: BTreeMap<String, String>,
    runner: Option<runner::RawRunner>,
}

impl Config {
    /// Parses `prose.toml` text. Unknown keys, profiles and levels are errors
    /// (a typo must not silently change what is checked).
    pub fn from_toml(text: &str) -> Result<Config, ConfigError> {
        let value: toml::Table = toml::from_str(text).map_err(|e| ConfigError {
            message: e.to_string(),
        })?;
        if let Some(runner) = value.get("runner") {
            runner::refuse_secrets(runner, "runner")?;
        }
        let raw: RawConfig =
            toml::Value::Table(value)
                .try_into()
                .map_err(|e: toml::de::Error| ConfigError {
                    message: e.to_string(),
                })?;
        let mut config = Config::default();
        if let Some(p) = raw.profile {
            config.profile = Profile::parse(&p).ok_or_else(|| ConfigError {
                message: format!("unknown profile `{p}`: expected \"default\" or \"strict\""),
            })?;
        }
        for (code, level) in raw.severity {
            let parsed = Level::parse(&level).ok_or_else(|| ConfigError {
                message: format!("unknown severity `{level}` for {code}: expected error, warning, info, hint or off"),
            })?;
            if crate::diagnostics::rule_docs(&code).is_none() {
                return Err(ConfigError {
                    message: format!("unknown diagnostic code `{code}` in [severity]"),
                });
            }
            config.severity.insert(code, parsed);
        }
        config.imports = raw.imports;
        if let Some(runner) = raw.runner {
            config.runner = runner.validate()?;
        }
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_profile_overrides_and_imports() {
        let c = Config::from_toml(
            "profile = \"strict\"\n[severity]\nE006 = \"off\"\nE007 = \"warning\"\n[imports]\n\"@a/b\" = \"x.prose\"\n",
        )
        .unwrap();
        assert_eq!(c.profile, Profile::Strict);
        assert_eq!(c.severity["E006"], Level::Off);
        assert_eq!(c.severity["E007"], Level::On(Severity::Warning));
        assert_eq!(c.imports["@a/b"], "x.prose");
    }

    #[test]
    fn rejects_typos() {
        assert!(
            Config::from_toml("profil = \"strict\"")
                .unwrap_err()
                .message
                .contains("profil")
        );
        assert!(
            Config::from_toml("profile = \"lenient\"")
                .unwrap_err()
                .message
                .contains("lenient")
        );
        assert!(
            Config::from_toml("[severity]\nE006 = \"loud\"")
                .unwrap_err()
                .message
                .contains("loud")
        );
        assert!(
            Config::from_toml("[severity]\nX999 = \"off\"")
                .unwrap_err()
                .message
                .contains("X999")
        );
    }
}
