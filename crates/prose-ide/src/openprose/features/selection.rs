//! Selection ranges ("expand selection"): for a cursor, the chain of ever
//! larger ranges around it, from the word under it to the whole file.
//!
//! The chain: the word (inside a string's text, a comment or a discretion:
//! the run of letters, digits, `_` and `-`), the line of a multi-line text,
//! a discretion's text without its stars, the token; then each enclosing
//! node — a string's content before the string itself, and every node
//! without the blanks and line breaks at its edges, so a statement is
//! selected without its line break and a body from its first statement to
//! its last token; finally the whole file. Each range strictly contains the
//! previous one (equal ranges appear once).

use prose_syntax::{
    AstNode, SyntaxKind, SyntaxKind::*, SyntaxNode, SyntaxToken, TextRange, TextSize, ast, lines,
};

/// The chain of growing ranges around `offset` (clamped to the file).
pub fn selection_chain(root: &SyntaxNode, offset: TextSize) -> Vec<TextRange> {
    let mut chain = Chain(Vec::new());
    let offset = offset.min(root.text_range().end());
    if let Some(token) = pick_token(root.token_at_offset(offset).collect()) {
        token_ranges(&token, offset, &mut chain);
        for node in token.parent_ancestors() {
            if node.kind() == STRING
                && let Some(s) = ast::StringLit::cast(node.clone())
            {
                chain.push(s.content_range());
            }
            if let Some(range) = trimmed(&node) {
                chain.push(range);
            }
        }
    }
    chain.push(root.text_range());
    chain.0
}

/// Ranges that only grow: a range that does not contain the last one, or
/// equals it, is skipped.
struct Chain(Vec<TextRange>);

impl Chain {
    fn push(&mut self, range: TextRange) {
        match self.0.last() {
            Some(last) if *last == range || !range.contains_range(*last) => {}
            _ => self.0.push(range),
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
/// nothing: the chain starts at their node).
fn token_ranges(token: &SyntaxToken, offset: TextSize, chain: &mut Chain) {
    let kind = token.kind();
    if matches!(kind, WHITESPACE | NEWLINE) {
        return;
    }
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

/// A node's range without the blanks and line breaks at its edges.
fn trimmed(node: &SyntaxNode) -> Option<TextRange> {
    let visible = |t: &SyntaxToken| !matches!(t.kind(), WHITESPACE | NEWLINE);
    let mut tokens = node
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
        .filter(visible);
    let first = tokens.next()?;
    let last = tokens.last().unwrap_or_else(|| first.clone());
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
                "session \"x\""
                "if **x**:\n  session \"x\""
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
            "session \"x\""
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
            "let x = [a,"
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
        // Past the end: as at the end, in the last statement's line break.
        let end = prose_syntax::TextRange::new(12.into(), 23.into());
        assert_eq!(chains[2][0], end);
    }
}
