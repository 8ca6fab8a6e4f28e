//! The code action fixture tests: their helpers (`check_list`, and
//! `check_fix`, which re-checks the edited program) and the tests of
//! selection, safety and broken input; each family of fixes is tested in
//! the module of the same name.

use expect_test::{Expect, expect};

use super::{CodeAction, TextEdit};
use crate::{AnalysisHost, FileId, FileRange, TextRange, fixture::Fixture};

mod names;
mod properties;
mod structure;
mod values;

/// The actions at the fixture's cursor (or selection).
fn actions(fixture: &str) -> (AnalysisHost, FileId, Vec<CodeAction>) {
    let (host, range, actions) = actions_in(fixture);
    (host, range.file, actions)
}

fn actions_in(fixture: &str) -> (AnalysisHost, FileRange, Vec<CodeAction>) {
    let f = Fixture::parse(fixture);
    let (host, range) = if f.markers.len() == 2 {
        f.selection()
    } else {
        let (host, pos) = f.position();
        let range = FileRange {
            file: pos.file,
            range: TextRange::empty(pos.offset),
        };
        (host, range)
    };
    let actions = host.analysis().code_actions(range).unwrap();
    (host, range, actions)
}

/// Applies edits made against `text` (sorted, non-overlapping).
fn apply_edits(text: &str, edits: &[TextEdit]) -> String {
    let mut edits = edits.to_vec();
    edits.sort_by_key(|e| e.range.start());
    let mut out = String::new();
    let mut pos = 0;
    for e in edits {
        let (start, end) = (usize::from(e.range.start()), usize::from(e.range.end()));
        assert!(start >= pos, "overlapping edits");
        out.push_str(&text[pos..start]);
        out.push_str(&e.new_text);
        pos = end;
    }
    out.push_str(&text[pos..]);
    out
}

/// One line per action: `E008 Change to `opus``, `*` marking the
/// preferred one and `+` the preferred one that is also safe; then
/// `W009 (no fix)` for each diagnostic in range that has none.
fn check_list(fixture: &str, expect: Expect) {
    let (host, range, actions) = actions_in(fixture);
    let diagnostics = host.analysis().diagnostics(range.file).unwrap();
    let unfixed = diagnostics
        .iter()
        .filter(|d| d.range.intersect(range.range).is_some())
        .filter(|d| !actions.iter().any(|a| a.diagnostic_range == Some(d.range)))
        .map(|d| format!("{} (no fix)\n", d.code.as_str()));
    let out: String = actions
        .iter()
        .map(|a| {
            format!(
                "{}{} {}\n",
                match (a.is_preferred, a.is_safe) {
                    (true, true) => "+ ",
                    (true, false) => "* ",
                    _ => "",
                },
                a.diagnostic_code.unwrap_or("-"),
                a.title
            )
        })
        .chain(unfixed)
        .collect();
    expect.assert_eq(&out);
}

/// Applies the action titled `title`, checks that its diagnostic is
/// gone, and shows the edited text followed by the diagnostics left.
pub(super) fn check_fix(fixture: &str, title: &str, expect: Expect) {
    let (mut host, file, actions) = actions(fixture);
    let Some(action) = actions.iter().find(|a| a.title == title) else {
        let titles: Vec<&str> = actions.iter().map(|a| a.title.as_str()).collect();
        panic!("no action `{title}`; offered: {titles:?}");
    };
    let code = action.diagnostic_code.expect("a quick fix names its code");
    let analysis = host.analysis();
    let count =
        |diags: &[crate::Diagnostic]| diags.iter().filter(|d| d.code.as_str() == code).count();
    let before = count(&analysis.diagnostics(file).unwrap());
    let path = analysis.file_path(file).unwrap();
    let mut text = analysis.file_text(file).unwrap();
    drop(analysis);
    for (f, edits) in &action.edit.edits {
        assert_eq!(*f, file, "fixes edit the file they fix");
        text = apply_edits(&text, edits);
    }
    host.set_file_text(&path, text.clone());
    let diags = host.analysis().diagnostics(file).unwrap();
    assert!(
        count(&diags) < before,
        "{code} still reported after `{title}`:\n{text}"
    );
    let mut out = text;
    if !diags.is_empty() {
        out.push_str("--- still reported\n");
        for d in &diags {
            out.push_str(&format!("{} {}\n", d.code.as_str(), d.message));
        }
    }
    expect.assert_eq(&out);
}

#[test]
fn selection_collects_the_fixes_of_every_diagnostic_in_it() {
    check_list(
        r#"$0agent a:
  model: opsu
  promt: "p"
session: b
session: b
loop:
  session: a
$0"#,
        expect![[r#"
                + E008 Change to `opus`
                E008 Change to `haiku`
                E008 Change to `sonnet`
                + W005 Change to `prompt`
                W005 Remove `promt:`
                * E007 Change to `a`
                E007 Define agent `b`
                * E007 Change to `a`
                * P705 Add `max: 10` iterations
            "#]],
    );
}

#[test]
fn only_an_obvious_correction_is_safe() {
    use super::obvious;
    let models = crate::vocabulary::MODELS;
    assert!(obvious("opsu", "opus", models));
    assert!(obvious("claude-opus-4", "opus", models));
    assert!(obvious("captian", "captain", &["captain", "crew"]));
    // One letter off in a one-letter name is a guess.
    assert!(!obvious("b", "a", &["a"]));
    // As is a tie.
    assert!(!obvious("cat", "bat", &["bat", "hat"]));
    assert!(!obvious("claude-opus-sonnet", "opus", models));
    check_list(
        r#"agent a:
  model: opus
session: b$0
"#,
        expect![[r#"
                * E007 Change to `a`
                E007 Define agent `b`
            "#]],
    );
}

#[test]
fn nothing_to_fix_or_broken_input() {
    for fixture in [
        "$0",
        "agent a:\n  model: opus\n  prompt: \"p\"\nsession: a$0",
        "session \"unterminated$0",
        "agent $0:\n  model:\n",
        "parallel (\"any\", count: $0):\n  session \"a\"\n",
        "loop (max: 3$0\n",
        "use \"\"$0 as\n",
        "input$0\n",
        "throw \"\"$0",
    ] {
        let (_, _, actions) = actions(fixture);
        for a in &actions {
            assert!(a.diagnostic_code.is_some(), "{fixture:?}: {a:?}");
        }
    }
    check_list(
        "agent a:\n  model: opus\n  prompt: \"p\"\nsession: a$0",
        expect![[""]],
    );
}
