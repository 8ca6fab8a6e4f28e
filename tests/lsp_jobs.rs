//! Job entries in the language server, end to end over stdio: a
//! `*.jobs.json` document opened as `json` (as VS Code and Neovim send it)
//! gets its J diagnostics, hover, completion after `$`, go to definition,
//! references, highlights, rename, the outline, the "Show expanded prompt"
//! lens and its command, quick fixes, semantic tokens and folding. Columns
//! are UTF-16 (an emoji before the names makes them differ from bytes).

mod common;
#[path = "common/lsp.rs"]
mod lsp;

use common::{Sandbox, prose_bin};
use lsp::{LspClient, file_uri};
use serde_json::{Value, json};

/// A team's entry: an unused variable, a misspelled model, an unknown
/// variable after an emoji, tasks that name each other.
const TEAM: &str = r#"{
  // 😀 the team's jobs
  "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "gpt-5.2-codex", "reviewers": []},
  "promptVariables": {
    "rules": ["Read AGENTS.md first.", "Be brief."],
    "unused": ["Never used."]
  },
  "grid": [{"keyword": "plan", "automate": true, "jobs": [{"name": "start", "id": "plan-start"}]}],
  "tasks": {
    "plan-task": {"model": "planing", "prompt": ["$rules", "Plan $user-input"], "requireUserInput": true},
    "code-task": {"model": "coding", "prompt": ["😀 $rules $rulez"], "requireUserInput": false,
                  "availability": {"previousTasks": ["plan-task"], "previousJobKeywords": ["plan"]}}
  }
}
"#;

/// The (0-based) line and UTF-16 column of the `n`th occurrence of
/// `needle` in `text`, plus `delta` bytes.
fn pos(text: &str, needle: &str, n: usize, delta: usize) -> (u32, u32) {
    let at = text.match_indices(needle).nth(n).expect(needle).0 + delta;
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = text[..at].matches('\n').count() as u32;
    (line, text[line_start..at].encode_utf16().count() as u32)
}

/// The LSP range of the `n`th `needle`, shrunk by `inset` bytes at each
/// end (1 drops the quotes of a string).
fn range_of(text: &str, needle: &str, n: usize, inset: usize) -> Value {
    let (l1, c1) = pos(text, needle, n, inset);
    let (l2, c2) = pos(text, needle, n, needle.len() - inset);
    json!({ "start": { "line": l1, "character": c1 }, "end": { "line": l2, "character": c2 } })
}

fn at(uri: &str, (line, character): (u32, u32)) -> Value {
    json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } })
}

/// A server with `team.jobs.json` open as `json`.
fn open_team(name: &str, capabilities: Value) -> (Sandbox, LspClient, String) {
    let sb = Sandbox::new(name);
    sb.write("team.jobs.json", TEAM);
    let mut c = LspClient::spawn(prose_bin(), &["lsp"], sb.path());
    c.initialize(sb.path(), capabilities, Value::Null);
    let uri = file_uri(&sb.path().join("team.jobs.json"));
    c.open_as(&uri, "json", 1, TEAM);
    (sb, c, uri)
}

/// A request's result; asks again when the answer is `ContentModified`.
fn call(c: &mut LspClient, method: &str, params: Value) -> Value {
    c.call_retrying(method, params)
}

/// The `key` of each item of the array `items`.
fn strings<'a>(items: &'a Value, key: &str) -> Vec<&'a str> {
    items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i[key].as_str().unwrap())
        .collect()
}

/// The codes of a list of diagnostics.
fn codes(diagnostics: &Value) -> Vec<&str> {
    strings(diagnostics, "code")
}

/// A request's error.
fn error_of(c: &mut LspClient, method: &str, params: Value) -> Value {
    let id = c.request(method, params);
    let response = c.response(id);
    assert!(response.get("result").is_none(), "{method}: {response}");
    response["error"].clone()
}

#[test]
fn initialize_offers_lenses_the_task_command_and_dollar_completion() {
    let sb = Sandbox::new("lspj-init");
    let mut c = LspClient::spawn(prose_bin(), &["lsp"], sb.path());
    let r = c.initialize(sb.path(), json!({}), Value::Null);
    let caps = &r["capabilities"];
    assert_eq!(
        caps["codeLensProvider"],
        json!({ "resolveProvider": false })
    );
    let commands = caps["executeCommandProvider"]["commands"]
        .as_array()
        .unwrap();
    assert!(commands.contains(&json!("prose.showTaskPrompt")), "{caps}");
    let triggers = caps["completionProvider"]["triggerCharacters"]
        .as_array()
        .unwrap();
    assert!(triggers.contains(&json!("$")), "{caps}");
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn diagnostics_of_a_job_entry() {
    let (_sb, mut c, uri) = open_team("lspj-diag", json!({}));
    let p = c.diagnostics(&uri, Some(1));
    let items = p["diagnostics"].as_array().unwrap();
    assert_eq!(codes(&p["diagnostics"]), ["J020", "J010", "J015"], "{p}");

    assert_eq!(items[0]["range"], range_of(TEAM, "\"unused\"", 0, 0));
    assert_eq!(items[0]["severity"], 2);
    assert_eq!(items[0]["tags"], json!([1]), "unnecessary: {}", items[0]);
    assert_eq!(
        items[0]["message"],
        "entry.promptVariables[\"unused\"]: $unused is never used: no task's prompt expands it."
    );

    assert_eq!(items[1]["range"], range_of(TEAM, "\"planing\"", 0, 0));
    assert_eq!(items[1]["severity"], 1);
    assert_eq!(items[1]["source"], "prose");
    assert_eq!(
        items[1]["message"],
        "entry.tasks[\"plan-task\"].model: \"planing\" is not a model key; did you mean \"planning\"?"
    );

    // After an emoji: UTF-16 columns.
    assert_eq!(items[2]["range"], range_of(TEAM, "$rulez", 0, 0));
    assert_eq!(
        items[2]["range"]["start"]["character"],
        json!(TEAM.lines().nth(10).unwrap().find("$rulez").unwrap() - 2)
    );
    assert_eq!(
        items[2]["message"],
        "entry.tasks[\"code-task\"].prompt: Cannot find prompt variable: $rulez."
    );

    // An edit that fixes the model is re-checked.
    let (line, col) = pos(TEAM, "planing", 0, 0);
    c.change(&uri, 2, &[(line, col, line, col + 7, "planning")]);
    let p = c.diagnostics(&uri, Some(2));
    assert_eq!(codes(&p["diagnostics"]), ["J020", "J015"], "{p}");
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn hover_shows_expansions_and_tasks() {
    let (_sb, mut c, uri) = open_team("lspj-hover", json!({}));
    let h = call(
        &mut c,
        "textDocument/hover",
        at(&uri, pos(TEAM, "$rules", 0, 2)),
    );
    assert_eq!(h["range"], range_of(TEAM, "$rules", 0, 0));
    assert_eq!(h["contents"]["kind"], "markdown");
    assert_eq!(
        h["contents"]["value"],
        "**prompt variable** `$rules`, defined at line 5 (`entry.promptVariables[\"rules\"]`)\n\nExpanded (2 lines):\n\n```text\nRead AGENTS.md first.\nBe brief.\n```"
    );
    let h = call(
        &mut c,
        "textDocument/hover",
        at(&uri, pos(TEAM, "\"plan-task\"", 1, 3)),
    );
    let md = h["contents"]["value"].as_str().unwrap();
    assert!(
        md.starts_with("**task** `plan-task`, defined at line 10 · model `planing` · takes user input\n\nPrompt (3 lines):\n\n```text\nRead AGENTS.md first.\nBe brief.\nPlan $user-input\n```"),
        "{md}"
    );
    // Plain text in a prompt: nothing to say.
    let h = call(
        &mut c,
        "textDocument/hover",
        at(&uri, pos(TEAM, "Never used", 0, 2)),
    );
    assert_eq!(h, Value::Null);
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn completion_after_a_dollar() {
    let (_sb, mut c, uri) = open_team("lspj-complete", json!({}));
    // Type `$` after "Plan " in the plan-task prompt.
    let (line, col) = pos(TEAM, "Plan $user-input", 0, 5);
    c.change(&uri, 2, &[(line, col, line, col, "$")]);
    let mut params = at(&uri, (line, col + 1));
    params["context"] = json!({ "triggerKind": 2, "triggerCharacter": "$" });
    let items = call(&mut c, "textDocument/completion", params);
    let labels = strings(&items, "label");
    assert_eq!(
        labels,
        [
            "$rules",
            "$unused",
            "$user-input",
            "$reported-document",
            "$reported-true-reason",
            "$reported-false-reason"
        ]
    );
    let first = &items[0];
    assert_eq!(first["kind"], 6, "Variable: {first}");
    assert_eq!(first["detail"], "Read AGENTS.md first.…");
    assert_eq!(
        first["textEdit"],
        json!({
            "range": { "start": { "line": line, "character": col }, "end": { "line": line, "character": col + 1 } },
            "newText": "$rules"
        })
    );
    // A task name in `previousTasks`.
    let items = call(
        &mut c,
        "textDocument/completion",
        at(&uri, pos(TEAM, "[\"plan-task\"]", 0, 3)),
    );
    let labels = strings(&items, "label");
    assert_eq!(labels, ["plan-task", "code-task"]);
    assert_eq!(items[0]["kind"], 3, "Function: {}", items[0]);
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn definition_references_and_highlights() {
    let (_sb, mut c, uri) = open_team("lspj-nav", json!({}));
    let name = range_of(TEAM, "\"rules\"", 0, 1);
    let r = call(
        &mut c,
        "textDocument/definition",
        at(&uri, pos(TEAM, "$rules", 1, 3)),
    );
    assert_eq!(r, json!([{ "uri": uri, "range": name }]));
    // A task named in previousTasks.
    let r = call(
        &mut c,
        "textDocument/definition",
        at(&uri, pos(TEAM, "\"plan-task\"", 1, 3)),
    );
    assert_eq!(
        r,
        json!([{ "uri": uri, "range": range_of(TEAM, "\"plan-task\"", 0, 1) }])
    );
    // Runtime variables are defined nowhere.
    let r = call(
        &mut c,
        "textDocument/definition",
        at(&uri, pos(TEAM, "$user-input", 0, 3)),
    );
    assert_eq!(r, Value::Null);

    let mut params = at(&uri, pos(TEAM, "\"rules\"", 0, 2));
    params["context"] = json!({ "includeDeclaration": true });
    let r = call(&mut c, "textDocument/references", params);
    let uses = |n: usize| {
        let (l, c1) = pos(TEAM, "$rules", n, 1);
        json!({ "uri": uri, "range": { "start": { "line": l, "character": c1 }, "end": { "line": l, "character": c1 + 5 } } })
    };
    assert_eq!(r, json!([{ "uri": uri, "range": name }, uses(0), uses(1)]));

    let r = call(
        &mut c,
        "textDocument/documentHighlight",
        at(&uri, pos(TEAM, "$rules", 0, 3)),
    );
    let kinds: Vec<i64> = r
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["kind"].as_i64().unwrap())
        .collect();
    assert_eq!(kinds, [3, 2, 2], "write, read, read: {r}");
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn rename_edits_every_use() {
    let (_sb, mut c, uri) = open_team("lspj-rename", json!({}));
    let here = at(&uri, pos(TEAM, "$rules", 1, 3));
    let r = call(&mut c, "textDocument/prepareRename", here.clone());
    let (l, c1) = pos(TEAM, "$rules", 1, 1);
    assert_eq!(
        r,
        json!({ "start": { "line": l, "character": c1 }, "end": { "line": l, "character": c1 + 5 } })
    );
    let mut params = here;
    params["newName"] = json!("house-rules");
    let r = call(&mut c, "textDocument/rename", params);
    let edits = r["changes"][uri.as_str()].as_array().unwrap();
    assert_eq!(edits.len(), 3, "{r}");
    assert!(edits.iter().all(|e| e["newText"] == "house-rules"), "{r}");
    assert_eq!(edits[0]["range"], range_of(TEAM, "\"rules\"", 0, 1));

    // Nothing to rename on plain text; a built-in cannot be renamed.
    let r = call(
        &mut c,
        "textDocument/prepareRename",
        at(&uri, pos(TEAM, "Never used", 0, 2)),
    );
    assert_eq!(r, Value::Null);
    let e = error_of(
        &mut c,
        "textDocument/prepareRename",
        at(&uri, pos(TEAM, "$user-input", 0, 3)),
    );
    assert_eq!(e["code"], -32803);
    assert_eq!(
        e["message"],
        "$user-input is a runtime variable of the job system: it cannot be renamed"
    );
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn outline_of_the_entry() {
    let (_sb, mut c, uri) = open_team(
        "lspj-symbols",
        json!({ "textDocument": { "documentSymbol": { "hierarchicalDocumentSymbolSupport": true } } }),
    );
    let r = call(
        &mut c,
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": uri } }),
    );
    let tree: Vec<String> = r
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let children: Vec<String> = s["children"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| format!("{}:{}", c["name"].as_str().unwrap(), c["kind"]))
                .collect();
            format!(
                "{}:{} [{}]",
                s["name"].as_str().unwrap(),
                s["kind"],
                children.join(" ")
            )
        })
        .collect();
    assert_eq!(
        tree,
        [
            "models:3 [driving:7 planning:7 coding:7 reviewers:7]",
            "promptVariables:3 [rules:13 unused:13]",
            "grid:3 [plan:23]",
            "tasks:3 [plan-task:12 code-task:12]",
        ]
    );
    assert_eq!(r[3]["children"][0]["detail"], "planing");
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn each_task_has_a_lens_that_shows_its_expanded_prompt() {
    let (_sb, mut c, uri) = open_team("lspj-lens", json!({}));
    let lenses = call(
        &mut c,
        "textDocument/codeLens",
        json!({ "textDocument": { "uri": uri } }),
    );
    // The entry has errors: they block its tasks' runs (docs/lsp.md,
    // "Running job tasks"); the prompt lens stays.
    let blocked = |task: &str| {
        json!({
            "range": range_of(TEAM, &format!("\"{task}\""), 0, 0),
            "command": {
                "title": "2 errors block the run",
                "command": "prose.revealErrors",
                "arguments": [{ "uri": uri }]
            }
        })
    };
    assert_eq!(
        lenses,
        json!([
            blocked("plan-task"),
            {
                "range": range_of(TEAM, "\"plan-task\"", 0, 0),
                "command": {
                    "title": "Show expanded prompt",
                    "command": "prose.showTaskPrompt",
                    "arguments": [{ "uri": uri, "task": "plan-task" }]
                }
            },
            blocked("code-task"),
            {
                "range": range_of(TEAM, "\"code-task\"", 0, 0),
                "command": {
                    "title": "Show expanded prompt",
                    "command": "prose.showTaskPrompt",
                    "arguments": [{ "uri": uri, "task": "code-task" }]
                }
            }
        ])
    );
    // Clicking the prompt lens: the command answers with the text.
    let command = lenses[1]["command"].clone();
    let r = call(
        &mut c,
        "workspace/executeCommand",
        json!({ "command": command["command"], "arguments": command["arguments"] }),
    );
    assert_eq!(
        r,
        json!({ "uri": uri, "task": "plan-task", "text": "Read AGENTS.md first.\nBe brief.\nPlan $user-input" })
    );
    // A prompt with errors, an unknown task, an unknown command.
    let e = error_of(
        &mut c,
        "workspace/executeCommand",
        json!({ "command": "prose.showTaskPrompt", "arguments": [{ "uri": uri, "task": "code-task" }] }),
    );
    assert_eq!(e["code"], -32803);
    assert_eq!(
        e["message"],
        "The prompt of task \"code-task\" cannot be expanded: entry.tasks[\"code-task\"].prompt: Cannot find prompt variable: $rulez."
    );
    let e = error_of(
        &mut c,
        "workspace/executeCommand",
        json!({ "command": "prose.showTaskPrompt", "arguments": [{ "uri": uri, "task": "nope" }] }),
    );
    assert_eq!(e["code"], -32803, "{e}");
    let e = error_of(
        &mut c,
        "workspace/executeCommand",
        json!({ "command": "prose.showTaskPrompt", "arguments": [] }),
    );
    assert_eq!(e["code"], -32602, "{e}");
    let e = error_of(
        &mut c,
        "workspace/executeCommand",
        json!({ "command": "prose.nothing", "arguments": [] }),
    );
    assert_eq!(e["code"], -32602, "{e}");
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn quick_fixes_from_the_checks() {
    let (_sb, mut c, uri) = open_team("lspj-actions", json!({}));
    let diags = c.diagnostics(&uri, Some(1))["diagnostics"].clone();
    let model = diags[1].clone();
    assert_eq!(model["code"], "J010");
    let r = call(
        &mut c,
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": uri },
            "range": model["range"],
            "context": { "diagnostics": [model] }
        }),
    );
    assert_eq!(
        r,
        json!([{
            "title": "Change to \"planning\"",
            "kind": "quickfix",
            "diagnostics": [model],
            "isPreferred": true,
            "edit": { "changes": { uri.as_str(): [{ "range": model["range"], "newText": "\"planning\"" }] } }
        }])
    );
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn semantic_tokens_and_folding() {
    let (_sb, mut c, uri) = open_team("lspj-tokens", json!({}));
    let init_legend = {
        let sb = Sandbox::new("lspj-tokens-legend");
        let mut c2 = LspClient::spawn(prose_bin(), &["lsp"], sb.path());
        let r = c2.initialize(sb.path(), json!({}), Value::Null);
        assert_eq!(c2.shutdown_and_exit().code(), Some(0));
        r["capabilities"]["semanticTokensProvider"]["legend"].clone()
    };
    let r = call(
        &mut c,
        "textDocument/semanticTokens/full",
        json!({ "textDocument": { "uri": uri } }),
    );
    let data: Vec<u32> = r["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as u32)
        .collect();
    let types = init_legend["tokenTypes"].as_array().unwrap();
    let mut line = 0;
    let mut col = 0;
    let mut tokens = Vec::new();
    for t in data.chunks(5) {
        if t[0] > 0 {
            col = 0;
        }
        line += t[0];
        col += t[1];
        tokens.push((
            line,
            col,
            t[2],
            types[t[3] as usize].as_str().unwrap(),
            t[4],
        ));
    }
    let readonly = 1
        << init_legend["tokenModifiers"]
            .as_array()
            .unwrap()
            .iter()
            .position(|m| m == "readonly")
            .unwrap();
    let expected: Vec<(u32, u32, u32, &str, u32)> = [
        ("$rules", 0, 0),
        ("$user-input", 0, readonly),
        ("$rules", 1, 0),
        ("$rulez", 0, 0),
    ]
    .iter()
    .map(|&(needle, n, mods)| {
        let (l, c1) = pos(TEAM, needle, n, 0);
        (l, c1, needle.len() as u32, "variable", mods)
    })
    .collect();
    assert_eq!(tokens, expected);

    let r = call(
        &mut c,
        "textDocument/foldingRange",
        json!({ "textDocument": { "uri": uri } }),
    );
    let lines: Vec<(u64, u64)> = r
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["startLine"].as_u64().unwrap(),
                f["endLine"].as_u64().unwrap(),
            )
        })
        .collect();
    // The root, promptVariables, tasks, code-task.
    assert_eq!(lines, [(0, 12), (3, 5), (8, 11), (10, 11)]);
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn configured_globs_make_job_entries() {
    let sb = Sandbox::new("lspj-globs");
    sb.write("prose.toml", "[files]\njobs = [\"ci/*.json\"]\n")
        .write("ci/nightly.json", TEAM);
    let mut c = LspClient::spawn(prose_bin(), &["lsp"], sb.path());
    c.initialize(sb.path(), json!({}), Value::Null);
    let uri = file_uri(&sb.path().join("ci/nightly.json"));
    c.open_as(&uri, "jsonc", 1, TEAM);
    let p = c.diagnostics(&uri, Some(1));
    assert_eq!(codes(&p["diagnostics"]), ["J020", "J010", "J015"], "{p}");
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}
