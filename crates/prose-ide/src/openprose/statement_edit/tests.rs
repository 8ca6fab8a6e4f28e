use std::sync::Arc;

use salsa::Setter;

use super::{changed, changed_since, times_moved};
use crate::{
    AnalysisHost,
    db::{self, Db, RootDatabase, SourceFile},
};

/// Declarations of the same names in every relation E019 tells apart.
const PROGRAM: &str = r#"input topic: "t"
let a = session "1"
let b = session "2"
loop until **done** (max: 3):
  let b = session "3"
if **x**:
  let c = session "4"
else:
  let c = session "5"
block blk:
  let a = session "6"
parallel:
  b = session "7"
  d = session "8"
let a = session "9"
const e = session "10"
session "last"
"#;

/// The stretch between the statements two parses share, in each text.
fn stretch(before: &str, after: &str) -> (String, String) {
    let mut db = RootDatabase::default();
    let file = SourceFile::new(&db, "/ws/a.prose".into(), Arc::new(before.into()));
    let old = db::parse(&db, file).green().clone();
    file.set_text(&mut db).to(Arc::new(after.into()));
    let new = db::parse(&db, file).green().clone();
    assert!(db.parse_cache().spliced() > 0, "re-parsed in place");
    let changed = changed(&old, &new);
    (
        before[changed.old].to_string(),
        after[changed.new].to_string(),
    )
}

/// The stretch as the parse cache recorded it when it re-parsed the
/// statements in place is the one found by comparing the two roots'
/// children, and is read without going through them.
#[test]
fn the_recorded_stretch_is_the_one_found_by_comparing() {
    let edits = [
        PROGRAM.replace("let c = session \"5\"", "let cc = session \"5\""),
        PROGRAM.replace("  d = session", "#  d = session"),
        PROGRAM.replace("session \"last\"", "session \"last\"\nlet f = 1"),
        PROGRAM.replace("let a = session \"9\"\n", ""),
    ];
    for after in edits {
        let mut db = RootDatabase::default();
        let file = SourceFile::new(&db, "/ws/a.prose".into(), Arc::new(PROGRAM.into()));
        let old = db::parse(&db, file).green().clone();
        file.set_text(&mut db).to(Arc::new(after.clone()));
        let new = db::parse(&db, file);
        let key = crate::reparse::root_key(new);
        assert!(
            db.parse_cache().spliced_from(file, key).is_some(),
            "{after}"
        );
        let recorded = changed_since(&db, file, &old, new);
        let compared = changed(&old, new.green());
        assert_eq!(
            (recorded.old, recorded.new),
            (compared.old, compared.new),
            "{after}"
        );
        let texts = |c: &super::Changed<'_>| -> Vec<String> {
            c.statements.iter().map(|n| n.to_string()).collect()
        };
        assert_eq!(texts(&recorded), texts(&compared), "{after}");
    }
}

/// An edit inside a statement changes the statements its re-parse
/// covered: the statement and the next one, which the re-parse reads to
/// check where the statement ends.
#[test]
fn the_stretch_is_what_lies_between_the_shared_statements() {
    let nested = PROGRAM.replace("let c = session \"5\"", "let cc = session \"5\"");
    let (old, new) = stretch(PROGRAM, &nested);
    assert_eq!(
        old,
        "if **x**:\n  let c = session \"4\"\nelse:\n  let c = session \"5\"\nblock blk:\n  let a = session \"6\"\n"
    );
    assert_eq!(new, old.replace("c = session \"5", "cc = session \"5"));

    let commented = PROGRAM.replace("  d = session", "#  d = session");
    let (old, new) = stretch(PROGRAM, &commented);
    assert_eq!(
        old,
        "parallel:\n  b = session \"7\"\n  d = session \"8\"\nlet a = session \"9\"\n"
    );
    assert_eq!(new, old.replace("  d =", "#  d ="));

    let added = PROGRAM.replace("session \"last\"", "session \"last\"\nlet f = 1");
    let (old, new) = stretch(PROGRAM, &added);
    assert_eq!(old, "session \"last\"\n");
    assert_eq!(new, "session \"last\"\nlet f = 1\n");
}

/// Edits of statements that declare names again and again, with the rules
/// in one part and in two (E019 in the second, as in the language server
/// on a long program): after each, the diagnostics are a fresh analysis's,
/// and most edits took E019's reports about the names they did not touch
/// from before.
#[test]
fn reports_after_statement_edits_are_a_fresh_analysis() {
    for split in [false, true] {
        statement_edits_against_a_fresh_analysis(split);
    }
}

fn statement_edits_against_a_fresh_analysis(split: bool) {
    const LINES: &[&str] = &[
        "let a = session \"new\"\n",
        "input a: \"again\"\n",
        "  let b = session \"nested\"\n",
        "parallel:\n  c = session \"p\"\n",
        "session d: writer\n",
        "output e = a\n",
        "const a = 1\n",
        "\n",
    ];
    let mut numbers = prose_test_support::Lcg::new(0x000E_0019);
    let mut below = |n: usize| numbers.below(n);
    let mut programs = vec![PROGRAM.repeat(3)];
    // Sample programs twice over, so that every name is declared again.
    programs.extend(
        crate::openprose::rule_tests::sample_texts()
            .into_iter()
            .filter(|t| t.contains("let ") && t.len() < 6_000)
            .take(6)
            .map(|t| format!("{t}\n{t}")),
    );
    let moved_before = times_moved();
    let mut edits = 0;
    let mut host = AnalysisHost::new();
    host.db.statement_memos().set_split(split);
    for original in programs {
        let mut text = original;
        let file = host.set_file_text("/ws/edited.prose", text.clone());
        host.analysis().diagnostics(file).unwrap();
        for _ in 0..12 {
            let starts: Vec<usize> = std::iter::once(0)
                .chain(text.match_indices('\n').map(|(i, _)| i + 1))
                .filter(|&i| i < text.len())
                .collect();
            let at = starts[below(starts.len())];
            let end = text[at..].find('\n').map_or(text.len(), |i| at + i + 1);
            match below(5) {
                // Commented out, or back in.
                0 if text[at..].starts_with('#') => text.replace_range(at..at + 1, ""),
                0 => text.insert(at, '#'),
                // A line of its own removed.
                1 => text.replace_range(at..end, ""),
                // A line copied below itself.
                2 => {
                    let line = text[at..end].to_string();
                    text.insert_str(end, &line);
                }
                3 => text.insert_str(at, LINES[below(LINES.len())]),
                // Before every declaration: a name's first one changes.
                _ => text.insert_str(0, LINES[below(LINES.len())]),
            }
            host.set_file_text("/ws/edited.prose", text.clone());
            let incremental = host.analysis().diagnostics(file).unwrap();
            let mut fresh = AnalysisHost::new();
            let id = fresh.set_file_text("/ws/edited.prose", text.clone());
            assert_eq!(
                incremental,
                fresh.analysis().diagnostics(id).unwrap(),
                "after edits:\n{text}"
            );
            edits += 1;
        }
    }
    let moved = times_moved() - moved_before;
    assert!(
        moved * 2 > edits,
        "{moved} of {edits} edits moved reports (split: {split})"
    );
}

/// A declaration that made a later one an error is removed: the name is
/// the edited statement's before the edit only, and the later report is
/// worked out again (a warning now, against the first declaration).
#[test]
fn a_name_declared_only_before_the_edit_is_worked_out_again() {
    let text = "loop until **done** (max: 2):\n  let y = session \"1\"\nsession \"before\"\nlet y = session \"2\"\nsession \"between\"\nsession \"and\"\nlet y = session \"3\"\n{}";
    // Enough statements after it that the edit is less than half the file.
    let text = &text.replace("{}", &"session \"more\"\n".repeat(8));
    let e019 = |host: &AnalysisHost, file| {
        let diagnostics = host.analysis().diagnostics(file).unwrap();
        diagnostics
            .iter()
            .filter(|d| d.code.as_str() == "E019")
            .map(|d| format!("{:?} {:?} {}", d.range, d.severity, d.message))
            .collect::<Vec<_>>()
    };
    let mut host = AnalysisHost::new();
    let file = host.set_file_text("/ws/a.prose", text.to_string());
    assert_eq!(
        e019(&host, file),
        [
            "73..74 Warning Variable already defined: `y`; to update it, assign without `let`: `y = …`",
            "125..126 Error Variable already defined: `y`",
        ]
    );
    let moved = times_moved();
    host.set_file_text("/ws/a.prose", text.replace("let y = session \"2\"\n", ""));
    assert_eq!(
        e019(&host, file),
        [
            "105..106 Warning Variable already defined: `y`; to update it, assign without `let`: `y = …`"
        ]
    );
    assert_eq!(times_moved(), moved + 1);
}
