//! Printing a check report: annotated snippets for people, JSON for tools.

use std::io::{self, Write};

use annotate_snippets::{AnnotationKind, Level, Origin, Renderer, Snippet};
use prose_ide::{Diagnostic, Severity};
use serde::Serialize;

use crate::line_index::{LineCol, LineIndex};

/// One checked file: its path as given or discovered, its text, and its
/// diagnostics sorted by position.
pub struct CheckedFile {
    pub path: String,
    pub text: String,
    pub diagnostics: Vec<Diagnostic>,
}

/// The renderer for everything the CLI prints. Always styled: the
/// [`anstream`] streams strip the styles when the output is not a terminal
/// or `NO_COLOR` is set.
pub fn renderer() -> Renderer {
    Renderer::styled()
}

fn level(severity: Severity) -> Level<'static> {
    match severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Info => Level::INFO,
        Severity::Hint => Level::HELP.with_name("hint"),
    }
}

/// A snippet of the lines of the indexed text that `range` touches, with a primary or
/// context annotation under exactly `range`.
///
/// Only those lines are handed to annotate-snippets, starting at the right
/// line number, so the `path:line:column` it prints always agrees with
/// [`LineIndex`] (also for a leading BOM and for the end of the file).
fn snippet<'a>(
    path: &'a str,
    index: &LineIndex<'a>,
    range: prose_ide::TextRange,
    kind: AnnotationKind,
) -> Snippet<'a, annotate_snippets::Annotation<'a>> {
    let (start, end) = (usize::from(range.start()), usize::from(range.end()));
    let window = index.lines_around(start, end);
    let start = index.clamp(start).max(window.start);
    let end = index.clamp(end).clamp(start, window.end);
    Snippet::source(&index.text()[window.clone()])
        .line_start(index.line_col(window.start).line as usize)
        .path(path)
        .annotation(kind.span(start - window.start..end - window.start))
}

/// Prints every diagnostic as an annotated snippet, then a summary line.
pub fn human(out: &mut dyn Write, files: &[CheckedFile]) -> io::Result<()> {
    let renderer = renderer();
    let indexes: Vec<LineIndex> = files.iter().map(|f| LineIndex::new(&f.text)).collect();
    for (file, index) in files.iter().zip(&indexes) {
        for d in &file.diagnostics {
            let mut report = vec![
                level(d.severity)
                    .primary_title(d.message.as_str())
                    .id(d.code.as_str())
                    .element(snippet(&file.path, index, d.range, AnnotationKind::Primary)),
            ];
            for related in &d.related {
                let title = Level::NOTE.secondary_title(related.message.as_str());
                let other = files.iter().position(|f| f.path == related.path);
                report.push(match other {
                    Some(i) => title.element(snippet(
                        &related.path,
                        &indexes[i],
                        related.range,
                        AnnotationKind::Context,
                    )),
                    None => title.element(Origin::path(related.path.as_str())),
                });
            }
            writeln!(out, "{}\n", renderer.render(&report))?;
        }
    }
    writeln!(out, "{}", summary(files))
}

/// `2 errors, 1 warning in 3 files` (info and hint counts only when present).
pub fn summary(files: &[CheckedFile]) -> String {
    let count = |severity| {
        files
            .iter()
            .flat_map(|f| &f.diagnostics)
            .filter(|d| d.severity == severity)
            .count()
    };
    let plural = |n: usize, word: &str| {
        if n == 1 {
            format!("{n} {word}")
        } else {
            format!("{n} {word}s")
        }
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
    format!("{} in {}", parts.join(", "), plural(files.len(), "file"))
}

/// The `--format json` report. Field order and names are a stable contract
/// (`"version": 1`); see [`json`].
#[derive(Serialize)]
struct JsonReport<'a> {
    version: u32,
    files: usize,
    diagnostics: Vec<JsonDiagnostic<'a>>,
}

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    path: &'a str,
    code: &'static str,
    severity: &'static str,
    message: &'a str,
    range: JsonRange,
}

/// `{"start":{"line","column"},"end":{..}}`, as in [`crate::line_index`];
/// also used by `prose dialect parse`.
#[derive(Serialize)]
pub(crate) struct JsonRange {
    start: LineCol,
    end: LineCol,
}

impl JsonRange {
    pub(crate) fn new(index: &LineIndex<'_>, start: usize, end: usize) -> Self {
        JsonRange {
            start: index.line_col(start),
            end: index.line_col(end),
        }
    }
}

impl Serialize for LineCol {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("LineCol", 2)?;
        st.serialize_field("line", &self.line)?;
        st.serialize_field("column", &self.column)?;
        st.end()
    }
}

/// Prints the report as one line of JSON:
/// `{"version":1,"files":N,"diagnostics":[{"path","code","severity","message",
/// "range":{"start":{"line","column"},"end":{..}}}]}`, positions as in
/// [`crate::line_index`], diagnostics ordered by path then position; `files`
/// counts the files that were read and checked.
pub fn json(out: &mut dyn Write, files: &[CheckedFile]) -> io::Result<()> {
    let mut diagnostics = Vec::new();
    for file in files {
        let index = LineIndex::new(&file.text);
        diagnostics.extend(file.diagnostics.iter().map(|d| JsonDiagnostic {
            path: &file.path,
            code: d.code.as_str(),
            severity: d.severity.as_str(),
            message: &d.message,
            range: JsonRange::new(&index, d.range.start().into(), d.range.end().into()),
        }));
    }
    let report = JsonReport {
        version: 1,
        files: files.len(),
        diagnostics,
    };
    serde_json::to_writer(&mut *out, &report)?;
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};
    use prose_ide::{DiagnosticCode, Related, TextRange};

    use super::*;

    /// A diagnostic with the given range and severity. Built from a real one
    /// (not a struct literal) so that fields added to `Diagnostic` for other
    /// features do not break these rendering tests.
    fn diag(range: std::ops::Range<u32>, severity: Severity) -> Diagnostic {
        let mut host = prose_ide::AnalysisHost::new();
        let id = host.set_file_text("t.prose", "session \"x\" foo\n");
        let mut d = host.analysis().diagnostics(id).unwrap().remove(0);
        d.code = DiagnosticCode("E004");
        d.severity = severity;
        d.message = "msg".into();
        d.range = TextRange::new(range.start.into(), range.end.into());
        d.related.clear();
        d
    }

    fn file(text: &str, diagnostics: Vec<Diagnostic>) -> CheckedFile {
        CheckedFile {
            path: "f.prose".into(),
            text: text.into(),
            diagnostics,
        }
    }

    fn check_human(files: &[CheckedFile], expect: Expect) {
        let mut out = Vec::new();
        human(&mut out, files).unwrap();
        let out = String::from_utf8(out).unwrap();
        expect.assert_eq(&anstream::adapter::strip_str(&out).to_string());
    }

    fn check_json(files: &[CheckedFile], expect: Expect) {
        let mut out = Vec::new();
        json(&mut out, files).unwrap();
        expect.assert_eq(&String::from_utf8(out).unwrap());
    }

    #[test]
    fn caret_under_the_exact_range_with_scalar_columns() {
        let text = "a:\r\n  é€ bad x\r\n";
        let start = text.find("bad").unwrap() as u32;
        let files = [file(text, vec![diag(start..start + 3, Severity::Error)])];
        check_human(
            &files,
            expect![[r#"
                error[E004]: msg
                 --> f.prose:2:6
                  |
                2 |   é€ bad x
                  |      ^^^

                1 error, 0 warnings in 1 file
            "#]],
        );
        check_json(
            &files,
            expect![[r#"
                {"version":1,"files":1,"diagnostics":[{"path":"f.prose","code":"E004","severity":"error","message":"msg","range":{"start":{"line":2,"column":6},"end":{"line":2,"column":9}}}]}
            "#]],
        );
    }

    #[test]
    fn empty_range_at_end_of_file() {
        let files = [
            file("ab\n", vec![diag(3..3, Severity::Error)]),
            CheckedFile {
                path: "g.prose".into(),
                ..file("ab", vec![diag(2..2, Severity::Warning)])
            },
        ];
        check_human(
            &files,
            expect![[r#"
                error[E004]: msg
                 --> f.prose:2:1
                  |
                2 |
                  | ^

                warning[E004]: msg
                 --> g.prose:1:3
                  |
                1 | ab
                  |   ^

                1 error, 1 warning in 2 files
            "#]],
        );
        check_json(
            &files,
            expect![[r#"
                {"version":1,"files":2,"diagnostics":[{"path":"f.prose","code":"E004","severity":"error","message":"msg","range":{"start":{"line":2,"column":1},"end":{"line":2,"column":1}}},{"path":"g.prose","code":"E004","severity":"warning","message":"msg","range":{"start":{"line":1,"column":3},"end":{"line":1,"column":3}}}]}
            "#]],
        );
    }

    #[test]
    fn range_covering_a_newline_and_multiline_range() {
        let text = "ab\ncd\nef\n";
        let files = [file(
            text,
            vec![diag(2..3, Severity::Error), diag(1..7, Severity::Hint)],
        )];
        check_human(
            &files,
            expect![[r#"
                error[E004]: msg
                 --> f.prose:1:3
                  |
                1 | ab
                  |   ^

                hint[E004]: msg
                 --> f.prose:1:2
                  |
                1 |   ab
                  |  __^
                2 | | cd
                3 | | ef
                  | |_^

                1 error, 0 warnings, 1 hint in 1 file
            "#]],
        );
        check_json(
            &files,
            expect![[r#"
            {"version":1,"files":1,"diagnostics":[{"path":"f.prose","code":"E004","severity":"error","message":"msg","range":{"start":{"line":1,"column":3},"end":{"line":2,"column":1}}},{"path":"f.prose","code":"E004","severity":"hint","message":"msg","range":{"start":{"line":1,"column":2},"end":{"line":3,"column":2}}}]}
        "#]],
        );
    }

    #[test]
    fn bom_is_hidden_and_not_a_column() {
        let text = "\u{FEFF}ab x\n";
        let files = [file(text, vec![diag(6..7, Severity::Info)])];
        check_human(
            &files,
            expect![[r#"
            info[E004]: msg
             --> f.prose:1:4
              |
            1 | ab x
              |    ^

            0 errors, 0 warnings, 1 info in 1 file
        "#]],
        );
        check_json(
            &files,
            expect![[r#"
            {"version":1,"files":1,"diagnostics":[{"path":"f.prose","code":"E004","severity":"info","message":"msg","range":{"start":{"line":1,"column":4},"end":{"line":1,"column":5}}}]}
        "#]],
        );
    }

    #[test]
    fn related_locations() {
        let mut d = diag(3..4, Severity::Error);
        d.related = vec![
            Related {
                path: "f.prose".into(),
                range: TextRange::new(0.into(), 1.into()),
                message: "first here".into(),
            },
            Related {
                path: "elsewhere.prose".into(),
                range: TextRange::new(0.into(), 1.into()),
                message: "unknown file".into(),
            },
        ];
        check_human(
            &[file("a\nb\n", vec![d])],
            expect![[r#"
            error[E004]: msg
             --> f.prose:2:2
              |
            2 | b
              |  ^
              |
            note: first here
             --> f.prose:1:1
              |
            1 | a
              | -
            note: unknown file
             --> elsewhere.prose

            1 error, 0 warnings in 1 file
        "#]],
        );
    }

    #[test]
    fn summary_counts() {
        assert_eq!(summary(&[]), "0 errors, 0 warnings in 0 files");
        let files = [file(
            "",
            vec![
                diag(0..0, Severity::Error),
                diag(0..0, Severity::Error),
                diag(0..0, Severity::Hint),
            ],
        )];
        assert_eq!(summary(&files), "2 errors, 0 warnings, 1 hint in 1 file");
    }
}
