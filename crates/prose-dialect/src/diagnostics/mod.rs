//! Diagnostics: what the parser reports, as data.
//!
//! Every diagnostic has a stable code (`D001`...), a kebab-case name, a
//! severity, a message in plain words (the seed's style: "I couldn't tell if
//! you meant /post or /reply - which one?"), the byte range it is about, and
//! sometimes a [`Fix`]. Each code is one file in this folder; its `//!`
//! comment is the code's documentation (what it means, an `## Example` that
//! triggers it, a `## Fix` that does not; a test checks both), read with
//! [`Code::docs`]. The pages in `docs/diagnostics/` (`D001.md`...) come from
//! the same comments, through the language server's shared registry of
//! every language's codes (`prose-ide`), which keeps them fresh.

use serde::Serialize;

use crate::Span;

mod ambiguous_action;
mod corrected_verb;
mod dangling_chain;
mod halt_without_reason;
mod invalid_marker;
mod invalid_reference;
mod invalid_send_domain;
mod invalid_url;
mod missing_argument;
mod missing_target;
mod nesting_limit;
mod strict_verb_misspelled;
mod text_in_batch;
mod unclosed_batch;
mod unexpected_argument;
mod unknown_block;
mod unknown_platform;
mod unknown_verb;
mod unterminated_content;

#[cfg(test)]
mod tests;

pub(crate) use ambiguous_action::CODE as AMBIGUOUS_ACTION;
pub(crate) use corrected_verb::CODE as CORRECTED_VERB;
pub(crate) use dangling_chain::CODE as DANGLING_CHAIN;
pub(crate) use halt_without_reason::CODE as HALT_WITHOUT_REASON;
pub(crate) use invalid_marker::CODE as INVALID_MARKER;
pub(crate) use invalid_reference::CODE as INVALID_REFERENCE;
pub(crate) use invalid_send_domain::CODE as INVALID_SEND_DOMAIN;
pub(crate) use invalid_url::CODE as INVALID_URL;
pub(crate) use missing_argument::CODE as MISSING_ARGUMENT;
pub(crate) use missing_target::CODE as MISSING_TARGET;
pub(crate) use nesting_limit::CODE as NESTING_LIMIT;
pub(crate) use strict_verb_misspelled::CODE as STRICT_VERB_MISSPELLED;
pub(crate) use text_in_batch::CODE as TEXT_IN_BATCH;
pub(crate) use unclosed_batch::CODE as UNCLOSED_BATCH;
pub(crate) use unexpected_argument::CODE as UNEXPECTED_ARGUMENT;
pub(crate) use unknown_block::CODE as UNKNOWN_BLOCK;
pub(crate) use unknown_platform::CODE as UNKNOWN_PLATFORM;
pub(crate) use unknown_verb::CODE as UNKNOWN_VERB;
pub(crate) use unterminated_content::CODE as UNTERMINATED_CONTENT;

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The action must not run as written.
    Error,
    /// The action can run, but probably not as meant.
    Warning,
    Info,
    /// The action runs; something was read generously (a corrected verb).
    Hint,
}

impl Severity {
    pub const fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
            Severity::Hint => "hint",
        }
    }
}

/// A diagnostic code and its documentation.
#[derive(Debug)]
pub struct Code {
    /// `D001`...
    pub code: &'static str,
    /// Kebab-case name, e.g. `unknown-verb`.
    pub name: &'static str,
    /// One line.
    pub summary: &'static str,
    pub severity: Severity,
    /// The source file of the code, whose `//!` comment is its documentation.
    source: &'static str,
}

impl Code {
    /// The code's source file, whose leading `//!` comment is its
    /// documentation (for tools that render docs pages themselves).
    pub fn source(&self) -> &'static str {
        self.source
    }

    /// The documentation page (markdown): the file's `//!` comment.
    pub fn docs(&self) -> String {
        prose_rule_docs::page(self.source)
    }

    /// The block registry the page's examples assume: the backquoted
    /// names on its line starting "The examples use a registry" (none
    /// when the examples need no registry).
    pub fn example_blocks(&self) -> Vec<&'static str> {
        let source: &'static str = self.source;
        source
            .lines()
            .filter_map(|l| l.strip_prefix("//! The examples use a registry"))
            .flat_map(|l| l.split('`').skip(1).step_by(2))
            .collect()
    }
}

/// Every code, in order.
pub fn all_codes() -> &'static [&'static Code] {
    &[
        &UNKNOWN_VERB,
        &CORRECTED_VERB,
        &STRICT_VERB_MISSPELLED,
        &AMBIGUOUS_ACTION,
        &INVALID_MARKER,
        &UNTERMINATED_CONTENT,
        &INVALID_SEND_DOMAIN,
        &MISSING_TARGET,
        &HALT_WITHOUT_REASON,
        &MISSING_ARGUMENT,
        &UNEXPECTED_ARGUMENT,
        &UNKNOWN_BLOCK,
        &DANGLING_CHAIN,
        &UNCLOSED_BATCH,
        &TEXT_IN_BATCH,
        &NESTING_LIMIT,
        &INVALID_REFERENCE,
        &INVALID_URL,
        &UNKNOWN_PLATFORM,
    ]
}

/// The code named `code` (`D001`) or `name` (`unknown-verb`), any case.
pub fn code(code_or_name: &str) -> Option<&'static Code> {
    all_codes()
        .iter()
        .copied()
        .find(|c| c.code.eq_ignore_ascii_case(code_or_name) || c.name == code_or_name)
}

/// A problem found in the text, or something read generously.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// `D001`...; see [`all_codes`].
    pub code: &'static str,
    pub severity: Severity,
    /// Plain words, addressed to the agent that wrote the action.
    pub message: String,
    pub span: Span,
    /// An edit that resolves the diagnostic, when one is certain enough to
    /// offer (a quick fix in an editor).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<Fix>,
}

impl Diagnostic {
    pub(crate) fn new(code: &Code, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code: code.code,
            severity: code.severity,
            message: message.into(),
            span,
            fix: None,
        }
    }

    pub(crate) fn with_fix(self, title: impl Into<String>, replacement: impl Into<String>) -> Self {
        let span = self.span;
        self.with_fix_at(span, title, replacement)
    }

    /// A fix that edits `span` (not the diagnostic's own range).
    pub(crate) fn with_fix_at(
        mut self,
        span: Span,
        title: impl Into<String>,
        replacement: impl Into<String>,
    ) -> Self {
        self.fix = Some(Fix {
            title: title.into(),
            span,
            replacement: replacement.into(),
        });
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Replace the text of `span` with `replacement`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Fix {
    /// What the edit does, e.g. "Write /recall".
    pub title: String,
    pub span: Span,
    pub replacement: String,
}
