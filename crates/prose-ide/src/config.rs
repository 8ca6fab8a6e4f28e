//! Workspace configuration: the `prose.toml` file at the workspace root.
//!
//! ```toml
//! profile = "default"        # or "strict": report compiler.md literally
//!
//! select = ["E", "W005"]     # report only these codes (codes, prefixes, rule names)
//! ignore = ["P202"]          # never report these
//! docs-url = "https://example.com/diagnostics/{code}.html"   # each code's page
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
//!
//! [runner]                   # how `prose run` runs programs (see [`runner`])
//! backend = "mock"
//!
//! [dialect]                  # Pattern Dialect (see [`dialect`])
//! registry = "blocks.txt"
//! ```
//!
//! Parsing is pure: the host reads the file and passes its text.

pub mod dialect;
pub mod runner;

use std::collections::{BTreeMap, BTreeSet};

pub use dialect::DialectTable;
pub use runner::RunnerTable;

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
    /// `select`: when set, only these codes are reported.
    pub select: Option<BTreeSet<String>>,
    /// `ignore`: codes that are never reported.
    pub ignore: BTreeSet<String>,
    /// `docs-url`: where the page of each code is (see [`Config::docs_url_for`]).
    pub docs_url: Option<String>,
    /// The `[runner]` table (used by `prose run`, not by the analysis).
    pub runner: RunnerTable,
    /// The `[dialect]` table (the block registry of Pattern Dialect files).
    pub dialect: DialectTable,
}

impl Config {
    /// Whether `select` and `ignore` let `code` be reported. Host codes
    /// (F001) are always reported.
    pub fn is_selected(&self, code: &str) -> bool {
        (self.select.as_ref().is_none_or(|s| s.contains(code)) && !self.ignore.contains(code))
            || is_host_code(code)
    }

    /// The address of `code`'s page: `docs-url` with `{code}` replaced by
    /// the code, or, when it has no `{code}`, `docs-url/CODE.md` (a folder
    /// of the pages in `docs/diagnostics/`). `None` without `docs-url`.
    pub fn docs_url_for(&self, code: &str) -> Option<String> {
        docs_url_for(self.docs_url.as_deref()?, code)
    }
}

/// [`Config::docs_url_for`] with a given base.
pub fn docs_url_for(base: &str, code: &str) -> Option<String> {
    if base.is_empty() {
        return None;
    }
    Some(if base.contains("{code}") {
        base.replace("{code}", code)
    } else {
        format!("{}/{code}.md", base.trim_end_matches('/'))
    })
}

/// Checks a `docs-url` value: an absolute URL (`https:`, `file:`, ...)
/// without blanks; returns why it is not.
pub fn check_docs_url(url: &str) -> Result<(), String> {
    let scheme = url.split_once(':').map(|(s, _)| s).unwrap_or("");
    let scheme_ok = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    if !scheme_ok {
        return Err(format!(
            "`{url}` is not an absolute URL (expected https://..., file://...)"
        ));
    }
    if url.chars().any(char::is_whitespace) {
        return Err(format!("`{url}` contains blanks"));
    }
    Ok(())
}

fn is_host_code(code: &str) -> bool {
    crate::diagnostics::rule(code).is_some_and(|r| matches!(r.check, crate::Check::Host))
}

/// Resolves `select` / `ignore` entries to codes: a code (`W005`), a rule
/// name (`duplicate-agent`) or a code prefix (`E`, `P6`: every code that
/// starts so). `key` names the setting in messages. An entry that matches
/// no code is an error, and so is one naming a host code (F001), which is
/// always reported.
pub fn resolve_selectors(entries: &[String], key: &str) -> Result<BTreeSet<String>, ConfigError> {
    let err = |message: String| ConfigError { message };
    let mut codes = BTreeSet::new();
    for entry in entries {
        let entry = entry.trim();
        if let Some(rule) = crate::diagnostics::rule(entry) {
            if matches!(rule.check, crate::Check::Host) {
                return Err(err(format!(
                    "{} cannot be in {key}: a file that could not be read is always reported",
                    rule.code
                )));
            }
            codes.insert(rule.code.to_string());
            continue;
        }
        let prefix = entry.to_ascii_uppercase();
        let is_prefix = prefix.starts_with(|c: char| c.is_ascii_uppercase())
            && prefix[1..].bytes().all(|b| b.is_ascii_digit());
        let matched: Vec<&str> = crate::diagnostics::all_rules()
            .iter()
            .filter(|r| !matches!(r.check, crate::Check::Host))
            .map(|r| r.code)
            .filter(|c| is_prefix && c.starts_with(&prefix))
            .collect();
        if matched.is_empty() {
            return Err(err(format!(
                "unknown diagnostic code, prefix or rule name `{entry}` in {key}"
            )));
        }
        codes.extend(matched.into_iter().map(String::from));
    }
    Ok(codes)
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
    select: Option<Vec<String>>,
    #[serde(default)]
    ignore: Vec<String>,
    #[serde(rename = "docs-url")]
    docs_url: Option<String>,
    runner: Option<runner::RawRunner>,
    dialect: Option<dialect::RawDialect>,
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
            let Some(rule) = crate::diagnostics::rule(&code) else {
                return Err(ConfigError {
                    message: format!("unknown diagnostic code `{code}` in [severity]"),
                });
            };
            if matches!(rule.check, crate::Check::Host) {
                return Err(ConfigError {
                    message: format!(
                        "{} cannot be in [severity]: a file that could not be read is always reported as an error",
                        rule.code
                    ),
                });
            }
            // A rule name (`duplicate-agent`) stands for its code.
            config.severity.insert(rule.code.to_string(), parsed);
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
        if let Some(select) = &raw.select {
            config.select = Some(resolve_selectors(select, "select")?);
        }
        config.ignore = resolve_selectors(&raw.ignore, "ignore")?;
        if let Some(url) = raw.docs_url {
            check_docs_url(&url).map_err(|e| ConfigError {
                message: format!("docs-url: {e}"),
            })?;
            config.docs_url = Some(url);
        }
        if let Some(runner) = raw.runner {
            config.runner = runner.validate()?;
        }
        if let Some(dialect) = raw.dialect {
            config.dialect = dialect.validate()?;
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
    fn select_ignore_and_docs_url() {
        let c = Config::from_toml(
            "select = [\"E00\", \"w005\", \"duplicate-block\"]\nignore = [\"E005\"]\ndocs-url = \"https://example.com/d/\"\n",
        )
        .unwrap();
        let select: Vec<&str> = c.select.iter().flatten().map(String::as_str).collect();
        assert_eq!(
            select,
            [
                "E001", "E002", "E003", "E004", "E005", "E006", "E007", "E008", "E009", "P504",
                "W005"
            ]
        );
        assert!(c.is_selected("E004") && c.is_selected("W005") && c.is_selected("F001"));
        assert!(!c.is_selected("E005") && !c.is_selected("E010"));
        assert_eq!(
            c.docs_url_for("E004").as_deref(),
            Some("https://example.com/d/E004.md")
        );
        let c = Config::from_toml("docs-url = \"file:///docs/{code}.html\"").unwrap();
        assert_eq!(
            c.docs_url_for("W005").as_deref(),
            Some("file:///docs/W005.html")
        );
        assert!(Config::default().is_selected("P202"));
        assert_eq!(Config::default().docs_url_for("P202"), None);
        let message = |toml: &str| Config::from_toml(toml).unwrap_err().message;
        assert_eq!(
            message("select = [\"X1\"]"),
            "unknown diagnostic code, prefix or rule name `X1` in select"
        );
        assert_eq!(
            message("ignore = [\"F001\"]"),
            "F001 cannot be in ignore: a file that could not be read is always reported"
        );
        assert!(message("[severity]\nF001 = \"off\"").starts_with("F001 cannot be in [severity]"));
        assert_eq!(
            message("docs-url = \"docs/diagnostics\""),
            "docs-url: `docs/diagnostics` is not an absolute URL (expected https://..., file://...)"
        );
    }

    /// The example of docs/configuration.md is a valid file.
    #[test]
    fn the_documented_example_parses() {
        let doc = include_str!("../../../docs/configuration.md");
        let start = doc.find("```toml\n").expect("a toml example") + "```toml\n".len();
        let end = start + doc[start..].find("```").expect("its end");
        let c = Config::from_toml(&doc[start..end]).unwrap();
        assert!(c.is_selected("W005") && !c.is_selected("P202") && !c.is_selected("W001"));
        assert!(c.docs_url.is_some() && !c.files.jobs.is_empty());
    }

    #[test]
    fn severity_by_rule_name_is_stored_by_code() {
        let c = Config::from_toml("[severity]\nduplicate-agent = \"off\"\n").unwrap();
        assert_eq!(c.severity["E006"], Level::Off);
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
