//! Markdown prompt files, `_keyword_` instructions and the languages
//! injected into markdown and programs, through the language server end
//! to end (`e2e-prose lsp` over stdio): capabilities, diagnostics,
//! the files prompts read (loaded and watched), hover, completion, tokens,
//! definition, document links, outline, quick fixes, the "Show what the
//! model receives" lens and command.

mod common;
#[path = "common/lsp.rs"]
mod lsp;

use common::{Sandbox, prose_bin};
use lsp::{LspClient, file_uri, with_code};
use serde_json::{Value, json};

fn start(sb: &Sandbox, caps: Value) -> LspClient {
    let mut c = LspClient::spawn(prose_bin(), &["lsp"], sb.path());
    c.initialize(sb.path(), caps, Value::Null);
    c
}

fn open_markdown(c: &mut LspClient, uri: &str, text: &str) {
    c.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "markdown", "version": 1, "text": text } }),
    );
}

fn at(uri: &str, line: u32, character: u32) -> Value {
    json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } })
}

fn range(l1: u32, c1: u32, l2: u32, c2: u32) -> Value {
    json!({ "start": { "line": l1, "character": c1 }, "end": { "line": l2, "character": c2 } })
}

fn codes(diags: &Value) -> Vec<String> {
    diags["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap_or("").to_string())
        .collect()
}

const PROMPT: &str = "/read docs/design.md\n/read docs/missing.md\n/push name=next \"Write tests\"\n\nImplement the feature, then _termiante_ \"SGN_DONE\".\n";

#[test]
fn capabilities_for_markdown() {
    let sb = Sandbox::new("lspmd-caps");
    let mut c = LspClient::spawn(prose_bin(), &["lsp"], sb.path());
    let init = c.initialize(sb.path(), json!({}), Value::Null);
    let caps = &init["capabilities"];
    assert_eq!(caps["codeLensProvider"]["resolveProvider"], false, "{caps}");
    assert_eq!(
        caps["documentLinkProvider"]["resolveProvider"], false,
        "{caps}"
    );
    let commands = caps["executeCommandProvider"]["commands"]
        .as_array()
        .unwrap();
    assert!(commands.contains(&json!("prose.showModelView")), "{caps}");
    let triggers = caps["completionProvider"]["triggerCharacters"]
        .as_array()
        .unwrap();
    assert!(triggers.contains(&json!("_")) && triggers.contains(&json!("/")));
    let types = caps["semanticTokensProvider"]["legend"]["tokenTypes"]
        .as_array()
        .unwrap();
    for t in ["event", "macro", "regexp"] {
        assert!(types.contains(&json!(t)), "{t} in {types:?}");
    }
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn diagnostics_of_prompt_instruction_and_ordinary_markdown_files() {
    let sb = Sandbox::new("lspmd-diags");
    sb.write("docs/design.md", "/read other.md\n# Design\n");
    let mut c = start(&sb, json!({}));

    let prompt = file_uri(&sb.path().join("task.prompt.md"));
    open_markdown(&mut c, &prompt, PROMPT);
    let d = c.diagnostics(&prompt, Some(1));
    assert_eq!(codes(&d), ["M006", "M005", "K001"], "{d}");
    let m005 = &with_code(&d["diagnostics"], "M005")[0];
    assert_eq!(m005["range"], range(1, 6, 1, 21));
    assert_eq!(m005["severity"], 2);
    assert_eq!(m005["source"], "prose");

    let agents = file_uri(&sb.path().join("AGENTS.md"));
    open_markdown(
        &mut c,
        &agents,
        "# Agent\n\n_if_ done, _then_ _terminate_ SGN_DONE.\n\n```prose\nsession: reviewer\n```\n",
    );
    let d = c.diagnostics(&agents, Some(1));
    assert_eq!(codes(&d), ["K004", "E007"], "{d}");
    assert_eq!(
        with_code(&d["diagnostics"], "E007")[0]["range"],
        range(5, 9, 5, 17),
        "in the fence, at its place in the markdown file"
    );

    let readme = file_uri(&sb.path().join("README.md"));
    open_markdown(
        &mut c,
        &readme,
        "# Tool\n\nYou can _run_ the tests. Only _if_ needed.\n\n```rust\nfn main() {}\n```\n",
    );
    let d = c.diagnostics(&readme, Some(1));
    assert_eq!(d["diagnostics"], json!([]), "{d}");
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn files_prompts_read_are_loaded_and_watched() {
    let sb = Sandbox::new("lspmd-aux");
    let mut c = start(
        &sb,
        json!({ "workspace": { "didChangeWatchedFiles": { "dynamicRegistration": true } } }),
    );
    let prompt = file_uri(&sb.path().join("task.prompt.md"));
    open_markdown(&mut c, &prompt, "/read docs/notes.md\nWork.\n");
    let d = c.diagnostics(&prompt, Some(1));
    assert_eq!(codes(&d), ["M005"], "{d}");
    let notes = sb.path().join("docs/notes.md");
    c.server_request("client/registerCapability");
    let registration = c
        .server_requests
        .iter()
        .filter(|r| r["method"] == "client/registerCapability")
        .flat_map(|r| r["params"]["registrations"].as_array().unwrap().clone())
        .find(|r| r["id"].as_str().unwrap().starts_with("prose-aux-files"));
    let watchers =
        registration.expect("a watcher for the file")["registerOptions"]["watchers"].clone();
    assert!(
        watchers.to_string().contains(&*notes.to_string_lossy()),
        "{watchers}"
    );

    sb.write("docs/notes.md", "# Notes\n");
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": file_uri(&notes), "type": 1 }] }),
    );
    let d = c.wait_notification("textDocument/publishDiagnostics", |p| {
        p["uri"] == prompt && p["diagnostics"] == json!([])
    });
    assert_eq!(d["diagnostics"], json!([]));
    let hover = c.call("textDocument/hover", at(&prompt, 0, 10));
    assert!(
        hover["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("# Notes"),
        "{hover}"
    );

    std::fs::remove_file(&notes).unwrap();
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": file_uri(&notes), "type": 3 }] }),
    );
    let d = c.wait_notification("textDocument/publishDiagnostics", |p| {
        p["uri"] == prompt && p["diagnostics"] != json!([])
    });
    assert_eq!(codes(&d), ["M005"]);
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn hover_in_prompts_instructions_and_program_strings() {
    let sb = Sandbox::new("lspmd-hover");
    sb.write("docs/design.md", "# Design\nThe feature.\n");
    let mut c = start(&sb, json!({}));
    let prompt = file_uri(&sb.path().join("task.prompt.md"));
    open_markdown(&mut c, &prompt, PROMPT);
    c.diagnostics(&prompt, Some(1));
    let h = c.call("textDocument/hover", at(&prompt, 0, 12));
    let text = h["contents"]["value"].as_str().unwrap();
    assert!(text.contains("The feature."), "{h}");
    assert_eq!(h["range"], range(0, 6, 0, 20));

    let program = file_uri(&sb.path().join("main.prose"));
    let source = "session \"Review it, then _terminate_ \\\"SGN_DONE\\\".\"\n";
    c.open(&program, 1, source);
    c.diagnostics(&program, Some(1));
    let h = c.call("textDocument/hover", at(&program, 0, 30));
    assert!(
        h["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("**_terminate_**"),
        "{h}"
    );
    assert_eq!(h["range"], range(0, 25, 0, 36));
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn completion_of_commands_keywords_and_paths() {
    let sb = Sandbox::new("lspmd-complete");
    sb.write("docs/design.md", "x");
    sb.write("docs/deploy/run.md", "x");
    let mut c = start(&sb, json!({}));
    let prompt = file_uri(&sb.path().join("task.prompt.md"));
    open_markdown(&mut c, &prompt, "/read docs/de\nWork, then _ter\n");
    // The first diagnostics come once the files it reads are looked up:
    // no later load cancels the requests below.
    c.diagnostics(&prompt, Some(1));
    let items = c.call("textDocument/completion", at(&prompt, 0, 13));
    let labels: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["deploy/", "design.md"]);
    assert_eq!(items[1]["textEdit"]["range"], range(0, 11, 0, 13));
    assert_eq!(items[1]["kind"], 17, "a file");

    let items = c.call("textDocument/completion", at(&prompt, 1, 15));
    let terminate = items
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["label"] == "_terminate_")
        .expect("the keyword");
    assert_eq!(terminate["textEdit"]["range"], range(1, 11, 1, 15));
    assert_eq!(
        terminate["insertTextFormat"], 1,
        "plain text without snippet support"
    );
    assert_eq!(terminate["textEdit"]["newText"], "_terminate_ \"SGN_DONE\"");
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn tokens_links_definition_and_outline() {
    let sb = Sandbox::new("lspmd-nav");
    sb.write("docs/design.md", "# Design\n");
    let mut c = start(
        &sb,
        json!({ "textDocument": { "documentSymbol": { "hierarchicalDocumentSymbolSupport": true } } }),
    );
    let prompt = file_uri(&sb.path().join("task.prompt.md"));
    open_markdown(&mut c, &prompt, PROMPT);
    c.diagnostics(&prompt, Some(1));
    let design = file_uri(&sb.path().join("docs/design.md"));

    let tokens = c.call(
        "textDocument/semanticTokens/full",
        json!({ "textDocument": { "uri": prompt } }),
    );
    let data = tokens["data"].as_array().unwrap();
    // The first token: `/read` at 0:0, 5 long, a keyword (type 0).
    assert_eq!(
        &data[..5],
        &[json!(0), json!(0), json!(5), json!(0), json!(0)]
    );

    let links = c.call(
        "textDocument/documentLink",
        json!({ "textDocument": { "uri": prompt } }),
    );
    assert_eq!(links[0]["target"], design.as_str(), "{links}");
    assert_eq!(links[0]["range"], range(0, 6, 0, 20));
    assert_eq!(
        links.as_array().unwrap().len(),
        1,
        "the missing file has no link"
    );

    let def = c.call("textDocument/definition", at(&prompt, 0, 9));
    assert_eq!(def, json!([{ "uri": design, "range": range(0, 0, 0, 0) }]));

    let symbols = c.call(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": prompt } }),
    );
    let names: Vec<&str> = symbols
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Leading commands", "Content"]);
    assert_eq!(symbols[0]["children"].as_array().unwrap().len(), 3);

    let agents = file_uri(&sb.path().join("AGENTS.md"));
    open_markdown(
        &mut c,
        &agents,
        "## _if_ _subreplied_ like \"SGN_PENDING ({id})\", _then_:\n- _run_ `resume {id}`\n",
    );
    c.diagnostics(&agents, Some(1));
    let def = c.call("textDocument/definition", at(&agents, 1, 19));
    assert_eq!(
        def,
        json!([{ "uri": agents, "range": range(0, 40, 0, 44) }])
    );
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn quick_fix_for_a_misspelled_keyword() {
    let sb = Sandbox::new("lspmd-fix");
    let mut c = start(&sb, json!({}));
    let prompt = file_uri(&sb.path().join("task.prompt.md"));
    open_markdown(&mut c, &prompt, PROMPT);
    let d = c.diagnostics(&prompt, Some(1));
    let k001 = with_code(&d["diagnostics"], "K001")[0].clone();
    let actions = c.call(
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": prompt },
            "range": k001["range"],
            "context": { "diagnostics": [k001] },
        }),
    );
    let fix = &actions[0];
    assert_eq!(fix["title"], "Change to `_terminate_`");
    assert_eq!(fix["isPreferred"], true);
    assert_eq!(
        fix["edit"]["changes"][&prompt][0],
        json!({ "range": range(4, 28, 4, 39), "newText": "_terminate_" })
    );
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn show_what_the_model_receives() {
    let sb = Sandbox::new("lspmd-view");
    sb.write("docs/design.md", "# Design\n");
    let mut c = start(
        &sb,
        json!({ "window": { "showDocument": { "support": true } } }),
    );
    let prompt = file_uri(&sb.path().join("task.prompt.md"));
    open_markdown(&mut c, &prompt, PROMPT);
    c.diagnostics(&prompt, Some(1));
    let lenses = c.call(
        "textDocument/codeLens",
        json!({ "textDocument": { "uri": prompt } }),
    );
    assert_eq!(
        lenses,
        json!([{
            "range": range(0, 0, 0, 5),
            "command": {
                "title": "Show what the model receives",
                "command": "prose.showModelView",
                "arguments": [{ "uri": prompt }],
            },
        }])
    );
    let command = lenses[0]["command"].clone();
    let result = c.call(
        "workspace/executeCommand",
        json!({ "command": command["command"], "arguments": command["arguments"] }),
    );
    let markdown = result["markdown"].as_str().unwrap();
    assert!(
        markdown.contains("{\"tool\": \"read\", \"path\": \"docs/design.md\"}"),
        "{markdown}"
    );
    assert!(
        markdown.contains("Error: docs/missing.md: file not found"),
        "{markdown}"
    );
    let view = sb.path().join(".prose/model-view/task.prompt.md.view.md");
    assert_eq!(result["uri"], file_uri(&view).as_str());
    assert_eq!(std::fs::read_to_string(&view).unwrap(), markdown);
    let shown = c.server_request("window/showDocument");
    assert_eq!(shown["params"]["uri"], file_uri(&view).as_str());

    // Not a prompt file: a RequestFailed error.
    let readme = file_uri(&sb.path().join("README.md"));
    open_markdown(&mut c, &readme, "# Readme\n");
    let id = c.request(
        "workspace/executeCommand",
        json!({ "command": "prose.showModelView", "arguments": [{ "uri": readme }] }),
    );
    assert_eq!(c.response(id)["error"]["code"], -32803);
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

/// Job entry prompts carry the instruction language (issue 11 C): K codes,
/// hover and tokens inside a task's prompt strings, at their place in the
/// JSON; the entry's own features stay (J codes, `$variable` hover).
#[test]
fn instructions_inside_job_entry_prompts() {
    let sb = Sandbox::new("lspmd-jobs");
    let mut c = LspClient::spawn(prose_bin(), &["lsp"], sb.path());
    let init = c.initialize(sb.path(), json!({}), Value::Null);
    let uri = file_uri(&sb.path().join("team.jobs.json"));
    let entry = "{\n  \"promptVariables\": {\"rules\": [\"Be brief.\"]},\n  \"tasks\": {\"t\": {\"model\": \"m\", \"prompt\": [\"$rules _if_ done, _then_\", \"_termiante_ \\\"SGN_DONE\\\".\"]}}\n}\n";
    c.open_as(&uri, "json", 1, entry);
    let d = c.diagnostics(&uri, Some(1));
    let k001 = with_code(&d["diagnostics"], "K001");
    assert_eq!(k001.len(), 1, "{d}");
    assert_eq!(k001[0]["range"], range(2, 72, 2, 83));
    assert!(
        with_code(&d["diagnostics"], "J003").len() == 3,
        "the entry's own checks stay: {d}"
    );

    let h = c.call("textDocument/hover", at(&uri, 2, 52));
    let text = h["contents"]["value"].as_str().unwrap();
    assert!(text.contains("**_if_**"), "{h}");
    let h = c.call("textDocument/hover", at(&uri, 2, 46));
    let text = h["contents"]["value"].as_str().unwrap();
    assert!(text.contains("Be brief."), "the variable's hover: {h}");

    let tokens = c.call(
        "textDocument/semanticTokens/full",
        json!({ "textDocument": { "uri": uri } }),
    );
    let legend = &init["capabilities"]["semanticTokensProvider"]["legend"]["tokenTypes"];
    let data = tokens["data"].as_array().unwrap();
    let kinds: Vec<&str> = data
        .chunks(5)
        .map(|t| legend[t[3].as_u64().unwrap() as usize].as_str().unwrap())
        .collect();
    assert!(
        kinds.contains(&"keyword") && kinds.contains(&"variable"),
        "{kinds:?}"
    );
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

/// ```` ```prose ```` and ```` ```dialect ```` fences: OpenProse and
/// Pattern Dialect diagnostics and hover at their place in the markdown
/// file.
#[test]
fn program_and_dialect_fences_in_markdown() {
    let sb = Sandbox::new("lspmd-dialect");
    let mut c = start(&sb, json!({}));
    let uri = file_uri(&sb.path().join("NOTES.md"));
    open_markdown(
        &mut c,
        &uri,
        "# Notes\n\n```dialect\n/summarize notes\n/recall notes\n```\n\n```prose\nagent a:\n  model: opus\nsession: a\n```\n",
    );
    let d = c.diagnostics(&uri, Some(1));
    assert_eq!(codes(&d), ["D001"], "{d}");
    assert_eq!(d["diagnostics"][0]["range"], range(3, 1, 3, 10));
    let h = c.call("textDocument/hover", at(&uri, 4, 3));
    let text = h["contents"]["value"].as_str().unwrap();
    assert!(text.contains("**/recall**"), "{h}");
    assert_eq!(h["range"], range(4, 0, 4, 7));
    let h = c.call("textDocument/hover", at(&uri, 10, 10));
    let text = h["contents"]["value"].as_str().unwrap();
    assert!(text.contains("opus"), "the agent's hover in the fence: {h}");
    assert_eq!(h["range"], range(10, 9, 10, 10));
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}
