//! Printing a check report: annotated snippets for people, JSON for tools
//! (the other formats are in `formats/`).

use std::io::{self, Write};

use annotate_snippets::{AnnotationKind, Level, Origin, Renderer, Snippet};
use prose_ide::Severity;
use serde::Serialize;

mod quick;

use crate::{
    line_index::{LineCol, LineIndex},
    report::{CheckedFile, Report, summary},
};

/// The renderer for everything the CLI prints. Always styled: the
/// [`anstream`] streams strip the styles when the output is not a terminal
/// or `NO_COLOR` is set.
pub fn renderer() -> Renderer {
    Renderer::styled()
}

/// The renderer of a report that is `styled` or not: unstyled, it writes
/// what the styled one writes once [`anstream`] has stripped the styles
/// (the tests compare the two), without making the styles first.
fn renderer_of(styled: bool) -> Renderer {
    if styled {
        renderer()
    } else {
        Renderer::plain()
    }
}

/// A file with more diagnostics than this has its report rendered in parts,
/// one per core (each part indexes the file's lines again).
const RENDER_CHUNK: usize = 64;

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
    let (window, span) = window(index, range);
    Snippet::source(&index.text()[window.clone()])
        .line_start(index.line_col(window.start).line as usize)
        .path(path)
        .annotation(kind.span(span))
}

/// The byte range of the whole lines of the indexed text that `range`
/// touches (each with its line break), and `range` clamped into them,
/// relative to their start: what a snippet shows and underlines.
fn window(
    index: &LineIndex<'_>,
    range: prose_ide::TextRange,
) -> (std::ops::Range<usize>, std::ops::Range<usize>) {
    let (start, end) = (usize::from(range.start()), usize::from(range.end()));
    let window = index.lines_around(start, end);
    let start = index.clamp(start).max(window.start);
    let end = index.clamp(end).clamp(start, window.end);
    let span = start - window.start..end - window.start;
    (window, span)
}

/// Prints every diagnostic as an annotated snippet, then (unless `quiet`)
/// the fixes applied and a summary line. A related note shows the file and
/// snippet it points to when that file's text is known (a checked file or
/// an imported one), under the path the user typed for it. Unless `styled`,
/// without the styles an [`anstream`] stream would strip.
pub fn human(out: &mut dyn Write, report: &Report, quiet: bool, styled: bool) -> io::Result<()> {
    if let (Some(fixed), false) = (&report.fixed, quiet) {
        for f in fixed {
            let origin = format!("{}:{}:{}", f.path, f.start.line, f.start.column);
            writeln!(out, "fixed[{}] {origin}: {}", f.code, f.title)?;
        }
        if !fixed.is_empty() {
            writeln!(out)?;
        }
    }
    // Each file's diagnostics are rendered on their own, a file with many
    // in one part per core (on one thread per core: rendering is a tenth
    // of a run over many small files, a quarter for one file with many),
    // then written in order.
    let cores = crate::parallel::cores();
    let mut runs: Vec<(usize, std::ops::Range<usize>)> = Vec::new();
    for (i, file) in report.files.iter().enumerate() {
        let n = file.diagnostics.len();
        let part = n
            .div_ceil(cores.min(n.div_ceil(RENDER_CHUNK)).max(1))
            .max(1);
        runs.extend((0..n).step_by(part).map(|s| (i, s..n.min(s + part))));
    }
    let palette = if styled {
        quick::Palette::styled()
    } else {
        quick::Palette::plain()
    };
    let rendered = crate::parallel::each(
        &runs,
        || renderer_of(styled),
        |renderer, (i, run)| human_file(renderer, Some(&palette), report, *i, run.clone()),
    );
    for text in rendered {
        out.write_all(text.as_bytes())?;
    }
    if quiet {
        return Ok(());
    }
    writeln!(out, "{}", summary(report))
}

/// The annotated snippets of the diagnostics `run` of `report.files[i]`,
/// each followed by an empty line. Line indexes are built for that file and
/// for the files its related notes point into, only. With a `palette`
/// (the renderer's styles), the common diagnostic is written directly
/// ([`quick`]).
fn human_file(
    renderer: &Renderer,
    palette: Option<&quick::Palette>,
    report: &Report,
    i: usize,
    run: std::ops::Range<usize>,
) -> String {
    use std::fmt::Write as _;
    let file = &report.files[i];
    let mut indexes: Vec<(usize, LineIndex)> = vec![(i, LineIndex::new(&file.text))];
    let mut text = String::new();
    for d in &file.diagnostics[run] {
        if let Some(palette) = palette
            && file.read
            && quick_file(&mut text, palette, report, &mut indexes, i, d)
        {
            continue;
        }
        let title = level(d.severity)
            .primary_title(d.message.as_str())
            .id(d.code.as_str());
        let mut group = vec![if file.read {
            title.element(snippet(
                &file.path,
                &indexes[0].1,
                d.range,
                AnnotationKind::Primary,
            ))
        } else {
            title.element(Origin::path(file.path.as_str()))
        }];
        let targets = note_targets(report, &mut indexes, d);
        for (related, target) in d.related.iter().zip(targets) {
            let title = Level::NOTE.secondary_title(related.message.as_str());
            group.push(match target {
                Some(j) => {
                    let path = file_at(report, j).path.as_str();
                    let index = indexed(&indexes, j);
                    title.element(snippet(path, index, related.range, AnnotationKind::Context))
                }
                None => title.element(Origin::path(related.path.as_str())),
            });
        }
        let _ = write!(text, "{}\n\n", renderer.render(&group));
    }
    text
}

/// Where each note of `d` points: the position (among the report's files,
/// then its context files) of the file whose text is known, indexed once
/// in `indexes`; `None` for a file whose text is unknown (the note shows
/// its path alone).
fn note_targets<'r>(
    report: &'r Report,
    indexes: &mut Vec<(usize, LineIndex<'r>)>,
    d: &prose_ide::Diagnostic,
) -> Vec<Option<usize>> {
    let targets: Vec<Option<usize>> = (d.related.iter())
        .map(|r| {
            (report.files.iter().chain(&report.context)).position(|f| f.read && f.key == r.path)
        })
        .collect();
    for &j in targets.iter().flatten() {
        if !indexes.iter().any(|(k, _)| *k == j) {
            indexes.push((j, LineIndex::new(&file_at(report, j).text)));
        }
    }
    targets
}

/// The file at position `j` among the report's files, then its context
/// files.
fn file_at(report: &Report, j: usize) -> &CheckedFile {
    (report.files.iter().chain(&report.context))
        .nth(j)
        .expect("a file found by its position")
}

/// The line index of the file at position `j` ([`note_targets`]).
fn indexed<'i, 'r>(indexes: &'i [(usize, LineIndex<'r>)], j: usize) -> &'i LineIndex<'r> {
    &indexes.iter().find(|(k, _)| *k == j).expect("indexed").1
}

/// [`quick::write`] for `d` of `report.files[i]` (a read file), followed
/// by an empty line; `false` (nothing written) when it is not of the
/// simple kind.
fn quick_file<'r>(
    text: &mut String,
    palette: &quick::Palette,
    report: &'r Report,
    indexes: &mut Vec<(usize, LineIndex<'r>)>,
    i: usize,
    d: &'r prose_ide::Diagnostic,
) -> bool {
    let targets = note_targets(report, indexes, d);
    let mut notes = Vec::with_capacity(targets.len());
    for (r, target) in d.related.iter().zip(targets) {
        // A note into a file whose text is unknown shows its path alone.
        let Some(j) = target else {
            return false;
        };
        let path = file_at(report, j).path.as_str();
        notes.push((r.message.as_str(), (path, indexed(indexes, j), r.range)));
    }
    let file = &report.files[i];
    let primary = (file.path.as_str(), indexed(indexes, i), d.range);
    if !quick::write(text, palette, d, primary, &notes) {
        return false;
    }
    text.push_str("\n\n");
    true
}

/// The `--format json` report. Field order and names are a stable contract
/// (`"version": 1`); see [`json`].
#[derive(Serialize)]
struct JsonReport<'a> {
    version: u32,
    files: usize,
    diagnostics: Vec<JsonDiagnostic<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fixed: Option<Vec<JsonFixed<'a>>>,
}

#[derive(Serialize)]
struct JsonFixed<'a> {
    path: &'a str,
    code: &'static str,
    title: &'a str,
    range: JsonRange,
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
/// counts the files that were read and checked. A path that could not be
/// read has one F001 diagnostic at 1:1. With `--fix`, a fourth key
/// `"fixed":[{"path","code","title","range"}]` lists the fixes applied.
pub fn json(out: &mut dyn Write, report: &Report) -> io::Result<()> {
    let mut diagnostics = Vec::new();
    for file in &report.files {
        let index = LineIndex::new(&file.text);
        diagnostics.extend(file.diagnostics.iter().map(|d| JsonDiagnostic {
            path: &file.path,
            code: d.code.as_str(),
            severity: d.severity.as_str(),
            message: &d.message,
            range: JsonRange::new(&index, d.range.start().into(), d.range.end().into()),
        }));
    }
    let fixed = report.fixed.as_ref().map(|fixed| {
        fixed
            .iter()
            .map(|f| JsonFixed {
                path: &f.path,
                code: f.code,
                title: &f.title,
                range: JsonRange {
                    start: f.start,
                    end: f.end,
                },
            })
            .collect()
    });
    let json = JsonReport {
        version: 1,
        files: report.checked(),
        diagnostics,
        fixed,
    };
    serde_json::to_writer(&mut *out, &json)?;
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};
    use prose_ide::{Diagnostic, DiagnosticCode, Related, TextRange};

    use super::*;
    use crate::report::{CheckedFile, Fixed};

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
            key: "/ws/f.prose".into(),
            text: std::sync::Arc::new(text.into()),
            diagnostics,
            read: true,
        }
    }

    fn related(path: &str, range: std::ops::Range<u32>, message: &str) -> Related {
        Related {
            path: path.into(),
            range: TextRange::new(range.start.into(), range.end.into()),
            message: message.into(),
        }
    }

    fn report(files: &[CheckedFile]) -> Report {
        Report {
            files: files.to_vec(),
            ..Report::default()
        }
    }

    /// The report as a terminal without colours shows it; rendered
    /// unstyled, it is the same.
    fn render_human(report: &Report, quiet: bool) -> String {
        let mut styled = Vec::new();
        human(&mut styled, report, quiet, true).unwrap();
        let styled = String::from_utf8(styled).unwrap();
        let stripped = anstream::adapter::strip_str(&styled).to_string();
        let mut plain = Vec::new();
        human(&mut plain, report, quiet, false).unwrap();
        assert_eq!(String::from_utf8(plain).unwrap(), stripped);
        stripped
    }

    fn check_human(files: &[CheckedFile], expect: Expect) {
        expect.assert_eq(&render_human(&report(files), false));
    }

    fn check_json(files: &[CheckedFile], expect: Expect) {
        let mut out = Vec::new();
        json(&mut out, &report(files)).unwrap();
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
            related("/ws/f.prose", 0..1, "first here"),
            related("elsewhere.prose", 0..1, "unknown file"),
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

    /// A note into another file shows its snippet under the path the user
    /// typed for it, and an imported (context) file's too.
    #[test]
    fn related_notes_find_their_file_by_key() {
        let mut d = diag(0..1, Severity::Error);
        d.related = vec![
            related("/ws/lib/g.prose", 2..3, "in g"),
            related("/ws/.prose/imports/a--b/program.prose", 0..5, "imported"),
        ];
        let g = CheckedFile {
            path: "./lib/g.prose".into(),
            key: "/ws/lib/g.prose".into(),
            ..file("x\ny\n", vec![])
        };
        let mut report = report(&[file("a\n", vec![d]), g]);
        report.context.push(CheckedFile {
            path: ".prose/imports/a--b/program.prose".into(),
            key: "/ws/.prose/imports/a--b/program.prose".into(),
            ..file("input topic: \"t\"\n", vec![])
        });
        expect![[r#"
            error[E004]: msg
             --> f.prose:1:1
              |
            1 | a
              | ^
              |
            note: in g
             --> ./lib/g.prose:2:1
              |
            2 | y
              | -
            note: imported
             --> .prose/imports/a--b/program.prose:1:1
              |
            1 | input topic: "t"
              | -----

            1 error, 0 warnings in 2 files
        "#]]
        .assert_eq(&render_human(&report, false));
    }

    #[test]
    fn unread_paths_fixes_and_quiet() {
        let mut report = report(&[
            CheckedFile::unread("gone.prose".into(), "gone.prose does not exist".into()),
            file("ab\n", vec![diag(0..2, Severity::Warning)]),
        ]);
        report.fixed = Some(vec![Fixed {
            path: "f.prose".into(),
            code: "E008",
            title: "Change to `opus`".into(),
            start: LineCol {
                line: 3,
                column: 10,
            },
            end: LineCol {
                line: 3,
                column: 14,
            },
        }]);
        expect![[r#"
            fixed[E008] f.prose:3:10: Change to `opus`

            error[F001]: gone.prose does not exist
            --> gone.prose

            warning[E004]: msg
             --> f.prose:1:1
              |
            1 | ab
              | ^^

            0 errors, 1 warning in 1 file; 1 path could not be read; fixed 1 problem
        "#]]
        .assert_eq(&render_human(&report, false));
        expect![[r#"
            error[F001]: gone.prose does not exist
            --> gone.prose

            warning[E004]: msg
             --> f.prose:1:1
              |
            1 | ab
              | ^^

        "#]]
        .assert_eq(&render_human(&report, true));
        let mut out = Vec::new();
        json(&mut out, &report).unwrap();
        expect![[r#"
            {"version":1,"files":1,"diagnostics":[{"path":"gone.prose","code":"F001","severity":"error","message":"gone.prose does not exist","range":{"start":{"line":1,"column":1},"end":{"line":1,"column":1}}},{"path":"f.prose","code":"E004","severity":"warning","message":"msg","range":{"start":{"line":1,"column":1},"end":{"line":1,"column":3}}}],"fixed":[{"path":"f.prose","code":"E008","title":"Change to `opus`","range":{"start":{"line":3,"column":10},"end":{"line":3,"column":14}}}]}
        "#]]
        .assert_eq(&String::from_utf8(out).unwrap());
    }

    #[test]
    fn summary_counts() {
        assert_eq!(
            summary(&Report::default()),
            "0 errors, 0 warnings in 0 files"
        );
        let files = [file(
            "",
            vec![
                diag(0..0, Severity::Error),
                diag(0..0, Severity::Error),
                diag(0..0, Severity::Hint),
            ],
        )];
        assert_eq!(
            summary(&report(&files)),
            "2 errors, 0 warnings, 1 hint in 1 file"
        );
    }
}
