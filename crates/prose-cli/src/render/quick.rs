//! The human report of the common diagnostic, written directly.
//!
//! Most diagnostics point into one line of text whose every character is
//! one column wide, with notes of the same kind. For those, what
//! annotate-snippets renders is a fixed layout, and [`write`] writes it in
//! one pass:
//!
//! ```text
//! warning[P811]: Retry property is only valid in session statements
//!   --> f.prose:10:3
//!    |
//! 10 |   retry: 5
//!    |   ^^^^^
//!    |
//! note: in this agent definition
//!   --> f.prose:9:7
//!    |
//!  9 | agent poller:
//!    |       ------
//! ```
//!
//! annotate-snippets lays every diagnostic out on a grid of styled
//! characters first; on a report with many diagnostics that was half of
//! `prose check`'s instructions (the 8 MB file of
//! docs/performance/peer-2026-11-29.md).
//! A line that annotate-snippets cuts (longer than the terminal width it
//! assumes, or indented so far that it trims the indentation) is written
//! as it shows it: the part its margin keeps ([`Cut`]), with `...` where
//! the line goes on. annotate-snippets measures the whole line for each
//! snippet, so thousands of diagnostics on one long line (a minified job
//! entry) took time in proportion to both.
//! Anything else falls back to annotate-snippets ([`write`] returns
//! `false` and writes nothing): a range over several lines or over a line
//! break; in the line, the message or the path, a character that is not
//! one column wide or that annotate-snippets shows otherwise (tabs, `\r`
//! and other controls, wide and combining characters, white space other
//! than the space); a note into an unread file; on a cut line, an empty
//! underline or one wider than the terminal. A styled report (a
//! terminal) is written in annotate-snippets' styles, each run of a style
//! between the same escape sequences as it writes them ([`Palette`]). The
//! tests compare both renderings, unstyled and styled, on generated cases
//! around each of these limits.

use prose_ide::{Diagnostic, Severity, TextRange};

use crate::line_index::LineIndex;

/// The terminal width annotate-snippets assumes
/// (`annotate_snippets::renderer::DEFAULT_TERM_WIDTH`); lines that fit in
/// it are never cut.
const TERM_WIDTH: usize = 140;

/// One annotated line: where it is, what it shows, what is underlined.
struct Shown<'a> {
    path: &'a str,
    /// 1-based.
    line: u32,
    text: &'a str,
    /// The underlined columns, 0-based (a column is a character: every
    /// character of a simple line is one column wide).
    start: usize,
    end: usize,
    /// How many columns `text` takes.
    width: usize,
}

/// The annotated line of `range` in the indexed text, if it is of the
/// simple kind (see the module's documentation).
fn shown<'a>(path: &'a str, index: &LineIndex<'a>, range: TextRange) -> Option<Shown<'a>> {
    if !simple(path) {
        return None;
    }
    // The lines and the underline `super::snippet` gives annotate-snippets.
    let (window, span) = super::window(index, range);
    let (start, end) = (span.start, span.end);
    let whole = &index.text()[window.clone()];
    let text = whole.strip_suffix('\n').unwrap_or(whole);
    if end > text.len() || !simple(text) {
        return None;
    }
    let (start, end, width) = if text.is_ascii() {
        (start, end, text.len())
    } else {
        let before = text[..start].chars().count();
        let under = text[start..end].chars().count();
        (before, before + under, text.chars().count())
    };
    Some(Shown {
        path,
        line: index.line_col(window.start).line,
        text,
        start,
        end,
        width,
    })
}

/// Whether annotate-snippets shows every character of `s` as it is, one
/// column wide: printable ASCII, or a character of width 1 that is not
/// white space (no tabs, line breaks or other controls, no wide or
/// combining characters, none that annotate-snippets replaces).
fn simple(s: &str) -> bool {
    if s.is_ascii() {
        // Without an early exit, so that the loop is vectorised: the
        // text is nearly always printable.
        return s.bytes().fold(true, |ok, b| ok & (0x20..0x7f).contains(&b));
    }
    s.chars().all(|c| {
        if c.is_ascii() {
            (' '..='~').contains(&c)
        } else {
            !c.is_whitespace()
                && !matches!(c, '\u{200d}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
                && unicode_width::UnicodeWidthChar::width(c) == Some(1)
        }
    })
}

/// The part of a line annotate-snippets shows when the gutter is `digits`
/// wide (its `Margin`, for a line of one-column characters with one
/// annotation without a label): the columns `left..right`, with `...` over
/// the first three when it cut the line's start and over the last three
/// when it cut its end. `None` for what is not written directly: an empty
/// underline on a line that is cut, or one so wide that annotate-snippets
/// elides its middle.
#[derive(Debug, Clone, Copy)]
struct Cut {
    left: usize,
    right: usize,
    dots_left: bool,
    dots_right: bool,
}

/// Columns kept around the underline for the `...` (annotate-snippets'
/// `ELLIPSIS_PASSING`).
const PASSING: usize = 6;

fn cut(s: &Shown<'_>, digits: usize) -> Option<Cut> {
    let term = TERM_WIDTH.saturating_sub(3 + digits);
    let len = s.width;
    let indent = if s.text.bytes().any(|b| b != b' ') {
        s.text.bytes().take_while(|&b| b == b' ').count()
    } else {
        0
    };
    let whitespace = indent.min(s.start).saturating_sub(PASSING);
    let span_left = s.start.saturating_sub(PASSING);
    // Without a label, the label ends where the underline does (so the
    // margin's case for the underline alone never differs from this one).
    let span_right = s.end + PASSING;
    // Indentation beyond 20 columns is trimmed to 4 of them.
    let mut left = if whitespace > 20 { whitespace - 16 } else { 0 };
    let mut right = len.max(left);
    if right - left > term {
        if span_right.saturating_sub(whitespace) <= term && span_right >= whitespace {
            left = whitespace;
        } else if span_right - span_left <= term {
            left = span_left.saturating_sub((term - (span_right - span_left)) / 2);
        } else {
            // The underline alone is wider than the terminal.
            return None;
        }
        right = left + term;
    }
    let shown_right = if len.saturating_sub(left) <= term {
        len
    } else {
        len.min(right)
    };
    let cut = Cut {
        left: left.min(len),
        right: shown_right,
        dots_left: left > 0,
        dots_right: len > shown_right,
    };
    let whole = cut.left == 0 && !cut.dots_left && !cut.dots_right;
    // A cut line: only a non-empty underline inside what is shown, with
    // room for both `...`.
    (whole
        || (s.end > s.start
            && s.start >= cut.left
            && s.end <= cut.right
            && cut.right - cut.left >= 6))
        .then_some(cut)
}

fn digits(n: u32) -> usize {
    n.checked_ilog10().unwrap_or(0) as usize + 1
}

/// The styles a report is written in: annotate-snippets' own
/// (`Renderer::styled`), or none (`Renderer::plain`, the default), each
/// as the escape sequences that start and end a run of it (empty for no
/// style).
#[derive(Default)]
pub(super) struct Palette {
    error: Run,
    warning: Run,
    info: Run,
    help: Run,
    note: Run,
    line_num: Run,
    emphasis: Run,
    context: Run,
}

/// The escapes around a run of one style.
#[derive(Default)]
struct Run {
    start: String,
    end: String,
}

impl Run {
    fn of(style: annotate_snippets::renderer::Style) -> Run {
        Run {
            start: format!("{style}"),
            end: format!("{style:#}"),
        }
    }
}

impl Palette {
    /// No styles (the report once `anstream` has stripped them).
    pub(super) fn plain() -> Palette {
        Palette::default()
    }

    /// annotate-snippets' styles.
    pub(super) fn styled() -> Palette {
        use annotate_snippets::renderer as r;
        Palette {
            error: Run::of(r::DEFAULT_ERROR_STYLE),
            warning: Run::of(r::DEFAULT_WARNING_STYLE),
            info: Run::of(r::DEFAULT_INFO_STYLE),
            help: Run::of(r::DEFAULT_HELP_STYLE),
            note: Run::of(r::DEFAULT_NOTE_STYLE),
            line_num: Run::of(r::DEFAULT_LINE_NUM_STYLE),
            emphasis: Run::of(r::DEFAULT_EMPHASIS_STYLE),
            context: Run::of(r::DEFAULT_CONTEXT_STYLE),
        }
    }

    /// The style of a severity's name (a hint is annotate-snippets' help,
    /// as `super::level` names it).
    fn level(&self, severity: Severity) -> &Run {
        match severity {
            Severity::Error => &self.error,
            Severity::Warning => &self.warning,
            Severity::Info => &self.info,
            Severity::Hint => &self.help,
        }
    }
}

/// `text` in the style of `run`.
fn styled(out: &mut String, run: &Run, text: &str) {
    out.push_str(&run.start);
    out.push_str(text);
    out.push_str(&run.end);
}

/// Writes what annotate-snippets renders (with the styles of `palette`)
/// for `d`: a title `severity[code]: message` with the snippet of `primary`
/// (carets), then one `note: message` with a snippet (dashes) per note,
/// and returns `true`; or writes nothing and returns `false` when the
/// diagnostic is not of the simple kind. Each part is
/// `(path, index, range)`.
pub(super) fn write(
    out: &mut String,
    palette: &Palette,
    d: &Diagnostic,
    primary: (&str, &LineIndex<'_>, TextRange),
    notes: &[(&str, (&str, &LineIndex<'_>, TextRange))],
) -> bool {
    let (name, code, message) = (d.severity.as_str(), d.code.as_str(), d.message.as_str());
    if !simple(message) || !simple(code) || code.is_empty() {
        return false;
    }
    let Some(first) = shown(primary.0, primary.1, primary.2) else {
        return false;
    };
    let mut rest = Vec::with_capacity(notes.len());
    for (note, (path, index, range)) in notes {
        if !simple(note) {
            return false;
        }
        let Some(s) = shown(path, index, *range) else {
            return false;
        };
        rest.push((*note, s));
    }
    let w = rest.iter().map(|(_, s)| s.line).fold(first.line, u32::max);
    let w = digits(w);
    let Some(first_cut) = cut(&first, w) else {
        return false;
    };
    let mut rest_cut = Vec::with_capacity(rest.len());
    for (_, s) in &rest {
        let Some(c) = cut(s, w) else {
            return false;
        };
        rest_cut.push(c);
    }
    out.reserve(name.len() + code.len() + message.len() + 2 * first.text.len() + 6 * w + 64);
    let level = palette.level(d.severity);
    out.push_str(&level.start);
    out.push_str(name);
    out.push('[');
    out.push_str(code);
    out.push(']');
    out.push_str(&level.end);
    out.push_str(&palette.emphasis.start);
    out.push_str(": ");
    out.push_str(message);
    out.push_str(&palette.emphasis.end);
    snippet(out, palette, &first, first_cut, w, (level, b'^'));
    for (i, ((note, s), c)) in rest.iter().zip(rest_cut).enumerate() {
        // One empty gutter line after the primary snippet, none between
        // the notes.
        if i == 0 {
            out.push('\n');
            pad(out, b' ', w + 1);
            styled(out, &palette.line_num, "|");
        }
        out.push('\n');
        styled(out, &palette.note, "note");
        out.push_str(": ");
        out.push_str(note);
        snippet(out, palette, s, c, w, (&palette.context, b'-'));
    }
    true
}

/// `\n --> path:line:column`, the gutter, the part `cut` of the line and
/// its underline (`mark` in its style).
fn snippet(
    out: &mut String,
    palette: &Palette,
    s: &Shown<'_>,
    cut: Cut,
    w: usize,
    mark: (&Run, u8),
) {
    out.push('\n');
    pad(out, b' ', w);
    styled(out, &palette.line_num, "--> ");
    out.push_str(s.path);
    out.push(':');
    number(out, s.line as usize);
    out.push(':');
    number(out, s.start + 1);
    out.push('\n');
    pad(out, b' ', w + 1);
    styled(out, &palette.line_num, "|");
    out.push('\n');
    // The number is right-aligned within its styled run.
    out.push_str(&palette.line_num.start);
    pad(out, b' ', w - digits(s.line));
    number(out, s.line as usize);
    out.push_str(&palette.line_num.end);
    out.push(' ');
    styled(out, &palette.line_num, "|");
    let shown = columns(s.text, cut.left, cut.right);
    if !shown.is_empty() {
        out.push(' ');
        // `...` over the first and the last three columns where cut.
        let (mut from, mut to) = (0, shown.len());
        if cut.dots_left {
            styled(out, &palette.line_num, "...");
            from = columns(shown, 0, 3).len();
        }
        if cut.dots_right {
            to = shown.len() - columns(shown, cut.right - cut.left - 3, cut.right - cut.left).len();
        }
        out.push_str(&shown[from..to]);
        if cut.dots_right {
            styled(out, &palette.line_num, "...");
        }
    }
    out.push('\n');
    pad(out, b' ', w + 1);
    styled(out, &palette.line_num, "|");
    out.push(' ');
    pad(out, b' ', s.start - cut.left);
    out.push_str(&mark.0.start);
    pad(out, mark.1, (s.end - s.start).max(1));
    out.push_str(&mark.0.end);
}

/// The columns `from..to` of `text`, a line of one-column characters.
fn columns(text: &str, from: usize, to: usize) -> &str {
    if text.is_ascii() {
        return &text[from.min(text.len())..to.min(text.len())];
    }
    let byte = |column: usize| {
        text.char_indices()
            .nth(column)
            .map_or(text.len(), |(i, _)| i)
    };
    &text[byte(from)..byte(to)]
}

/// `n` in decimal.
fn number(out: &mut String, mut n: usize) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.push_str(std::str::from_utf8(&digits[i..]).expect("ASCII digits"));
}

/// `n` times `c`: a space, `^` or `-`.
fn pad(out: &mut String, c: u8, mut n: usize) {
    debug_assert!(matches!(c, b' ' | b'^' | b'-'));
    const SPACES: &str = "                                                                ";
    const CARETS: &str = "^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^";
    const DASHES: &str = "----------------------------------------------------------------";
    let run = match c {
        b' ' => SPACES,
        b'^' => CARETS,
        _ => DASHES,
    };
    out.reserve(n);
    while n > 0 {
        let k = n.min(run.len());
        out.push_str(&run[..k]);
        n -= k;
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use prose_ide::{Diagnostic, DiagnosticCode, Related, Severity, TextRange};

    use super::{
        super::{human_file, renderer_of},
        Palette,
    };
    use crate::report::{CheckedFile, Report};

    /// A diagnostic of `file` (built from a real one, so that fields added
    /// for other features do not break these tests).
    fn diag(severity: Severity, message: &str, range: TextRange) -> Diagnostic {
        let mut d = prose_ide::host::unreadable_file(String::new());
        d.code = DiagnosticCode("P811");
        d.severity = severity;
        d.message = message.into();
        d.range = range;
        d
    }

    fn report(text: &str, diagnostics: Vec<Diagnostic>) -> Report {
        Report {
            files: vec![CheckedFile {
                path: "lib/f.prose".into(),
                key: "/ws/lib/f.prose".into(),
                text: std::sync::Arc::new(text.into()),
                diagnostics,
                read: true,
            }],
            ..Report::default()
        }
    }

    /// The report of `report`'s file rendered by annotate-snippets, and
    /// with the common diagnostics written directly: unstyled, then
    /// styled.
    fn both(report: &Report) -> (String, String) {
        let n = report.files[0].diagnostics.len();
        let mut slow = String::new();
        let mut fast = String::new();
        for (styled, palette) in [(false, Palette::plain()), (true, Palette::styled())] {
            let renderer = renderer_of(styled);
            slow.push_str(&human_file(&renderer, None, report, 0, 0..n));
            fast.push_str(&human_file(&renderer, Some(&palette), report, 0, 0..n));
        }
        (slow, fast)
    }

    fn range(start: u32, end: u32) -> TextRange {
        TextRange::new(start.into(), end.into())
    }

    /// Whether [`super::write`] takes the first diagnostic of `report`
    /// (else annotate-snippets renders it).
    fn taken(report: &Report) -> bool {
        let file = &report.files[0];
        let d = &file.diagnostics[0];
        let index = crate::line_index::LineIndex::new(&file.text);
        let notes: Vec<_> = (d.related.iter())
            .map(|r| (r.message.as_str(), (file.path.as_str(), &index, r.range)))
            .collect();
        let primary = (file.path.as_str(), &index, d.range);
        let mut out = String::new();
        let taken = super::write(&mut out, &Palette::plain(), d, primary, &notes);
        assert_eq!(taken, !out.is_empty());
        taken
    }

    #[test]
    fn the_common_case_is_written_directly_and_the_rest_is_not() {
        let line = |text: &str, start: u32, end: u32| {
            report(text, vec![diag(Severity::Warning, "m", range(start, end))])
        };
        let long = format!("{}\n", "x".repeat(137));
        let indented = format!("{}x\n", " ".repeat(27));
        for (case, quick) in [
            (line("agent a:\n  retry: 5\n", 11, 16), true),
            (line("ab\n", 3, 3), true),
            (line("ab", 2, 2), true),
            (line(&format!("{}\n", "x".repeat(136)), 0, 1), true),
            (line(&format!("{}x\n", " ".repeat(26)), 26, 27), true),
            // Cut lines: annotate-snippets shows a part with `...`.
            (line(&long, 0, 1), true),
            (line(&indented, 27, 28), true),
            (line(&format!("{}\n", "ab ".repeat(3000)), 4000, 4010), true),
            (
                line(
                    &format!("{}é{}\n", "x".repeat(500), "y".repeat(500)),
                    499,
                    503,
                ),
                true,
            ),
            // An empty underline on a cut line, and one wider than the
            // terminal (annotate-snippets elides its middle).
            (line(&long, 5, 5), false),
            (line(&format!("{}\n", "x".repeat(900)), 100, 700), false),
            (line("ab\ncd\n", 1, 4), false),
            (line("ab\ncd\n", 2, 3), false),
            (line("a\tb\n", 2, 3), false),
            (line("é — b\n", 6, 7), true),
            (line("\u{4e2d} b\n", 4, 5), false),
            (line("e\u{301} b\n", 4, 5), false),
            (line("\u{a0}b\n", 2, 3), false),
            (line("ab\r\n", 0, 1), false),
            (line("ab  \n", 0, 1), true),
            (line("ab  \n", 4, 4), true),
            (line("   \n", 1, 2), true),
            (line(&format!("{}\n", " ".repeat(40)), 30, 31), true),
        ] {
            assert_eq!(taken(&case), quick, "{:?}", case.files[0].text);
            let (slow, fast) = both(&case);
            assert_eq!(fast, slow);
        }
        let mut d = diag(Severity::Error, "tab\there", range(0, 1));
        assert!(!taken(&report("ab\n", vec![d.clone()])));
        d.message = "m".into();
        d.related = vec![Related {
            path: "/ws/lib/f.prose".into(),
            range: range(0, 2),
            message: "\u{4e2d}".into(),
        }];
        assert!(!taken(&report("ab\n", vec![d.clone()])));
        d.related[0].message = "é".into();
        assert!(taken(&report("ab\n", vec![d])));
    }

    fn severity() -> impl Strategy<Value = Severity> {
        prop::sample::select(vec![
            Severity::Error,
            Severity::Warning,
            Severity::Info,
            Severity::Hint,
        ])
    }

    fn message() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            "msg",
            "Agent not defined: `x` (did you mean `y`?)",
            "",
            "tab\there",
            "é",
            "two\nlines",
            "trailing ",
            " leading",
            "\u{4e2d}",
            "a\u{200d}b",
        ])
        .prop_map(String::from)
    }

    /// A line: an indentation, then plain words, or a few odd characters,
    /// or a long run (around the terminal width), or nothing.
    fn line() -> impl Strategy<Value = String> {
        (
            prop::sample::select(vec![0usize, 1, 2, 4, 20, 25, 26, 27, 28, 32, 40]),
            prop_oneof![
                "[a-z \"`]{0,40}",
                "[a-z \t\r\u{e9}\u{2014}\u{4e2d}\u{301}\u{a0}\u{200d}\u{1f600}\u{feff}]{0,12}",
                "[a-z]{125,140}",
                "[a-z ]{141,700}",
                Just(String::new()),
            ],
        )
            .prop_map(|(indent, body)| format!("{}{body}", " ".repeat(indent)))
    }

    /// A range from two numbers: a start anywhere in the text (or past
    /// it) and a length, short or long.
    fn range_in(len: usize, (at, length): (u32, u32)) -> TextRange {
        let start = at % (len as u32 + 3);
        range(start, start + length)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Both renderings are the same, whatever is written directly.
        #[test]
        fn written_directly_as_annotate_snippets_renders(
            blank in prop::sample::select(vec![0usize, 1, 7, 8, 9, 10, 97, 98, 99, 100]),
            lines in prop::collection::vec(line(), 1..4),
            ends_with_break in any::<bool>(),
            primary in ((0u32..2000), prop_oneof![0u32..4, 0u32..200]),
            notes in prop::collection::vec(
                (message(), (0u32..2000), prop_oneof![0u32..4, 0u32..200], any::<bool>()),
                0..3,
            ),
            severity in severity(),
            message in message(),
        ) {
            let mut text = "\n".repeat(blank);
            text.push_str(&lines.join("\n"));
            if ends_with_break {
                text.push('\n');
            }
            let mut d = diag(severity, &message, range_in(text.len(), primary));
            d.related = notes
                .into_iter()
                .map(|(message, at, length, known)| Related {
                    path: if known { "/ws/lib/f.prose" } else { "/ws/g.prose" }.into(),
                    range: range_in(text.len(), (at, length)),
                    message,
                })
                .collect();
            let report = report(&text, vec![d]);
            let (slow, fast) = both(&report);
            prop_assert_eq!(fast, slow);
        }
    }
}
