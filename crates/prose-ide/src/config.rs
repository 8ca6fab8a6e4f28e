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
//! [files]                    # more files of each kind (globs relative to the root)
//! jobs = ["ci/*.json"]
//! prompts = ["prompts/**/*.md"]
//! instructions = ["AGENTS.md"]
//! ```
//!
//! Parsing is pure: the host reads the file and passes its text.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::Severity;

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
    /// `[files]`: globs that add files to a kind (see [`crate::kind`]).
    pub files: FileGlobs,
}

/// The `[files]` table: globs, relative to the root, that make files of a
/// kind beyond the default names (`docs/languages.md`). `*` stays within
/// one path segment, `**` crosses any number.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileGlobs {
    /// More job entry files (besides `*.jobs.json` and `jobs.json`).
    #[serde(default)]
    pub jobs: Vec<String>,
    /// More prompt files (besides `*.prompt.md` and markdown under `.agents/`).
    #[serde(default)]
    pub prompts: Vec<String>,
    /// Files that carry the `_keyword_` instruction language even when they
    /// use none of its keywords yet.
    #[serde(default)]
    pub instructions: Vec<String>,
}

impl FileGlobs {
    /// Whether `rel` (a path relative to the root) is configured as an
    /// instruction file.
    pub fn is_instructions(&self, rel: &str) -> bool {
        glob_match(&self.instructions, rel)
    }
}

fn compile_glob(pattern: &str) -> Result<globset::GlobMatcher, globset::Error> {
    Ok(globset::GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()?
        .compile_matcher())
}

/// Whether `rel` matches one of `globs` (invalid globs are rejected when
/// the configuration is read, and never match).
pub(crate) fn glob_match(globs: &[String], rel: &str) -> bool {
    globs
        .iter()
        .any(|g| compile_glob(g).is_ok_and(|m| m.is_match(rel)))
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
    #[serde(default)]
    files: FileGlobs,
}

impl Config {
    /// Parses `prose.toml` text. Unknown keys, profiles and levels are errors
    /// (a typo must not silently change what is checked).
    pub fn from_toml(text: &str) -> Result<Config, ConfigError> {
        let raw: RawConfig = toml::from_str(text).map_err(|e| ConfigError {
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
        let globs = &raw.files;
        for (table, list) in [
            ("jobs", &globs.jobs),
            ("prompts", &globs.prompts),
            ("instructions", &globs.instructions),
        ] {
            for g in list {
                compile_glob(g).map_err(|e| ConfigError {
                    message: format!("invalid glob `{g}` in [files] {table}: {}", e.kind()),
                })?;
            }
        }
        config.files = raw.files;
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
    fn parses_file_globs() {
        let c =
            Config::from_toml("[files]\njobs = [\"ci/*.json\"]\ninstructions = [\"AGENTS.md\"]\n")
                .unwrap();
        assert_eq!(c.files.jobs, ["ci/*.json"]);
        assert!(c.files.is_instructions("AGENTS.md"));
        assert!(!c.files.is_instructions("docs/AGENTS.md"));
        let err = Config::from_toml("[files]\njobs = [\"a/{b\"]\n").unwrap_err();
        assert_eq!(
            err.message,
            "invalid glob `a/{b` in [files] jobs: unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?)"
        );
        assert!(
            Config::from_toml("[files]\nprompt = []\n")
                .unwrap_err()
                .message
                .contains("prompt")
        );
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
