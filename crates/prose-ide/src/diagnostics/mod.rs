//! Diagnostics as plain data, and the query that collects them.

use text_size::TextRange;

use crate::db::{Db, SourceFile, parse};

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
    Info,
    Hint,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
            Severity::Hint => "hint",
        }
    }
}

/// A stable diagnostic code such as `E004` or `W001`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DiagnosticCode(pub &'static str);

impl DiagnosticCode {
    pub fn as_str(self) -> &'static str {
        self.0
    }
}

/// A secondary location that explains a diagnostic (e.g. the first definition).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Related {
    pub path: String,
    pub range: TextRange,
    pub message: String,
}

/// One diagnostic: code, severity, message, exact range, related locations.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    pub code: DiagnosticCode,
    pub severity: Severity,
    pub message: String,
    pub range: TextRange,
    pub related: Vec<Related>,
}

/// Every diagnostic of a file, sorted by position.
#[salsa::tracked(returns(ref))]
pub fn file_diagnostics(db: &dyn Db, file: SourceFile) -> Vec<Diagnostic> {
    let mut out: Vec<Diagnostic> = parse(db, file)
        .errors()
        .iter()
        .map(|e| Diagnostic {
            code: DiagnosticCode(e.code.as_str()),
            severity: Severity::Error,
            message: e.message.clone(),
            range: e.range,
            related: Vec::new(),
        })
        .collect();
    out.sort_by_key(|d| (d.range.start(), d.range.end(), d.code));
    out
}
