//! The server's own requests for editor views, end to end over stdio:
//! `prose/syntaxTree` (Show syntax tree) and `prose/explain` (Explain
//! diagnostic). See docs/lsp.md, "Requests for editor views".

mod common;
#[path = "common/lsp.rs"]
mod lsp;

use common::{Sandbox, prose_bin};
use lsp::{LspClient, file_uri};
use serde_json::{Value, json};

#[test]
fn syntax_tree_of_an_open_document() {
    let sb = Sandbox::new("lsp-syntax-tree");
    let mut c = LspClient::spawn(prose_bin(), &["lsp"], sb.path());
    c.initialize(sb.path(), json!({}), Value::Null);
    let uri = file_uri(&sb.path().join("a.prose"));
    c.open(&uri, 1, "session \"hi\"\n");
    let answer = c.call(
        "prose/syntaxTree",
        json!({ "textDocument": { "uri": uri } }),
    );
    let tree = answer.as_str().expect("a string result");
    assert!(tree.starts_with("SOURCE_FILE@0..13"), "{tree}");
    assert!(tree.contains("SESSION_KW@0..7 \"session\""), "{tree}");
    // An unknown document is an invalid-params error, as for other requests.
    let missing = file_uri(&sb.path().join("missing.prose"));
    let id = c.request(
        "prose/syntaxTree",
        json!({ "textDocument": { "uri": missing } }),
    );
    let answer = c.response(id);
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    c.shutdown_and_exit();
}

#[test]
fn explain_a_code_or_null() {
    let sb = Sandbox::new("lsp-explain");
    let mut c = LspClient::spawn(prose_bin(), &["lsp"], sb.path());
    c.initialize(sb.path(), json!({}), Value::Null);
    let answer = c.call("prose/explain", json!({ "code": "e002" }));
    assert_eq!(answer["code"], "E002", "{answer}");
    let markdown = answer["markdown"].as_str().unwrap();
    assert!(markdown.contains("escape"), "{markdown}");
    let answer = c.call("prose/explain", json!({ "code": "Z123" }));
    assert_eq!(answer, Value::Null, "{answer}");
    c.shutdown_and_exit();
}
