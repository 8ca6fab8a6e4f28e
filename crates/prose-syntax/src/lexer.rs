//! The lexer: source text -> flat list of raw tokens (every byte covered).
//!
//! A logos automaton recognises the outer tokens. String literals and
//! discretion markers are consumed *whole* by callbacks, so that nothing
//! inside `"""..."""` or `***...***` can ever produce layout tokens. A string
//! is then split into pieces (open quote, text, escapes, `{name}`
//! interpolations, close quote) so the tree can describe it precisely.
//! The frequent simple tokens (blanks, newlines, comments, names, numbers,
//! punctuation, strings) are recognised by hand before the automaton is
//! asked, which is faster and gives the same tokens (a test compares both).
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

use crate::{SyntaxError, SyntaxErrorCode, SyntaxKind, SyntaxKind::*, interrupt::Interrupt};

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
    Whitespace,
    /// `\n`, `\r\n` or a lone `\r` (see `lines.rs`).
    #[regex(r"\r\n?|\n")]
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
    let len = blanks_len(lex.remainder().as_bytes());
    lex.bump(len);
}

/// Called after `#`: consumes the comment up to (not including) the line end.
fn lex_to_line_end(lex: &mut logos::Lexer<'_, Outer>) {
    let len = line_len(lex.remainder().as_bytes());
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
    /// Quote runs inside a fenced code block were read as text.
    fenced: bool,
}

/// Called after an opening `"`: consumes the rest of the string literal.
fn lex_string(lex: &mut logos::Lexer<'_, Outer>) -> StringShape {
    let (len, shape) = string_rest(lex.remainder().as_bytes());
    lex.bump(len);
    shape
}

/// After an opening `"`: the length of the rest of the string literal
/// (`rest` starts after that quote) and its shape.
fn string_rest(rest: &[u8]) -> (usize, StringShape) {
    if rest.starts_with(b"\"\"") {
        // `"""`: a triple-quoted string (possibly empty: `""""""`).
        let (len, terminated, fenced) = scan_triple(&rest[2..]);
        let shape = StringShape {
            triple: true,
            terminated,
            fenced,
        };
        (2 + len, shape)
    } else {
        let (len, terminated) = scan_single(rest);
        let shape = StringShape {
            triple: false,
            terminated,
            fenced: false,
        };
        (len, shape)
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
            _ => {
                i += 1 + skip_to(&bytes[i + 1..], [b'"', b'\n', b'\r', b'\\']);
            }
        }
    }
    (i, false)
}

/// Length of the prefix of `bytes` without any of the bytes `stops`,
/// looked for eight bytes at a time.
#[inline]
fn skip_to<const N: usize>(bytes: &[u8], stops: [u8; N]) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut i = 0;
    while let Some(&chunk) = bytes.get(i..).and_then(|b| b.first_chunk::<8>()) {
        let word = u64::from_le_bytes(chunk);
        // The high bit of each byte of `word` equal to a stop. A borrow can
        // only mark a byte above a real match, so the lowest mark is exact.
        let found = stops.iter().fold(0, |found, &stop| {
            let x = word ^ (ONES * stop as u64);
            found | (x.wrapping_sub(ONES) & !x & HIGH)
        });
        if found != 0 {
            return i + (found.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    let rest = &bytes[i..];
    i + rest
        .iter()
        .position(|b| stops.contains(b))
        .unwrap_or(rest.len())
}

/// Length of a triple-quoted string body including its closing delimiter,
/// whether it was closed, and whether quote runs inside a fenced code block
/// were read as text (see `fence.rs`).
fn scan_triple(bytes: &[u8]) -> (usize, bool, bool) {
    let mut fenced = false;
    let (len, terminated) = crate::fence::scan_triple(bytes, &mut |_, _| fenced = true);
    (len, terminated, fenced)
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
    lex_with(text, true, &Interrupt::new(&crate::interrupt::never))
}

/// [`lex`], ticking `interrupt` about once per token.
pub(crate) fn lex_interruptible(text: &str, interrupt: &Interrupt<'_>) -> Lexed {
    lex_with(text, true, interrupt)
}

/// [`lex`], with or without the hand-written fast path (the tests check
/// that both agree).
fn lex_with(text: &str, fast: bool, interrupt: &Interrupt<'_>) -> Lexed {
    // Real programs have about one token per 3 to 10 bytes, and every line
    // break is a token (a file of empty lines has one per byte); growing
    // these vectors would copy them, and hold both copies for a moment.
    let breaks = count_breaks(text.as_bytes());
    let tokens = (text.len() / 3).max(breaks) + 16;
    let mut out = Lexed {
        kinds: Vec::with_capacity(tokens),
        starts: Vec::with_capacity(tokens + 1),
        errors: Vec::new(),
    };
    assert!(
        text.len() <= u32::MAX as usize,
        "texts over 4 GiB are not supported"
    );
    let bytes = text.as_bytes();
    let mut lexer = Outer::lexer(text);
    // The end of the last token. The automaton is only moved there when it
    // is asked for a token.
    let mut at = 0;
    // Tokens since the interrupt was last told.
    let mut steps = 0;
    loop {
        steps += 1;
        if steps == 64 {
            interrupt.tick_by(64);
            steps = 0;
        }
        if fast {
            // The frequent tokens, recognised here without the automaton,
            // which then only sees discretions, odd characters and errors.
            if let Some((kind, len)) = simple_token(text, bytes, at) {
                out.kinds.push(kind);
                out.starts.push(at as u32);
                at += len;
                continue;
            }
            if bytes.get(at) == Some(&b'"') {
                let (len, shape) = string_rest(&bytes[at + 1..]);
                split_string(&text[at..at + 1 + len], at as u32, shape, &mut out);
                at += 1 + len;
                continue;
            }
            lexer.bump(at - lexer.span().end);
        }
        let Some(result) = lexer.next() else {
            break;
        };
        let span = lexer.span();
        at = span.end;
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

/// The number of `\n` in `bytes`, counted 255 bytes at a time in 8-bit
/// counters (which the compiler turns into vector code).
fn count_breaks(bytes: &[u8]) -> usize {
    bytes
        .chunks(255)
        .map(|chunk| {
            chunk
                .iter()
                .fold(0u8, |n, &b| n.wrapping_add((b == b'\n') as u8)) as usize
        })
        .sum()
}

/// The token at `at`, if it is one of the simple, frequent ones (blanks,
/// newlines, comments, names and keywords, numbers, punctuation): its kind
/// and length, exactly as the automaton would lex it.
#[inline]
fn simple_token(text: &str, bytes: &[u8], at: usize) -> Option<(SyntaxKind, usize)> {
    let rest = bytes.get(at..)?;
    let first = *rest.first()?;
    let second = rest.get(1).copied();
    let token = match first {
        b' ' | b'\t' => (WHITESPACE, 1 + blanks_len(&rest[1..])),
        b'\n' => (NEWLINE, 1),
        b'\r' if second == Some(b'\n') => (NEWLINE, 2),
        b'\r' => (NEWLINE, 1),
        b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
            let len = ident_len(rest)?;
            let kind = SyntaxKind::from_keyword(&text[at..at + len]).unwrap_or(IDENT);
            (kind, len)
        }
        b'0'..=b'9' => (NUMBER, number_len(rest)),
        b'#' => (COMMENT, line_len(rest)),
        b':' => (COLON, 1),
        b',' => (COMMA, 1),
        b'(' => (L_PAREN, 1),
        b')' => (R_PAREN, 1),
        b'[' => (L_BRACK, 1),
        b']' => (R_BRACK, 1),
        b'{' => (L_BRACE, 1),
        b'}' => (R_BRACE, 1),
        b'+' => (PLUS, 1),
        b'/' => (SLASH, 1),
        b'%' => (PERCENT, 1),
        b'?' => (QUESTION, 1),
        b'-' if second == Some(b'>') => (ARROW, 2),
        b'-' => (MINUS, 1),
        b'.' if rest.starts_with(b"...") => (ELLIPSIS, 3),
        b'.' => (DOT, 1),
        b'=' if second == Some(b'=') => (EQ2, 2),
        b'=' => (EQ, 1),
        b'!' if second == Some(b'=') => (NEQ, 2),
        b'!' => (BANG, 1),
        b'<' if second == Some(b'=') => (LTEQ, 2),
        b'<' => (LT, 1),
        b'>' if second == Some(b'=') => (GTEQ, 2),
        b'>' => (GT, 1),
        b'|' if second == Some(b'|') => (PIPE2, 2),
        b'|' => (PIPE, 1),
        _ => return None,
    };
    Some(token)
}

/// Length of the run of spaces, tabs, form feeds and BOMs at the start of
/// `bytes`.
fn blanks_len(bytes: &[u8]) -> usize {
    let mut i = 0;
    loop {
        match bytes.get(i) {
            Some(b' ' | b'\t' | b'\x0C') => i += 1,
            Some(0xEF) if bytes[i..].starts_with("\u{FEFF}".as_bytes()) => i += 3,
            _ => return i,
        }
    }
}

/// Length of the text before the end of the line.
pub(crate) fn line_len(bytes: &[u8]) -> usize {
    skip_to(bytes, [b'\n', b'\r'])
}

/// Length of the number (`[0-9]+(\.[0-9]+)?[A-Za-z_]*`) at the start of `bytes`.
fn number_len(bytes: &[u8]) -> usize {
    let digits = |from: usize| {
        bytes[from..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let mut i = digits(0);
    if bytes.get(i) == Some(&b'.') && bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
        i += 1 + digits(i + 1);
    }
    i + bytes[i..]
        .iter()
        .take_while(|b| b.is_ascii_alphabetic() || **b == b'_')
        .count()
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
    if shape.fenced {
        report_fenced_quotes(&bytes[open..], base + open as u32, out);
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
                        ": a backslash at the end of a line; write `\\\\` to keep it".to_string()
                    } else {
                        format!(" `{esc}`: write `\\{esc}` to keep the backslash")
                    };
                    out.errors.push(SyntaxError::new(
                        SyntaxErrorCode::E002,
                        format!(
                            "Unknown escape sequence{shown}; valid escapes are \\\\, \\\", \\n, \\t, \\{{ and \\}}"
                        ),
                        // A backslash ending a line: the backslash alone.
                        TextRange::at(
                            (base + i as u32).into(),
                            TextSize::from(if esc.ends_with(['\n', '\r']) { 1 } else { 1 + ch_len } as u32),
                        ),
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
                i += 1 + skip_to(&bytes[i + 1..content_end], [b'\\', b'{']);
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

/// P104 on each run of quotes that a fenced code block keeps inside the
/// string (`body` starts after the opening `"""`, at offset `base`).
fn report_fenced_quotes(body: &[u8], base: u32, out: &mut Lexed) {
    crate::fence::scan_triple(body, &mut |at, len| {
        out.errors.push(SyntaxError::new(
            SyntaxErrorCode::P104,
            "`\"\"\"` inside a fenced code block ends the string by the grammar; it is read as text because the fence closes later on. Escape it: `\\\"\"\"`",
            TextRange::at((base + at as u32).into(), TextSize::from(len as u32)),
        ));
    });
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
    let mut i = 1 + word_len(&bytes[1..]);
    while bytes.get(i) == Some(&b'-') && bytes.get(i + 1).is_some_and(|&b| WORD[b as usize]) {
        i += 1 + word_len(&bytes[i + 1..]);
    }
    Some(i)
}

/// `[A-Za-z0-9_]`, by byte.
const WORD: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = (b as u8).is_ascii_alphanumeric() || b == b'_' as usize;
        b += 1;
    }
    table
};

/// Length of the run of `[A-Za-z0-9_]` at the start of `bytes`.
#[inline]
fn word_len(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .position(|&b| !WORD[b as usize])
        .unwrap_or(bytes.len())
}

/// Whether `text` is one whole identifier.
pub fn is_ident(text: &str) -> bool {
    ident_len(text.as_bytes()) == Some(text.len())
}

#[cfg(test)]
mod tests;
