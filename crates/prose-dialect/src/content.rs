//! Content blocks: the text an action carries, in every form the seed
//! lists.
//!
//! | form | written | text |
//! |---|---|---|
//! | `quoted` | `"single line"` (also `“...”`) | between the quotes; `\"` and `\\` are the only escapes |
//! | `triple_quoted` | `"""` ... `"""` | between the delimiters; when the opener ends its line, from the next line; when the closer starts its line, up to the line before |
//! | `fenced` | ```` ``` ```` or `~~~` ... (an info string such as `diff` after the opener is `lang`) | the lines between opener and closer |
//! | `block_quote` | lines starting with `>` below the action | each line without its `>` and one following space |
//! | `unquoted` | `/reply sounds good to me` | the words as written, from the first to the last |
//! | `reference` | `@last.output`, `that`, `this`, `it` | the reference as written; see `reference` |
//!
//! Line breaks inside blocks are normalised to `\n`.

use serde::{Deserialize, Serialize};

use crate::{
    Span,
    lexer::{Kind, Token},
    reference::Reference,
};

/// The text an action carries.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Content {
    pub text: String,
    pub form: ContentForm,
    /// A fenced block's info string (`diff`, `rust`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
    /// Set when the content is a reference (form `reference`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<Reference>,
    /// The written content, delimiters included.
    pub span: Span,
}

/// How content was written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ContentForm {
    Quoted,
    TripleQuoted,
    Fenced,
    BlockQuote,
    #[default]
    Unquoted,
    Reference,
    /// Nothing was written (an error was reported, or a chained action
    /// takes the previous output).
    Missing,
}

impl Content {
    /// Content that is not there, at `at`.
    pub(crate) fn missing(at: usize) -> Content {
        Content {
            form: ContentForm::Missing,
            span: Span::empty(at),
            ..Content::default()
        }
    }

    /// Unquoted text: `span` of `text` as written.
    pub(crate) fn unquoted(text: &str, span: Span) -> Content {
        Content {
            text: span.text(text).to_string(),
            form: ContentForm::Unquoted,
            span,
            ..Content::default()
        }
    }

    pub(crate) fn reference(text: &str, span: Span, reference: Reference) -> Content {
        Content {
            text: span.text(text).to_string(),
            form: ContentForm::Reference,
            reference: Some(reference),
            span,
            lang: None,
        }
    }

    /// The content of a string, block or quote token.
    pub(crate) fn from_token(text: &str, t: &Token) -> Content {
        let raw = t.span.text(text);
        let (form, body, lang) = match t.kind {
            Kind::Str => (ContentForm::Quoted, unescape(inner(raw, 1, t.closed)), None),
            Kind::SmartStr => {
                let open = '“'.len_utf8();
                let body = raw.get(open..).unwrap_or("");
                let body = if t.closed {
                    body.strip_suffix('”').unwrap_or(body)
                } else {
                    body
                };
                (ContentForm::Quoted, body.to_string(), None)
            }
            Kind::Triple => (ContentForm::TripleQuoted, triple_body(raw, t.closed), None),
            Kind::Fence => {
                let (body, lang) = fence_body(raw, t.closed);
                (ContentForm::Fenced, body, lang)
            }
            Kind::Quote => (ContentForm::BlockQuote, quote_body(raw), None),
            _ => (ContentForm::Unquoted, raw.to_string(), None),
        };
        Content {
            text: normalise_newlines(body),
            form,
            lang,
            reference: None,
            span: t.span,
        }
    }

    pub fn is_missing(&self) -> bool {
        self.form == ContentForm::Missing
    }
}

/// `raw` without `n` bytes of delimiter at the start, and at the end when
/// closed.
fn inner(raw: &str, n: usize, closed: bool) -> &str {
    let end = if closed {
        raw.len().saturating_sub(n)
    } else {
        raw.len()
    };
    raw.get(n..end.max(n)).unwrap_or("")
}

/// `\"` and `\\` unescaped; every other backslash kept.
fn unescape(s: &str) -> String {
    if !s.contains('\\') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\'
            && let Some(&n @ ('"' | '\\')) = chars.peek()
        {
            out.push(n);
            chars.next();
            continue;
        }
        out.push(c);
    }
    out
}

fn triple_body(raw: &str, closed: bool) -> String {
    let mut body = raw.get(3..).unwrap_or("");
    if closed {
        body = body.trim_end_matches('"');
        // Quotes inside the text just before the closer belong to the text
        // (`""""x""""` is `"x"`): keep what a run of more than three leaves.
        let extra = raw.len() - 3 - body.len() - 3;
        if extra > 0 {
            body = &raw[3..3 + body.len() + extra];
        }
    }
    // An opener that ends its line: the text starts on the next line.
    if let Some(i) = body.find('\n')
        && body[..i].trim().is_empty()
    {
        body = &body[i + 1..];
    }
    // A closer that starts its line: the text ends on the line before.
    if closed
        && let Some(i) = body.rfind('\n')
        && body[i + 1..].trim().is_empty()
    {
        body = body[..i].strip_suffix('\r').unwrap_or(&body[..i]);
    }
    body.to_string()
}

fn fence_body(raw: &str, closed: bool) -> (String, Option<String>) {
    let c = raw.as_bytes()[0];
    let run = raw.bytes().take_while(|&b| b == c).count();
    let Some(nl) = raw.find('\n') else {
        // Inline: ```code```.
        return (inner(raw, run, closed).to_string(), None);
    };
    let info = raw[run..nl].trim();
    let lang = (!info.is_empty()).then(|| info.to_string());
    let mut body = &raw[nl + 1..];
    if closed {
        body = body.rfind('\n').map_or("", |i| &body[..i]);
        body = body.strip_suffix('\r').unwrap_or(body);
    }
    (body.to_string(), lang)
}

fn quote_body(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    for (i, line) in raw.lines().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let line = line.trim_start();
        let line = line.strip_prefix('>').unwrap_or(line);
        out.push_str(line.strip_prefix(' ').unwrap_or(line));
    }
    out
}

fn normalise_newlines(s: String) -> String {
    if s.contains('\r') {
        s.replace("\r\n", "\n")
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex_action;

    /// The content of the last token of `/x TOKEN`.
    fn body(written: &str) -> (String, Option<String>) {
        let text = format!("/x {written}");
        let lexed = lex_action(&text, 0);
        let c = Content::from_token(&text, lexed.tokens.last().unwrap());
        (c.text, c.lang)
    }

    #[test]
    fn quoted_forms() {
        assert_eq!(body(r#""single line""#).0, "single line");
        assert_eq!(body(r#""say \"hi\" \\ \n""#).0, r#"say "hi" \ \n"#);
        assert_eq!(body(r#""open"#).0, "open");
        assert_eq!(body("“curly”").0, "curly");
        assert_eq!(body("“open").0, "open");
        assert_eq!(body("\"\"").0, "");
    }

    #[test]
    fn triple_quoted() {
        assert_eq!(
            body("\"\"\"\nmulti-line\ncontent\n\"\"\"").0,
            "multi-line\ncontent"
        );
        assert_eq!(body("\"\"\"inline\"\"\"").0, "inline");
        assert_eq!(body("\"\"\"first\nsecond\"\"\"").0, "first\nsecond");
        assert_eq!(body("\"\"\"\"quoted\"\"\"\"").0, "\"quoted\"");
        assert_eq!(body("\"\"\"\r\na\r\nb\r\n\"\"\"").0, "a\nb");
        assert_eq!(body("\"\"\"\nnever closed\n").0, "never closed\n");
        assert_eq!(body("\"\"\"\"\"\"").0, "");
    }

    #[test]
    fn fenced() {
        assert_eq!(
            body("```diff\n- a\n+ b\n```"),
            ("- a\n+ b".to_string(), Some("diff".to_string()))
        );
        assert_eq!(body("```\ncode block style\n```").0, "code block style");
        assert_eq!(body("~~~\nx\n~~~").0, "x");
        assert_eq!(body("```1 + 1```").0, "1 + 1");
        assert_eq!(body("```\n```").0, "");
        assert_eq!(body("```\nopen\nlines").0, "open\nlines");
        assert_eq!(body("```rust\r\nx\r\n```").0, "x");
    }

    #[test]
    fn block_quotes() {
        let text = "/post bluesky\n> block quote\n  >also works\n>\n> end";
        let lexed = lex_action(text, 0);
        let c = Content::from_token(text, lexed.tokens.last().unwrap());
        assert_eq!(c.text, "block quote\nalso works\n\nend");
        assert_eq!(c.form, ContentForm::BlockQuote);
    }
}
