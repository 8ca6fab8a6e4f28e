//! Formatting: rewrites a program in the canonical layout, changing only
//! whitespace.
//!
//! The canonical layout (the style of compiler.md's examples):
//! - each indentation level is two spaces, except that the body of a
//!   pipeline stage written on a line of its own (`  | map:`) sits four
//!   columns past the `|`, one level past the operation's name, as
//!   compiler.md writes chained pipelines;
//! - lines inside brackets line up with the first element after the
//!   innermost open bracket when one follows it on its line
//!   (`read: ["a",` / `       "b"]`); when the bracket ends its line they
//!   are indented one level deeper than the line that opened it; a line
//!   starting with a closing bracket lines up with the line that opened it;
//! - one space around `=`, `->` and `|`, after `:` and `,` (none before
//!   them; a ternary's `:` has a space on both sides), none just inside
//!   `(` `)` `[` `]`; elsewhere a run of blanks becomes one space and
//!   tokens written together stay together;
//! - a trailing comment keeps its run of spaces (aligned comments stay
//!   aligned); no line has trailing whitespace;
//! - at most one blank line in a row, none at the start or end of the file;
//!   the file ends with exactly one newline, `\r\n` if its first line
//!   break is `\r\n`.
//!
//! How indentation is rewritten without ever changing the program: the
//! parser never sees columns, only the INDENT / DEDENT tokens the layout
//! pass derives from them. The formatter replays that pass on the original
//! columns and gives every level of the layout's indentation stack a new
//! column (two past the level below it, four below a `|` stage); the new
//! columns grow with the stack as the old ones did, so the parser receives
//! the very same tokens. A comment-only
//! line takes the deepest level at or left of its column (or the level of
//! the body it introduces), so it stays with the code it was written in.
//!
//! What is never touched: the content of strings (a `"""` string's lines
//! keep their columns, whatever they are), discretion text, comment text.
//! A file with syntax errors is not formatted at all (notes on string text,
//! an unknown escape or a `"""` kept inside a fence, are not errors of the
//! tree and do not stop it). As a safety net, the
//! result is parsed again and must give the same tree (ignoring
//! whitespace); otherwise nothing is formatted.

use prose_syntax::{
    NodeOrToken, Parse, SyntaxKind, SyntaxKind::*, SyntaxNode, SyntaxToken, WalkEvent,
    layout::indent_width, lines::has_line_break,
};

/// Spaces per indentation level.
const INDENT: usize = 2;
const BOM: char = '\u{FEFF}';

/// The whole of `text` in the canonical layout (possibly unchanged);
/// `None` when it has syntax errors.
pub fn format_text(text: &str) -> Option<String> {
    format_parse(&prose_syntax::parse(text), text)
}

/// Formats a parsed text; `None` when it has syntax errors (or if the
/// safety net catches a result that would not be the same program).
pub(crate) fn format_parse(parse: &Parse, text: &str) -> Option<String> {
    if parse.broken().next().is_some() {
        return None;
    }
    let root = parse.syntax_node();
    let out = Printer::new(text).print(&root);
    // The safety net: same tree, no errors.
    let again = prose_syntax::parse_interruptible(&out, &crate::check_cancelled);
    (again.broken().next().is_none() && shape(&again.syntax_node()) == shape(&root)).then_some(out)
}

/// The tree without whitespace: node kinds (with their ends) and the
/// tokens other than blanks, line breaks and comments; then the comments
/// (without trailing blanks). Comments are kept apart because the tree
/// places a comment at the very end of the file differently when a line
/// break follows it.
fn shape(root: &SyntaxNode) -> Vec<(SyntaxKind, String)> {
    let mut out = Vec::new();
    let mut comments = Vec::new();
    let mut cancel = crate::CancelCheck::default();
    for event in root.preorder_with_tokens() {
        cancel.tick();
        match event {
            WalkEvent::Enter(NodeOrToken::Node(n)) => out.push((n.kind(), String::new())),
            WalkEvent::Leave(NodeOrToken::Node(_)) => out.push((EOF, String::new())),
            WalkEvent::Enter(NodeOrToken::Token(t)) => match t.kind() {
                // A missing final line break is no NEWLINE token at all.
                WHITESPACE | NEWLINE => {}
                COMMENT => comments.push((COMMENT, t.text().trim_end().to_string())),
                k => out.push((k, t.text().to_string())),
            },
            WalkEvent::Leave(NodeOrToken::Token(_)) => {}
        }
    }
    out.extend(comments);
    out
}

/// A physical line (more than one when a string or discretion spans lines):
/// the tokens between two line breaks.
struct Line {
    /// The blanks before the first token.
    lead: Vec<SyntaxToken>,
    /// From the first to the last token that is not a blank.
    body: Vec<SyntaxToken>,
}

fn is_line_break(t: &SyntaxToken) -> bool {
    matches!(t.kind(), NEWLINE | WHITESPACE) && has_line_break(t.text())
}

fn lines(root: &SyntaxNode) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut current: Vec<SyntaxToken> = Vec::new();
    let finish = |tokens: &mut Vec<SyntaxToken>, lines: &mut Vec<Line>| {
        let tokens = std::mem::take(tokens);
        let first = tokens
            .iter()
            .position(|t| t.kind() != WHITESPACE)
            .unwrap_or(tokens.len());
        let last = tokens
            .iter()
            .rposition(|t| t.kind() != WHITESPACE)
            .map_or(first, |i| i + 1);
        lines.push(Line {
            lead: tokens[..first].to_vec(),
            body: tokens[first..last.max(first)].to_vec(),
        });
    };
    let mut cancel = crate::CancelCheck::default();
    for t in root
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
    {
        cancel.tick();
        if is_line_break(&t) {
            // A run of blank lines is one token: one line per break.
            for _ in 0..prose_syntax::lines::count_breaks(t.text()) {
                finish(&mut current, &mut lines);
            }
        } else {
            current.push(t);
        }
    }
    finish(&mut current, &mut lines);
    lines
}

/// The column the layout pass measures for a line: the width of its
/// leading blanks when they are a single token (as the layout pass sees
/// them), else 0.
fn layout_width(line: &Line) -> u32 {
    match line.lead.as_slice() {
        [ws] => indent_width(ws.text()),
        _ => 0,
    }
}

struct Printer {
    out: String,
    newline: &'static str,
    bom: bool,
}

/// One level of the layout's indentation stack.
#[derive(Clone, Copy)]
struct Level {
    /// The column the layout pass measured in the original text.
    width: u32,
    /// The column it gets in the output.
    indent: usize,
}

/// An open bracket.
struct Open {
    /// The new indentation of the line that opened it.
    indent: usize,
    /// The new column of the first token after it on its line, if any:
    /// the lines inside it line up with that token.
    align: Option<usize>,
}

impl Printer {
    fn new(text: &str) -> Self {
        // The line break of the file's first line: `\n`, `\r\n` or `\r`.
        let newline = match text.bytes().position(prose_syntax::lines::is_line_break) {
            Some(i) if text[i..].starts_with("\r\n") => "\r\n",
            Some(i) if text.as_bytes()[i] == b'\r' => "\r",
            _ => "\n",
        };
        Printer {
            out: String::with_capacity(text.len() + text.len() / 8),
            newline,
            bom: text.starts_with(BOM),
        }
    }

    fn print(mut self, root: &SyntaxNode) -> String {
        if self.bom {
            self.out.push(BOM);
        }
        let lines = lines(root);
        // The layout pass's indentation stack.
        let mut stack = vec![Level {
            width: 0,
            indent: 0,
        }];
        let mut brackets: Vec<Open> = Vec::new();
        // Whether the last line that started a logical line was a `|` stage:
        // a body it opens sits four columns past it.
        let mut after_stage = false;
        let mut blank_pending = false;
        let mut printed_any = false;
        let mut cancel = crate::CancelCheck::default();
        for (i, line) in lines.iter().enumerate() {
            cancel.tick();
            let Some(first) = line.body.first() else {
                blank_pending |= printed_any;
                continue;
            };
            let indent = if let Some(open) = brackets.last() {
                match open.align {
                    _ if is_closing(first.kind()) => open.indent,
                    Some(column) => column,
                    None => open.indent + INDENT,
                }
            } else if first.kind() == COMMENT {
                let next = lines[i + 1..]
                    .iter()
                    .find(|l| l.body.first().is_some_and(|t| t.kind() != COMMENT))
                    .map(layout_width);
                comment_indent(layout_width(line), &stack, next, after_stage)
            } else {
                let indent = code_indent(layout_width(line), &mut stack, after_stage);
                after_stage = first.kind() == PIPE;
                indent
            };
            if blank_pending {
                self.out.push_str(self.newline);
                blank_pending = false;
            }
            printed_any = true;
            self.out.extend(std::iter::repeat_n(' ', indent));
            self.body(&line.body, indent, &mut brackets);
            self.out.push_str(self.newline);
        }
        self.out
    }

    /// The column the output's last line has reached (in characters).
    fn out_column(&self) -> usize {
        let line = &self.out[self.out.rfind('\n').map_or(0, |i| i + 1)..];
        line.chars().count()
    }

    /// Prints the tokens of a line with canonical spacing between them,
    /// opening and closing brackets on `brackets` (the line is at `indent`).
    fn body(&mut self, body: &[SyntaxToken], indent: usize, brackets: &mut Vec<Open>) {
        let mut prev: Option<&SyntaxToken> = None;
        let mut gap = String::new();
        for t in body {
            if t.kind() == WHITESPACE {
                gap.push_str(t.text());
                continue;
            }
            if let Some(p) = prev {
                self.out.push_str(spacing(p, t, &gap));
                if matches!(p.kind(), L_PAREN | L_BRACK | L_BRACE)
                    && t.kind() != COMMENT
                    && let Some(open) = brackets.last_mut()
                {
                    open.align = Some(self.out_column());
                }
            }
            gap.clear();
            if t.kind() == COMMENT {
                self.out.push_str(t.text().trim_end());
            } else {
                self.out.push_str(t.text());
            }
            match t.kind() {
                L_PAREN | L_BRACK | L_BRACE => brackets.push(Open {
                    indent,
                    align: None,
                }),
                R_PAREN | R_BRACK | R_BRACE => {
                    brackets.pop();
                }
                _ => {}
            }
            prev = Some(t);
        }
    }
}

fn is_closing(kind: SyntaxKind) -> bool {
    matches!(kind, R_PAREN | R_BRACK | R_BRACE)
}

/// The new indentation of a level opened below `top`: one level deeper,
/// or two below a `|` stage (its body sits four columns past the `|`).
fn deeper(top: Level, after_stage: bool) -> usize {
    top.indent + if after_stage { 2 * INDENT } else { INDENT }
}

/// The indentation of a line that starts a logical line, updating the
/// layout stack as the layout pass does (the file has no indentation
/// errors, so the column is always on the stack after popping).
fn code_indent(width: u32, stack: &mut Vec<Level>, after_stage: bool) -> usize {
    let top = stack.last().copied().unwrap_or(Level {
        width: 0,
        indent: 0,
    });
    if width > top.width {
        stack.push(Level {
            width,
            indent: deeper(top, after_stage),
        });
    } else {
        while stack.len() > 1 && stack.last().is_some_and(|l| l.width > width) {
            stack.pop();
        }
    }
    stack.last().map_or(0, |l| l.indent)
}

/// The indentation of a comment-only line at column `width`: that of the
/// body the next code line opens, if the comment is indented past the
/// current level and that line is; else that of the deepest level at or
/// left of the comment.
fn comment_indent(width: u32, stack: &[Level], next: Option<u32>, after_stage: bool) -> usize {
    let Some(&top) = stack.last() else { return 0 };
    if width > top.width && next.is_some_and(|n| n > top.width) {
        return deeper(top, after_stage);
    }
    stack
        .iter()
        .rev()
        .find(|l| l.width <= width)
        .map_or(0, |l| l.indent)
}

/// Whether the space after `t` is inside a string literal.
fn inside_string(t: &SyntaxToken) -> bool {
    t.kind() != STRING_CLOSE && t.parent_ancestors().any(|n| n.kind() == STRING)
}

/// The blanks to print between two tokens of a line; `gap` is the original.
fn spacing<'a>(prev: &SyntaxToken, next: &SyntaxToken, gap: &'a str) -> &'a str {
    if inside_string(prev) {
        return gap;
    }
    let (p, n) = (prev.kind(), next.kind());
    if n == COMMENT {
        // Keep the author's alignment of trailing comments.
        return if !gap.is_empty() && gap.bytes().all(|b| b == b' ') {
            gap
        } else {
            " "
        };
    }
    if matches!(p, L_PAREN | L_BRACK) || matches!(n, R_PAREN | R_BRACK | COMMA) {
        return "";
    }
    if n == COLON {
        let ternary = next.parent().is_some_and(|n| n.kind() == TERNARY_EXPR);
        return if ternary { " " } else { "" };
    }
    if matches!(p, COMMA | COLON | EQ | ARROW | PIPE) || matches!(n, EQ | ARROW | PIPE) {
        return " ";
    }
    if gap.is_empty() { "" } else { " " }
}

#[cfg(test)]
mod tests {
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
        assert!(
            formatted.starts_with("agent a:\n  model: haiku\n  prompt: \"\"\"\n      grep \\d+\n")
        );
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
}
