//! The completion fixture tests: their helpers and shared programs, and
//! the tests of the lexical position (comments, strings, replace ranges,
//! broken lines); keyword and name completions are tested in [`keywords`]
//! and [`names`].

use expect_test::{Expect, expect};

use super::*;
use crate::{FilePosition, fixture::Fixture};

mod keywords;
mod names;

fn complete(fixture: &str) -> (String, Vec<CompletionItem>) {
    let f = Fixture::parse(fixture);
    let (host, pos) = f.position();
    let analysis = host.analysis();
    let text = analysis.file_text(pos.file).unwrap();
    (text, analysis.completions(pos).unwrap())
}

/// One line per item: kind, label, detail, and what it inserts.
fn check(fixture: &str, expect: Expect) {
    let (_, items) = complete(fixture);
    let mut out = String::new();
    for i in &items {
        out.push_str(&format!("{:?} {}", i.kind, i.label));
        if let Some(d) = &i.detail {
            out.push_str(&format!(" ({d})"));
        }
        if let Some(t) = &i.insert_text {
            out.push_str(&format!(" => {}", t.replace('\n', "⏎")));
        }
        out.push('\n');
    }
    expect.assert_eq(&out);
}

/// The labels only.
fn check_labels(fixture: &str, expect: Expect) {
    let (_, items) = complete(fixture);
    let labels: Vec<&str> = items.iter().map(|i| i.label.as_str()).collect();
    expect.assert_eq(&labels.join(", "));
}

/// The text after accepting the item `label` (snippet syntax kept).
fn check_edit(fixture: &str, label: &str, expect: Expect) {
    let (mut text, items) = complete(fixture);
    let item = items
        .iter()
        .find(|i| i.label == label)
        .unwrap_or_else(|| panic!("no item {label}: {items:#?}"));
    let insert = item.insert_text.as_deref().unwrap_or(&item.label);
    text.replace_range(
        usize::from(item.replace_range.start())..usize::from(item.replace_range.end()),
        insert,
    );
    expect.assert_eq(&text);
}

/// `$` is a trigger character (for job entries' variables): in a
/// program it offers nothing, in a string or out of one.
#[test]
fn a_dollar_offers_nothing() {
    check_labels("session \"costs $$0\"\n", expect![""]);
    check_labels("let x = $$0\n", expect![""]);
    check_labels("agent a:\n  prompt: \"$$0\"\n", expect![""]);
}

const AGENTS: &str = "agent writer:\n  model: opus\n  prompt: \"You write\"\nagent captain:\n  model: sonnet\n  persist: project\n";

const VARS: &str = "input topic: \"The subject\"\nlet research = session \"Research {topic}\"\nconst style = session \"Pick a style\"\n";

const PROGRAMS: &str = "#- /ws/lib/research.prose\ninput topic: \"What to research\"\ninput depth: \"How deep\"\noutput findings = session \"r\"\n#- /ws/main.prose\nuse \"./lib/research.prose\" as research\n";

#[test]
fn nothing_in_comments_fields_and_names() {
    check_labels("# sess$0", expect![[r#""#]]);
    check_labels("session \"a\" # note$0\n", expect![[r#""#]]);
    check_labels("let x = session \"a\"\nsession x.$0", expect![[r#""#]]);
    check_labels("let na$0", expect![[r#""#]]);
    check_labels("if **cond$0**:", expect![[r#""#]]);
    check_labels("agent a:$0", expect![[r#""#]]);
}

#[test]
fn replace_range_covers_the_whole_word() {
    let (text, items) = complete("agent a:\n  mo$0del\n");
    let r = items[0].replace_range;
    assert_eq!(&text[usize::from(r.start())..usize::from(r.end())], "model");
}

#[test]
fn end_of_file_after_trailing_spaces() {
    // The statement being written binds nothing yet, even when the
    // tree ends before the cursor.
    check_labels(
        "let a = session \"a\"\nlet b = session \"b\"\n  context: $0",
        expect![[r#"a"#]],
    );
    // A new line of a loop body at the end of the file sees the loop variable.
    check_labels(
        "for x in [1]:\n  session \"a\"\n  let y = session \"{$0",
        expect![[r#"x"#]],
    );
    check_labels(
        "let xs = [1]\nfor x in xs:\n  session \"a\"\n  $0",
        expect![[
            r#"session, session:, resume:, let, const, output, do, do:, parallel, parallel for, for, repeat, loop, loop while, try, if, choice, throw, break, continue"#
        ]],
    );
}

#[test]
fn half_typed_lines_in_the_middle_of_a_file() {
    check_labels(
        &format!("{VARS}session \"x\"\n  context: [research, $0\nsession \"y\"\n"),
        expect![[r#"style, topic"#]],
    );
    check_labels(
        "agent a:\n  mo$0\nsession: a\n",
        expect![[r#"model, prompt, persist, skills, permissions, context"#]],
    );
    check_labels(
        "agent a:\n  model: opus\nsession: $0\nagent b:\n  model: haiku\n",
        expect![[r#"a, b"#]],
    );
}

/// Keywords, properties and values carry the hover texts.
#[test]
fn documentation_from_hover() {
    let undocumented = |fixture: &str| -> Vec<String> {
        let (_, items) = complete(fixture);
        assert!(!items.is_empty(), "{fixture}");
        items
            .into_iter()
            .filter(|i| i.documentation.is_none())
            .map(|i| i.label)
            .collect()
    };
    let none: Vec<String> = Vec::new();
    assert_eq!(undocumented("$0"), none);
    assert_eq!(undocumented("if **x**:\n  session \"a\"\n$0"), none);
    assert_eq!(undocumented("agent a:\n  $0"), none);
    assert_eq!(undocumented("session \"x\"\n  $0"), none);
    assert_eq!(undocumented("agent a:\n  permissions:\n    $0"), none);
    assert_eq!(undocumented("agent a:\n  model: $0"), none);
    assert_eq!(undocumented("parallel ($0"), none);
    assert_eq!(undocumented("let r = xs | $0"), none);
}

/// Every offset of a program with every construct, and every prefix
/// of it (typing at the end of the file): no panic, ranges in bounds.
#[test]
fn any_offset_and_any_prefix() {
    let text = r#"use "@alice/research" as research
import "web-search" from "anthropic"
input topic: "The subject"
agent captain:
  model: opus
  persist: project
  skills: ["web-search"]
  permissions:
    read: ["*.md"]
    bash: deny
  prompt: """
    You lead {topic}.
  """
block review(draft, focus):
  let notes = session "Review {draft} for {focus}"
    context: [draft, notes]
  return notes
let r = research(topic: topic)
parallel ("any", count: 1, on-fail: "continue"):
  a = session: captain
    retry: 2
    backoff: exponential
  b = resume: captain
loop until **done** (max: 3) as i:
  try:
    do review(a, "style")
  catch as err:
    throw
  finally:
    session "x" -> session "y"
let xs = [a, b] | map:
  session "{item}"
| reduce(acc, x):
  session "{acc} {x}"
if **good** and i > 2:
  choice **pick**:
    option "A":
      session "a"
elif **bad**:
  session "b"
else:
  output result = session "done"
    context: { a, b }
# trailing comment with "quote and {brace
"#;
    let mut host = crate::AnalysisHost::new();
    let file = host.set_file_text("/ws/main.prose", text);
    let analysis = host.analysis();
    for off in (0..=text.len()).filter(|o| text.is_char_boundary(*o)) {
        let pos = FilePosition {
            file,
            offset: TextSize::from(off as u32),
        };
        for item in analysis.completions(pos).unwrap() {
            assert!(
                item.replace_range.contains_inclusive(pos.offset),
                "{off}: {item:?}"
            );
            assert!(usize::from(item.replace_range.end()) <= text.len());
        }
    }
    drop(analysis);
    for cut in (0..=text.len()).filter(|o| text.is_char_boundary(*o)) {
        let file = host.set_file_text("/ws/cut.prose", &text[..cut]);
        let pos = FilePosition {
            file,
            offset: TextSize::from(cut as u32),
        };
        let analysis = host.analysis();
        for item in analysis.completions(pos).unwrap() {
            assert!(
                item.replace_range.contains_inclusive(pos.offset),
                "{cut}: {item:?}"
            );
        }
    }
}
