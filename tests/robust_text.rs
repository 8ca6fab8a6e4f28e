//! The language server under hostile input, text rows: line ends and
//! selection ranges, through the real binary over stdio (issue 16).

mod common;
#[path = "common/lsp.rs"]
mod lsp;

use common::{Sandbox, prose_bin};
use lsp::{LspClient, file_uri};
use serde_json::{Value, json};

fn started(sb: &Sandbox) -> LspClient {
    let mut c = LspClient::spawn(prose_bin(), &["lsp"], sb.path());
    c.initialize(sb.path(), json!({}), Value::Null);
    c
}

/// `(code, range)` of each diagnostic, sorted.
fn summary(items: &Value) -> Vec<(String, String)> {
    let mut out: Vec<_> = items
        .as_array()
        .expect("an array of diagnostics")
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["range"].to_string(),
            )
        })
        .collect();
    out.sort();
    out
}

const PROGRAM: &str =
    "agent a:\n  model: nope\nsession: b\nlet x = session \"\"\nsession: a\n  prompt: \"{y}\"\n";

/// `\r`, `\n` and `\r\n` each end a line: the same program with each kind
/// of line end gets the same diagnostics at the same positions.
#[test]
fn lone_cr_line_ends_are_lines() {
    let sb = Sandbox::new("robust-cr");
    let mut c = started(&sb);
    let mut seen = Vec::new();
    for (name, newline) in [("lf", "\n"), ("cr", "\r"), ("crlf", "\r\n")] {
        let uri = file_uri(&sb.path().join(format!("{name}.prose")));
        c.open(&uri, 1, &PROGRAM.replace('\n', newline));
        let p = c.diagnostics(&uri, Some(1));
        seen.push(summary(&p["diagnostics"]));
    }
    assert_eq!(seen[0].len(), 4, "{:?}", seen[0]);
    assert_eq!(seen[0], seen[1], "lone \\r");
    assert_eq!(seen[0], seen[2], "\\r\\n");

    // The formatter reads a comment, a lone `\r` and code as two lines.
    let uri = file_uri(&sb.path().join("comment.prose"));
    c.open(&uri, 1, "#\re = 1\r");
    let edits = c.call(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": uri }, "options": { "tabSize": 2, "insertSpaces": true } }),
    );
    assert_eq!(edits, json!([]), "already formatted: {edits}");
    // Positions after a lone `\r` are on the next line.
    let hover = c.call(
        "textDocument/hover",
        json!({ "textDocument": { "uri": file_uri(&sb.path().join("cr.prose")) }, "position": { "line": 4, "character": 10 } }),
    );
    let md = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(md.contains("agent a"), "{hover}");
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}
