//! What an editor shows a newcomer, end to end over stdio: no error for
//! "nothing to rename here", no link to a page that is not there, and
//! each code's explanation one hover away.

mod common;
#[path = "common/lsp.rs"]
mod lsp;

use common::{Sandbox, prose_bin};
use lsp::{LspClient, file_uri, with_code};
use serde_json::{Value, json};

fn at(uri: &str, line: u32, character: u32) -> Value {
    json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } })
}

/// A program with a persistent agent, an undefined one and a keyword.
const MAIN: &str = concat!(
    "agent captain:\n",
    "  model: opus\n",
    "  persist: project\n",
    "  prompt: \"Lead\"\n",
    "session: captian\n",
);

/// Starts a server on a sandbox with `main.prose` open (version 1) and
/// `files` written first; returns the first diagnostics too.
fn open(name: &str, files: &[(&str, &str)], options: Value) -> (Sandbox, LspClient, String, Value) {
    let sb = Sandbox::new(name);
    for (path, text) in files {
        sb.write(path, text);
    }
    sb.write("main.prose", MAIN);
    let mut c = LspClient::spawn(prose_bin(), &["lsp"], sb.path());
    c.initialize(sb.path(), json!({}), options);
    let uri = file_uri(&sb.path().join("main.prose"));
    c.open(&uri, 1, MAIN);
    let diagnostics = c.diagnostics(&uri, Some(1));
    (sb, c, uri, diagnostics)
}

#[test]
fn prepare_rename_answers_null_where_there_is_no_name() {
    let (_sb, mut c, uri, _) = open("lspn-rename", &[], Value::Null);
    // On the `agent` keyword, a string, a blank: null, not an error.
    for (line, character) in [(0, 2), (3, 12), (1, 1)] {
        let r = c.call("textDocument/prepareRename", at(&uri, line, character));
        assert_eq!(r, Value::Null, "{line}:{character}");
    }
    // A name that cannot be renamed still says why.
    let id = c.request("textDocument/prepareRename", at(&uri, 0, 8));
    let response = c.response(id);
    assert_eq!(response["error"]["code"], -32803, "{response}");
    assert!(
        response["error"]["message"]
            .as_str()
            .unwrap()
            .contains("persist: project"),
        "{response}"
    );
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn code_descriptions_link_only_under_a_docs_url() {
    // Nothing configured: no link at all.
    let (_sb, c, _, p) = open("lspn-nolink", &[], Value::Null);
    let e007 = with_code(&p["diagnostics"], "E007");
    assert_eq!(e007.len(), 1, "{p}");
    assert_eq!(e007[0].get("codeDescription"), None, "{p}");
    assert_eq!(c.shutdown_and_exit().code(), Some(0));

    // prose.toml's `docs-url`.
    let toml = (
        "prose.toml",
        "docs-url = \"https://example.com/prose/{code}.html\"\n",
    );
    let (_sb, c, _, p) = open("lspn-toml", &[toml], Value::Null);
    let e007 = with_code(&p["diagnostics"], "E007");
    assert_eq!(
        e007[0]["codeDescription"]["href"],
        "https://example.com/prose/E007.html"
    );
    assert_eq!(c.shutdown_and_exit().code(), Some(0));

    // The editor's `docsUrl` (a folder of the pages) wins over it.
    let options = json!({ "docsUrl": "file:///ext/docs/diagnostics" });
    let (_sb, c, _, p) = open("lspn-setting", &[toml], options);
    let e007 = with_code(&p["diagnostics"], "E007");
    assert_eq!(
        e007[0]["codeDescription"]["href"],
        "file:///ext/docs/diagnostics/E007.md"
    );
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn hover_on_a_problem_explains_its_code() {
    let (_sb, mut c, uri, _) = open("lspn-hover", &[], Value::Null);
    let hover = c.call("textDocument/hover", at(&uri, 4, 11));
    let text = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(text.contains("**error E007** `undefined-agent`"), "{hover}");
    assert!(text.contains("**Undefined agent reference.**"), "{hover}");
    assert!(text.contains("`prose explain E007`"), "{hover}");
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}
