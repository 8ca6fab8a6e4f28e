//! Name resolution over small programs, and the per-statement walks
//! giving what one walk over the file gives.

use super::*;
use expect_test::{Expect, expect};

fn check(text: &str, expect: Expect) {
    let parse = prose_syntax::parse(text);
    let sema = resolve(&parse.tree());
    let mut out = String::new();
    for r in &sema.refs {
        let target = match r.target {
            Some(id) => {
                let d = sema.def(id);
                format!("{:?}@{:?}", d.kind, d.name_range)
            }
            None => "UNRESOLVED".into(),
        };
        out.push_str(&format!(
            "{} {:?} {:?} -> {}\n",
            r.name, r.range, r.kind, target
        ));
    }
    expect.assert_eq(&out);
}

#[test]
fn resolves_agents_variables_and_scopes() {
    check(
        r#"input topic: "t"
agent a:
  model: opus
let x = session: a
  prompt: "about {topic}"
for item, i in xs:
  session "{item} {i} {x}"
    context: [x, nope]
let r = items | map:
  session "{item}"
do later(x)
block later(p):
  session "{p} {x}"
"#,
        expect![[r#"
                a 57..58 Agent -> Agent@23..24
                topic 77..82 Variable(Interpolation) -> Input@6..11
                xs 100..102 Variable(Collection) -> UNRESOLVED
                item 116..120 Variable(Interpolation) -> LoopVar@89..93
                i 123..124 Variable(Interpolation) -> IndexVar@95..96
                x 127..128 Variable(Interpolation) -> Let@44..45
                x 145..146 Variable(Context) -> Let@44..45
                nope 148..152 Variable(Context) -> UNRESOLVED
                items 162..167 Variable(Collection) -> UNRESOLVED
                item 187..191 Variable(Interpolation) -> PipelineItem@170..173
                later 197..202 Block -> Block@212..217
                x 203..204 Variable(Expr) -> Let@44..45
                p 234..235 Variable(Interpolation) -> Param@218..219
                x 238..239 Variable(Interpolation) -> Let@44..45
            "#]],
    );
}

#[test]
fn block_bodies_and_agents_see_later_program_bindings() {
    check(
        r#"agent a:
  context: later
block b(p):
  session "x"
    context: [p, later, xs[0], nowhere]
let later = session "l"
let xs = [later]
"#,
        expect![[r#"
                later 20..25 Variable(Context) -> Let@96..101
                p 66..67 Variable(Context) -> Param@34..35
                later 69..74 Variable(Context) -> Let@96..101
                xs 76..78 Variable(Context) -> Let@120..122
                nowhere 83..90 Variable(Context) -> UNRESOLVED
                later 126..131 Variable(Expr) -> Let@96..101
            "#]],
    );
}

#[test]
fn flat_namespace_across_branches_and_parallel_results() {
    check(
        r#"if **x**:
  let result = session "a"
else:
  let result = session "b"
session "{result}"
parallel:
  s = session "a"
  p = session "b"
session "c"
  context: { s, p }
s = session "again"
"#,
        expect![[r#"
                result 80..86 Variable(Interpolation) -> Let@49..55
                s 160..161 Variable(Context) -> Assigned@101..102
                p 163..164 Variable(Context) -> Assigned@119..120
                s 167..168 Variable(AssignTarget) -> Assigned@101..102
            "#]],
    );
}

/// The names of `file` as the analysis keeps them.
fn names_of(host: &crate::AnalysisHost, file: crate::FileId) -> FileSemantics {
    let analysis = host.analysis();
    analysis
        .with_db(|db| file_semantics(db, analysis.source_file(file)).clone())
        .unwrap()
}

/// Edits that change what resolution sees, at three lines of `text`: a
/// line commented out, a binding added before it, the line removed.
fn edits(text: &str) -> Vec<String> {
    let starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .filter(|&i| i < text.len())
        .collect();
    let mut out = Vec::new();
    for part in [1, 2, 3] {
        let Some(&at) = starts.get(starts.len() * part / 4) else {
            continue;
        };
        let end = text[at..].find('\n').map_or(text.len(), |i| at + i + 1);
        out.push(format!("{}#{}", &text[..at], &text[at..]));
        out.push(format!("{}result = x\n{}", &text[..at], &text[at..]));
        out.push(format!("{}{}", &text[..at], &text[end..]));
    }
    out
}

/// After edits of every sample program, the names made from the walks kept
/// per statement are the names of resolving the new text from scratch.
#[test]
fn names_after_an_edit_are_a_fresh_resolution() {
    let mut host = crate::AnalysisHost::new();
    let mut edited = 0;
    for (name, original) in crate::openprose::rule_tests::sample_programs() {
        let file = host.set_file_text("/ws/edited.prose", original.clone());
        names_of(&host, file);
        for text in edits(&original) {
            host.set_file_text("/ws/edited.prose", text.clone());
            let fresh = resolve(&prose_syntax::parse(&text).tree());
            assert_eq!(names_of(&host, file), fresh, "{name} edited:\n{text}");
            edited += 1;
        }
    }
    assert!(edited > 300, "only {edited} edits");
}

/// An edit walks again only the top-level statements it re-parsed: the one
/// it touches and at most its neighbours (the re-parse window of
/// `prose_syntax::reparse`), not the other statements of the file.
#[test]
fn an_edit_walks_its_statement_only() {
    let program = "agent a:\n  model: opus\n\nlet x = session: a\n\nfor i in [x]:\n  session \"{i}\"\n\nblock b(p):\n  session \"{p} {x}\"\n\nlet y = session: a\n\nlet z = session: a\n  context: [y]\n\ndo b(z)\n\noutput out = z\n";
    let mut host = crate::AnalysisHost::new();
    let walked =
        |host: &crate::AnalysisHost| crate::db::Db::statement_memos(&host.db).names.computed();
    let file = host.set_file_text("/ws/t.prose", program.to_string());
    names_of(&host, file);
    assert_eq!(walked(&host), 8);
    let mut text = program.to_string();
    for (from, to) in [
        ("let x = session: a", "let y = session: a"),
        ("session \"{i}\"", "session \"{i} {x}\""),
        ("block b(p)", "block b(q)"),
    ] {
        let before = walked(&host);
        text = text.replacen(from, to, 1);
        host.set_file_text("/ws/t.prose", text.clone());
        let fresh = resolve(&prose_syntax::parse(&text).tree());
        assert_eq!(names_of(&host, file), fresh, "{text}");
        let ran = walked(&host) - before;
        assert!((1..=3).contains(&ran), "{ran} after {from:?} → {to:?}");
    }
}

/// Names compare equal when their definitions and references do, whether
/// a difference lies at the start, the middle or the end of the file, and
/// whatever shares the map by name.
#[test]
fn names_compare_by_their_definitions_and_references() {
    let names = |text: &str| resolve(&prose_syntax::parse(text).tree());
    let text = "let a = 1\nlet b = a\nlet c = b\nsession \"{c}\"\n";
    assert_eq!(names(text), names(text));
    let moved = names(text).moved(Some).unwrap();
    assert_eq!(moved, names(text));
    // What comes after the last name does not count.
    assert_eq!(names(text), names(&format!("{text}# the end\n")));
    for other in [
        "let z = 1\nlet b = z\nlet c = b\nsession \"{c}\"\n",
        "let a = 1\nlet b = c\nlet c = b\nsession \"{c}\"\n",
        "let a = 1\nlet b = a\nlet c = b\nsession \"{b}\"\n",
        "let a = 1\nlet b =  a\nlet c = b\nsession \"{c}\"\n",
        "let a = 1\nlet b = a\nlet c = b\nsession \"{c}\"\nlet d = 2\n",
    ] {
        assert_ne!(names(text), names(other), "{other}");
        assert_ne!(names(other), names(text), "{other}");
    }
}
