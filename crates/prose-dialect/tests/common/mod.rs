//! Rendering for the snapshot tests: each action as compact JSON without
//! spans, then its diagnostics.

#![allow(dead_code)]

use prose_dialect::{BlockRegistry, DialectParser, Document};
use serde_json::Value;

/// The registry the tests use: two long-term blocks and two working-memory
/// blocks.
pub fn registry() -> BlockRegistry {
    BlockRegistry::parse("project_notes\nmeeting_notes\n[context]\npersona\nhuman\n").unwrap()
}

pub fn parser() -> DialectParser {
    DialectParser::new().with_registry(registry())
}

/// Drops `span` fields, `confidence: 1.0`, and `written` when it equals the
/// verb, so snapshots show meaning.
fn strip(v: &mut Value) {
    match v {
        Value::Object(map) => {
            map.remove("span");
            if map.get("confidence").and_then(Value::as_f64) == Some(1.0) {
                map.remove("confidence");
            }
            if map.get("written") == map.get("verb") {
                map.remove("written");
            }
            for (_, x) in map.iter_mut() {
                strip(x);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(strip),
        _ => {}
    }
}

/// One block per action: `> input` lines, the action as JSON (or `null`),
/// and `CODE severity: message` per diagnostic.
pub fn render(text: &str, doc: &Document) -> String {
    let mut out = String::new();
    for a in &doc.actions {
        for line in a.span.text(text).lines() {
            out.push_str(&format!("> {line}\n"));
        }
        let mut v = serde_json::to_value(&a.action).unwrap();
        strip(&mut v);
        out.push_str(&serde_json::to_string(&v).unwrap());
        out.push('\n');
        for d in &a.diagnostics {
            out.push_str(&format!(
                "{} {}: {}\n",
                d.code,
                d.severity.as_str(),
                d.message
            ));
        }
    }
    out
}

/// Renders `text` parsed with the test registry.
pub fn show(text: &str) -> String {
    render(text, &parser().parse_document(text))
}
