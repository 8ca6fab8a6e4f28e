//! Tokens of JSONC. Comments and whitespace are skipped; malformed tokens
//! are reported and still become a token, so the parser always moves on.

use text_size::{TextRange, TextSize};

use super::{
    SyntaxError,
    string::{Escape, JsonString},
};

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Tok {
    LBrace,
    RBrace,
    LBracket,
    RBracket,
    Colon,
    Comma,
    String(JsonString),
    Number(Option<f64>),
    True,
    False,
    Null,
    /// An unquoted word (`foo`, `undefined`): never valid JSON, but a
    /// property name written without quotes is worth recovering as one.
    Word(String),
    /// A character that starts no token.
    Junk,
    Eof,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) struct Token {
    pub(super) tok: Tok,
    pub(super) range: TextRange,
}

pub(super) struct Lexer<'t> {
    text: &'t str,
    bytes: &'t [u8],
    pos: usize,
}

fn range(start: usize, end: usize) -> TextRange {
    TextRange::new(TextSize::from(start as u32), TextSize::from(end as u32))
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

impl<'t> Lexer<'t> {
    pub(super) fn new(text: &'t str) -> Lexer<'t> {
        // A byte order mark at the start is not content.
        let pos = if text.starts_with('\u{feff}') { 3 } else { 0 };
        Lexer {
            text,
            bytes: text.as_bytes(),
            pos,
        }
    }

    pub(super) fn next(&mut self, errors: &mut Vec<SyntaxError>) -> Token {
        self.skip_trivia(errors);
        let start = self.pos;
        let Some(&b) = self.bytes.get(start) else {
            return Token {
                tok: Tok::Eof,
                range: range(start, start),
            };
        };
        let tok = match b {
            b'{' => self.punct(Tok::LBrace),
            b'}' => self.punct(Tok::RBrace),
            b'[' => self.punct(Tok::LBracket),
            b']' => self.punct(Tok::RBracket),
            b':' => self.punct(Tok::Colon),
            b',' => self.punct(Tok::Comma),
            b'"' | b'\'' => Tok::String(self.string(b, errors)),
            b'-' | b'0'..=b'9' => self.number(errors),
            b if is_word_byte(b) => {
                while self.bytes.get(self.pos).is_some_and(|&b| is_word_byte(b)) {
                    self.pos += 1;
                }
                match &self.text[start..self.pos] {
                    "true" => Tok::True,
                    "false" => Tok::False,
                    "null" => Tok::Null,
                    word => Tok::Word(word.to_string()),
                }
            }
            _ => {
                let len = self.text[start..].chars().next().map_or(1, char::len_utf8);
                self.pos += len;
                Tok::Junk
            }
        };
        Token {
            tok,
            range: range(start, self.pos),
        }
    }

    fn punct(&mut self, tok: Tok) -> Tok {
        self.pos += 1;
        tok
    }

    fn skip_trivia(&mut self, errors: &mut Vec<SyntaxError>) {
        loop {
            match self.bytes.get(self.pos) {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.pos += 1,
                Some(b'/') if self.bytes.get(self.pos + 1) == Some(&b'/') => {
                    while self
                        .bytes
                        .get(self.pos)
                        .is_some_and(|&b| b != b'\n' && b != b'\r')
                    {
                        self.pos += 1;
                    }
                }
                Some(b'/') if self.bytes.get(self.pos + 1) == Some(&b'*') => {
                    let start = self.pos;
                    match self.text[start + 2..].find("*/") {
                        Some(i) => self.pos = start + 2 + i + 2,
                        None => {
                            self.pos = self.bytes.len();
                            errors.push(SyntaxError {
                                range: range(start, start + 2),
                                message: "Unterminated comment: `/*` has no closing `*/`".into(),
                            });
                        }
                    }
                }
                _ => return,
            }
        }
    }

    /// A number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    /// A malformed one (`01`, `1.`, `.5`, `-`, `1e`, `0x1F`) is reported and
    /// its whole run of number-like characters becomes one token.
    fn number(&mut self, errors: &mut Vec<SyntaxError>) -> Tok {
        let start = self.pos;
        let valid_end = self.valid_number_end(start);
        // The run a reader sees as one number.
        let mut end = start + 1;
        while self
            .bytes
            .get(end)
            .is_some_and(|&b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'+' | b'-' | b'_'))
        {
            end += 1;
        }
        self.pos = end;
        let lexeme = &self.text[start..end];
        if valid_end == Some(end) {
            return Tok::Number(lexeme.parse::<f64>().ok());
        }
        errors.push(SyntaxError {
            range: range(start, end),
            message: format!("Invalid number `{lexeme}`"),
        });
        Tok::Number(None)
    }

    fn valid_number_end(&self, start: usize) -> Option<usize> {
        let digits = |mut i: usize| {
            let from = i;
            while self.bytes.get(i).is_some_and(u8::is_ascii_digit) {
                i += 1;
            }
            (i > from).then_some(i)
        };
        let mut i = start;
        if self.bytes.get(i) == Some(&b'-') {
            i += 1;
        }
        i = match self.bytes.get(i) {
            Some(b'0') => i + 1,
            Some(b'1'..=b'9') => digits(i)?,
            _ => return None,
        };
        if self.bytes.get(i) == Some(&b'.') {
            i = digits(i + 1)?;
        }
        if matches!(self.bytes.get(i), Some(b'e' | b'E')) {
            i += 1;
            if matches!(self.bytes.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            i = digits(i)?;
        }
        Some(i)
    }

    /// A string literal opened by `quote` (`"`, or `'`, which is reported).
    /// It ends at the matching quote, or (reported) at the end of the line.
    fn string(&mut self, quote: u8, errors: &mut Vec<SyntaxError>) -> JsonString {
        let start = self.pos;
        if quote == b'\'' {
            errors.push(SyntaxError {
                range: range(start, start + 1),
                message: "Strings must use double quotes".into(),
            });
        }
        self.pos += 1;
        let content_start = self.pos;
        let mut text = String::new();
        let mut escapes = Vec::new();
        let mut closed = false;
        loop {
            // Copy the run of plain bytes up to the next byte that matters.
            let run_start = self.pos;
            while self
                .bytes
                .get(self.pos)
                .is_some_and(|&b| b != quote && b != b'\\' && b >= 0x20)
            {
                self.pos += 1;
            }
            text.push_str(&self.text[run_start..self.pos]);
            match self.bytes.get(self.pos) {
                None | Some(b'\n' | b'\r') => {
                    errors.push(SyntaxError {
                        range: range(start, self.pos),
                        message: "Unterminated string: the closing `\"` is missing".into(),
                    });
                    break;
                }
                Some(&b) if b == quote => {
                    self.pos += 1;
                    closed = true;
                    break;
                }
                Some(b'\\') => self.escape(&mut text, &mut escapes, errors),
                Some(&b) => {
                    let name = match b {
                        b'\t' => "tab".to_string(),
                        _ => format!("U+{b:04X}"),
                    };
                    errors.push(SyntaxError {
                        range: range(self.pos, self.pos + 1),
                        message: format!(
                            "Control character ({name}) in a string; write it as an escape such as `\\t` or `\\u{b:04x}`"
                        ),
                    });
                    text.push(b as char);
                    self.pos += 1;
                }
            }
        }
        JsonString::new(
            text,
            range(start, self.pos),
            content_start as u32,
            escapes,
            closed,
        )
    }

    /// One escape sequence at `self.pos` (a backslash).
    fn escape(
        &mut self,
        text: &mut String,
        escapes: &mut Vec<Escape>,
        errors: &mut Vec<SyntaxError>,
    ) {
        let at = self.pos;
        let decoded_start = text.len();
        let decoded = match self.bytes.get(at + 1) {
            Some(b'"') => Some('"'),
            Some(b'\\') => Some('\\'),
            Some(b'/') => Some('/'),
            Some(b'b') => Some('\u{8}'),
            Some(b'f') => Some('\u{c}'),
            Some(b'n') => Some('\n'),
            Some(b'r') => Some('\r'),
            Some(b't') => Some('\t'),
            _ => None,
        };
        let len = if let Some(c) = decoded {
            text.push(c);
            2
        } else if self.bytes.get(at + 1) == Some(&b'u') {
            self.unicode_escape(text, errors)
        } else {
            // A `\` at the end of the line or file: the string is
            // unterminated, which the caller reports.
            let Some(c) = self.text[at + 1..]
                .chars()
                .next()
                .filter(|&c| c != '\n' && c != '\r')
            else {
                self.pos += 1;
                return;
            };
            errors.push(SyntaxError {
                range: range(at, at + 1 + c.len_utf8()),
                message: format!(
                    "Invalid escape `\\{c}`; valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX"
                ),
            });
            text.push(c);
            1 + c.len_utf8()
        };
        self.pos = at + len;
        escapes.push(Escape {
            decoded_start: decoded_start as u32,
            decoded_len: (text.len() - decoded_start) as u32,
            source_start: at as u32,
            source_len: len as u32,
        });
    }

    /// `\uXXXX`, or a surrogate pair `\uD83D\uDE00`. Returns the bytes used.
    fn unicode_escape(&self, text: &mut String, errors: &mut Vec<SyntaxError>) -> usize {
        let at = self.pos;
        let hex4 = |i: usize| {
            self.text
                .get(i..i + 4)
                .filter(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
                .and_then(|h| u32::from_str_radix(h, 16).ok())
        };
        let Some(first) = hex4(at + 2) else {
            errors.push(SyntaxError {
                range: range(at, at + 2),
                message: "Invalid escape: `\\u` must be followed by four hex digits".into(),
            });
            return 2;
        };
        if (0xD800..0xDC00).contains(&first)
            && self.text.get(at + 6..at + 8) == Some("\\u")
            && let Some(second) = hex4(at + 8).filter(|s| (0xDC00..0xE000).contains(s))
        {
            let c = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
            text.push(char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER));
            return 12;
        }
        match char::from_u32(first) {
            Some(c) => text.push(c),
            None => {
                errors.push(SyntaxError {
                    range: range(at, at + 6),
                    message: format!(
                        "Invalid escape `{}`: a lone surrogate is not a character",
                        &self.text[at..at + 6]
                    ),
                });
                text.push(char::REPLACEMENT_CHARACTER);
            }
        }
        6
    }
}
