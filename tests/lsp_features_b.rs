//! The navigation and editing features of the language server end to end:
//! go to definition, references, document highlight, rename, document and
//! workspace symbols, code actions. `e2e-prose lsp` is driven over stdio
//! like an editor (see `tests/lsp.rs` for sync and diagnostics).

mod common;
#[path = "common/lsp.rs"]
mod lsp;

use common::{Sandbox, prose_bin};
use lsp::{LspClient, file_uri};
use serde_json::{Value, json};

fn start(sb: &Sandbox) -> LspClient {
    LspClient::spawn(prose_bin(), &["lsp"], sb.path())
}

fn range(l1: u32, c1: u32, l2: u32, c2: u32) -> Value {
    json!({ "start": { "line": l1, "character": c1 }, "end": { "line": l2, "character": c2 } })
}

fn at(uri: &str, line: u32, character: u32) -> Value {
    json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } })
}

/// Merges `extra` into the params of a position request.
fn at_with(uri: &str, line: u32, character: u32, extra: Value) -> Value {
    let mut params = at(uri, line, character);
    for (k, v) in extra.as_object().unwrap() {
        params[k] = v.clone();
    }
    params
}

/// A program with an agent, a variable read in interpolations and
/// `context:`, and set again; "😀" makes UTF-16 columns differ from bytes.
const MAIN: &str = concat!(
    "agent writer:\n",
    "  model: opus\n",
    "let draft = session \"d\"\n",
    "session \"😀 {draft} using {draft.title}\"\n",
    "  context: [draft]\n",
    "draft = session \"again\"\n",
    "session: writer\n",
);

/// Starts a server on a sandbox holding `main.prose` (open, version 1).
fn open_main(name: &str, caps: Value) -> (Sandbox, LspClient, String) {
    let sb = Sandbox::new(name);
    sb.write("main.prose", MAIN);
    let mut c = start(&sb);
    c.initialize(sb.path(), caps, Value::Null);
    let uri = file_uri(&sb.path().join("main.prose"));
    c.open(&uri, 1, MAIN);
    (sb, c, uri)
}

#[test]
fn definition_of_an_agent_reference() {
    // Without linkSupport: a Location of the agent's name.
    let (_sb, mut c, uri) = open_main("lspb-def", json!({}));
    let r = c.call("textDocument/definition", at(&uri, 6, 11));
    assert_eq!(
        r,
        json!([{ "uri": uri, "range": range(0, 6, 0, 12) }]),
        "{r}"
    );
    // Not a name: null.
    let r = c.call("textDocument/definition", at(&uri, 1, 3));
    assert_eq!(r, Value::Null);
    // A position past the end of a line is not in the document.
    let id = c.request("textDocument/definition", at(&uri, 0, 99));
    assert_eq!(c.response(id)["error"]["code"], -32602);
    assert_eq!(c.shutdown_and_exit().code(), Some(0));

    // With linkSupport: a LocationLink, the whole agent as target.
    let (_sb, mut c, uri) = open_main(
        "lspb-def-link",
        json!({ "textDocument": { "definition": { "linkSupport": true } } }),
    );
    let r = c.call("textDocument/definition", at(&uri, 6, 11));
    let links = r.as_array().expect("links");
    assert_eq!(links.len(), 1, "{r}");
    assert_eq!(links[0]["targetUri"], uri.as_str());
    assert_eq!(links[0]["targetSelectionRange"], range(0, 6, 0, 12));
    assert_eq!(links[0]["targetRange"]["start"], range(0, 0, 0, 0)["start"]);
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn references_with_and_without_the_declaration() {
    let (_sb, mut c, uri) = open_main("lspb-refs", json!({}));
    // On `draft` inside `{draft}` (after "😀", two UTF-16 units).
    let all = c.call(
        "textDocument/references",
        at_with(
            &uri,
            3,
            14,
            json!({ "context": { "includeDeclaration": true } }),
        ),
    );
    let ranges: Vec<&Value> = all
        .as_array()
        .unwrap()
        .iter()
        .map(|l| &l["range"])
        .collect();
    assert!(
        all.as_array()
            .unwrap()
            .iter()
            .all(|l| l["uri"] == uri.as_str())
    );
    assert_eq!(
        ranges,
        vec![
            &range(2, 4, 2, 9),
            &range(3, 13, 3, 18),
            &range(3, 27, 3, 32),
            &range(4, 12, 4, 17),
            &range(5, 0, 5, 5),
        ],
        "{all}"
    );
    let refs = c.call(
        "textDocument/references",
        at_with(
            &uri,
            3,
            14,
            json!({ "context": { "includeDeclaration": false } }),
        ),
    );
    let ranges: Vec<&Value> = refs
        .as_array()
        .unwrap()
        .iter()
        .map(|l| &l["range"])
        .collect();
    assert_eq!(
        ranges,
        vec![
            &range(3, 13, 3, 18),
            &range(3, 27, 3, 32),
            &range(4, 12, 4, 17),
            &range(5, 0, 5, 5),
        ],
        "{refs}"
    );
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn document_highlight_marks_reads_and_writes() {
    let (_sb, mut c, uri) = open_main("lspb-highlight", json!({}));
    let r = c.call("textDocument/documentHighlight", at(&uri, 4, 13));
    // 2 = Read, 3 = Write.
    assert_eq!(
        r,
        json!([
            { "range": range(2, 4, 2, 9), "kind": 3 },
            { "range": range(3, 13, 3, 18), "kind": 2 },
            { "range": range(3, 27, 3, 32), "kind": 2 },
            { "range": range(4, 12, 4, 17), "kind": 2 },
            { "range": range(5, 0, 5, 5), "kind": 3 },
        ]),
        "{r}"
    );
    let r = c.call("textDocument/documentHighlight", at(&uri, 0, 9));
    assert_eq!(
        r,
        json!([
            { "range": range(0, 6, 0, 12), "kind": 3 },
            { "range": range(6, 9, 6, 15), "kind": 2 },
        ]),
        "{r}"
    );
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

/// The edits renaming `draft` to `plan` in MAIN.
fn plan_edits() -> Value {
    json!([
        { "range": range(2, 4, 2, 9), "newText": "plan" },
        { "range": range(3, 13, 3, 18), "newText": "plan" },
        { "range": range(3, 27, 3, 32), "newText": "plan" },
        { "range": range(4, 12, 4, 17), "newText": "plan" },
        { "range": range(5, 0, 5, 5), "newText": "plan" },
    ])
}

#[test]
fn rename_a_variable_used_in_interpolations() {
    // A client with versioned documentChanges.
    let (_sb, mut c, uri) = open_main(
        "lspb-rename",
        json!({ "workspace": { "workspaceEdit": { "documentChanges": true } } }),
    );
    c.change(&uri, 2, &[(6, 15, 6, 15, "\n")]);
    let r = c.call("textDocument/prepareRename", at(&uri, 3, 14));
    assert_eq!(r, range(3, 13, 3, 18), "{r}");
    let r = c.call(
        "textDocument/rename",
        at_with(&uri, 3, 14, json!({ "newName": "plan" })),
    );
    assert_eq!(
        r,
        json!({ "documentChanges": [{
            "textDocument": { "uri": uri, "version": 2 },
            "edits": plan_edits(),
        }] }),
        "{r}"
    );
    assert_eq!(c.shutdown_and_exit().code(), Some(0));

    // A client without: plain `changes`.
    let (_sb, mut c, uri) = open_main("lspb-rename-changes", json!({}));
    let r = c.call(
        "textDocument/rename",
        at_with(&uri, 2, 5, json!({ "newName": "plan" })),
    );
    assert_eq!(
        r,
        json!({ "changes": { uri.clone(): plan_edits() } }),
        "{r}"
    );
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn refused_rename_is_an_error_with_the_reason() {
    let (_sb, mut c, uri) = open_main("lspb-rename-refused", json!({}));
    let id = c.request(
        "textDocument/rename",
        at_with(&uri, 2, 5, json!({ "newName": "session" })),
    );
    let response = c.response(id);
    assert_eq!(response["error"]["code"], -32803, "{response}");
    assert_eq!(
        response["error"]["message"],
        "`session` is a keyword and cannot be used as a name"
    );
    // Nothing to rename on a keyword: prepareRename answers null
    // (tests/lsp_newcomer.rs has more).
    let r = c.call("textDocument/prepareRename", at(&uri, 1, 3));
    assert_eq!(r, Value::Null);
    // The server keeps working.
    let r = c.call(
        "textDocument/rename",
        at_with(&uri, 2, 5, json!({ "newName": "plan" })),
    );
    assert_eq!(r["changes"][uri.as_str()], plan_edits());
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

const OUTLINE: &str = concat!(
    "agent writer:\n",
    "  model: opus\n",
    "block review(topic):\n",
    "  let notes = session \"Review {topic}\"\n",
    "let draft = session \"d\"\n",
);

#[test]
fn document_symbols_nested_and_flat() {
    let sb = Sandbox::new("lspb-symbols");
    let mut c = start(&sb);
    c.initialize(
        sb.path(),
        json!({ "textDocument": { "documentSymbol": { "hierarchicalDocumentSymbolSupport": true } } }),
        Value::Null,
    );
    let uri = file_uri(&sb.path().join("outline.prose"));
    c.open(&uri, 1, OUTLINE);
    let r = c.call(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": uri } }),
    );
    /// `[name, kind, selection range, children]` of each symbol.
    fn tree(symbols: &Value) -> Value {
        let Some(symbols) = symbols.as_array() else {
            return json!([]);
        };
        symbols
            .iter()
            .map(|s| {
                json!([
                    s["name"],
                    s["kind"],
                    s["selectionRange"],
                    tree(&s["children"])
                ])
            })
            .collect()
    }
    // 5 = Class, 12 = Function, 13 = Variable.
    assert_eq!(
        tree(&r),
        json!([
            ["writer", 5, range(0, 6, 0, 12), []],
            [
                "review",
                12,
                range(2, 6, 2, 12),
                [["notes", 13, range(3, 6, 3, 11), []]]
            ],
            ["draft", 13, range(4, 4, 4, 9), []],
        ]),
        "{r}"
    );
    assert_eq!(r[0]["detail"], "opus", "{r}");
    assert_eq!(r[0]["range"]["start"], range(0, 0, 0, 0)["start"]);
    assert_eq!(c.shutdown_and_exit().code(), Some(0));

    // A client without hierarchical support gets SymbolInformation.
    let mut c = start(&sb);
    c.initialize(sb.path(), json!({}), Value::Null);
    c.open(&uri, 1, OUTLINE);
    let r = c.call(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": uri } }),
    );
    let flat: Vec<(String, Value)> = r
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            assert_eq!(s["location"]["uri"], uri.as_str());
            (
                s["name"].as_str().unwrap().to_string(),
                s["containerName"].clone(),
            )
        })
        .collect();
    assert_eq!(
        flat,
        vec![
            ("writer".to_string(), Value::Null),
            ("review".to_string(), Value::Null),
            ("notes".to_string(), json!("review")),
            ("draft".to_string(), Value::Null),
        ],
        "{r}"
    );
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn workspace_symbols_find_names_across_files() {
    let sb = Sandbox::new("lspb-wsym");
    sb.write("a.prose", OUTLINE);
    sb.write("sub/b.prose", "agent rewriter:\n  model: opus\n");
    let mut c = start(&sb);
    c.initialize(sb.path(), json!({}), Value::Null);
    let r = c.call("workspace/symbol", json!({ "query": "wri" }));
    let found: Vec<(String, u64, String, Value)> = r
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap().to_string(),
                s["kind"].as_u64().unwrap(),
                s["location"]["uri"].as_str().unwrap().to_string(),
                s["location"]["range"].clone(),
            )
        })
        .collect();
    assert_eq!(
        found,
        vec![
            (
                "writer".to_string(),
                5,
                file_uri(&sb.path().join("a.prose")),
                range(0, 6, 0, 12)
            ),
            (
                "rewriter".to_string(),
                5,
                file_uri(&sb.path().join("sub/b.prose")),
                range(0, 6, 0, 14)
            ),
        ],
        "{r}"
    );
    let r = c.call("workspace/symbol", json!({ "query": "zzzz" }));
    assert_eq!(r, json!([]));
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn code_action_fixes_a_misspelt_model() {
    let sb = Sandbox::new("lspb-actions");
    let mut c = start(&sb);
    c.initialize(
        sb.path(),
        json!({ "textDocument": { "publishDiagnostics": {} } }),
        Value::Null,
    );
    let uri = file_uri(&sb.path().join("a.prose"));
    let text = "agent a:\n  model: opuss\n  prompt: \"p\"\n";
    c.open(&uri, 1, text);
    let published = c.diagnostics(&uri, Some(1));
    let diagnostic = published["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "E008")
        .unwrap_or_else(|| panic!("an E008: {published}"))
        .clone();
    assert_eq!(diagnostic["range"], range(1, 9, 1, 14));
    let params = |only: Value| {
        let mut context = json!({ "diagnostics": [diagnostic.clone()] });
        if !only.is_null() {
            context["only"] = only;
        }
        json!({
            "textDocument": { "uri": uri },
            "range": range(1, 10, 1, 10),
            "context": context,
        })
    };
    let r = c.call("textDocument/codeAction", params(Value::Null));
    let actions = r.as_array().expect("actions");
    let fix = &actions[0];
    assert_eq!(fix["title"], "Change to `opus`", "{r}");
    assert_eq!(fix["kind"], "quickfix");
    assert_eq!(fix["isPreferred"], true);
    assert_eq!(fix["diagnostics"], json!([diagnostic]));
    assert_eq!(
        fix["edit"],
        json!({ "changes": { uri.clone(): [{ "range": range(1, 9, 1, 14), "newText": "opus" }] } })
    );
    // The other models are offered too, not preferred.
    assert!(actions.len() >= 2, "{r}");
    assert!(actions[1..].iter().all(|a| a.get("isPreferred").is_none()));

    // `only` filters by kind (and sub-kind).
    let r = c.call("textDocument/codeAction", params(json!(["refactor"])));
    assert_eq!(r, json!([]));
    let r = c.call("textDocument/codeAction", params(json!(["quickfix"])));
    assert_eq!(r.as_array().unwrap().len(), actions.len());
    // Nothing under a range without diagnostics.
    let r = c.call(
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": uri },
            "range": range(2, 3, 2, 3),
            "context": { "diagnostics": [] },
        }),
    );
    assert_eq!(r, json!([]));
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

const RESEARCH: &str = "input topic: \"What to research\"\n\
input depth: \"How deep\"\n\
output findings = session \"Research {topic}\"\n\
output sources = session \"List sources\"\n";

#[test]
fn definition_across_files_to_an_imported_program() {
    let sb = Sandbox::new("lspb-xfile");
    let program = ".prose/imports/alice--research/program.prose";
    sb.write(program, RESEARCH);
    let main =
        "use \"@alice/research\"\nlet r = research(topic: \"x\")\nsession \"{r.findings}\"\n";
    sb.write("main.prose", main);
    let mut c = start(&sb);
    c.initialize(sb.path(), json!({}), Value::Null);
    let uri = file_uri(&sb.path().join("main.prose"));
    let program_uri = file_uri(&sb.path().join(program));
    c.open(&uri, 1, main);

    // A named argument goes to the program's input.
    let r = c.call("textDocument/definition", at(&uri, 1, 19));
    assert_eq!(
        r,
        json!([{ "uri": program_uri, "range": range(0, 6, 0, 11) }]),
        "{r}"
    );
    // A property read goes to its output.
    let r = c.call("textDocument/definition", at(&uri, 2, 14));
    assert_eq!(
        r,
        json!([{ "uri": program_uri, "range": range(2, 7, 2, 15) }]),
        "{r}"
    );
    // The program call goes to the whole file.
    let r = c.call("textDocument/definition", at(&uri, 1, 10));
    assert_eq!(
        r,
        json!([{ "uri": program_uri, "range": range(0, 0, 4, 0) }]),
        "{r}"
    );
    // References of the input include the named argument in main.prose.
    let r = c.call(
        "textDocument/references",
        at_with(
            &uri,
            1,
            19,
            json!({ "context": { "includeDeclaration": true } }),
        ),
    );
    let mut found: Vec<(String, Value)> = r
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["uri"].as_str().unwrap().to_string(), l["range"].clone()))
        .collect();
    found.sort_by_key(|(u, r)| (u.clone(), r.to_string()));
    let mut expected = vec![
        (program_uri.clone(), range(0, 6, 0, 11)),
        (program_uri.clone(), range(2, 37, 2, 42)),
        (uri.clone(), range(1, 17, 1, 22)),
    ];
    expected.sort_by_key(|(u, r)| (u.clone(), r.to_string()));
    assert_eq!(found, expected, "{r}");
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn capabilities_are_advertised() {
    let sb = Sandbox::new("lspb-caps");
    let mut c = start(&sb);
    let r = c.initialize(sb.path(), json!({}), Value::Null);
    let caps = &r["capabilities"];
    assert_eq!(caps["definitionProvider"], true, "{r}");
    assert_eq!(caps["referencesProvider"], true);
    assert_eq!(caps["documentHighlightProvider"], true);
    assert_eq!(caps["renameProvider"], json!({ "prepareProvider": true }));
    assert_eq!(caps["documentSymbolProvider"], true);
    assert_eq!(caps["workspaceSymbolProvider"], true);
    assert_eq!(
        caps["codeActionProvider"],
        json!({ "codeActionKinds": ["quickfix", "refactor"], "resolveProvider": false })
    );
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}
