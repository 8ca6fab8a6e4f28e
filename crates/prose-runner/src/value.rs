//! Runtime values and how they read as text, items, fields and booleans.
//!
//! Sessions produce text. Literals, arrays, objects and program results
//! are structured. Where a text must be used as a structure (iterating over
//! a session's output, `plan.phases`), the runner reads it
//! deterministically: JSON when it is JSON (also inside a ```` ```json ````
//! fence), otherwise one item per non-empty line for iteration.

use std::{fmt::Write, sync::Arc};

use serde_json::Value as Json;

/// A value.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Value {
    #[default]
    Null,
    Bool(bool),
    Number(f64),
    Text(Arc<str>),
    List(Vec<Value>),
    /// Fields in the order written.
    Object(Vec<(String, Value)>),
}

impl Value {
    pub fn text(s: impl Into<Arc<str>>) -> Value {
        Value::Text(s.into())
    }

    /// How the value reads in a prompt, an interpolation and a binding
    /// file: text as is, numbers and booleans as written, `null` as
    /// nothing, lists and objects as JSON.
    pub fn to_text(&self) -> String {
        match self {
            Value::Null => String::new(),
            Value::Bool(b) => b.to_string(),
            Value::Number(n) => number_text(*n),
            Value::Text(t) => t.to_string(),
            Value::List(_) | Value::Object(_) => {
                serde_json::to_string_pretty(&self.to_json()).unwrap_or_default()
            }
        }
    }

    /// The value as JSON (texts that are JSON stay strings).
    pub fn to_json(&self) -> Json {
        match self {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(*b),
            Value::Number(n) => serde_json::Number::from_f64(*n)
                .map(|n| {
                    if n.as_f64()
                        .is_some_and(|f| f.fract() == 0.0 && f.abs() < 9e15)
                    {
                        Json::from(n.as_f64().unwrap_or_default() as i64)
                    } else {
                        Json::Number(n)
                    }
                })
                .unwrap_or(Json::Null),
            Value::Text(t) => Json::String(t.to_string()),
            Value::List(items) => Json::Array(items.iter().map(Value::to_json).collect()),
            Value::Object(fields) => Json::Object(
                fields
                    .iter()
                    .map(|(k, v)| (k.clone(), v.to_json()))
                    .collect(),
            ),
        }
    }

    /// A value from JSON.
    pub fn from_json(j: &Json) -> Value {
        match j {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) => Value::Number(n.as_f64().unwrap_or_default()),
            Json::String(s) => Value::text(s.as_str()),
            Json::Array(a) => Value::List(a.iter().map(Value::from_json).collect()),
            Json::Object(o) => Value::Object(
                o.iter()
                    .map(|(k, v)| (k.clone(), Value::from_json(v)))
                    .collect(),
            ),
        }
    }

    /// The items of a collection: a list's elements; a text's JSON array
    /// elements, else its non-empty lines without list markers (`- `, `* `,
    /// `1. `); an object's values; nothing for null; a scalar is one item.
    pub fn items(&self) -> Vec<Value> {
        match self {
            Value::List(items) => items.clone(),
            Value::Object(fields) => fields.iter().map(|(_, v)| v.clone()).collect(),
            Value::Null => Vec::new(),
            Value::Text(t) => match parse_json(t) {
                Some(Json::Array(a)) => a.iter().map(Value::from_json).collect(),
                _ => t
                    .lines()
                    .map(strip_list_marker)
                    .filter(|l| !l.is_empty())
                    .map(Value::text)
                    .collect(),
            },
            scalar => vec![scalar.clone()],
        }
    }

    /// A field: an object's field, or a field of the JSON object a text
    /// holds. `None` when there is no such field.
    pub fn field(&self, name: &str) -> Option<Value> {
        match self {
            Value::Object(fields) => fields
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone()),
            Value::Text(t) => match parse_json(t)? {
                Json::Object(o) => o.get(name).map(Value::from_json),
                _ => None,
            },
            _ => None,
        }
    }

    /// An element by index (negative counts from the end) or an object's
    /// field by name.
    pub fn index(&self, at: &Value) -> Option<Value> {
        if let Value::Text(key) = at {
            return self.field(key);
        }
        let Value::Number(n) = at else {
            return None;
        };
        if n.fract() != 0.0 {
            return None;
        }
        let items = self.items();
        let len = items.len() as i64;
        let i = *n as i64;
        let i = if i < 0 { len + i } else { i };
        (0..len).contains(&i).then(|| items[i as usize].clone())
    }

    /// Truth for plain conditions (`if depth <= 0`): booleans as they are;
    /// numbers other than 0; non-empty lists and objects; a text that reads
    /// as yes/true (see [`crate::answer::read_condition`]) or, when it does
    /// not read as yes or no, is not empty; null is false.
    pub fn truthy(&self) -> bool {
        match self {
            Value::Null => false,
            Value::Bool(b) => *b,
            Value::Number(n) => *n != 0.0,
            Value::Text(t) => crate::answer::read_condition(t).unwrap_or(!t.trim().is_empty()),
            Value::List(l) => !l.is_empty(),
            Value::Object(o) => !o.is_empty(),
        }
    }

    /// The number a value holds (a number, or a text that is one).
    pub fn as_number(&self) -> Option<f64> {
        match self {
            Value::Number(n) => Some(*n),
            Value::Text(t) => t.trim().parse().ok(),
            Value::Bool(b) => Some(if *b { 1.0 } else { 0.0 }),
            _ => None,
        }
    }

    /// A short description for error messages (`text`, `a list of 3`).
    pub fn describe(&self) -> String {
        match self {
            Value::Null => "null".into(),
            Value::Bool(_) => "a boolean".into(),
            Value::Number(_) => "a number".into(),
            Value::Text(_) => "text".into(),
            Value::List(l) => format!("a list of {}", l.len()),
            Value::Object(_) => "an object".into(),
        }
    }
}

fn number_text(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 9e15 {
        format!("{}", n as i64)
    } else {
        let mut s = String::new();
        let _ = write!(s, "{n}");
        s
    }
}

/// `- item`, `* item`, `• item`, `1. item`, `1) item` -> `item`.
fn strip_list_marker(line: &str) -> &str {
    let t = line.trim();
    for m in ["- ", "* ", "• ", "+ "] {
        if let Some(rest) = t.strip_prefix(m) {
            return rest.trim();
        }
    }
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 {
        let rest = &t[digits..];
        if let Some(r) = rest.strip_prefix(". ").or_else(|| rest.strip_prefix(") ")) {
            return r.trim();
        }
    }
    t
}

/// The JSON a text holds: the whole text, or the body of a ```` ```json ````
/// (or plain ```` ``` ````) fence in it.
pub fn parse_json(text: &str) -> Option<Json> {
    let t = text.trim();
    if (t.starts_with('{') || t.starts_with('['))
        && let Ok(j) = serde_json::from_str(t)
    {
        return Some(j);
    }
    let start = t.find("```")?;
    let after = &t[start + 3..];
    let body_start = after.find('\n')? + 1;
    let body = &after[body_start..];
    let end = body.find("```")?;
    serde_json::from_str(body[..end].trim()).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_forms() {
        assert_eq!(Value::Number(3.0).to_text(), "3");
        assert_eq!(Value::Number(2.5).to_text(), "2.5");
        assert_eq!(Value::Null.to_text(), "");
        assert_eq!(
            Value::List(vec![Value::text("a"), Value::Number(1.0)]).to_text(),
            "[\n  \"a\",\n  1\n]"
        );
    }

    #[test]
    fn items_of_texts() {
        let json = Value::text("```json\n[\"a\", {\"n\": 1}]\n```");
        assert_eq!(
            json.items(),
            vec![
                Value::text("a"),
                Value::Object(vec![("n".into(), Value::Number(1.0))])
            ]
        );
        let lines = Value::text("1. first\n\n- second\n* third\nplain");
        assert_eq!(
            lines.items(),
            ["first", "second", "third", "plain"]
                .map(Value::text)
                .to_vec()
        );
        assert_eq!(Value::Null.items(), vec![]);
    }

    #[test]
    fn fields_and_indexes() {
        let t = Value::text(r#"{"tool": "claude", "phases": ["a", "b"]}"#);
        assert_eq!(t.field("tool"), Some(Value::text("claude")));
        assert_eq!(
            t.field("phases").unwrap().index(&Value::Number(-1.0)),
            Some(Value::text("b"))
        );
        assert_eq!(t.field("nope"), None);
        assert_eq!(Value::text("not json").field("x"), None);
    }

    #[test]
    fn truth() {
        assert!(Value::text("Yes").truthy());
        assert!(!Value::text("no, because").truthy());
        assert!(Value::text("something").truthy());
        assert!(!Value::text("  ").truthy());
        assert!(!Value::Number(0.0).truthy());
        assert!(!Value::Null.truthy());
    }
}
