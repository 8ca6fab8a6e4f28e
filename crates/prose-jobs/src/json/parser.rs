//! Recursive descent over the tokens with error recovery: every loop
//! consumes a token or ends, and nesting is bounded by [`MAX_NESTING`].

use text_size::{TextRange, TextSize};

use super::{
    JsonDocument, JsonString, MAX_NESTING, Member, SyntaxError, Value, ValueKind,
    lexer::{Lexer, Tok, Token},
};

pub(super) fn parse(text: &str) -> JsonDocument {
    let mut p = Parser {
        lexer: Lexer::new(text),
        peeked: None,
        errors: Vec::new(),
    };
    let first = p.peek().clone();
    let root = if first.tok == Tok::Eof {
        p.error(
            first.range,
            "Expected a JSON object; the file is empty".into(),
        );
        None
    } else {
        Some(p.value(0))
    };
    let extra = p.peek().clone();
    if extra.tok != Tok::Eof {
        p.error(
            extra.range,
            format!(
                "Unexpected {} after the end of the JSON value",
                describe(&extra.tok)
            ),
        );
    }
    // Lexer errors are found while peeking, ahead of the parser's own.
    p.errors.sort_by_key(|e| e.range.start());
    JsonDocument {
        root,
        errors: p.errors,
    }
}

struct Parser<'t> {
    lexer: Lexer<'t>,
    peeked: Option<Token>,
    errors: Vec<SyntaxError>,
}

fn describe(tok: &Tok) -> String {
    match tok {
        Tok::LBrace => "`{`".into(),
        Tok::RBrace => "`}`".into(),
        Tok::LBracket => "`[`".into(),
        Tok::RBracket => "`]`".into(),
        Tok::Colon => "`:`".into(),
        Tok::Comma => "`,`".into(),
        Tok::String(_) => "a string".into(),
        Tok::Number(_) => "a number".into(),
        Tok::True => "`true`".into(),
        Tok::False => "`false`".into(),
        Tok::Null => "`null`".into(),
        Tok::Word(w) => format!("`{w}`"),
        Tok::Junk => "character".into(),
        Tok::Eof => "end of the file".into(),
    }
}

/// A token's kind without its text, to decide before taking it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum K {
    /// `{` or `[`.
    Open,
    RBrace,
    RBracket,
    Colon,
    Comma,
    String,
    Word,
    /// A number, `true`, `false` or `null`.
    Scalar,
    Junk,
    Eof,
}

impl K {
    fn of(tok: &Tok) -> K {
        match tok {
            Tok::LBrace | Tok::LBracket => K::Open,
            Tok::RBrace => K::RBrace,
            Tok::RBracket => K::RBracket,
            Tok::Colon => K::Colon,
            Tok::Comma => K::Comma,
            Tok::String(_) => K::String,
            Tok::Word(_) => K::Word,
            Tok::Number(_) | Tok::True | Tok::False | Tok::Null => K::Scalar,
            Tok::Junk => K::Junk,
            Tok::Eof => K::Eof,
        }
    }

    /// Whether the token begins a value (an unquoted word counts: it is a
    /// value written without quotes, reported when parsed).
    fn starts_value(self) -> bool {
        matches!(self, K::Open | K::String | K::Word | K::Scalar)
    }
}

fn span(start: TextSize, end: TextSize) -> TextRange {
    TextRange::new(start, end.max(start))
}

impl Parser<'_> {
    fn peek(&mut self) -> &Token {
        if self.peeked.is_none() {
            self.peeked = Some(self.lexer.next(&mut self.errors));
        }
        self.peeked.as_ref().expect("just filled")
    }

    fn bump(&mut self) -> Token {
        self.peek();
        self.peeked.take().expect("peeked")
    }

    fn error(&mut self, range: TextRange, message: String) {
        self.errors.push(SyntaxError { range, message });
    }

    /// The next token's kind and range, without taking (or copying) it.
    fn look(&mut self) -> (K, TextRange) {
        let t = self.peek();
        (K::of(&t.tok), t.range)
    }

    /// "found X" for the next token.
    fn found(&mut self) -> String {
        describe(&self.peek().tok)
    }

    fn value(&mut self, depth: usize) -> Value {
        let (k, range) = self.look();
        match k {
            K::Open if depth >= MAX_NESTING => return self.skip_nested(),
            K::RBrace | K::RBracket | K::Colon | K::Comma | K::Eof => {
                let message = format!("Expected a value, found {}", self.found());
                self.error(range, message);
                return Value {
                    range: TextRange::empty(range.start()),
                    kind: ValueKind::Missing,
                };
            }
            _ => {}
        }
        let t = self.bump();
        let kind = match t.tok {
            Tok::LBrace => return self.object(t.range, depth + 1),
            Tok::LBracket => return self.array(t.range, depth + 1),
            Tok::String(s) => ValueKind::String(s),
            Tok::Number(n) => ValueKind::Number(n),
            Tok::True => ValueKind::Bool(true),
            Tok::False => ValueKind::Bool(false),
            Tok::Null => ValueKind::Null,
            Tok::Word(w) => {
                self.error(
                    t.range,
                    format!("Unexpected word `{w}`; a string must be in double quotes"),
                );
                ValueKind::Missing
            }
            _ => {
                self.error(t.range, "Unexpected character; expected a value".into());
                ValueKind::Missing
            }
        };
        Value {
            range: t.range,
            kind,
        }
    }

    fn object(&mut self, open: TextRange, depth: usize) -> Value {
        let mut members = Vec::new();
        loop {
            let (k, range) = self.look();
            let key = match k {
                K::RBrace => {
                    self.bump();
                    return Value {
                        range: span(open.start(), range.end()),
                        kind: ValueKind::Object(members),
                    };
                }
                K::Eof | K::RBracket => {
                    return Value {
                        range: self.unclosed(open, "{", "}"),
                        kind: ValueKind::Object(members),
                    };
                }
                K::Comma => {
                    self.bump();
                    self.error(range, "Unexpected `,`; expected a property".into());
                    continue;
                }
                K::String | K::Word => match self.bump().tok {
                    Tok::String(s) => s,
                    Tok::Word(w) => {
                        self.error(
                            range,
                            format!("Property names must be in double quotes: write `\"{w}\"`"),
                        );
                        JsonString::new(w, range, range.start().into(), Vec::new(), false)
                    }
                    _ => unreachable!("looked at a string or a word"),
                },
                _ => {
                    let message = format!(
                        "Expected a property name in double quotes, found {}",
                        self.found()
                    );
                    self.error(range, message);
                    if k.starts_value() {
                        self.value(depth);
                    } else {
                        self.bump();
                    }
                    continue;
                }
            };
            let value = if self.look().0 == K::Colon {
                self.bump();
                self.value(depth)
            } else {
                self.error(
                    TextRange::empty(key.range().end()),
                    "Expected `:` after the property name".into(),
                );
                if self.look().0.starts_value() {
                    self.value(depth)
                } else {
                    Value {
                        range: TextRange::empty(key.range().end()),
                        kind: ValueKind::Missing,
                    }
                }
            };
            let end = value.range.end();
            members.push(Member { key, value });
            self.separator(end, K::RBrace);
        }
    }

    fn array(&mut self, open: TextRange, depth: usize) -> Value {
        let mut items = Vec::new();
        loop {
            let (k, range) = self.look();
            match k {
                K::RBracket => {
                    self.bump();
                    return Value {
                        range: span(open.start(), range.end()),
                        kind: ValueKind::Array(items),
                    };
                }
                K::Eof | K::RBrace => {
                    return Value {
                        range: self.unclosed(open, "[", "]"),
                        kind: ValueKind::Array(items),
                    };
                }
                K::Comma | K::Colon => {
                    let message = format!("Unexpected {}; expected a value", self.found());
                    self.bump();
                    self.error(range, message);
                }
                _ => {
                    let item = self.value(depth);
                    let end = item.range.end();
                    items.push(item);
                    self.separator(end, K::RBracket);
                }
            }
        }
    }

    /// Reports the bracket `open` as unclosed, its list ended by the next
    /// token; returns the range of the value it opened.
    fn unclosed(&mut self, open: TextRange, bracket: &str, closer: &str) -> TextRange {
        let (k, found) = self.look();
        let before = match k {
            K::Eof => "the end of the file".to_string(),
            _ => format!("this {}", self.found()),
        };
        self.error(
            open,
            format!("Unclosed `{bracket}`: expected `{closer}` before {before}"),
        );
        span(open.start(), found.start())
    }

    /// After a member or item: a comma (a trailing one is fine), or the
    /// closing bracket. A missing comma before the next key or value is
    /// reported once; anything else is reported once and skipped.
    fn separator(&mut self, after: TextSize, close: K) {
        let mut reported = false;
        loop {
            let (k, range) = self.look();
            match k {
                K::Comma => {
                    self.bump();
                    return;
                }
                K::RBrace | K::RBracket | K::Eof => return,
                k if k.starts_value() => {
                    if !reported {
                        self.error(TextRange::empty(after), "Expected `,`".into());
                    }
                    return;
                }
                _ => {
                    if !reported {
                        let closer = if close == K::RBrace { "`}`" } else { "`]`" };
                        let message = format!("Expected `,` or {closer}, found {}", self.found());
                        self.error(range, message);
                        reported = true;
                    }
                    self.bump();
                }
            }
        }
    }

    /// An object or array nested too deep: reported, and skipped up to its
    /// matching bracket without recursion.
    fn skip_nested(&mut self) -> Value {
        let open = self.bump();
        self.error(
            open.range,
            format!("Nesting deeper than {MAX_NESTING} levels; this value is ignored"),
        );
        let mut level = 1usize;
        let mut end = open.range.end();
        while level > 0 {
            let t = self.bump();
            match t.tok {
                Tok::LBrace | Tok::LBracket => level += 1,
                Tok::RBrace | Tok::RBracket => level -= 1,
                Tok::Eof => break,
                _ => {}
            }
            end = t.range.end();
        }
        Value {
            range: span(open.range.start(), end),
            kind: ValueKind::Missing,
        }
    }
}
