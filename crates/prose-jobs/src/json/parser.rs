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

/// Whether `tok` begins a value (an unquoted word counts: it is a value
/// written without quotes, reported when parsed).
fn starts_value(tok: &Tok) -> bool {
    matches!(
        tok,
        Tok::LBrace
            | Tok::LBracket
            | Tok::String(_)
            | Tok::Number(_)
            | Tok::True
            | Tok::False
            | Tok::Null
            | Tok::Word(_)
    )
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

    fn value(&mut self, depth: usize) -> Value {
        let t = self.peek().clone();
        let kind = match t.tok {
            Tok::LBrace | Tok::LBracket if depth >= MAX_NESTING => return self.skip_nested(),
            Tok::LBrace => {
                self.bump();
                return self.object(t.range, depth + 1);
            }
            Tok::LBracket => {
                self.bump();
                return self.array(t.range, depth + 1);
            }
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
            Tok::Junk => {
                self.error(t.range, "Unexpected character; expected a value".into());
                ValueKind::Missing
            }
            Tok::RBrace | Tok::RBracket | Tok::Colon | Tok::Comma | Tok::Eof => {
                self.error(
                    t.range,
                    format!("Expected a value, found {}", describe(&t.tok)),
                );
                return Value {
                    range: TextRange::empty(t.range.start()),
                    kind: ValueKind::Missing,
                };
            }
        };
        self.bump();
        Value {
            range: t.range,
            kind,
        }
    }

    fn object(&mut self, open: TextRange, depth: usize) -> Value {
        let mut members = Vec::new();
        loop {
            let t = self.peek().clone();
            let key = match t.tok {
                Tok::RBrace => {
                    self.bump();
                    return Value {
                        range: span(open.start(), t.range.end()),
                        kind: ValueKind::Object(members),
                    };
                }
                Tok::Eof | Tok::RBracket => {
                    return Value {
                        range: self.unclosed(open, &t, "{", "}"),
                        kind: ValueKind::Object(members),
                    };
                }
                Tok::Comma => {
                    self.bump();
                    self.error(t.range, "Unexpected `,`; expected a property".into());
                    continue;
                }
                Tok::String(s) => {
                    self.bump();
                    s
                }
                Tok::Word(w) => {
                    self.bump();
                    self.error(
                        t.range,
                        format!("Property names must be in double quotes: write `\"{w}\"`"),
                    );
                    JsonString::new(w, t.range, t.range.start().into(), Vec::new(), false)
                }
                _ => {
                    self.error(
                        t.range,
                        format!(
                            "Expected a property name in double quotes, found {}",
                            describe(&t.tok)
                        ),
                    );
                    if starts_value(&t.tok) {
                        self.value(depth);
                    } else {
                        self.bump();
                    }
                    continue;
                }
            };
            let value = if self.peek().tok == Tok::Colon {
                self.bump();
                self.value(depth)
            } else {
                self.error(
                    TextRange::empty(key.range().end()),
                    "Expected `:` after the property name".into(),
                );
                if starts_value(&self.peek().tok) {
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
            self.separator(end, Tok::RBrace);
        }
    }

    fn array(&mut self, open: TextRange, depth: usize) -> Value {
        let mut items = Vec::new();
        loop {
            let t = self.peek().clone();
            match t.tok {
                Tok::RBracket => {
                    self.bump();
                    return Value {
                        range: span(open.start(), t.range.end()),
                        kind: ValueKind::Array(items),
                    };
                }
                Tok::Eof | Tok::RBrace => {
                    return Value {
                        range: self.unclosed(open, &t, "[", "]"),
                        kind: ValueKind::Array(items),
                    };
                }
                Tok::Comma | Tok::Colon => {
                    self.bump();
                    self.error(
                        t.range,
                        format!("Unexpected {}; expected a value", describe(&t.tok)),
                    );
                    continue;
                }
                _ => {
                    let item = self.value(depth);
                    let end = item.range.end();
                    items.push(item);
                    self.separator(end, Tok::RBracket);
                }
            }
        }
    }

    /// Reports the bracket `open` as unclosed when `found` ends its list;
    /// returns the range of the value it opened.
    fn unclosed(
        &mut self,
        open: TextRange,
        found: &Token,
        bracket: &str,
        closer: &str,
    ) -> TextRange {
        let before = match found.tok {
            Tok::Eof => "the end of the file".to_string(),
            _ => format!("this {}", describe(&found.tok)),
        };
        self.error(
            open,
            format!("Unclosed `{bracket}`: expected `{closer}` before {before}"),
        );
        span(open.start(), found.range.start())
    }

    /// After a member or item: a comma (a trailing one is fine), or the
    /// closing bracket. A missing comma before the next key or value is
    /// reported once; anything else is reported once and skipped.
    fn separator(&mut self, after: TextSize, close: Tok) {
        let mut reported = false;
        loop {
            let t = self.peek().clone();
            match &t.tok {
                Tok::Comma => {
                    self.bump();
                    return;
                }
                Tok::RBrace | Tok::RBracket | Tok::Eof => return,
                tok if starts_value(tok) => {
                    if !reported {
                        self.error(TextRange::empty(after), "Expected `,`".into());
                    }
                    return;
                }
                tok => {
                    if !reported {
                        let closer = if close == Tok::RBrace { "`}`" } else { "`]`" };
                        self.error(
                            t.range,
                            format!("Expected `,` or {closer}, found {}", describe(tok)),
                        );
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
