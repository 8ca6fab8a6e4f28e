//! A JSONC reader that never fails: every input gives a value tree (with the
//! byte range of every value and key) and the list of syntax errors.
//!
//! The accepted language is JSON (RFC 8259) plus `//` and `/* */` comments
//! and trailing commas, as in VS Code's `jsonc`. Anything else is an error
//! that is reported and recovered from: the parser goes on after a missing
//! comma, colon or value, a stray token, an unquoted property name, a
//! single-quoted or unterminated string, and builds what it can, so one
//! typo does not hide the rest of the file from the checks and the editor.
//!
//! Why not `jsonc-parser`'s own parser: it stops at the first error and
//! returns no tree at all then, and it does not map offsets in a decoded
//! string back to the source (a `$variable` inside a string with escapes
//! must still be reported at its exact bytes). See `docs/jobs.md`.

mod lexer;
mod parser;
mod string;

pub use string::JsonString;
use text_size::TextRange;

/// Objects and arrays nested deeper than this are an error (and skipped),
/// so a pathological input cannot overflow the stack.
pub const MAX_NESTING: usize = 128;

/// A parsed document: the root value (absent only when the text holds no
/// value at all) and every syntax error, in source order.
#[derive(Debug, Clone, PartialEq)]
pub struct JsonDocument {
    pub root: Option<Value>,
    pub errors: Vec<SyntaxError>,
}

/// A syntax error: where, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SyntaxError {
    pub range: TextRange,
    pub message: String,
}

/// A JSON value and the range of its text (for objects and arrays, from
/// the opening to the closing bracket).
#[derive(Debug, Clone, PartialEq)]
pub struct Value {
    pub range: TextRange,
    pub kind: ValueKind,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ValueKind {
    Null,
    Bool(bool),
    /// The number's value; `None` when its text is not a valid JSON number.
    Number(Option<f64>),
    String(JsonString),
    Array(Vec<Value>),
    Object(Vec<Member>),
    /// A value that should be here but is not (a syntax error was
    /// reported); its range is empty or covers the junk found instead.
    Missing,
}

/// An object member: `"key": value`.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    pub key: JsonString,
    pub value: Value,
}

impl Value {
    /// What kind of value this is, as a user reads it: `a string`, `an array`.
    pub fn describe(&self) -> &'static str {
        match &self.kind {
            ValueKind::Null => "null",
            ValueKind::Bool(_) => "a boolean",
            ValueKind::Number(_) => "a number",
            ValueKind::String(_) => "a string",
            ValueKind::Array(_) => "an array",
            ValueKind::Object(_) => "an object",
            ValueKind::Missing => "nothing",
        }
    }

    pub fn as_str(&self) -> Option<&JsonString> {
        match &self.kind {
            ValueKind::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Value]> {
        match &self.kind {
            ValueKind::Array(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_object(&self) -> Option<&[Member]> {
        match &self.kind {
            ValueKind::Object(members) => Some(members),
            _ => None,
        }
    }

    pub fn is_missing(&self) -> bool {
        matches!(self.kind, ValueKind::Missing)
    }
}

/// Parses `text` as JSONC. Never fails and never panics; see the module
/// documentation for what is accepted and how errors are recovered.
pub fn parse(text: &str) -> JsonDocument {
    parser::parse(text)
}

#[cfg(test)]
mod tests;
