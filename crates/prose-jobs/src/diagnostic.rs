//! Diagnostics as plain data: a stable code, the seed's message
//! (`entry.tasks["x"].model: REASON`), the byte range of the node it is
//! about, and what an editor needs to offer a fix.

use text_size::TextRange;

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// One kind of check: its code, its kebab-case name, a one-line summary,
/// its severity, and its documentation (the `//!` comment of its file).
#[derive(Debug)]
pub struct Rule {
    pub code: &'static str,
    pub name: &'static str,
    pub summary: &'static str,
    pub severity: Severity,
    /// The rule file's source (`include_str!`); its leading `//!` comment
    /// is the documentation page.
    pub source: &'static str,
}

impl Rule {
    /// The documentation page as Markdown: what the code means, an
    /// `## Example` that triggers it and a `## Fix` that does not (both in
    /// ```` ```json ```` blocks, both checked by this crate's tests).
    pub fn docs(&self) -> String {
        let mut out = String::new();
        for line in self.source.lines() {
            let Some(rest) = line.strip_prefix("//!") else {
                if line.trim().is_empty() {
                    continue;
                }
                break;
            };
            out.push_str(rest.strip_prefix(' ').unwrap_or(rest));
            out.push('\n');
        }
        out
    }
}

/// One finding. `message` is `code_path: REASON` (the seed's form; syntax
/// errors, which have no code path, are just the reason).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct JobDiagnostic {
    /// `J001`...
    pub code: &'static str,
    /// The rule's kebab-case name (`unknown-model`).
    pub name: &'static str,
    pub severity: Severity,
    /// Where in the entry, as the seed writes it: `entry.tasks["x"].model`,
    /// or for a prompt reached through variables
    /// `entry.tasks["x"].prompt/$a/$b`. Empty for syntax errors.
    pub code_path: String,
    pub message: String,
    /// The JSON node the diagnostic is about: a value, a key, or the
    /// `$variable` inside a string.
    pub range: TextRange,
    /// Other places that explain it (the definition that wins over a
    /// duplicate, where `$user-input` is used, ...).
    pub related: Vec<Related>,
    /// A fix when the right one is clear (the nearest valid name, ...).
    pub fix: Option<Fix>,
    /// The code is not needed (an unused prompt variable): editors fade it.
    pub unnecessary: bool,
}

/// A secondary location in the same file.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Related {
    pub range: TextRange,
    pub message: String,
}

/// A fix: a title for the editor's menu, the edits that make it, and how
/// sure it is.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Fix {
    pub title: String,
    pub edits: Vec<Edit>,
    pub confidence: Confidence,
}

/// How a fix may be applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Confidence {
    /// One reasonable edit among others (flipping `requireUserInput` when
    /// the prompt could change instead): applied only when chosen.
    Offered,
    /// The fix an editor may apply on its own ("fix all"): the nearest
    /// name to a misspelled one, the value the seed's runner assumes.
    Preferred,
    /// Preferred, with one obvious outcome that changes nothing the
    /// diagnostic is not about: a tool may apply it unattended (`prose
    /// check --fix`). A misspelling with one clear correction
    /// ([`crate::is_obvious`]), a string wrapped in the array it should be.
    Safe,
}

/// Replace `range` with `new_text` (an insertion when `range` is empty).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Edit {
    pub range: TextRange,
    pub new_text: String,
}

impl Fix {
    /// One edit, [`Confidence::Preferred`].
    pub fn replace(title: impl Into<String>, range: TextRange, new_text: impl Into<String>) -> Fix {
        Fix {
            title: title.into(),
            edits: vec![Edit {
                range,
                new_text: new_text.into(),
            }],
            confidence: Confidence::Preferred,
        }
    }

    /// The same fix, [`Confidence::Safe`] when `obvious`.
    pub(crate) fn safe_if(mut self, obvious: bool) -> Fix {
        if obvious {
            self.confidence = Confidence::Safe;
        }
        self
    }

    /// The same fix, only [`Confidence::Offered`].
    pub(crate) fn offered(mut self) -> Fix {
        self.confidence = Confidence::Offered;
        self
    }
}

impl JobDiagnostic {
    /// A diagnostic of `rule` at `range`: the message is `code_path: reason`.
    pub(crate) fn new(
        rule: &Rule,
        code_path: &str,
        reason: impl AsRef<str>,
        range: TextRange,
    ) -> Self {
        let reason = reason.as_ref();
        let message = if code_path.is_empty() {
            reason.to_string()
        } else {
            format!("{code_path}: {reason}")
        };
        JobDiagnostic {
            code: rule.code,
            name: rule.name,
            severity: rule.severity,
            code_path: code_path.to_string(),
            message,
            range,
            related: Vec::new(),
            fix: None,
            unnecessary: false,
        }
    }

    pub(crate) fn with_fix(mut self, fix: Option<Fix>) -> Self {
        self.fix = fix;
        self
    }

    pub(crate) fn with_related(mut self, range: TextRange, message: impl Into<String>) -> Self {
        self.related.push(Related {
            range,
            message: message.into(),
        });
        self
    }
}
