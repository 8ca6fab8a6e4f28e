//! The lexer: source text -> flat list of raw tokens (every byte covered).
//!
//! A logos automaton recognises the outer tokens. String literals and
//! discretion markers are consumed *whole* by callbacks, so that nothing
//! inside `"""..."""` or `***...***` can ever produce layout tokens. A string
//! is then split into pieces (open quote, text, escapes, `{name}`
//! interpolations, close quote) so the tree can describe it precisely.
//!
//! Decisions (see docs/syntax.md):
//! - a `"""` string closes at the first run of three or more quotes; in a
//!   run of N > 3 quotes the first N - 3 belong to the content
//!   (`"""Is it?""""` has content `Is it?"`);
//! - text may follow the opening `"""` and precede the closing one;
//! - valid escapes are `\\ \" \n \t \{ \}`; any other escape is E002;
//! - `{name}` and `{name.field}` are interpolations; any other `{...}`
//!   (JSON, code, `{}`) is literal text;
//! - `**text**` ends at the first `**` on the same line; `***text***` may
//!   span lines and ends at the next `***`; exactly `****` is an empty
//!   discretion.

use logos::Logos;
use text_size::{TextRange, TextSize};

use crate::{SyntaxError, SyntaxErrorCode, SyntaxKind, SyntaxKind::*};

/// The lexed form of a text: token kinds and their start offsets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lexed {
    pub(crate) kinds: Vec<SyntaxKind>,
    /// `starts[i]` is the offset of token `i`; `starts[len]` is the text length.
    pub(crate) starts: Vec<u32>,
    pub(crate) errors: Vec<SyntaxError>,
}

impl Lexed {
    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    pub fn kind(&self, i: usize) -> SyntaxKind {
        self.kinds[i]
    }

    pub fn range(&self, i: usize) -> TextRange {
        TextRange::new(self.starts[i].into(), self.starts[i + 1].into())
    }

    pub fn errors(&self) -> &[SyntaxError] {
        &self.errors
    }

    /// `(kind, text)` pairs, for tests and `prose dump-tokens`.
    pub fn iter<'a>(&'a self, text: &'a str) -> impl Iterator<Item = (SyntaxKind, &'a str)> + 'a {
        (0..self.len()).map(move |i| (self.kinds[i], &text[self.range(i)]))
    }
}

// Runs of whitespace, comments and hyphenated identifiers are extended by
// callbacks rather than by repetition in the regex: the automaton logos
// generates makes a (non-tail) call per loop iteration that crosses states,
// so in unoptimised builds a long comment of non-ASCII text, a long run of
// BOMs or an identifier with many `-` segments overflowed the stack.
#[derive(Logos, Debug, Clone, Copy, PartialEq, Eq)]
enum Outer {
    #[regex(r"[ \t\x0C\u{FEFF}]", lex_blanks)]
    #[token("\r")]
    Whitespace,
    #[regex(r"\r?\n")]
    Newline,
    #[token("#", lex_to_line_end)]
    Comment,
    #[regex(r"[A-Za-z_][A-Za-z0-9_]*", lex_ident_tail)]
    Ident,
    /// Numbers, optionally with a unit suffix real programs use (`120s`).
    #[regex(r"[0-9]+(\.[0-9]+)?[A-Za-z_]*")]
    Number,
    #[token("\"", lex_string)]
    String(StringShape),
    #[token("**", lex_discretion)]
    Discretion(bool),
    #[token(":")]
    Colon,
    #[token(",")]
    Comma,
    #[token(".")]
    Dot,
    #[token("...")]
    Ellipsis,
    #[token("=")]
    Eq,
    #[token("==")]
    Eq2,
    #[token("!=")]
    Neq,
    #[token("<")]
    Lt,
    #[token("<=")]
    LtEq,
    #[token(">")]
    Gt,
    #[token(">=")]
    GtEq,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("[")]
    LBrack,
    #[token("]")]
    RBrack,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token("->")]
    Arrow,
    #[token("|")]
    Pipe,
    #[token("||")]
    Pipe2,
    #[token("&&")]
    Amp2,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("/")]
    Slash,
    #[token("%")]
    Percent,
    #[token("!")]
    Bang,
    #[token("?")]
    Question,
}

/// Called after one blank: consumes the rest of the run of spaces, tabs,
/// form feeds and BOMs.
fn lex_blanks(lex: &mut logos::Lexer<'_, Outer>) {
    let rest = lex.remainder().as_bytes();
    let mut i = 0;
    loop {
        match rest.get(i) {
            Some(b' ' | b'\t' | b'\x0C') => i += 1,
            Some(0xEF) if rest[i..].starts_with("\u{FEFF}".as_bytes()) => i += 3,
            _ => break,
        }
    }
    lex.bump(i);
}

/// Called after `#`: consumes the comment up to (not including) the line end.
fn lex_to_line_end(lex: &mut logos::Lexer<'_, Outer>) {
    let rest = lex.remainder().as_bytes();
    let len = rest
        .iter()
        .position(|&b| b == b'\n' || b == b'\r')
        .unwrap_or(rest.len());
    lex.bump(len);
}

/// Called after a word: consumes the `-word` segments of a hyphenated name.
fn lex_ident_tail(lex: &mut logos::Lexer<'_, Outer>) {
    let rest = lex.remainder().as_bytes();
    if rest.first() != Some(&b'-') {
        return;
    }
    let word = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_';
    let mut i = 0;
    while rest.get(i) == Some(&b'-') && rest.get(i + 1).is_some_and(word) {
        i += 1 + rest[i + 1..].iter().take_while(|b| word(b)).count();
    }
    lex.bump(i);
}

/// How a string literal is delimited and whether it was closed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct StringShape {
    triple: bool,
    terminated: bool,
}

/// Called after an opening `"`: consumes the rest of the string literal.
fn lex_string(lex: &mut logos::Lexer<'_, Outer>) -> StringShape {
    let rest = lex.remainder().as_bytes();
    if rest.starts_with(b"\"\"") {
        // `"""`: a triple-quoted string (possibly empty: `""""""`).
        let body = &rest[2..];
        let (len, terminated) = scan_triple(body);
        lex.bump(2 + len);
        StringShape {
            triple: true,
            terminated,
        }
    } else {
        let (len, terminated) = scan_single(rest);
        lex.bump(len);
        StringShape {
            triple: false,
            terminated,
        }
    }
}

/// Length of a single-line string body including its closing quote, and
/// whether the quote was found. Stops before a newline.
fn scan_single(bytes: &[u8]) -> (usize, bool) {
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => return (i + 1, true),
            b'\n' | b'\r' => return (i, false),
            b'\\' => {
                // An escape swallows the next character unless it ends the line.
                match bytes.get(i + 1) {
                    Some(b'\n') | Some(b'\r') | None => i += 1,
                    Some(_) => i += 2,
                }
            }
            _ => i += 1,
        }
    }
    (i, false)
}

/// Length of a triple-quoted string body including its closing delimiter.
fn scan_triple(bytes: &[u8]) -> (usize, bool) {
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => {
                let run = bytes[i..].iter().take_while(|&&b| b == b'"').count();
                if run >= 3 {
                    return (i + run, true);
                }
                i += run;
            }
            _ => i += 1,
        }
    }
    (bytes.len(), false)
}

/// Called after `**`: consumes a discretion condition. Returns whether it was closed.
fn lex_discretion(lex: &mut logos::Lexer<'_, Outer>) -> bool {
    let rest = lex.remainder().as_bytes();
    if rest.starts_with(b"**") && rest.get(2) != Some(&b'*') {
        // Exactly `****`: an empty discretion (the validator's P708), not
        // a `***` opener missing its close.
        lex.bump(2);
        true
    } else if rest.first() == Some(&b'*') {
        // `***`: multi-line form; ends at the next run of three or more stars.
        let body = &rest[1..];
        let mut i = 0;
        while i < body.len() {
            if body[i] == b'*' {
                let run = body[i..].iter().take_while(|&&b| b == b'*').count();
                if run >= 3 {
                    lex.bump(1 + i + run);
                    return true;
                }
                i += run;
            } else {
                i += 1;
            }
        }
        lex.bump(rest.len());
        false
    } else if at_line_end(rest) {
        // `**` closing its line opens a block discretion (as real programs
        // write `input x: **` ... `**`): it ends at the next `**`.
        match find(rest, b"**") {
            Some(i) => {
                lex.bump(i + 2);
                true
            }
            None => {
                lex.bump(rest.len());
                false
            }
        }
    } else {
        let mut i = 0;
        while i < rest.len() {
            match rest[i] {
                b'\n' | b'\r' => break,
                b'*' if rest.get(i + 1) == Some(&b'*') => {
                    lex.bump(i + 2);
                    return true;
                }
                _ => i += 1,
            }
        }
        lex.bump(i);
        false
    }
}

/// Whether only spaces or tabs separate the start of `bytes` from a newline.
fn at_line_end(bytes: &[u8]) -> bool {
    let ws = bytes
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    matches!(bytes.get(ws), Some(b'\n') | Some(b'\r'))
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Lexes `text` into raw tokens. Never fails: unknown input becomes
/// `ERROR_TOKEN`s and lexical problems are reported as errors.
pub fn lex(text: &str) -> Lexed {
    let mut out = Lexed {
        kinds: Vec::with_capacity(text.len() / 4),
        starts: Vec::with_capacity(text.len() / 4 + 1),
        errors: Vec::new(),
    };
    assert!(
        text.len() <= u32::MAX as usize,
        "texts over 4 GiB are not supported"
    );
    let mut lexer = Outer::lexer(text);
    while let Some(result) = lexer.next() {
        let span = lexer.span();
        let start = span.start as u32;
        let kind = match result {
            Ok(Outer::Whitespace) => WHITESPACE,
            Ok(Outer::Newline) => NEWLINE,
            Ok(Outer::Comment) => COMMENT,
            Ok(Outer::Ident) => SyntaxKind::from_keyword(lexer.slice()).unwrap_or(IDENT),
            Ok(Outer::Number) => NUMBER,
            Ok(Outer::String(shape)) => {
                split_string(&text[span.clone()], start, shape, &mut out);
                continue;
            }
            Ok(Outer::Discretion(closed)) => {
                if !closed {
                    let triple = text[span.clone()].starts_with("***");
                    let open = if triple { 3 } else { 2 };
                    out.errors.push(SyntaxError::new(
                        SyntaxErrorCode::E005,
                        if triple {
                            "Unterminated discretion condition: `***` needs a closing `***`"
                        } else {
                            "Unterminated discretion condition: `**` needs a closing `**` on the same line"
                        },
                        TextRange::at(start.into(), TextSize::from(open)),
                    ));
                }
                DISCRETION
            }
            Ok(Outer::Colon) => COLON,
            Ok(Outer::Comma) => COMMA,
            Ok(Outer::Dot) => DOT,
            Ok(Outer::Ellipsis) => ELLIPSIS,
            Ok(Outer::Eq) => EQ,
            Ok(Outer::Eq2) => EQ2,
            Ok(Outer::Neq) => NEQ,
            Ok(Outer::Lt) => LT,
            Ok(Outer::LtEq) => LTEQ,
            Ok(Outer::Gt) => GT,
            Ok(Outer::GtEq) => GTEQ,
            Ok(Outer::LParen) => L_PAREN,
            Ok(Outer::RParen) => R_PAREN,
            Ok(Outer::LBrack) => L_BRACK,
            Ok(Outer::RBrack) => R_BRACK,
            Ok(Outer::LBrace) => L_BRACE,
            Ok(Outer::RBrace) => R_BRACE,
            Ok(Outer::Arrow) => ARROW,
            Ok(Outer::Pipe) => PIPE,
            Ok(Outer::Pipe2) => PIPE2,
            Ok(Outer::Amp2) => AMP2,
            Ok(Outer::Plus) => PLUS,
            Ok(Outer::Minus) => MINUS,
            Ok(Outer::Star) => STAR,
            Ok(Outer::Slash) => SLASH,
            Ok(Outer::Percent) => PERCENT,
            Ok(Outer::Bang) => BANG,
            Ok(Outer::Question) => QUESTION,
            Err(()) => ERROR_TOKEN,
        };
        // Merge runs of unrecognised characters into one error token.
        if kind == ERROR_TOKEN && out.kinds.last() == Some(&ERROR_TOKEN) {
            continue;
        }
        out.kinds.push(kind);
        out.starts.push(start);
    }
    out.starts.push(text.len() as u32);
    out
}

/// Splits one string literal (`text`, starting at `base`) into pieces.
fn split_string(text: &str, base: u32, shape: StringShape, out: &mut Lexed) {
    let bytes = text.as_bytes();
    let open = if shape.triple { 3 } else { 1 };
    let close = if !shape.terminated { 0 } else { open };
    let content_end = text.len() - close;
    let push = |kind: SyntaxKind, at: usize, out: &mut Lexed| {
        out.kinds.push(kind);
        out.starts.push(base + at as u32);
    };
    push(STRING_OPEN, 0, out);
    if !shape.terminated {
        out.errors.push(SyntaxError::new(
            SyntaxErrorCode::E001,
            if shape.triple {
                "Unterminated string literal: `\"\"\"` needs a closing `\"\"\"`"
            } else {
                "Unterminated string literal"
            },
            TextRange::at(base.into(), TextSize::from(open as u32)),
        ));
    }
    let mut i = open;
    let mut text_start: Option<usize> = None;
    while i < content_end {
        match bytes[i] {
            b'\\' => {
                if let Some(s) = text_start.take() {
                    push(STRING_TEXT, s, out);
                }
                // The escaped character may be multi-byte; an escape at the very
                // end of an unterminated string has no character at all.
                let ch_len = text[i + 1..content_end]
                    .chars()
                    .next()
                    .map_or(0, char::len_utf8);
                let esc = &text[i..i + 1 + ch_len];
                push(STRING_ESCAPE, i, out);
                if !matches!(esc, "\\\\" | "\\\"" | "\\n" | "\\t" | "\\{" | "\\}") {
                    let shown = if ch_len == 0 || esc.ends_with(['\n', '\r']) {
                        ": a backslash at the end of a line".to_string()
                    } else {
                        format!(" `{esc}`")
                    };
                    out.errors.push(SyntaxError::new(
                        SyntaxErrorCode::E002,
                        format!(
                            "Unknown escape sequence{shown}; valid escapes are \\\\, \\\", \\n, \\t, \\{{ and \\}}"
                        ),
                        TextRange::at((base + i as u32).into(), TextSize::from((1 + ch_len) as u32)),
                    ));
                }
                i += 1 + ch_len;
            }
            b'{' => {
                if let Some(len) = interpolation_len(&bytes[i..content_end]) {
                    if let Some(s) = text_start.take() {
                        push(STRING_TEXT, s, out);
                    }
                    push(INTERP_OPEN, i, out);
                    let mut j = i + 1;
                    let end = i + len - 1;
                    while j < end {
                        if bytes[j] == b'.' {
                            push(DOT, j, out);
                            j += 1;
                        } else {
                            push(IDENT, j, out);
                            j += bytes[j..end].iter().take_while(|&&b| b != b'.').count();
                        }
                    }
                    push(INTERP_CLOSE, end, out);
                    i += len;
                } else {
                    text_start.get_or_insert(i);
                    i += 1;
                }
            }
            _ => {
                text_start.get_or_insert(i);
                i += 1;
            }
        }
    }
    if let Some(s) = text_start.take() {
        push(STRING_TEXT, s, out);
    }
    if shape.terminated {
        push(STRING_CLOSE, content_end, out);
    }
}

/// If `bytes` starts with `{ident(.ident)*}`, the length including braces.
fn interpolation_len(bytes: &[u8]) -> Option<usize> {
    let mut i = 1;
    loop {
        let seg = ident_len(&bytes[i..])?;
        i += seg;
        match bytes.get(i)? {
            b'.' => i += 1,
            b'}' => return Some(i + 1),
            _ => return None,
        }
    }
}

/// Length of an identifier (`[A-Za-z_][A-Za-z0-9_]*(-[A-Za-z0-9_]+)*`) at the
/// start of `bytes`.
pub(crate) fn ident_len(bytes: &[u8]) -> Option<usize> {
    let first = *bytes.first()?;
    if !(first.is_ascii_alphabetic() || first == b'_') {
        return None;
    }
    let word = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_';
    let mut i = 1 + bytes[1..].iter().take_while(|b| word(b)).count();
    while bytes.get(i) == Some(&b'-') && bytes.get(i + 1).is_some_and(word) {
        i += 1 + bytes[i + 1..].iter().take_while(|b| word(b)).count();
    }
    Some(i)
}

/// Whether `text` is one whole identifier.
pub fn is_ident(text: &str) -> bool {
    ident_len(text.as_bytes()) == Some(text.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::{Expect, expect};

    fn check(text: &str, expect: Expect) {
        let lexed = lex(text);
        let mut out = String::new();
        for (kind, tok) in lexed.iter(text) {
            out.push_str(&format!("{kind:?} {tok:?}\n"));
        }
        for e in lexed.errors() {
            out.push_str(&format!("{e}\n"));
        }
        expect.assert_eq(&out);
        let rebuilt: String = lexed.iter(text).map(|(_, t)| t).collect();
        assert_eq!(rebuilt, text);
    }

    #[test]
    fn identifiers_with_hyphens_and_arrows() {
        check(
            "review-pipeline a->b depth - 1 on-fail",
            expect![[r#"
                IDENT "review-pipeline"
                WHITESPACE " "
                IDENT "a"
                ARROW "->"
                IDENT "b"
                WHITESPACE " "
                IDENT "depth"
                WHITESPACE " "
                MINUS "-"
                WHITESPACE " "
                NUMBER "1"
                WHITESPACE " "
                IDENT "on-fail"
            "#]],
        );
    }

    #[test]
    fn string_pieces_and_escapes() {
        check(
            r#"session "Hi {name}, {a.b} {} {x y} \{ \" \q""#,
            expect![[r#"
                SESSION_KW "session"
                WHITESPACE " "
                STRING_OPEN "\""
                STRING_TEXT "Hi "
                INTERP_OPEN "{"
                IDENT "name"
                INTERP_CLOSE "}"
                STRING_TEXT ", "
                INTERP_OPEN "{"
                IDENT "a"
                DOT "."
                IDENT "b"
                INTERP_CLOSE "}"
                STRING_TEXT " {} {x y} "
                STRING_ESCAPE "\\{"
                STRING_TEXT " "
                STRING_ESCAPE "\\\""
                STRING_TEXT " "
                STRING_ESCAPE "\\q"
                STRING_CLOSE "\""
                E002 41..43: Unknown escape sequence `\q`; valid escapes are \\, \", \n, \t, \{ and \}
            "#]],
        );
    }

    #[test]
    fn unterminated_single_string_stops_at_newline() {
        check(
            "session \"Hello\nsession \"x\"",
            expect![[r#"
                SESSION_KW "session"
                WHITESPACE " "
                STRING_OPEN "\""
                STRING_TEXT "Hello"
                NEWLINE "\n"
                SESSION_KW "session"
                WHITESPACE " "
                STRING_OPEN "\""
                STRING_TEXT "x"
                STRING_CLOSE "\""
                E001 8..9: Unterminated string literal
            "#]],
        );
    }

    #[test]
    fn triple_strings_with_quote_runs() {
        check(
            "\"\"\"Is it \"ok\"?\"\"\"\"\" x \"\"\"\n  a\n\"\"\"",
            expect![[r#"
                STRING_OPEN "\"\"\""
                STRING_TEXT "Is it \"ok\"?\"\""
                STRING_CLOSE "\"\"\""
                WHITESPACE " "
                IDENT "x"
                WHITESPACE " "
                STRING_OPEN "\"\"\""
                STRING_TEXT "\n  a\n"
                STRING_CLOSE "\"\"\""
            "#]],
        );
    }

    #[test]
    fn discretions() {
        check(
            "if **a * b** or ***\nmulti\n***: **open\n",
            expect![[r#"
                IF_KW "if"
                WHITESPACE " "
                DISCRETION "**a * b**"
                WHITESPACE " "
                OR_KW "or"
                WHITESPACE " "
                DISCRETION "***\nmulti\n***"
                COLON ":"
                WHITESPACE " "
                DISCRETION "**open"
                NEWLINE "\n"
                E005 31..33: Unterminated discretion condition: `**` needs a closing `**` on the same line
            "#]],
        );
    }

    #[test]
    fn four_stars_are_an_empty_discretion() {
        check(
            "if ****: ******\n",
            expect![[r#"
                IF_KW "if"
                WHITESPACE " "
                DISCRETION "****"
                COLON ":"
                WHITESPACE " "
                DISCRETION "******"
                NEWLINE "\n"
            "#]],
        );
    }

    #[test]
    fn garbage_and_comments() {
        check(
            "a @@ é # c \"x\"\r\n\t$",
            expect![[r##"
                IDENT "a"
                WHITESPACE " "
                ERROR_TOKEN "@@"
                WHITESPACE " "
                ERROR_TOKEN "é"
                WHITESPACE " "
                COMMENT "# c \"x\""
                NEWLINE "\r\n"
                WHITESPACE "\t"
                ERROR_TOKEN "$"
            "##]],
        );
    }

    #[test]
    fn unterminated_triple_string_and_trailing_backslash() {
        check(
            "\"\"\"abc\\",
            expect![[r#"
                STRING_OPEN "\"\"\""
                STRING_TEXT "abc"
                STRING_ESCAPE "\\"
                E001 0..3: Unterminated string literal: `"""` needs a closing `"""`
                E002 6..7: Unknown escape sequence: a backslash at the end of a line; valid escapes are \\, \", \n, \t, \{ and \}
            "#]],
        );
    }
}
