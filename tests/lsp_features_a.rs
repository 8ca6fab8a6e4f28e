//! The language server's editing features end to end: hover, completion,
//! signature help, inlay hints, semantic tokens, folding, selection ranges
//! and formatting, over stdio like an editor (`e2e-prose lsp`).

mod common;
#[path = "common/lsp.rs"]
mod lsp;

use common::{Sandbox, prose_bin};
use lsp::{LspClient, at, decode_tokens, file_uri, range};
use serde_json::{Value, json};

/// A program with two agents, a block, a session and a block call.
const PROGRAM: &str = "# Writes things.
agent writer:
  model: opus
agent critic:
  model: sonnet
block review(topic, depth):
  session \"{topic} {depth}\"
session: writer
do review(\"x\", 2)
";

/// Starts a server on a sandbox holding nothing, initializes it with
/// `capabilities` and opens `text` as `a.prose`; returns the client and
/// the document's URI.
fn open(name: &str, capabilities: Value, text: &str) -> (Sandbox, LspClient, String) {
    let sb = Sandbox::new(name);
    let mut c = LspClient::spawn(prose_bin(), &["lsp"], sb.path());
    c.initialize(sb.path(), capabilities, Value::Null);
    let uri = file_uri(&sb.path().join("a.prose"));
    c.open(&uri, 1, text);
    (sb, c, uri)
}

fn call(c: &mut LspClient, method: &str, params: Value) -> Value {
    c.call_retrying(method, params)
}

#[test]
fn initialize_advertises_the_editing_features() {
    let sb = Sandbox::new("lsp-a-caps");
    let mut c = LspClient::spawn(prose_bin(), &["lsp"], sb.path());
    let r = c.initialize(sb.path(), json!({}), Value::Null);
    let caps = &r["capabilities"];
    assert_eq!(caps["hoverProvider"], true, "{r}");
    assert_eq!(
        caps["completionProvider"]["triggerCharacters"],
        json!([":", "{", "(", "|", "\"", "/", "@", "?", "$", "_"])
    );
    assert_eq!(
        caps["signatureHelpProvider"]["triggerCharacters"],
        json!(["(", ","])
    );
    assert_eq!(caps["inlayHintProvider"], true);
    let st = &caps["semanticTokensProvider"];
    assert_eq!(st["full"], true);
    assert_eq!(st["range"], true);
    assert_eq!(st["legend"]["tokenTypes"][0], "keyword");
    assert_eq!(
        st["legend"]["tokenModifiers"],
        json!(["declaration", "definition", "readonly"])
    );
    assert_eq!(caps["foldingRangeProvider"], true);
    assert_eq!(caps["selectionRangeProvider"], true);
    assert_eq!(caps["documentFormattingProvider"], true);
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn hover_explains_session() {
    let (_sb, mut c, uri) = open("lsp-a-hover", json!({}), PROGRAM);
    let hover = call(&mut c, "textDocument/hover", at(&uri, 7, 2));
    assert_eq!(hover["contents"]["kind"], "markdown", "{hover}");
    let md = hover["contents"]["value"].as_str().unwrap();
    assert!(
        md.starts_with("```prose\nsession \"prompt\"\nsession: agent\nsession name: agent\n```"),
        "{md}"
    );
    assert!(md.contains("Runs one subagent"), "{md}");
    assert_eq!(hover["range"], range(7, 0, 7, 7));
    // An agent name: its model.
    let agent = call(&mut c, "textDocument/hover", at(&uri, 7, 11));
    let md = agent["contents"]["value"].as_str().unwrap();
    assert!(md.contains("writer") && md.contains("opus"), "{md}");
    // Blank space: nothing.
    let none = call(&mut c, "textDocument/hover", at(&uri, 2, 0));
    assert_eq!(none, Value::Null);
    // A position outside the document is an error.
    let id = c.request("textDocument/hover", at(&uri, 40, 0));
    assert_eq!(c.response(id)["error"]["code"], -32602);
}

fn labels(items: &Value) -> Vec<&str> {
    items
        .as_array()
        .expect("a list of items")
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect()
}

#[test]
fn completion_after_session_lists_the_agents() {
    let text = "agent writer:\n  model: opus\nagent critic:\n  model: sonnet\nsession: ";
    let (_sb, mut c, uri) = open("lsp-a-completion", json!({}), text);
    let items = call(&mut c, "textDocument/completion", at(&uri, 4, 9));
    let mut names = labels(&items);
    names.sort();
    assert_eq!(names, ["critic", "writer"], "{items}");
    let writer = items
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["label"] == "writer")
        .unwrap();
    assert_eq!(writer["kind"], 7, "class: {writer}");
    assert_eq!(writer["textEdit"]["range"], range(4, 9, 4, 9));
    assert_eq!(writer["textEdit"]["newText"], "writer");

    // A word being typed is replaced.
    c.change(&uri, 2, &[(4, 9, 4, 9, "wr")]);
    let items = call(&mut c, "textDocument/completion", at(&uri, 4, 11));
    let writer = items
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["label"] == "writer")
        .expect("writer");
    assert_eq!(writer["textEdit"]["range"], range(4, 9, 4, 11));
}

/// The `session` keyword item at the start of an empty line.
fn session_keyword(c: &mut LspClient, uri: &str) -> Value {
    let items = call(c, "textDocument/completion", at(uri, 2, 0));
    items
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["label"] == "session")
        .cloned()
        .unwrap_or_else(|| panic!("no session item: {items}"))
}

#[test]
fn completion_sends_snippets_only_to_clients_that_support_them() {
    let text = "agent writer:\n  model: opus\n\n";
    let snippets = json!({ "textDocument": { "completion": { "completionItem": { "snippetSupport": true } } } });
    let (_sb, mut c, uri) = open("lsp-a-snippets", snippets, text);
    let item = session_keyword(&mut c, &uri);
    assert_eq!(item["insertTextFormat"], 2, "snippet: {item}");
    let snippet = item["textEdit"]["newText"].as_str().unwrap();
    assert!(snippet.contains('$'), "{item}");
    assert_eq!(item["textEdit"]["range"], range(2, 0, 2, 0));

    let (_sb, mut c, uri) = open("lsp-a-plain", json!({}), text);
    let plain = session_keyword(&mut c, &uri);
    assert_eq!(plain["insertTextFormat"], 1, "plain text: {plain}");
    let new_text = plain["textEdit"]["newText"].as_str().unwrap();
    assert!(!new_text.contains('$'), "{plain}");
    assert!(new_text.starts_with("session"), "{plain}");
}

#[test]
fn signature_help_shows_the_active_parameter() {
    let (_sb, mut c, uri) = open("lsp-a-signature", json!({}), PROGRAM);
    // `do review("x", 2)`: the cursor on `2`.
    let help = call(&mut c, "textDocument/signatureHelp", at(&uri, 8, 15));
    let sig = &help["signatures"][0];
    assert_eq!(sig["label"], "block review(topic, depth)", "{help}");
    assert_eq!(
        sig["parameters"],
        json!([{ "label": [13, 18] }, { "label": [20, 25] }])
    );
    assert_eq!(help["activeParameter"], 1);
    assert_eq!(help["activeSignature"], 0);
    // On the first argument.
    let help = call(&mut c, "textDocument/signatureHelp", at(&uri, 8, 11));
    assert_eq!(help["activeParameter"], 0, "{help}");
    // Outside any call.
    let none = call(&mut c, "textDocument/signatureHelp", at(&uri, 7, 3));
    assert_eq!(none, Value::Null);
}

#[test]
fn inlay_hints_show_models_and_parameter_names() {
    let (_sb, mut c, uri) = open("lsp-a-inlay", json!({}), PROGRAM);
    let hints = call(
        &mut c,
        "textDocument/inlayHint",
        json!({ "textDocument": { "uri": uri }, "range": range(0, 0, 99, 0) }),
    );
    let summary: Vec<(Value, Value, Value)> = hints
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (h["position"].clone(), h["label"].clone(), h["kind"].clone()))
        .collect();
    let pos = |line: u32, character: u32| json!({ "line": line, "character": character });
    assert_eq!(
        summary,
        vec![
            (pos(7, 15), json!(": opus"), json!(1)),
            (pos(8, 10), json!("topic:"), json!(2)),
            (pos(8, 15), json!("depth:"), json!(2)),
        ],
        "{hints}"
    );
    // Only the hints within the range.
    let hints = call(
        &mut c,
        "textDocument/inlayHint",
        json!({ "textDocument": { "uri": uri }, "range": range(8, 0, 8, 12) }),
    );
    assert_eq!(labels_of_hints(&hints), ["topic:"]);
}

fn labels_of_hints(hints: &Value) -> Vec<&str> {
    hints
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["label"].as_str().unwrap())
        .collect()
}

const TOKENS: &str = "agent writer:\n  model: opus\nlet x = \"é😀\" # 😀\nsession: writer\n";

fn tokens_in(capabilities: Value, name: &str) -> Vec<(u32, u32, u32, String)> {
    let sb = Sandbox::new(name);
    let mut c = LspClient::spawn(prose_bin(), &["lsp"], sb.path());
    let r = c.initialize(sb.path(), capabilities, Value::Null);
    let legend = r["capabilities"]["semanticTokensProvider"]["legend"].clone();
    let uri = file_uri(&sb.path().join("a.prose"));
    c.open(&uri, 1, TOKENS);
    let full = call(
        &mut c,
        "textDocument/semanticTokens/full",
        json!({ "textDocument": { "uri": uri } }),
    );
    let all = decode_tokens(&full, &legend);
    // The range request: the tokens of line 2 only.
    let part = call(
        &mut c,
        "textDocument/semanticTokens/range",
        json!({ "textDocument": { "uri": uri }, "range": range(2, 0, 2, 3) }),
    );
    let part = decode_tokens(&part, &legend);
    assert!(
        !part.is_empty() && part.iter().all(|t| t.0 == 2),
        "{part:?}"
    );
    assert!(part.iter().all(|t| all.contains(t)), "{part:?} in {all:?}");
    all
}

fn tok(line: u32, col: u32, len: u32, kind: &str) -> (u32, u32, u32, String) {
    (line, col, len, kind.to_string())
}

#[test]
fn semantic_tokens_in_utf16() {
    // `é` is one UTF-16 unit, `😀` two. A string is its quotes and its text.
    assert_eq!(
        tokens_in(json!({}), "lsp-a-tokens16"),
        vec![
            tok(0, 0, 5, "keyword"),
            tok(0, 6, 6, "class"),
            tok(1, 2, 5, "property"),
            tok(1, 9, 4, "enumMember"),
            tok(2, 0, 3, "keyword"),
            tok(2, 4, 1, "variable"),
            tok(2, 6, 1, "operator"),
            tok(2, 8, 1, "string"),
            tok(2, 9, 3, "string"),
            tok(2, 12, 1, "string"),
            tok(2, 14, 4, "comment"),
            tok(3, 0, 7, "keyword"),
            tok(3, 9, 6, "class"),
        ]
    );
}

#[test]
fn semantic_tokens_in_utf8() {
    let caps = json!({ "general": { "positionEncodings": ["utf-8", "utf-16"] } });
    assert_eq!(
        tokens_in(caps, "lsp-a-tokens8"),
        vec![
            tok(0, 0, 5, "keyword"),
            tok(0, 6, 6, "class"),
            tok(1, 2, 5, "property"),
            tok(1, 9, 4, "enumMember"),
            tok(2, 0, 3, "keyword"),
            tok(2, 4, 1, "variable"),
            tok(2, 6, 1, "operator"),
            tok(2, 8, 1, "string"),
            tok(2, 9, 6, "string"),
            tok(2, 15, 1, "string"),
            tok(2, 17, 6, "comment"),
            tok(3, 0, 7, "keyword"),
            tok(3, 9, 6, "class"),
        ]
    );
}

#[test]
fn folding_ranges_cover_bodies_and_comments() {
    let text = "# One.\n# Two.\nagent writer:\n  model: opus\n  prompt: \"x\"\nblock b:\n  session \"a\"\n  session \"b\"\nsession: writer\n";
    let (_sb, mut c, uri) = open("lsp-a-folding", json!({}), text);
    let folds = call(
        &mut c,
        "textDocument/foldingRange",
        json!({ "textDocument": { "uri": uri } }),
    );
    let summary: Vec<(u64, u64, String)> = folds
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["startLine"].as_u64().unwrap(),
                f["endLine"].as_u64().unwrap(),
                f["kind"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            (0, 1, "comment".to_string()),
            (2, 4, "region".to_string()),
            (5, 7, "region".to_string()),
        ],
        "{folds}"
    );
}

#[test]
fn selection_ranges_grow_from_the_word() {
    let (_sb, mut c, uri) = open("lsp-a-selection", json!({}), PROGRAM);
    let result = call(
        &mut c,
        "textDocument/selectionRange",
        json!({ "textDocument": { "uri": uri }, "positions": [{ "line": 8, "character": 11 }] }),
    );
    let mut chain = Vec::new();
    let mut node = &result[0];
    while node.is_object() {
        chain.push(node["range"].clone());
        node = &node["parent"];
    }
    assert_eq!(
        chain,
        vec![
            range(8, 11, 8, 12), // the word in the string
            range(8, 10, 8, 13), // the string
            range(8, 9, 8, 17),  // the arguments
            range(8, 0, 8, 17),  // the statement
            range(0, 0, 8, 17),  // the statements
            range(0, 0, 9, 0),   // the file
        ],
        "{result}"
    );
}

#[test]
fn formatting_rewrites_the_whole_document() {
    let text = "agent  writer:\n    model:opus\n\n\n\nsession:   writer\n";
    let (_sb, mut c, uri) = open("lsp-a-format", json!({}), text);
    let params = json!({ "textDocument": { "uri": uri }, "options": { "tabSize": 2, "insertSpaces": true } });
    let edits = call(&mut c, "textDocument/formatting", params.clone());
    assert_eq!(
        edits,
        json!([{
            "range": range(0, 0, 6, 0),
            "newText": "agent writer:\n  model: opus\n\nsession: writer\n",
        }])
    );
    // Already formatted: no edit.
    c.change(
        &uri,
        2,
        &[(
            0,
            0,
            6,
            0,
            "agent writer:\n  model: opus\n\nsession: writer\n",
        )],
    );
    assert_eq!(
        call(&mut c, "textDocument/formatting", params.clone()),
        json!([])
    );
    // Syntax errors: nothing is formatted.
    c.change(&uri, 3, &[(0, 0, 4, 0, "agent   (:\n")]);
    assert_eq!(call(&mut c, "textDocument/formatting", params), json!([]));
}
