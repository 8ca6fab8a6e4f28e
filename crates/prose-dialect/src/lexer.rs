//! The action lexer: from a `/` to the end of its action, in one forward
//! pass.
//!
//! An action is one line, extended by:
//! - a `"""` or fenced block that runs over several lines (to its closer);
//!   the rest of the closing line still belongs to the action;
//! - lines starting with `>` right below (a block quote: the content);
//! - a next line starting with `->` (the chain continues), or a next line
//!   starting with `/` when the line ended with `->`.
//!
//! Tokens are words (runs of non-blanks), strings (`"..."`, `“...”`),
//! `"""` blocks, fences (```` ``` ```` or `~~~`), block quotes, references
//! (`@...`, `@[...]`), the arrow `->` and verbs (the word after the `/` that
//! starts the action or follows an arrow). Nothing here allocates per
//! character; the only allocation is the token vector.

use crate::Span;

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// The word after `/` (the span excludes the `/`).
    Verb,
    Word,
    /// `"..."` on one line (the span includes the quotes).
    Str,
    /// `“...”`.
    SmartStr,
    /// `"""..."""`.
    Triple,
    /// A fenced block, opener to closer.
    Fence,
    /// One or more lines starting with `>`.
    Quote,
    /// `@name`, `@last.output`, `@[uri]`.
    Ref,
    /// `->`.
    Arrow,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    pub kind: Kind,
    pub span: Span,
    /// Whether a string, block or `@[...]` has its closer.
    pub closed: bool,
    /// Whether the token covers a line break.
    pub multiline: bool,
}

impl Token {
    fn new(kind: Kind, span: Span) -> Token {
        Token {
            kind,
            span,
            closed: true,
            multiline: false,
        }
    }

    /// Content-shaped: a string, a block or a quote.
    pub fn is_content(&self) -> bool {
        matches!(
            self.kind,
            Kind::Str | Kind::SmartStr | Kind::Triple | Kind::Fence | Kind::Quote
        )
    }
}

/// The end of the line holding `pos` (the `\n`, or the end of the text).
pub(crate) fn line_end(text: &str, pos: usize) -> usize {
    text.as_bytes()[pos..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(text.len(), |i| pos + i)
}

/// `end` without a `\r` just before it.
fn strip_cr(text: &str, start: usize, end: usize) -> usize {
    if end > start && text.as_bytes()[end - 1] == b'\r' {
        end - 1
    } else {
        end
    }
}

/// The first offset at or after `pos` that is not a blank (ASCII white
/// space other than the line break).
pub(crate) fn skip_blanks(text: &str, pos: usize) -> usize {
    let b = text.as_bytes();
    let mut i = pos;
    while i < b.len() && b[i] != b'\n' && b[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// Whether an action starts at `pos` (a `/`): a letter follows, and the
/// word it starts holds no other `/` (so `/usr/bin` is text, not an action).
pub(crate) fn is_action_start(text: &str, pos: usize) -> bool {
    let b = text.as_bytes();
    if b.get(pos) != Some(&b'/') || !b.get(pos + 1).is_some_and(u8::is_ascii_alphabetic) {
        return false;
    }
    let end = word_end(text, pos + 1);
    !text[pos + 1..end].contains('/')
}

/// The end of the run of non-blanks starting at `pos`.
fn word_end(text: &str, pos: usize) -> usize {
    text.as_bytes()[pos..]
        .iter()
        .position(|b| b.is_ascii_whitespace())
        .map_or(text.len(), |i| pos + i)
}

/// The end of the verb word at `pos`: letters, digits, `_` and `-`; an
/// attached `.`, `?` or `!` starts a marker instead (`/cancel!`); any other
/// character makes the whole run the (unknown) word.
fn verb_end(text: &str, pos: usize) -> usize {
    let b = text.as_bytes();
    let mut i = pos;
    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'-') {
        i += 1;
    }
    match b.get(i) {
        None | Some(b'.' | b'?' | b'!') => i,
        Some(c) if c.is_ascii_whitespace() => i,
        _ => word_end(text, i),
    }
}

/// The tokens of one action and where it ends.
#[derive(Debug)]
pub(crate) struct Lexed {
    pub tokens: Vec<Token>,
    /// The end of the action's last line (before its line break).
    pub end: usize,
}

/// Lexes the action whose `/` is at `start` (see [`is_action_start`]).
pub(crate) fn lex_action(text: &str, start: usize) -> Lexed {
    lex_action_into(text, start, Vec::with_capacity(8))
}

/// [`lex_action`] into `tokens` (cleared first), so a caller can reuse one
/// buffer for every action.
pub(crate) fn lex_action_into(text: &str, start: usize, mut tokens: Vec<Token>) -> Lexed {
    tokens.clear();
    let mut lx = Lexer {
        text,
        tokens,
        line: (1, 0),
    };
    let end = lx.run(start, true);
    Lexed {
        tokens: lx.tokens,
        end,
    }
}

/// Lexes the rest of a line that continues an action (after a batch's
/// closing `}`), with the same continuation rules.
pub(crate) fn lex_tail(text: &str, pos: usize) -> Lexed {
    let mut lx = Lexer {
        text,
        tokens: Vec::new(),
        line: (1, 0),
    };
    let end = lx.run(pos, false);
    Lexed {
        tokens: lx.tokens,
        end,
    }
}

struct Lexer<'t> {
    text: &'t str,
    tokens: Vec<Token>,
    /// The last line looked up, `start..end` (`end` its `\n` or the end of
    /// the text; no line break before it): a line with many strings asks
    /// for its end many times.
    line: (usize, usize),
}

impl Lexer<'_> {
    /// The end of the line holding `pos`, before a `\r`.
    fn eol(&mut self, pos: usize) -> usize {
        let (start, end) = self.line;
        if !(start <= pos && pos <= end) {
            self.line = (pos, line_end(self.text, pos));
        }
        strip_cr(self.text, pos, self.line.1)
    }

    /// Lexes from `pos` to the end of the action; returns that end.
    fn run(&mut self, mut pos: usize, verb_first: bool) -> usize {
        let text = self.text;
        let b = text.as_bytes();
        if verb_first {
            pos = self.verb(pos);
        }
        loop {
            pos = skip_blanks(text, pos);
            if pos >= b.len() || b[pos] == b'\n' {
                let eol = strip_cr(text, 0, pos);
                match self.continuation(eol) {
                    Some(next) => pos = next,
                    None => return eol,
                }
                continue;
            }
            pos = match b[pos] {
                b'"' if text[pos..].starts_with("\"\"\"") => self.triple(pos),
                b'"' => self.string(pos),
                b'`' | b'~' if fence_run(text, pos) >= 3 => self.fence(pos),
                b'@' => self.reference(pos),
                b'-' if is_arrow(b, pos) => {
                    self.tokens
                        .push(Token::new(Kind::Arrow, Span::new(pos, pos + 2)));
                    let next = skip_blanks(text, pos + 2);
                    if is_action_start(text, next) {
                        self.verb(next)
                    } else {
                        pos + 2
                    }
                }
                _ if text[pos..].starts_with('“') => self.smart_string(pos),
                _ => {
                    let end = word_end(text, pos);
                    self.tokens
                        .push(Token::new(Kind::Word, Span::new(pos, end)));
                    end
                }
            };
        }
    }

    /// The verb after the `/` at `slash`; an attached marker becomes a word.
    fn verb(&mut self, slash: usize) -> usize {
        let end = verb_end(self.text, slash + 1);
        self.tokens
            .push(Token::new(Kind::Verb, Span::new(slash + 1, end)));
        end
    }

    /// At the end of a line (`eol`): where the action goes on, if it does.
    fn continuation(&mut self, eol: usize) -> Option<usize> {
        let text = self.text;
        let next_line = line_end(text, eol) + 1;
        if next_line > text.len() {
            return None;
        }
        let first = skip_blanks(text, next_line);
        let dangling = self.tokens.last().is_some_and(|t| t.kind == Kind::Arrow);
        if dangling && is_action_start(text, first) {
            return Some(self.verb(first));
        }
        if is_arrow(text.as_bytes(), first) {
            return Some(first);
        }
        if text.as_bytes().get(first) == Some(&b'>') {
            return Some(self.quote(next_line));
        }
        None
    }

    /// Consecutive `>` lines from `line`; returns the end of the last one.
    fn quote(&mut self, mut line: usize) -> usize {
        let text = self.text;
        let start = skip_blanks(text, line);
        let mut end = start;
        while line <= text.len() {
            let first = skip_blanks(text, line);
            if text.as_bytes().get(first) != Some(&b'>') {
                break;
            }
            end = strip_cr(text, line, line_end(text, line));
            line = line_end(text, line) + 1;
        }
        let mut t = Token::new(Kind::Quote, Span::new(start, end));
        t.multiline = true;
        self.tokens.push(t);
        // The caller sees the end of the last quote line as its position.
        end
    }

    fn string(&mut self, pos: usize) -> usize {
        let text = self.text;
        let b = text.as_bytes();
        let eol = self.eol(pos);
        let mut i = pos + 1;
        while i < eol {
            match b[i] {
                b'\\' => i += 2,
                b'"' => {
                    self.tokens
                        .push(Token::new(Kind::Str, Span::new(pos, i + 1)));
                    return i + 1;
                }
                _ => i += 1,
            }
        }
        self.unclosed(Kind::Str, Span::new(pos, eol), false)
    }

    fn smart_string(&mut self, pos: usize) -> usize {
        let text = self.text;
        let eol = self.eol(pos);
        let open = '“'.len_utf8();
        match text[pos + open..eol].find('”') {
            Some(i) => {
                let end = pos + open + i + '”'.len_utf8();
                self.tokens
                    .push(Token::new(Kind::SmartStr, Span::new(pos, end)));
                end
            }
            None => self.unclosed(Kind::SmartStr, Span::new(pos, eol), false),
        }
    }

    fn triple(&mut self, pos: usize) -> usize {
        let text = self.text;
        match text[pos + 3..].find("\"\"\"") {
            Some(i) => {
                // A run of more than three quotes closes at its end.
                let mut end = pos + 3 + i + 3;
                while text.as_bytes().get(end) == Some(&b'"') {
                    end += 1;
                }
                let mut t = Token::new(Kind::Triple, Span::new(pos, end));
                t.multiline = text[pos..end].contains('\n');
                self.tokens.push(t);
                end
            }
            None => self.unclosed(Kind::Triple, Span::new(pos, text.len()), true),
        }
    }

    fn fence(&mut self, pos: usize) -> usize {
        let text = self.text;
        let run = fence_run(text, pos);
        let fence = &text[pos..pos + run];
        let eol = self.eol(pos);
        // Inline: ```code``` on one line.
        if let Some(i) = text[pos + run..eol].find(fence) {
            let end = pos + run + i + run;
            self.tokens
                .push(Token::new(Kind::Fence, Span::new(pos, end)));
            return end;
        }
        let mut line = line_end(text, pos) + 1;
        while line <= text.len() {
            let first = skip_blanks(text, line);
            let close = fence_run(text, first);
            let end = strip_cr(text, line, line_end(text, line));
            if close >= run
                && text.as_bytes()[first] == fence.as_bytes()[0]
                && (first + close == end || is_boundary(text.as_bytes(), first + close))
            {
                let mut t = Token::new(Kind::Fence, Span::new(pos, first + close));
                t.multiline = true;
                self.tokens.push(t);
                return first + close;
            }
            line = line_end(text, line) + 1;
        }
        self.unclosed(Kind::Fence, Span::new(pos, text.len()), true)
    }

    fn reference(&mut self, pos: usize) -> usize {
        let text = self.text;
        if text.as_bytes().get(pos + 1) == Some(&b'[') {
            let eol = self.eol(pos);
            return match text[pos..eol].find(']') {
                Some(i) => {
                    self.tokens
                        .push(Token::new(Kind::Ref, Span::new(pos, pos + i + 1)));
                    pos + i + 1
                }
                None => self.unclosed(Kind::Ref, Span::new(pos, eol), false),
            };
        }
        let end = word_end(text, pos);
        self.tokens.push(Token::new(Kind::Ref, Span::new(pos, end)));
        end
    }

    fn unclosed(&mut self, kind: Kind, span: Span, multiline: bool) -> usize {
        self.tokens.push(Token {
            kind,
            span,
            closed: false,
            multiline,
        });
        span.end
    }
}

/// How many fence characters (all the same, `` ` `` or `~`) start at `pos`.
fn fence_run(text: &str, pos: usize) -> usize {
    let b = text.as_bytes();
    match b.get(pos) {
        Some(&c @ (b'`' | b'~')) => b[pos..].iter().take_while(|&&x| x == c).count(),
        _ => 0,
    }
}

/// Whether `pos` is the end of the text or a blank.
fn is_boundary(b: &[u8], pos: usize) -> bool {
    b.get(pos).is_none_or(|c| c.is_ascii_whitespace())
}

/// Whether an arrow `->` stands at `pos`: followed by a blank, the end, or
/// a `/` (`->/tell`).
fn is_arrow(b: &[u8], pos: usize) -> bool {
    b.get(pos) == Some(&b'-')
        && b.get(pos + 1) == Some(&b'>')
        && (is_boundary(b, pos + 2) || b[pos + 2] == b'/')
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::{Expect, expect};

    fn check(text: &str, expect: Expect) {
        let start = text.find('/').unwrap();
        let lexed = lex_action(text, start);
        let mut out = String::new();
        for t in &lexed.tokens {
            let flags = match (t.closed, t.multiline) {
                (true, false) => "",
                (true, true) => " multiline",
                (false, false) => " unclosed",
                (false, true) => " unclosed multiline",
            };
            out.push_str(&format!("{:?} {:?}{flags}\n", t.kind, t.span.text(text)));
        }
        out.push_str(&format!("end {:?}\n", &text[..lexed.end]));
        expect.assert_eq(&out);
    }

    #[test]
    fn words_strings_refs_and_markers() {
        check(
            r#"/tell @anchor "should I do \"this\"?" ?ask"#,
            expect![[r#"
                Verb "tell"
                Ref "@anchor"
                Str "\"should I do \\\"this\\\"?\""
                Word "?ask"
                end "/tell @anchor \"should I do \\\"this\\\"?\" ?ask"
            "#]],
        );
        check(
            "/cancel! \n/next",
            expect![[r#"
                Verb "cancel"
                Word "!"
                end "/cancel! "
            "#]],
        );
        check(
            "/recall: notes“hi”  “x y”",
            expect![[r#"
                Verb "recall:"
                Word "notes“hi”"
                SmartStr "“x y”"
                end "/recall: notes“hi”  “x y”"
            "#]],
        );
    }

    #[test]
    fn chains_on_one_line_and_over_lines() {
        check(
            "/recall meeting notes -> /summarize -> /tell @entropy\nnext",
            expect![[r#"
                Verb "recall"
                Word "meeting"
                Word "notes"
                Arrow "->"
                Verb "summarize"
                Arrow "->"
                Verb "tell"
                Ref "@entropy"
                end "/recall meeting notes -> /summarize -> /tell @entropy"
            "#]],
        );
        check(
            "/recall x ->\r\n  /tell @a\r\n  -> /reply done\r\nafter",
            expect![[r#"
                Verb "recall"
                Word "x"
                Arrow "->"
                Verb "tell"
                Ref "@a"
                Arrow "->"
                Verb "reply"
                Word "done"
                end "/recall x ->\r\n  /tell @a\r\n  -> /reply done"
            "#]],
        );
        // A replace arrow is not a chain.
        check(
            r#"/context persona "old" -> "new""#,
            expect![[r#"
                Verb "context"
                Word "persona"
                Str "\"old\""
                Arrow "->"
                Str "\"new\""
                end "/context persona \"old\" -> \"new\""
            "#]],
        );
        // A dangling arrow before a line that is not an action.
        check(
            "/recall x ->\nplain text",
            expect![[r#"
                Verb "recall"
                Word "x"
                Arrow "->"
                end "/recall x ->"
            "#]],
        );
    }

    #[test]
    fn multi_line_blocks() {
        check(
            "/post bluesky \"\"\"\nmulti-line\ncontent\n\"\"\" ?public\n/next",
            expect![[r#"
                Verb "post"
                Word "bluesky"
                Triple "\"\"\"\nmulti-line\ncontent\n\"\"\"" multiline
                Word "?public"
                end "/post bluesky \"\"\"\nmulti-line\ncontent\n\"\"\" ?public"
            "#]],
        );
        check(
            "/recall patch notes ```diff\n- a\n+ b\n  ```\n/next",
            expect![[r#"
                Verb "recall"
                Word "patch"
                Word "notes"
                Fence "```diff\n- a\n+ b\n  ```" multiline
                end "/recall patch notes ```diff\n- a\n+ b\n  ```"
            "#]],
        );
        check(
            "/post bluesky\n> block quote\n  > also works\nafter",
            expect![[r#"
                Verb "post"
                Word "bluesky"
                Quote "> block quote\n  > also works" multiline
                end "/post bluesky\n> block quote\n  > also works"
            "#]],
        );
        check(
            "/calc ```1+1``` ~~~~x~~~~",
            expect![[r#"
                Verb "calc"
                Fence "```1+1```"
                Fence "~~~~x~~~~"
                end "/calc ```1+1``` ~~~~x~~~~"
            "#]],
        );
    }

    #[test]
    fn unterminated_blocks() {
        check(
            "/reply \"open\n/next",
            expect![[r#"
                Verb "reply"
                Str "\"open" unclosed
                end "/reply \"open"
            "#]],
        );
        check(
            "/post x \"\"\"\nnever closed\n/next",
            expect![[r#"
                Verb "post"
                Word "x"
                Triple "\"\"\"\nnever closed\n/next" unclosed multiline
                end "/post x \"\"\"\nnever closed\n/next"
            "#]],
        );
        check(
            "/post x ```\nnever closed",
            expect![[r#"
                Verb "post"
                Word "x"
                Fence "```\nnever closed" unclosed multiline
                end "/post x ```\nnever closed"
            "#]],
        );
        check(
            "/fetch @[https://x.y/a b",
            expect![[r#"
                Verb "fetch"
                Ref "@[https://x.y/a b" unclosed
                end "/fetch @[https://x.y/a b"
            "#]],
        );
    }

    #[test]
    fn action_starts() {
        assert!(is_action_start("/recall", 0));
        assert!(is_action_start("x /a b", 2));
        assert!(!is_action_start("/usr/bin/env", 0));
        assert!(!is_action_start("// comment", 0));
        assert!(!is_action_start("/ x", 0));
        assert!(!is_action_start("/1x", 0));
        assert!(!is_action_start("/", 0));
    }
}
