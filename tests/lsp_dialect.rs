//! Pattern Dialect files in the language server, end to end over stdio
//! (`e2e-prose lsp`), opened as the VS Code extension opens them
//! (language id `prose-dialect`): diagnostics, hover, completion, semantic
//! tokens, quick fixes, outline, folding, selection ranges, and the block
//! registry that `prose.toml` names (`[dialect] registry`), reloaded when
//! it changes on disk.

mod common;
#[path = "common/lsp.rs"]
mod lsp;

use common::{Sandbox, prose_bin};
use lsp::{LspClient, at, decode_tokens, file_uri, range, strings, with_code};
use serde_json::{Value, json};

/// Agent output: prose, a corrected verb, an unknown verb, a marker after
/// an emoji (UTF-16 columns differ from bytes), a batch.
const OUTPUT: &str = "I'll check my notes first.\n/recal deadlines ?\n/summarize it\n/reply 😀 sounds good ?ask\n/batch {\n  /recall notes\n} !\n";

/// Starts a server on a sandbox (with `files` written first), initializes
/// it with `capabilities` and opens `text` as `out.dialect`.
fn open(
    name: &str,
    files: &[(&str, &str)],
    capabilities: Value,
    text: &str,
) -> (Sandbox, LspClient, String) {
    let sb = Sandbox::new(name);
    for (path, contents) in files {
        sb.write(path, contents);
    }
    let mut c = LspClient::spawn(prose_bin(), &["lsp"], sb.path());
    c.initialize(sb.path(), capabilities, Value::Null);
    let uri = file_uri(&sb.path().join("out.dialect"));
    c.open_as(&uri, "prose-dialect", 1, text);
    (sb, c, uri)
}

fn call(c: &mut LspClient, method: &str, params: Value) -> Value {
    c.call_retrying(method, params)
}

/// `code severity range` of each diagnostic.
fn summary(diagnostics: &Value) -> Vec<String> {
    diagnostics
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let r = &d["range"];
            format!(
                "{} {} {}:{}-{}:{}",
                d["code"].as_str().unwrap(),
                d["severity"],
                r["start"]["line"],
                r["start"]["character"],
                r["end"]["line"],
                r["end"]["character"]
            )
        })
        .collect()
}

#[test]
fn diagnostics_are_pushed_with_codes_and_severities() {
    let (_sb, mut c, uri) = open("lsp-dialect-diags", &[], json!({}), OUTPUT);
    let published = c.diagnostics(&uri, Some(1));
    assert_eq!(
        summary(&published["diagnostics"]),
        ["D002 4 1:1-1:6", "D001 1 2:1-2:10"],
        "{published}"
    );
    let hint = &with_code(&published["diagnostics"], "D002")[0];
    assert_eq!(hint["message"], "I read /recal as /recall");
    assert_eq!(hint["source"], "prose");
    // An edit that fixes the verb clears it.
    c.change(&uri, 2, &[(2, 1, 2, 10, "recall")]);
    let published = c.diagnostics(&uri, Some(2));
    assert_eq!(summary(&published["diagnostics"]), ["D002 4 1:1-1:6"]);
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn hover_on_a_verb_a_marker_and_an_unknown_verb() {
    let (_sb, mut c, uri) = open("lsp-dialect-hover", &[], json!({}), OUTPUT);
    let h = call(&mut c, "textDocument/hover", at(&uri, 1, 2));
    let md = h["contents"]["value"].as_str().unwrap();
    assert_eq!(h["contents"]["kind"], "markdown");
    assert!(md.starts_with("`/recal` is read as **/recall**."), "{md}");
    assert!(md.contains("Aliases: `remember`"), "{md}");
    assert!(
        md.contains(
            "Resolves to: /recall searches memory for “deadlines” [?: might need checking]"
        ),
        "{md}"
    );
    assert!(md.contains("**hint D002** `corrected-verb`"), "{md}");
    assert_eq!(h["range"], range(1, 0, 1, 6));
    // The marker after an emoji: UTF-16 columns.
    let h = call(&mut c, "textDocument/hover", at(&uri, 3, 23));
    let md = h["contents"]["value"].as_str().unwrap();
    assert!(
        md.starts_with("Permission marker `?ask`: please confirm with the partner."),
        "{md}"
    );
    assert_eq!(h["range"], range(3, 22, 3, 26));
    // An unknown verb: its diagnostic explained.
    let h = call(&mut c, "textDocument/hover", at(&uri, 2, 4));
    let md = h["contents"]["value"].as_str().unwrap();
    assert!(md.starts_with("**error D001** `unknown-verb`"), "{md}");
    // Prose: nothing.
    assert_eq!(
        call(&mut c, "textDocument/hover", at(&uri, 0, 3)),
        Value::Null
    );
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn completion_of_verbs_aliases_domains_and_markers() {
    let text = "/re\n/send @\n/recall x -> /t\n/reply ok ?\n";
    let (_sb, mut c, uri) = open("lsp-dialect-complete", &[], json!({}), text);
    let trigger = |ch: &str| json!({ "triggerKind": 2, "triggerCharacter": ch });
    let mut params = at(&uri, 0, 3);
    params["context"] = json!({ "triggerKind": 1 });
    let items = call(&mut c, "textDocument/completion", params);
    let items = items.as_array().unwrap();
    let recall = items.iter().find(|i| i["label"] == "/recall").unwrap();
    assert_eq!(recall["kind"], 3, "Function: {recall}");
    assert_eq!(
        recall["textEdit"],
        json!({ "range": range(0, 0, 0, 3), "newText": "/recall" })
    );
    assert!(
        recall["documentation"]["value"]
            .as_str()
            .unwrap()
            .starts_with("**/recall**")
    );
    let remember: Vec<&Value> = items.iter().filter(|i| i["label"] == "/remember").collect();
    assert_eq!(remember.len(), 1, "one item for an alias of two verbs");
    assert!(
        remember[0]["detail"]
            .as_str()
            .unwrap()
            .starts_with("alias of /recall: store what follows; alias of /context"),
        "{}",
        remember[0]
    );
    // A /send domain after the `@` trigger.
    let mut params = at(&uri, 1, 7);
    params["context"] = trigger("@");
    let items = call(&mut c, "textDocument/completion", params);
    let labels = strings(&items, "label");
    assert_eq!(
        labels[..5],
        ["@user", "@agent", "@channel", "@bluesky", "@discord"]
    );
    assert_eq!(items[0]["kind"], 20, "EnumMember");
    assert_eq!(items[0]["textEdit"]["range"], range(1, 6, 1, 7));
    // A chain link, and the markers after `?`.
    let items = call(&mut c, "textDocument/completion", at(&uri, 2, 15));
    assert!(
        items
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i["label"] == "/tell")
    );
    let mut params = at(&uri, 3, 11);
    params["context"] = trigger("?");
    let items = call(&mut c, "textDocument/completion", params);
    assert_eq!(items[1]["label"], "?ask");
    assert_eq!(items[1]["kind"], 24, "Operator");
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn semantic_tokens_in_the_shared_legend() {
    let sb = Sandbox::new("lsp-dialect-tokens");
    let mut c = LspClient::spawn(prose_bin(), &["lsp"], sb.path());
    let r = c.initialize(sb.path(), json!({}), Value::Null);
    let legend = r["capabilities"]["semanticTokensProvider"]["legend"].clone();
    assert!(
        legend["tokenTypes"]
            .as_array()
            .unwrap()
            .contains(&json!("modifier")),
        "{legend}"
    );
    let uri = file_uri(&sb.path().join("out.dialect"));
    c.open_as(&uri, "prose-dialect", 1, OUTPUT);
    let full = call(
        &mut c,
        "textDocument/semanticTokens/full",
        json!({ "textDocument": { "uri": uri } }),
    );
    let tokens = decode_tokens(&full, &legend);
    let t = |l, c, n, k: &str| (l, c, n, k.to_string());
    assert_eq!(
        tokens,
        [
            t(1, 0, 6, "function"),
            t(1, 17, 1, "modifier"),
            t(2, 0, 10, "function"),
            t(3, 0, 6, "function"),
            t(3, 22, 4, "modifier"),
            t(4, 0, 6, "function"),
            t(4, 7, 1, "operator"),
            t(5, 2, 7, "function"),
            t(6, 0, 1, "operator"),
            t(6, 2, 1, "modifier"),
        ]
    );
    // A range: the tokens of line 3 only.
    let part = call(
        &mut c,
        "textDocument/semanticTokens/range",
        json!({ "textDocument": { "uri": uri }, "range": range(3, 0, 3, 26) }),
    );
    assert_eq!(
        decode_tokens(&part, &legend),
        [t(3, 0, 6, "function"), t(3, 22, 4, "modifier")]
    );
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn quick_fix_of_a_corrected_verb() {
    let (_sb, mut c, uri) = open("lsp-dialect-fix", &[], json!({}), OUTPUT);
    let published = c.diagnostics(&uri, Some(1));
    let hint = with_code(&published["diagnostics"], "D002")[0].clone();
    let actions = call(
        &mut c,
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": uri },
            "range": range(1, 2, 1, 2),
            "context": { "diagnostics": [hint] },
        }),
    );
    assert_eq!(
        actions,
        json!([{
            "title": "Write /recall",
            "kind": "quickfix",
            "diagnostics": [hint],
            "isPreferred": true,
            "edit": { "changes": { uri.clone(): [{ "range": range(1, 1, 1, 6), "newText": "recall" }] } },
        }])
    );
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn outline_folding_and_selection() {
    let caps = json!({ "textDocument": { "documentSymbol": { "hierarchicalDocumentSymbolSupport": true } } });
    let (_sb, mut c, uri) = open("lsp-dialect-outline", &[], caps, OUTPUT);
    let doc = json!({ "textDocument": { "uri": uri } });
    let symbols = call(&mut c, "textDocument/documentSymbol", doc.clone());
    let names = strings(&symbols, "name");
    assert_eq!(
        names,
        [
            "/recal deadlines ?",
            "/summarize it",
            "/reply 😀 sounds good ?ask",
            "/batch {"
        ]
    );
    assert_eq!(symbols[0]["kind"], 12, "Function");
    assert_eq!(symbols[0]["selectionRange"], range(1, 0, 1, 6));
    assert_eq!(
        symbols[0]["detail"],
        "/recall searches memory for “deadlines” [?: might need check…"
    );
    assert_eq!(symbols[3]["range"], range(4, 0, 6, 3));
    assert_eq!(symbols[3]["children"][0]["name"], "/recall notes");

    let folds = call(&mut c, "textDocument/foldingRange", doc);
    assert_eq!(folds.as_array().unwrap().len(), 1, "{folds}");
    assert_eq!(folds[0]["startLine"], 4);
    assert_eq!(folds[0]["endLine"], 6);

    let chain = call(
        &mut c,
        "textDocument/selectionRange",
        json!({ "textDocument": { "uri": uri }, "positions": [{ "line": 5, "character": 4 }] }),
    );
    assert_eq!(chain[0]["range"], range(5, 2, 5, 9), "the verb: {chain}");
    assert_eq!(
        chain[0]["parent"]["range"],
        range(5, 2, 5, 15),
        "its action"
    );
    assert_eq!(
        chain[0]["parent"]["parent"]["range"],
        range(4, 0, 6, 3),
        "the batch"
    );
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn the_registry_of_prose_toml_is_watched_and_reloaded() {
    let files = [
        (
            "prose.toml",
            "[dialect]\nregistry = \"agents/blocks.txt\"\n",
        ),
        ("agents/blocks.txt", "project_notes\nmeeting_notes\n"),
    ];
    let caps = json!({ "workspace": { "didChangeWatchedFiles": { "dynamicRegistration": true } } });
    let (sb, mut c, uri) = open(
        "lsp-dialect-registry",
        &files,
        caps,
        "/recall read notes\n/recall m\n",
    );
    let published = c.diagnostics(&uri, Some(1));
    assert_eq!(summary(&published["diagnostics"]), ["D012 1 0:13-0:18"]);
    assert_eq!(
        published["diagnostics"][0]["message"],
        "'recall' found multiple blocks matching 'notes' - did you mean project_notes or meeting_notes?"
    );
    // The registry's blocks are completed.
    let items = call(&mut c, "textDocument/completion", at(&uri, 1, 9));
    assert!(
        items
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i["label"] == "meeting_notes"),
        "{items}"
    );
    // The registry file has a watcher of its own.
    let registry = file_uri(&sb.path().join("agents/blocks.txt"));
    let deadline = std::time::Instant::now() + lsp::TIMEOUT;
    let watched = loop {
        let found = c
            .server_requests
            .iter()
            .filter(|r| r["method"] == "client/registerCapability")
            .flat_map(|r| {
                r["params"]["registrations"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default()
            })
            .find(|reg| reg["id"] == "prose-dialect-registries");
        if let Some(reg) = found {
            break reg;
        }
        assert!(std::time::Instant::now() < deadline, "no registry watcher");
        // Reads (and answers) what the server sends meanwhile.
        c.try_wait_notification("$/none", std::time::Duration::from_millis(100), |_| false);
    };
    let globs = &watched["registerOptions"]["watchers"];
    assert_eq!(globs.as_array().unwrap().len(), 1, "{watched}");
    assert!(
        globs[0]["globPattern"]
            .as_str()
            .unwrap()
            .ends_with("/agents/blocks.txt"),
        "{watched}"
    );
    // The file changes on disk: a block named `notes` now exists.
    sb.write("agents/blocks.txt", "notes\nproject_notes\n");
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": registry, "type": 2 }] }),
    );
    c.wait_notification("textDocument/publishDiagnostics", |p| {
        p["uri"] == uri && p["diagnostics"].as_array().is_some_and(Vec::is_empty)
    });
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn a_missing_registry_is_shown_and_the_file_is_checked_without_one() {
    let files = [("prose.toml", "[dialect]\nregistry = \"nope.txt\"\n")];
    let (_sb, mut c, uri) = open(
        "lsp-dialect-no-registry",
        &files,
        json!({}),
        "/recall read notes\n",
    );
    let message = c.wait_notification("window/showMessage", |_| true);
    let text = message["message"].as_str().unwrap();
    assert!(
        text.contains("[dialect] registry `nope.txt`") && text.contains("does not exist"),
        "{text}"
    );
    let published = c.diagnostics(&uri, Some(1));
    assert_eq!(summary(&published["diagnostics"]), Vec::<String>::new());
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}
