//! Selection ranges ("expand selection"): for a cursor, the chain of ever
//! larger ranges around it, from the word under it to the whole file.
//!
//! The chain: the word (inside a string's text, a comment or a discretion:
//! the run of letters, digits, `_` and `-`), the line of a multi-line text,
//! a discretion's text without its stars, the token; then each enclosing
//! node — a string's content before the string itself, and every node
//! without the blanks and line breaks at its edges, so a statement is
//! selected without its line break and a body from its first statement to
//! its last token; finally the whole file. The first range holds the
//! cursor (on a blank, it is the blank; at the end of the file, the last
//! token), and each range strictly contains the previous one (equal ranges
//! appear once): a node whose trimmed range would not hold what came
//! before is taken whole, and a discretion's text without its stars only
//! when the cursor is in it. Editors reject chains that break these rules.

use std::collections::HashMap;

use prose_syntax::{
    AstNode, SyntaxKind, SyntaxKind::*, SyntaxNode, SyntaxToken, TextRange, TextSize, ast, lines,
};

/// The chain of growing ranges around `offset` (clamped to the file).
pub fn selection_chain(root: &SyntaxNode, offset: TextSize) -> Vec<TextRange> {
    Selector::new(root).chain(offset)
}

/// Computes chains for many offsets of one file: each node's trimmed range
/// is found once, so a chain costs the depth of the tree at its offset,
/// not the size of the file.
pub struct Selector<'a> {
    root: &'a SyntaxNode,
    trimmed: HashMap<(TextRange, SyntaxKind), Option<TextRange>>,
}

impl<'a> Selector<'a> {
    pub fn new(root: &'a SyntaxNode) -> Self {
        Selector {
            root,
            trimmed: HashMap::new(),
        }
    }

    /// The chain at `offset` (clamped to the file).
    pub fn chain(&mut self, offset: TextSize) -> Vec<TextRange> {
        let offset = offset.min(self.root.text_range().end());
        let mut chain = Chain {
            offset,
            ranges: Vec::new(),
        };
        if let Some(token) = pick_token(ast::token_at_offset(self.root, offset).collect()) {
            token_ranges(&token, offset, &mut chain);
            for node in token.parent_ancestors() {
                if node.kind() == STRING
                    && let Some(s) = ast::StringLit::cast(node.clone())
                {
                    chain.push(s.content_range());
                }
                // Without its blanks when that still holds what came
                // before (not when the cursor is in those blanks).
                match self.trimmed(&node) {
                    Some(range) if chain.holds(range) => chain.push(range),
                    _ => chain.push(node.text_range()),
                }
            }
        }
        chain.push(self.root.text_range());
        chain.ranges
    }

    fn trimmed(&mut self, node: &SyntaxNode) -> Option<TextRange> {
        *self
            .trimmed
            .entry((node.text_range(), node.kind()))
            .or_insert_with(|| trimmed(node))
    }
}

/// Ranges that only grow, from one that holds the cursor: a range that
/// does not contain the last one (or, first, the cursor), or equals it,
/// is skipped.
struct Chain {
    offset: TextSize,
    ranges: Vec<TextRange>,
}

impl Chain {
    /// Whether `range` holds the last range (or, first, the cursor).
    fn holds(&self, range: TextRange) -> bool {
        match self.ranges.last() {
            Some(last) => range.contains_range(*last),
            None => range.contains_inclusive(self.offset),
        }
    }

    fn push(&mut self, range: TextRange) {
        if self.holds(range) && self.ranges.last() != Some(&range) {
            self.ranges.push(range);
        }
    }
}

/// Between two tokens, the more interesting one: a word, then any other
/// visible token, then trivia; the right one on a tie.
fn pick_token(at: Vec<SyntaxToken>) -> Option<SyntaxToken> {
    fn score(kind: SyntaxKind) -> u8 {
        match kind {
            IDENT | NUMBER => 3,
            k if k.is_keyword() => 3,
            WHITESPACE | NEWLINE => 0,
            _ => 2,
        }
    }
    // Zero, one or two tokens; `max_by_key` keeps the last (right) on a tie.
    at.into_iter().max_by_key(|t| score(t.kind()))
}

/// The ranges inside a token, then the token (blanks and line breaks give
/// only themselves).
fn token_ranges(token: &SyntaxToken, offset: TextSize, chain: &mut Chain) {
    let kind = token.kind();
    let range = token.text_range();
    if matches!(kind, STRING_TEXT | COMMENT | DISCRETION) {
        let text = token.text();
        // An offset inside a multi-byte character counts as its start.
        let mut at = usize::from(offset - range.start());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let shift = |r: std::ops::Range<usize>| {
            TextRange::new(
                range.start() + TextSize::from(r.start as u32),
                range.start() + TextSize::from(r.end as u32),
            )
        };
        if let Some(word) = word_at(text, at) {
            chain.push(shift(word));
        }
        if lines::has_line_break(text) {
            let start = lines::line_start(text, at);
            let end = lines::line_end(text, at);
            if let Some(line) = trim(text, start..end) {
                chain.push(shift(line));
            }
        }
        if kind == DISCRETION {
            let open = text.bytes().take_while(|&b| b == b'*').count();
            let close = text[open..]
                .bytes()
                .rev()
                .take_while(|&b| b == b'*')
                .count();
            if let Some(inner) = trim(text, open..text.len() - close) {
                chain.push(shift(inner));
            }
        }
    }
    chain.push(range);
}

/// The word around byte `at` of `text`: letters, digits, `_` and `-`.
fn word_at(text: &str, at: usize) -> Option<std::ops::Range<usize>> {
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    let start = text[..at]
        .char_indices()
        .rev()
        .take_while(|&(_, c)| is_word(c))
        .last()
        .map_or(at, |(i, _)| i);
    let end = text[at..]
        .char_indices()
        .find(|&(_, c)| !is_word(c))
        .map_or(text.len(), |(i, _)| at + i);
    (start < end).then_some(start..end)
}

/// `range` of `text` without surrounding whitespace; `None` if blank.
fn trim(text: &str, range: std::ops::Range<usize>) -> Option<std::ops::Range<usize>> {
    let piece = &text[range.clone()];
    let start = range.start + (piece.len() - piece.trim_start().len());
    let end = range.end - (piece.len() - piece.trim_end().len());
    (start < end).then_some(start..end)
}

/// A node's range without the blanks and line breaks at its edges: from
/// its first token forwards and its last token backwards, so the cost is
/// the length of those blank runs, not the size of the node.
fn trimmed(node: &SyntaxNode) -> Option<TextRange> {
    let range = node.text_range();
    let blank = |t: &SyntaxToken| matches!(t.kind(), WHITESPACE | NEWLINE);
    let within = |t: &SyntaxToken| range.contains_range(t.text_range());
    let first = std::iter::successors(node.first_token(), |t| t.next_token())
        .take_while(within)
        .find(|t| !blank(t))?;
    let last = std::iter::successors(node.last_token(), |t| t.prev_token())
        .take_while(within)
        .find(|t| !blank(t))?;
    Some(first.text_range().cover(last.text_range()))
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};

    use crate::fixture::Fixture;

    /// Renders the chain at the `$0` cursor, one range per line, as text.
    fn check(fixture: &str, expect: Expect) {
        let (host, pos) = Fixture::parse(fixture).position();
        let analysis = host.analysis();
        let text = analysis.file_text(pos.file).unwrap();
        let chains = analysis
            .selection_ranges(pos.file, vec![pos.offset])
            .unwrap();
        assert_eq!(chains.len(), 1);
        let mut out = String::new();
        for r in &chains[0] {
            out.push_str(&format!("{:?}\n", &text[*r]));
        }
        expect.assert_eq(&out);
    }

    #[test]
    fn from_a_word_in_a_string_to_the_file() {
        check(
            r#"agent a:
  model: opus
if **ok**:
  session: a
    prompt: "Write a sh$0ort poem"
"#,
            expect![[r#"
                "short"
                "Write a short poem"
                "\"Write a short poem\""
                "prompt: \"Write a short poem\""
                "session: a\n    prompt: \"Write a short poem\""
                "if **ok**:\n  session: a\n    prompt: \"Write a short poem\""
                "agent a:\n  model: opus\nif **ok**:\n  session: a\n    prompt: \"Write a short poem\""
                "agent a:\n  model: opus\nif **ok**:\n  session: a\n    prompt: \"Write a short poem\"\n"
            "#]],
        );
    }

    #[test]
    fn names_expressions_and_statements() {
        check(
            r#"let x = session "a" -> do rev$0iew(x)
"#,
            expect![[r#"
                "review"
                "do review(x)"
                "session \"a\" -> do review(x)"
                "let x = session \"a\" -> do review(x)"
                "let x = session \"a\" -> do review(x)\n"
            "#]],
        );
    }

    #[test]
    fn interpolations_and_multi_line_text() {
        check(
            "session \"\"\"\n  Use {top$0ic.name} here\n\"\"\"\n",
            expect![[r#"
                "topic"
                "{topic.name}"
                "\n  Use {topic.name} here\n"
                "\"\"\"\n  Use {topic.name} here\n\"\"\""
                "session \"\"\"\n  Use {topic.name} here\n\"\"\""
                "session \"\"\"\n  Use {topic.name} here\n\"\"\"\n"
            "#]],
        );
        check(
            "if ***\n  the wo$0rk is\n  done\n***:\n  session \"x\"\n",
            expect![[r#"
                "work"
                "the work is"
                "the work is\n  done"
                "***\n  the work is\n  done\n***"
                "if ***\n  the work is\n  done\n***:\n  session \"x\""
                "if ***\n  the work is\n  done\n***:\n  session \"x\"\n"
            "#]],
        );
    }

    #[test]
    fn bodies_comments_and_blanks() {
        check(
            "parallel:\n  a = session \"a\"\n  b = ses$0sion \"b\"\n",
            expect![[r#"
                "session"
                "session \"b\""
                "b = session \"b\""
                "a = session \"a\"\n  b = session \"b\""
                "parallel:\n  a = session \"a\"\n  b = session \"b\""
                "parallel:\n  a = session \"a\"\n  b = session \"b\"\n"
            "#]],
        );
        check(
            "# a co$0mment here\nsession \"x\"\n",
            expect![[r##"
                "comment"
                "# a comment here"
                "# a comment here\nsession \"x\""
                "# a comment here\nsession \"x\"\n"
            "##]],
        );
        check(
            "if **x**:\n $0 session \"x\"\n",
            expect![[r#"
                "  "
                "\n  session \"x\"\n"
                "if **x**:\n  session \"x\"\n"
            "#]],
        );
    }

    #[test]
    fn edges_and_broken_input() {
        check(
            "$0",
            expect![[r#"
            ""
        "#]],
        );
        check(
            "session \"x\"\n$0",
            expect![[r#"
                "\n"
                "session \"x\"\n"
            "#]],
        );
        check(
            "session \"unterminated te$0xt",
            expect![[r#"
            "text"
            "unterminated text"
            "\"unterminated text"
            "session \"unterminated text"
        "#]],
        );
        check(
            "let x = [a, $0",
            expect![[r#"
                " "
                "let x = [a, "
            "#]],
        );
    }

    #[test]
    fn offsets_inside_a_character() {
        let text = "# a → b\nsession \"é\"\n";
        let (host, file) = Fixture::parse(text).host(None);
        let offsets = (0..=text.len() as u32 + 1).map(Into::into).collect();
        let chains = host.analysis().selection_ranges(file, offsets).unwrap();
        assert!(
            chains
                .iter()
                .all(|c| c.last() == Some(&prose_syntax::TextRange::up_to(23.into())))
        );
    }

    #[test]
    fn several_offsets_at_once() {
        let (host, file) = Fixture::parse("session \"a\"\nsession \"b\"\n").host(None);
        let chains = host
            .analysis()
            .selection_ranges(file, vec![0.into(), 14.into(), 1000.into()])
            .unwrap();
        assert_eq!(chains.len(), 3);
        assert_eq!(
            chains[0][0],
            prose_syntax::TextRange::new(0.into(), 7.into())
        );
        assert_eq!(
            chains[1][0],
            prose_syntax::TextRange::new(12.into(), 19.into())
        );
        // Past the end: as at the end, from the last line break.
        let end = prose_syntax::TextRange::new(23.into(), 24.into());
        assert_eq!(chains[2][0], end);
    }

    /// At every offset (the end of the file, blanks, empty lines, a
    /// discretion's stars, a BOM), the first range holds the cursor and each
    /// range strictly holds the one before: what editors require.
    #[test]
    fn every_chain_starts_at_the_cursor_and_grows() {
        for text in [
            "\u{FEFF}session \"Hello world\"\n",
            "agent a:\n  model: opus\n\n\n   \nif **ready**:\n  session: a\n\n",
            "if ***\n  multi\n***:\n  session \"x\"  # note\n\t\n",
            "let x = [a,\n\n  b, **c**]\r\nsession \"\"\"\n  {x}\n\"\"\"",
            "",
            "\n\n",
        ] {
            let (host, file) = Fixture::parse(text).host(None);
            let offsets: Vec<_> = (0..=text.len() as u32).map(Into::into).collect();
            let chains = host
                .analysis()
                .selection_ranges(file, offsets.clone())
                .unwrap();
            for (offset, chain) in offsets.iter().zip(&chains) {
                let first = chain.first().expect("a chain is never empty");
                assert!(
                    first.contains_inclusive(*offset),
                    "{text:?} at {offset:?}: {chain:?}"
                );
                for pair in chain.windows(2) {
                    assert!(
                        pair[1] != pair[0] && pair[1].contains_range(pair[0]),
                        "{text:?} at {offset:?}: {chain:?}"
                    );
                }
            }
        }
    }
}
