//! What `prose check` reports, whatever the output format: the checked
//! files with their diagnostics, the files related notes point into, and
//! the fixes `--fix` applied.

use prose_ide::{Diagnostic, Severity};

use crate::line_index::{LineCol, LineIndex};

/// One file of the report: its path as given or discovered, its analysis
/// key, its text, and its diagnostics sorted by position.
#[derive(Debug, Clone)]
pub struct CheckedFile {
    /// The path as the user spelled it (or as found below a directory).
    pub path: String,
    /// The analysis key: absolute, `/`-separated (what `Related::path` holds).
    pub key: String,
    /// Shared with the analysis: a large file's text is not held twice.
    pub text: std::sync::Arc<String>,
    pub diagnostics: Vec<Diagnostic>,
    /// False for a path that could not be read: its text is empty and its
    /// one diagnostic is F001 (`prose_ide::host::unreadable_file`).
    pub read: bool,
}

impl CheckedFile {
    /// A path that could not be read, reported as F001.
    pub fn unread(path: String, message: String) -> CheckedFile {
        CheckedFile {
            path,
            key: String::new(),
            text: Default::default(),
            diagnostics: vec![prose_ide::host::unreadable_file(message)],
            read: false,
        }
    }

    /// The 1-based position of a byte offset of the text.
    pub fn line_col(&self, offset: prose_ide::TextSize) -> LineCol {
        LineIndex::new(&self.text).line_col(offset.into())
    }
}

/// A fix `--fix` applied (or, with `--diff`, would apply).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fixed {
    /// The path as in [`CheckedFile::path`].
    pub path: String,
    pub code: &'static str,
    /// What the fix did (`Change to `opus``).
    pub title: String,
    /// Where its diagnostic was, in the text as it was when the fix applied.
    pub start: LineCol,
    pub end: LineCol,
}

/// Everything a format prints.
#[derive(Debug, Default)]
pub struct Report {
    /// The files reported on, ordered by path (unreadable ones included).
    pub files: Vec<CheckedFile>,
    /// Other files that related notes point into (imported programs).
    pub context: Vec<CheckedFile>,
    /// With `--fix`: the fixes applied; `None` without `--fix`.
    pub fixed: Option<Vec<Fixed>>,
}

impl Report {
    /// The file (reported or context) with analysis key `key`.
    pub fn file_by_key(&self, key: &str) -> Option<&CheckedFile> {
        self.files
            .iter()
            .chain(&self.context)
            .find(|f| f.read && f.key == key)
    }

    /// Every diagnostic with its file, in report order.
    pub fn diagnostics(&self) -> impl Iterator<Item = (&CheckedFile, &Diagnostic)> {
        self.files
            .iter()
            .flat_map(|f| f.diagnostics.iter().map(move |d| (f, d)))
    }

    /// How many paths could not be read.
    pub fn unread(&self) -> usize {
        self.files.iter().filter(|f| !f.read).count()
    }

    /// How many files were read and checked.
    pub fn checked(&self) -> usize {
        self.files.iter().filter(|f| f.read).count()
    }

    /// Whether some file has an error (F001 included).
    pub fn has_errors(&self) -> bool {
        self.diagnostics()
            .any(|(_, d)| d.severity == Severity::Error)
    }
}

/// `2 errors, 1 warning in 3 files` (info and hint counts only when
/// present), then `; 1 path could not be read` and `; fixed 2 problems`
/// when there are such. F001 counts as a path not read, not as an error.
pub fn summary(report: &Report) -> String {
    let count = |severity| {
        report
            .files
            .iter()
            .filter(|f| f.read)
            .flat_map(|f| &f.diagnostics)
            .filter(|d| d.severity == severity)
            .count()
    };
    let mut parts = vec![
        plural(count(Severity::Error), "error"),
        plural(count(Severity::Warning), "warning"),
    ];
    for (severity, word) in [(Severity::Info, "info"), (Severity::Hint, "hint")] {
        let n = count(severity);
        if n > 0 {
            parts.push(plural(n, word));
        }
    }
    let mut out = format!(
        "{} in {}",
        parts.join(", "),
        plural(report.checked(), "file")
    );
    match report.unread() {
        0 => {}
        1 => out.push_str("; 1 path could not be read"),
        n => out.push_str(&format!("; {n} paths could not be read")),
    }
    if let Some(fixed) = &report.fixed {
        out.push_str(&format!("; fixed {}", plural(fixed.len(), "problem")));
    }
    out
}

/// `1 error`, `2 errors`.
pub fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// A report of files analysed as they are (`(path, text)` pairs, with
/// keys under `/ws/`), for the formats' tests.
#[cfg(test)]
pub(crate) fn report_of(files: &[(&str, &str)]) -> Report {
    let mut host = prose_ide::AnalysisHost::new();
    let ids: Vec<_> = files
        .iter()
        .map(|(path, text)| host.set_file_text(&format!("/ws/{path}"), *text))
        .collect();
    let analysis = host.analysis();
    Report {
        files: files
            .iter()
            .zip(ids)
            .map(|((path, text), id)| CheckedFile {
                path: path.to_string(),
                key: format!("/ws/{path}"),
                text: std::sync::Arc::new(text.to_string()),
                diagnostics: analysis.diagnostics(id).unwrap(),
                read: true,
            })
            .collect(),
        ..Report::default()
    }
}
