//! Workspace trust in the language server (docs/security.md): in a
//! workspace the client has not trusted nothing runs and the lens says so;
//! a repository's `prose.toml` that names the program a run executes gets
//! it executed only after the user allowed it (`window/showMessageRequest`),
//! and the yes is remembered as `prose run` remembers it; and no feature
//! but running (diagnostics, hover, completion, formatting, lenses, ...)
//! ever executes anything, whatever the configuration says. Each program
//! of these tests writes a marker file when it runs.

mod common;
#[path = "common/lsp.rs"]
mod lsp;

use std::{fs, path::Path};

use common::{Sandbox, prose_bin};
use lsp::{LspClient, file_uri};
use serde_json::{Value, json};

const PROGRAM: &str = "agent helper:\n  model: sonnet\nlet x = session: helper\n  prompt: \"Say hi\"\noutput out = x\n";

/// A repository whose prose.toml names `agent.sh` (which records each run
/// in `marker`) as the command backend's program and as the CLIs'
/// executables.
fn repository(name: &str) -> Sandbox {
    let sb = Sandbox::new(name);
    let marker = sb.path().join("marker");
    sb.write(
        "agent.sh",
        format!(
            "#!/bin/sh\necho ran \"$@\" >> '{}'\ncat >/dev/null\necho hello from agent\n",
            marker.display()
        ),
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(
            sb.path().join("agent.sh"),
            fs::Permissions::from_mode(0o755),
        )
        .unwrap();
    }
    let agent = sb.path().join("agent.sh").display().to_string();
    sb.write(
        "prose.toml",
        format!(
            "[runner]\nbackend = \"command\"\ncommand = \"{agent}\"\n\n[runner.claude]\nexecutable = \"{agent}\"\n\n[runner.codex]\nexecutable = \"{agent}\"\n"
        ),
    );
    sb.write("p.prose", PROGRAM);
    sb
}

fn ran(sb: &Sandbox) -> usize {
    fs::read_to_string(sb.path().join("marker"))
        .map(|t| t.lines().count())
        .unwrap_or(0)
}

fn start(sb: &Sandbox, options: Value) -> LspClient {
    let mut c =
        LspClient::spawn_with_home(prose_bin(), &["lsp"], sb.path(), &sb.path().join("home"));
    c.initialize(
        sb.path(),
        json!({ "window": { "workDoneProgress": true } }),
        options,
    );
    c
}

fn run(c: &mut LspClient, uri: &str) -> Value {
    let id = c.request(
        "workspace/executeCommand",
        json!({ "command": "prose.run", "arguments": [{ "uri": uri }] }),
    );
    c.response(id)
}

fn run_finished(c: &mut LspClient) -> Value {
    c.wait_notification("prose/runEvent", |e| e["type"] == "run_finished")
}

#[test]
fn an_untrusted_workspace_runs_nothing_and_its_lens_says_why() {
    let sb = repository("lsp-untrusted");
    let agent = sb.path().join("agent.sh").display().to_string();
    // Even the editor's own runner settings do not run in it.
    let mut c = start(
        &sb,
        json!({ "trusted": false, "runner": { "backend": "command", "command": agent } }),
    );
    let uri = file_uri(&sb.path().join("p.prose"));
    c.open(&uri, 1, PROGRAM);
    let lenses = c.call(
        "textDocument/codeLens",
        json!({ "textDocument": { "uri": uri } }),
    );
    assert_eq!(
        lenses,
        json!([{
            "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 0, "character": 13 } },
            "command": { "title": "Run disabled: workspace not trusted", "command": "" }
        }])
    );
    let r = run(&mut c, &uri);
    assert_eq!(r["error"]["code"], -32803, "{r}");
    assert_eq!(
        r["error"]["message"],
        "running programs is disabled: the workspace is not trusted"
    );
    // A plan runs nothing: it is still offered.
    let plan = c.call(
        "workspace/executeCommand",
        json!({ "command": "prose.dryRun", "arguments": [{ "uri": uri }] }),
    );
    assert!(plan["plan"].as_str().unwrap().contains("Say hi"), "{plan}");
    assert!(
        c.server_requests
            .iter()
            .all(|r| r["method"] != "window/showMessageRequest")
    );
    assert!(c.shutdown_and_exit().success());
    assert_eq!(ran(&sb), 0, "the repository's program ran");
    assert!(!sb.path().join(".prose/runs").exists());

    // Trusted (the default when the client says nothing): the run lenses.
    let mut c = start(&sb, json!({ "trusted": true }));
    c.open(&uri, 1, PROGRAM);
    let lenses = c.call(
        "textDocument/codeLens",
        json!({ "textDocument": { "uri": uri } }),
    );
    assert_eq!(lenses[0]["command"]["title"], "▶ Run program", "{lenses}");
    assert!(c.shutdown_and_exit().success());
}

#[test]
fn the_server_asks_before_running_what_the_repository_chose_and_honours_the_answer() {
    let sb = repository("lsp-consent");
    let uri = file_uri(&sb.path().join("p.prose"));
    let toml = sb.path().join("prose.toml").display().to_string();
    let consent = sb.path().join("home/.prose/consent.toml");

    // Cancel (or a dismissed message: `null`): not run.
    let mut c = start(&sb, json!({}));
    c.open(&uri, 1, PROGRAM);
    for answer in [json!({ "title": "Cancel" }), Value::Null] {
        c.answers = vec![("window/showMessageRequest", answer)];
        let r = run(&mut c, &uri);
        assert_eq!(r["error"]["code"], -32803, "{r}");
        assert_eq!(
            r["error"]["message"],
            json!(format!(
                "not run: you did not allow `runner.command` in {toml}; nothing was executed"
            ))
        );
    }
    let asked = c.server_request("window/showMessageRequest");
    assert_eq!(asked["params"]["type"], 2, "a warning: {asked}");
    assert_eq!(
        asked["params"]["actions"],
        json!([{ "title": "Allow" }, { "title": "Cancel" }])
    );
    let message = asked["params"]["message"].as_str().unwrap();
    let agent = sb.path().join("agent.sh").display().to_string();
    assert!(
        message.contains(&format!("runner.command = {agent:?}  ({toml})")),
        "{message}"
    );
    assert!(
        message.contains(&format!(
            "executes `{agent}` once per session, with the prompt on stdin"
        )),
        "{message}"
    );
    assert!(message.ends_with("The answer is remembered until these settings change."));
    assert_eq!(ran(&sb), 0, "the repository's program ran");
    assert!(!consent.exists());

    // Allow: it runs, and the answer is remembered.
    c.answers = vec![("window/showMessageRequest", json!({ "title": "Allow" }))];
    let r = run(&mut c, &uri);
    assert!(r["result"]["runId"].is_string(), "{r}");
    let finished = run_finished(&mut c);
    assert_eq!(finished["status"], "succeeded", "{finished}");
    assert_eq!(finished["outputs"]["out"], "hello from agent");
    assert_eq!(ran(&sb), 1);
    assert!(consent.exists());

    // The next run asks nothing.
    let asked_before = c
        .server_requests
        .iter()
        .filter(|r| r["method"] == "window/showMessageRequest")
        .count();
    c.answers.clear();
    let r = run(&mut c, &uri);
    assert!(r["result"]["runId"].is_string(), "{r}");
    run_finished(&mut c);
    let asked_after = c
        .server_requests
        .iter()
        .filter(|r| r["method"] == "window/showMessageRequest")
        .count();
    assert_eq!(asked_before, asked_after);
    assert_eq!(ran(&sb), 2);
    assert!(c.shutdown_and_exit().success());

    // The command line shares the answer.
    let home = sb.path().join("home").display().to_string();
    let r = sb.prose_with_env(&["run", "p.prose"], &[("PROSE_HOME", home.as_str())]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(ran(&sb), 3);
}

/// Every request an editor makes while you read and write a program.
fn exercise_every_feature(c: &mut LspClient, uri: &str) {
    let doc = json!({ "uri": uri });
    let at = |line: u32, character: u32| json!({ "textDocument": doc, "position": { "line": line, "character": character } });
    let whole =
        json!({ "start": { "line": 0, "character": 0 }, "end": { "line": 5, "character": 0 } });
    let requests: Vec<(&str, Value)> = vec![
        ("textDocument/hover", at(2, 17)),
        ("textDocument/completion", at(2, 17)),
        ("textDocument/signatureHelp", at(2, 17)),
        ("textDocument/definition", at(2, 17)),
        (
            "textDocument/references",
            json!({ "textDocument": doc, "position": { "line": 0, "character": 7 }, "context": { "includeDeclaration": true } }),
        ),
        ("textDocument/documentHighlight", at(0, 7)),
        ("textDocument/prepareRename", at(0, 7)),
        (
            "textDocument/rename",
            json!({ "textDocument": doc, "position": { "line": 0, "character": 7 }, "newName": "aide" }),
        ),
        ("textDocument/diagnostic", json!({ "textDocument": doc })),
        (
            "textDocument/formatting",
            json!({ "textDocument": doc, "options": { "tabSize": 2, "insertSpaces": true } }),
        ),
        ("textDocument/codeLens", json!({ "textDocument": doc })),
        (
            "textDocument/codeAction",
            json!({ "textDocument": doc, "range": whole, "context": { "diagnostics": [] } }),
        ),
        (
            "textDocument/documentSymbol",
            json!({ "textDocument": doc }),
        ),
        ("textDocument/foldingRange", json!({ "textDocument": doc })),
        (
            "textDocument/selectionRange",
            json!({ "textDocument": doc, "positions": [{ "line": 2, "character": 4 }] }),
        ),
        (
            "textDocument/semanticTokens/full",
            json!({ "textDocument": doc }),
        ),
        (
            "textDocument/inlayHint",
            json!({ "textDocument": doc, "range": whole }),
        ),
        ("workspace/symbol", json!({ "query": "help" })),
        ("prose/syntaxTree", json!({ "textDocument": doc })),
        ("prose/explain", json!({ "code": "E006" })),
        (
            "workspace/executeCommand",
            json!({ "command": "prose.dryRun", "arguments": [doc] }),
        ),
    ];
    for (method, params) in requests {
        let id = c.request(method, params);
        let r = c.response(id);
        assert!(r.get("error").is_none(), "{method}: {r}");
    }
}

#[test]
fn no_feature_but_running_executes_anything() {
    let sb = repository("lsp-no-exec");
    let uri = file_uri(&sb.path().join("p.prose"));
    let mut c = start(&sb, json!({}));
    c.open(&uri, 1, PROGRAM);
    c.diagnostics(&uri, Some(1));
    exercise_every_feature(&mut c, &uri);
    // An edit, and the configuration changing on disk.
    c.change(&uri, 2, &[(4, 0, 4, 0, "# edited\n")]);
    c.diagnostics(&uri, Some(2));
    let toml = file_uri(&sb.path().join("prose.toml"));
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": toml, "type": 2 }] }),
    );
    exercise_every_feature(&mut c, &uri);
    assert!(c.shutdown_and_exit().success());
    assert_eq!(ran(&sb), 0, "the repository's program ran");
    assert!(!sb.path().join(".prose/runs").exists());
    assert!(!Path::new(&sb.path().join("home/.prose/consent.toml")).exists());
}

#[test]
fn lenses_follow_the_trust_the_settings_report() {
    let sb = repository("lsp-trust-change");
    let uri = file_uri(&sb.path().join("p.prose"));
    let mut c =
        LspClient::spawn_with_home(prose_bin(), &["lsp"], sb.path(), &sb.path().join("home"));
    c.settings = json!({ "trusted": true });
    c.initialize(
        sb.path(),
        json!({ "workspace": { "configuration": true, "codeLens": { "refreshSupport": true } } }),
        json!({ "trusted": true }),
    );
    c.server_request("workspace/configuration");
    c.open(&uri, 1, PROGRAM);
    let lens_titles = |c: &mut LspClient| -> Vec<String> {
        let lenses = c.call(
            "textDocument/codeLens",
            json!({ "textDocument": { "uri": uri } }),
        );
        lenses
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["command"]["title"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(lens_titles(&mut c), ["▶ Run program", "Dry run"]);

    // The client no longer trusts the workspace: it asks for the lenses again.
    c.settings = json!({ "trusted": false });
    c.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": null }),
    );
    c.server_request("workspace/codeLens/refresh");
    assert_eq!(lens_titles(&mut c), ["Run disabled: workspace not trusted"]);
    assert!(c.shutdown_and_exit().success());
}
