//! Folding ranges: the parts of a file an editor can collapse.
//!
//! - `Region`: every indented body — agent and session property blocks
//!   (and nested ones such as `permissions:`), `block` bodies, `parallel`,
//!   loops, `try` / `catch` / `finally`, `if` / `elif` / `else`, `choice` /
//!   `option`, pipeline operations, values written on the lines after
//!   `key:` — and pipelines or `->` sequences continued over several lines,
//!   and brackets whose contents span lines;
//! - `String`: multi-line text: `"""` strings and `***` discretions;
//! - `Comment`: runs of two or more consecutive comment-only lines.
//!
//! A fold starts where its header line ends and ends at the end of its last
//! token (never on the line of the next statement), so an editor keeps the
//! header visible and hides the rest. At most one fold starts on a line
//! (editors keep only one): the largest.

use prose_syntax::{
    AstNode, NodeOrToken, SyntaxKind::*, SyntaxNode, SyntaxToken, TextRange, TextSize, ast, lines,
};

/// What a fold holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FoldKind {
    /// An indented body, a multi-line pipeline, bracket contents.
    Region,
    /// Consecutive comment lines.
    Comment,
    /// A multi-line string or discretion.
    String,
}

/// A foldable range: byte offsets, spanning at least two lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fold {
    pub range: TextRange,
    pub kind: FoldKind,
}

/// The folding ranges of a syntax tree, sorted by start.
pub fn folding_ranges(root: &SyntaxNode) -> Vec<Fold> {
    let text = root.text().to_string();
    let mut folds = Vec::new();
    let mut cancel = crate::CancelCheck::default();
    for element in root.descendants_with_tokens() {
        cancel.tick();
        match element {
            NodeOrToken::Node(node) => {
                if let Some(fold) = node_fold(&node) {
                    folds.push(fold);
                }
            }
            NodeOrToken::Token(token) => {
                if token.kind() == DISCRETION {
                    folds.push(Fold {
                        range: token.text_range(),
                        kind: FoldKind::String,
                    });
                }
            }
        }
    }
    comment_runs(root, &mut folds);
    // Keep folds that span lines; one per start line, the largest.
    let starts: Vec<usize> = lines::line_starts(&text).collect();
    let line_of = |offset: TextSize| starts.partition_point(|&s| s <= usize::from(offset));
    folds.retain(|f| lines::has_line_break(&text[f.range]));
    folds.sort_by_key(|f| (f.range.start(), std::cmp::Reverse(f.range.end())));
    let mut out: Vec<Fold> = Vec::with_capacity(folds.len());
    for fold in folds {
        match out.last_mut() {
            Some(last) if line_of(last.range.start()) == line_of(fold.range.start()) => {
                if fold.range.end() > last.range.end() {
                    *last = fold;
                }
            }
            _ => out.push(fold),
        }
    }
    out
}

fn node_fold(node: &SyntaxNode) -> Option<Fold> {
    let region = |start: TextSize| {
        let end = last_token_end(node)?;
        (start < end).then(|| Fold {
            range: TextRange::new(start, end),
            kind: FoldKind::Region,
        })
    };
    match node.kind() {
        BLOCK if !ast::Block::cast(node.clone())?.is_inline() => region(node.text_range().start()),
        PROPERTY_BLOCK => region(node.text_range().start()),
        STRING => Some(Fold {
            range: node.text_range(),
            kind: FoldKind::String,
        }),
        // The outermost link of a chain: from the end of its first part.
        PIPE_EXPR | ARROW_EXPR if node.parent().is_none_or(|p| p.kind() != node.kind()) => {
            let mut first = node.first_child()?;
            while first.kind() == node.kind() {
                first = first.first_child()?;
            }
            region(last_token_end(&first)?)
        }
        ARRAY_EXPR | OBJECT_EXPR | ARG_LIST | PARAM_LIST | MODIFIER_LIST => {
            let open = node.first_token()?;
            let close = node
                .last_token()
                .filter(|t| matches!(t.kind(), R_PAREN | R_BRACK | R_BRACE))?;
            Some(Fold {
                range: TextRange::new(open.text_range().end(), close.text_range().start()),
                kind: FoldKind::Region,
            })
        }
        _ => None,
    }
}

/// The end of the last token of `node` that is not a blank, a comment or a
/// line break.
fn last_token_end(node: &SyntaxNode) -> Option<TextSize> {
    let mut token = node.last_token()?;
    loop {
        if !matches!(token.kind(), WHITESPACE | COMMENT | NEWLINE) {
            return Some(token.text_range().end());
        }
        token = token.prev_token()?;
        if !node.text_range().contains_range(token.text_range()) {
            return None;
        }
    }
}

/// Runs of two or more comment-only lines (a blank line ends a run).
fn comment_runs(root: &SyntaxNode, folds: &mut Vec<Fold>) {
    let mut run: Option<(TextRange, usize)> = None;
    let mut flush = |run: &mut Option<(TextRange, usize)>| {
        if let Some((range, count)) = run.take()
            && count >= 2
        {
            folds.push(Fold {
                range,
                kind: FoldKind::Comment,
            });
        }
    };
    let mut cancel = crate::CancelCheck::default();
    for token in root
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
    {
        cancel.tick();
        match token.kind() {
            COMMENT if starts_line(&token) => {
                run = Some(match run {
                    Some((range, count)) => (range.cover(token.text_range()), count + 1),
                    None => (token.text_range(), 1),
                });
            }
            WHITESPACE if !lines::has_line_break(token.text()) => {}
            // One line break between comments keeps the run going (a run of
            // blank lines is one token).
            NEWLINE | WHITESPACE
                if lines::count_breaks(token.text()) <= 1
                    && run.is_some_and(|(range, _)| range.end() == token.text_range().start()) => {}
            _ => flush(&mut run),
        }
    }
    flush(&mut run);
}

/// Whether only blanks precede `token` on its line.
fn starts_line(token: &SyntaxToken) -> bool {
    let mut prev = token.prev_token();
    while let Some(t) = prev {
        match t.kind() {
            WHITESPACE if !lines::has_line_break(t.text()) => prev = t.prev_token(),
            WHITESPACE | NEWLINE => return true,
            _ => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};

    use crate::fixture::Fixture;

    /// Renders each fold as `kind lines a-b: first line ... last line`.
    fn check(text: &str, expect: Expect) {
        let (host, file) = Fixture::parse(text).host(None);
        let folds = host.analysis().folding_ranges(file).unwrap();
        let line = |o: usize| text[..o].matches('\n').count() + 1;
        let mut out = String::new();
        for f in folds {
            let (s, e) = (usize::from(f.range.start()), usize::from(f.range.end()));
            let piece = &text[s..e];
            let first = piece.lines().next().unwrap_or("");
            let last = piece.lines().last().unwrap_or("");
            out.push_str(&format!(
                "{:?} {}-{}: {first:?} .. {last:?}\n",
                f.kind,
                line(s),
                line(e)
            ));
        }
        expect.assert_eq(&out);
    }

    #[test]
    fn bodies_and_property_blocks() {
        check(
            r#"agent a:
  model: opus
  permissions:
    read: ["x"]
    write: ["y"]
if **x**:
  session: a
    prompt: "p"
    context: x
elif **y**:
  session "y"
else: session "inline"
try:
  session "t"
catch as e:
  session "c"
finally:
  session "f"
"#,
            expect![[r#"
                Region 1-5: "" .. "    write: [\"y\"]"
                Region 3-5: "" .. "    write: [\"y\"]"
                Region 6-9: "" .. "    context: x"
                Region 7-9: "" .. "    context: x"
                Region 10-11: "" .. "  session \"y\""
                Region 13-14: "" .. "  session \"t\""
                Region 15-16: "" .. "  session \"c\""
                Region 17-18: "" .. "  session \"f\""
            "#]],
        );
    }

    #[test]
    fn loops_choices_and_pipelines() {
        check(
            r#"for x in xs:
  session "a"
choice **c**:
  option "one":
    session "1"
let r = xs
  | filter:
      session "f"
  | map: session "m"
let s = session "a"
  -> session "b"
"#,
            expect![[r#"
                Region 1-2: "" .. "  session \"a\""
                Region 3-5: "" .. "    session \"1\""
                Region 4-5: "" .. "    session \"1\""
                Region 6-9: "" .. "  | map: session \"m\""
                Region 7-8: "" .. "      session \"f\""
                Region 10-11: "" .. "  -> session \"b\""
            "#]],
        );
    }

    #[test]
    fn strings_discretions_comments_and_brackets() {
        check(
            r#"# Title
# more title

# alone
session """
  long
  prompt
"""  # trailing
# two
# lines
if ***
  multi
***:
  session "x"
    context: [
      a,
      b,
    ]
"#,
            expect![[r##"
                Comment 1-2: "# Title" .. "# more title"
                String 5-8: "\"\"\"" .. "\"\"\""
                Comment 9-10: "# two" .. "# lines"
                String 11-13: "***" .. "***"
                Region 13-18: "" .. "    ]"
                Region 14-18: "" .. "    ]"
                Region 15-18: "" .. "    "
            "##]],
        );
    }

    #[test]
    fn broken_input() {
        for text in ["", "agent a:", "if **x**:\n", "let x = [\n  a,\n"] {
            check(text, expect![[""]]);
        }
        check(
            "session \"\"\"\nopen",
            expect![[r#"
                String 1-2: "\"\"\"" .. "open"
            "#]],
        );
        // The body after a header missing its `:` still folds.
        check(
            "if **x\n  y**:\n",
            expect![[r#"
                Region 1-2: "" .. "  y**:"
            "#]],
        );
        check(
            "agent a:\n  model: opus\n  prompt:\n",
            expect![[r#"
                Region 1-3: "" .. "  prompt:"
            "#]],
        );
    }
}
