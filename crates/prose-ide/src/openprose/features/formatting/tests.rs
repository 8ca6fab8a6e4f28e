//! The formatter's tests: snapshots of reindentation, spacing, blank
//! lines, comments, pipelines and brackets, the untouched string content,
//! line ends and broken code, a sample program in the canonical layout,
//! fixed points and safety on every prefix, and the reference's and the
//! corpus's programs keeping their layout.

use expect_test::{Expect, expect};

use super::format_text;
use crate::fixture::Fixture;

/// Formats `before`, compares with the snapshot, and checks that the
/// result is a fixed point.
fn check(before: &str, after: Expect) {
    let formatted = format_text(before).expect("the input has no syntax errors");
    after.assert_eq(&formatted);
    assert_eq!(
        format_text(&formatted).as_deref(),
        Some(formatted.as_str()),
        "formatting is not idempotent"
    );
}

#[test]
fn reindents_blocks_to_two_spaces() {
    check(
        "agent a:\n    model: opus\n    prompt: \"x\"\nif **ready**:\n        session: a\n             context: x\nelse:\n\tsession \"tab\"\n",
        expect![[r#"
            agent a:
              model: opus
              prompt: "x"
            if **ready**:
              session: a
                context: x
            else:
              session "tab"
        "#]],
    );
}

#[test]
fn normalizes_spacing_around_operators_and_punctuation() {
    check(
        "let x=session   \"a\"->session \"b\"\nlet ys  =  xs|map:  session \"c\"\nsession:a\n  context:{ x , ys }\nlet t = ok ?  \"y\":\"n\"\nparallel (  \"first\" ,on-fail:\"continue\" ):\n  f( a:1 , b: [ 1,2 ] )\n",
        expect![[r#"
            let x = session "a" -> session "b"
            let ys = xs | map: session "c"
            session: a
              context: { x, ys }
            let t = ok ? "y" : "n"
            parallel ("first", on-fail: "continue"):
              f(a: 1, b: [1, 2])
        "#]],
    );
}

#[test]
fn blank_lines_and_trailing_whitespace() {
    check(
        "\n\n# title   \n\n\n\nsession \"a\"   \n\n\n\nsession \"b\"\n\n\n",
        expect![[r#"
            # title

            session "a"

            session "b"
        "#]],
    );
    check(
        "session \"no newline\"",
        expect![[r#"
        session "no newline"
    "#]],
    );
    check("", expect![[""]]);
    check("\n\n  \n", expect![[""]]);
}

#[test]
fn string_and_discretion_content_is_untouched() {
    check(
        "agent a:\n      prompt:    \"\"\"\n   keep   \n         these   columns\n\"\"\"   \nif    ***\n      multi   line\n  ***:\n      session \"  spaced  {x}  \"\n",
        expect![[r#"
            agent a:
              prompt: """
               keep   
                     these   columns
            """
            if ***
                  multi   line
              ***:
              session "  spaced  {x}  "
        "#]],
    );
}

#[test]
fn comments_stay_with_their_code() {
    check(
        "# top\nagent a:\n    # about the model\n    model: opus        # aligned\n    persist: true      # aligned\n# between\nif **x**:\n    session \"a\"\n    # end of the if body\n# after the if\nsession \"b\"\n  # introduces the property\n  context: a\n",
        expect![[r#"
            # top
            agent a:
              # about the model
              model: opus        # aligned
              persist: true      # aligned
            # between
            if **x**:
              session "a"
              # end of the if body
            # after the if
            session "b"
              # introduces the property
              context: a
        "#]],
    );
}

#[test]
fn pipelines_and_sequences_on_continuation_lines() {
    check(
        "let r = xs\n      | filter:\n            session \"a\"\n      | map:\n            session \"b\"\nlet s = session \"a\"\n    -> session \"b\"\n",
        expect![[r#"
            let r = xs
              | filter:
                  session "a"
              | map:
                  session "b"
            let s = session "a"
              -> session "b"
        "#]],
    );
}

/// compiler.md's chained pipelines: a stage's body four columns past
/// its `|` (one level past `filter`), whatever the original said; a
/// comment opening the body goes with it.
#[test]
fn pipeline_stage_bodies_sit_past_the_operation() {
    check(
        "let result = topics\n  | filter:\n    session \"a\"\n      context: item\n  | map:\n        # the pitch\n        session \"b\"\n  | reduce(acc, x):\n      session \"c\"\nfiles | map:\n  session \"d\"\nblock b:\n  let r = xs\n    | pmap:\n        session \"e\"\n  session \"f\"\n",
        expect![[r#"
            let result = topics
              | filter:
                  session "a"
                    context: item
              | map:
                  # the pitch
                  session "b"
              | reduce(acc, x):
                  session "c"
            files | map:
              session "d"
            block b:
              let r = xs
                | pmap:
                    session "e"
              session "f"
        "#]],
    );
}

/// Lines inside a bracket followed by an element line up with that
/// element (where it lands after formatting).
#[test]
fn lines_line_up_with_the_first_element_after_the_bracket() {
    check(
        "agent a:\n    permissions:\n        read: [\"a\",   \"b\",\n               \"c\",\n               \"d\"]\n        write: [\"x\",\n            \"y\"]\nlet p = f(a: 1,\n          b: 2)\n",
        expect![[r#"
            agent a:
              permissions:
                read: ["a", "b",
                       "c",
                       "d"]
                write: ["x",
                        "y"]
            let p = f(a: 1,
                      b: 2)
        "#]],
    );
}

#[test]
fn lines_inside_brackets() {
    check(
        "session \"x\"\n  context: [\n          a,\n     b,\n  ]\nlet o = {\n key: f(\n       1,\n   2),\n   }\n",
        expect![[r#"
            session "x"
              context: [
                a,
                b,
              ]
            let o = {
              key: f(
                1,
                2),
            }
        "#]],
    );
}

#[test]
fn notes_on_string_text_do_not_stop_formatting() {
    let text = "agent a:\n    model: haiku\n    prompt: \"\"\"\n      grep \\d+\n      ```prose\n      session \"x\"\n        prompt: \"\"\"\n          y\n        \"\"\"\n      ```\n    \"\"\"\n";
    let formatted = format_text(text).expect("only notes on string text");
    assert!(formatted.starts_with("agent a:\n  model: haiku\n  prompt: \"\"\"\n      grep \\d+\n"));
    assert!(format_text("session \"x\" )\n").is_none());
}

#[test]
fn crlf_and_bom_are_kept() {
    let formatted =
        format_text("\u{FEFF}agent a:\r\n    model: opus  \r\n\r\n\r\nsession: a\r\n").unwrap();
    assert_eq!(
        formatted,
        "\u{FEFF}agent a:\r\n  model: opus\r\n\r\nsession: a\r\n"
    );
}

#[test]
fn lone_cr_line_ends_are_lines_and_are_kept() {
    // A comment, a lone `\r`, then code: two lines, as for the editor.
    assert_eq!(format_text("#\re = 1\r").as_deref(), Some("#\re = 1\r"));
    let formatted = format_text("agent a:\r    model: opus  \r\r\rsession: a\r").unwrap();
    assert_eq!(formatted, "agent a:\r  model: opus\r\rsession: a\r");
    assert_eq!(format_text(&formatted).as_deref(), Some(formatted.as_str()));
}

#[test]
fn broken_code_is_not_formatted() {
    for text in [
        "session \"x",
        "session \"x\" y\n",
        "if x:\n    a\n  b\n",
        "let x =",
        "parallel:\n  session \"a\"\n   session \"b\"\n",
    ] {
        assert_eq!(format_text(text), None, "{text:?}");
    }
}

/// A program using most constructs, in the canonical layout.
const SAMPLE: &str = r#"# A sample program
use "@acme/research" as research
input topic: "What to study"

agent writer:
  model: opus   # the big one
  prompt: """
You write.
      Keep this column.
"""
  permissions:
    read: ["docs/**", "src/**"]

block review(draft, depth):
  let notes = session: writer
    prompt: "Review {draft.text} at depth {depth}"
    context: { draft, depth }
  output notes

let r = [1, 2] | map:
  session "Item {item}"
let total = r | reduce(acc, x):
  session "Add {x} to {acc}"
parallel ("first", on-fail: "continue"):
  a = session "A"
  b = session "B"
for x, i in [a, b]:
  if **x is good** and i > 0:
    do review(x, 2)
  elif ***
    a long
    condition
  ***:
    throw "bad"
  else:
    continue
try:
  loop until **done** (max: 3) as n:
    session "again" -> session "and again"
catch as err:
  session "failed: {err}"
finally:
  choice **which**:
    option "one":
      session "1"
    option "two":
      session "2"
let o = {
  key: research(topic: topic),
  other: f(
    1,
    2),
}
output result = ok ? "y" : "n"
"#;

#[test]
fn sample_is_canonical() {
    assert_eq!(format_text(SAMPLE).as_deref(), Some(SAMPLE));
}

#[test]
fn mangled_whitespace_comes_back_to_the_canonical_form() {
    // Every blank run tripled (but the alignment of a trailing
    // comment, which is kept), blanks at line ends: the tokens and the
    // layout stay the same.
    let lexed = prose_syntax::lexer::lex(SAMPLE);
    let tokens: Vec<_> = lexed.iter(SAMPLE).collect();
    let mut mangled = String::new();
    for (i, (kind, text)) in tokens.iter().enumerate() {
        let trailing_comment = i > 0
            && tokens[i - 1].0 != prose_syntax::SyntaxKind::NEWLINE
            && tokens
                .get(i + 1)
                .is_some_and(|(k, _)| *k == prose_syntax::SyntaxKind::COMMENT);
        match kind {
            prose_syntax::SyntaxKind::WHITESPACE if !trailing_comment => {
                mangled.push_str(&text.repeat(3))
            }
            prose_syntax::SyntaxKind::NEWLINE => mangled.push_str(" \t\n"),
            _ => mangled.push_str(text),
        }
    }
    assert_ne!(mangled, SAMPLE);
    assert_eq!(format_text(&mangled).as_deref(), Some(SAMPLE), "{mangled}");
    let tabs = SAMPLE.replace("\n  ", "\n\t");
    assert!(format_text(&tabs).is_some());
}

#[test]
fn every_prefix_is_safe() {
    // Half-typed programs: never a panic, and whatever is formatted is a
    // fixed point.
    let ends = (0..=SAMPLE.len())
        .filter(|&i| i % 5 == 0 || SAMPLE[i..].starts_with('\n'))
        .filter(|&i| SAMPLE.is_char_boundary(i));
    for end in ends {
        let text = &SAMPLE[..end];
        let clean = prose_syntax::parse(text).errors().is_empty();
        assert_eq!(format_text(text).is_some(), clean, "{text:?}");
        if let Some(formatted) = format_text(text) {
            assert_eq!(
                format_text(&formatted).as_deref(),
                Some(formatted.as_str()),
                "{text:?}"
            );
        }
    }
}

/// What the formatter changes in a text that is otherwise laid out as
/// compiler.md lays out programs: the decisions of docs/cli.md (no
/// trailing blanks, at most one blank line in a row, none at the start
/// or end, one final line break).
fn documented_normalisation(text: &str) -> String {
    let mut out = String::new();
    let mut blank = false;
    for line in text.lines().map(str::trim_end) {
        if line.is_empty() {
            blank = !out.is_empty();
            continue;
        }
        if blank {
            out.push('\n');
            blank = false;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The formatter keeps the reference's own style: every ```prose block
/// of compiler.md and every corpus program without syntax errors comes
/// out as it went in, but for the documented decisions above.
#[test]
fn the_reference_and_the_corpus_keep_their_layout() {
    let mut texts: Vec<(String, String)> = Vec::new();
    if let Some(path) = prose_test_support::reference_file("compiler.md") {
        let doc = std::fs::read_to_string(path).unwrap();
        let mut rest = doc.as_str();
        let mut n = 0;
        while let Some(start) = rest.find("```prose\n") {
            let body = &rest[start + "```prose\n".len()..];
            let end = body.find("```").expect("a closed fence");
            n += 1;
            texts.push((format!("compiler.md block {n}"), body[..end].to_string()));
            rest = &body[end..];
        }
        assert!(n > 100, "compiler.md has {n} prose blocks");
    }
    if let Some(dir) = prose_test_support::corpus_dir() {
        for path in prose_test_support::prose_files(&dir) {
            let text = std::fs::read_to_string(&path).unwrap();
            texts.push((path.display().to_string(), text));
        }
    }
    let mut checked = 0;
    let mut failures = Vec::new();
    for (name, text) in &texts {
        let Some(formatted) = format_text(text) else {
            continue; // syntax errors: never formatted
        };
        checked += 1;
        let expected = documented_normalisation(text);
        if formatted != expected {
            let line = formatted
                .lines()
                .zip(expected.lines())
                .position(|(a, b)| a != b)
                .map_or(0, |i| i + 1);
            failures.push(format!("{name}: first difference at line {line}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    if !texts.is_empty() {
        assert!(
            checked * 4 > texts.len() * 3,
            "{checked} of {}",
            texts.len()
        );
    }
}

#[test]
fn analysis_format() {
    let (host, file) = Fixture::parse("session   \"x\"\n").host(None);
    assert_eq!(
        host.analysis().format(file).unwrap().as_deref(),
        Some("session \"x\"\n")
    );
    let (host, file) = Fixture::parse("session \"x\" y\n").host(None);
    assert_eq!(host.analysis().format(file).unwrap(), None);
}
