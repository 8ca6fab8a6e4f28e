//! Problems the hosts (the CLI, the language server) find about a file
//! before any analysis can run: it could not be read or decoded.
//!
//! The analysis does no IO, so it never reports these itself; the codes
//! live in the same registry as every language's rules so that they have
//! a docs page, `prose explain` knows them, and every output format
//! carries them like any other diagnostic. They cannot be configured: a
//! file that was not checked is always reported, as an error (a
//! `[severity]`, `select` or `ignore` entry naming one is refused).

use prose_syntax::TextRange;

use crate::diagnostics::{Diagnostic, DiagnosticCode, Rule, Severity};

#[path = "rules/unreadable_file.rs"]
mod unreadable_file;

/// The host rules, ordered by code.
pub(crate) static RULES: &[&Rule] = &[&unreadable_file::RULE];

/// The F001 diagnostic of a file that could not be read or decoded;
/// `message` says why (`cannot read x.prose: permission denied`). Its
/// range is the empty range at the start of the file.
pub fn unreadable_file(message: impl Into<String>) -> Diagnostic {
    let rule = &unreadable_file::RULE;
    Diagnostic {
        code: DiagnosticCode(rule.code),
        name: rule.name,
        severity: Severity::Error,
        message: message.into(),
        range: TextRange::default(),
        related: Vec::new(),
        tags: Vec::new(),
    }
}
