//! Running programs from the editor, end to end over stdio (docs/lsp.md,
//! "Running programs"): the code lenses, `prose.run` from the lens's own
//! command and arguments with its `prose/runEvent`s and `$/progress`,
//! cancelling (`prose.cancelRun`, the progress's cancel), inputs through
//! `prose/inputRequest`, the dry run, revealing errors, and runs left
//! resumable when the server shuts down or its input ends.

mod common;
#[path = "common/lsp.rs"]
mod lsp;
#[path = "common/runs.rs"]
mod runs;

use std::{
    fs,
    path::{Path, PathBuf},
};

use common::{Sandbox, prose_bin};
use lsp::{LspClient, file_uri};
use runs::{
    caps, eventually, execute, gone, make_executable, refused, run_json, sleeper, started, types,
    until_finished,
};
use serde_json::{Value, json};

const HELLO: &str =
    "# Says hello.\nlet greeting = session \"Say hello\"\noutput message = greeting\n";

/// Starts the server on `sb` (home inside it) with `options` as
/// `initializationOptions`.
fn start(sb: &Sandbox, capabilities: Value, options: Value) -> (LspClient, Value) {
    let mut c =
        LspClient::spawn_with_home(prose_bin(), &["lsp"], sb.path(), &sb.path().join("home"));
    let init = c.initialize(sb.path(), capabilities, options);
    (c, init)
}

fn mock() -> Value {
    json!({ "runner": { "backend": "mock" } })
}

/// A `command` backend chosen in the editor's settings (no consent needed).
fn command_settings(program: &Path) -> Value {
    json!({ "runner": { "backend": "command", "command": program.display().to_string() } })
}

#[test]
fn a_program_runs_from_its_lens_with_events_and_progress() {
    let sb = Sandbox::new("lsp-run");
    sb.write("hello.prose", HELLO);
    let (mut c, init) = start(&sb, caps(), mock());
    let server = &init["capabilities"];
    assert_eq!(
        server["codeLensProvider"],
        json!({ "resolveProvider": false })
    );
    assert_eq!(
        server["executeCommandProvider"]["commands"],
        json!([
            "prose.run",
            "prose.dryRun",
            "prose.cancelRun",
            "prose.revealErrors",
            "prose.showTaskPrompt",
            "prose.runTask",
            "prose.dryRunTask",
            "prose.showModelView"
        ])
    );

    let uri = file_uri(&sb.path().join("hello.prose"));
    c.open(&uri, 1, HELLO);
    let lenses = c.call(
        "textDocument/codeLens",
        json!({ "textDocument": { "uri": uri } }),
    );
    let range =
        json!({ "start": { "line": 0, "character": 0 }, "end": { "line": 0, "character": 13 } });
    assert_eq!(
        lenses,
        json!([
            { "range": range, "command": { "title": "▶ Run program", "command": "prose.run", "arguments": [{ "uri": uri }] } },
            { "range": range, "command": { "title": "Dry run", "command": "prose.dryRun", "arguments": [{ "uri": uri }] } },
        ])
    );

    // Click: the lens's own command and arguments.
    let lens = &lenses[0]["command"];
    let answer = c.call(
        "workspace/executeCommand",
        json!({ "command": lens["command"], "arguments": lens["arguments"] }),
    );
    let (run_id, run_dir) = started(&answer, sb.path());

    let (events, progress) = until_finished(&mut c);
    assert_eq!(
        types(&events),
        [
            "run_started",
            "session_started",
            "session_finished",
            "binding_written",
            "binding_written",
            "run_finished"
        ]
    );
    for (i, e) in events.iter().enumerate() {
        assert_eq!(e["version"], 1);
        assert_eq!(e["run_id"], json!(run_id));
        assert_eq!(e["seq"], json!(i));
    }
    assert_eq!(events[0]["backend"], "mock");
    // Named as `prose run` from the root names it.
    assert_eq!(events[0]["program"], "hello.prose");
    assert_eq!(events[0]["run_dir"], json!(run_dir.display().to_string()));
    assert_eq!(events[2]["output_excerpt"], "Say hello");
    assert_eq!(events[3]["name"], "greeting");
    assert_eq!(events[5]["status"], "succeeded");
    assert_eq!(events[5]["outputs"], json!({ "message": "Say hello" }));
    // The same events as the run's own log.
    let logged: Vec<Value> = fs::read_to_string(run_dir.join("events.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(logged, events);
    assert_eq!(
        fs::read_to_string(run_dir.join("bindings/greeting.md")).unwrap(),
        "# greeting\n\nkind: let\n\nsource:\n```prose\nlet greeting = session \"Say hello\"\n```\n\n---\n\nSay hello\n"
    );

    // Progress on the token it created.
    let token = format!("prose-run/{run_id}");
    let create = c.server_request("window/workDoneProgress/create");
    assert_eq!(create["params"], json!({ "token": token }));
    let values: Vec<&Value> = progress.iter().map(|p| &p["value"]).collect();
    assert!(progress.iter().all(|p| p["token"] == json!(token)));
    let rest = c.collect_notifications(&["$/progress"], |m| m["params"]["value"]["kind"] == "end");
    let mut values: Vec<Value> = values.into_iter().cloned().collect();
    values.extend(rest.iter().map(|m| m["params"]["value"].clone()));
    assert_eq!(
        values,
        [
            json!({ "kind": "begin", "title": "Running hello.prose", "cancellable": true, "message": format!("run {run_id}") }),
            json!({ "kind": "report", "cancellable": true, "message": "s1@2 finished: greeting" }),
            json!({ "kind": "end", "message": "succeeded" }),
        ]
    );
    assert!(c.shutdown_and_exit().success());
}

#[test]
fn runs_are_cancelled_by_command_and_by_their_progress() {
    let sb = Sandbox::new("lsp-run-cancel");
    sb.write("hello.prose", HELLO);
    let program = sleeper(&sb);
    let (mut c, _) = start(&sb, caps(), command_settings(&program));
    let uri = file_uri(&sb.path().join("hello.prose"));
    c.open(&uri, 1, HELLO);

    for how in ["prose.cancelRun", "window/workDoneProgress/cancel"] {
        let _ = fs::remove_file(sb.path().join("pid"));
        let answer = c.call(
            "workspace/executeCommand",
            json!({ "command": "prose.run", "arguments": [{ "uri": uri }] }),
        );
        let run_id = answer["runId"].as_str().unwrap().to_string();
        let pid_file = sb.path().join("pid");
        eventually("the backend's program to start", || {
            fs::read_to_string(&pid_file).is_ok_and(|p| !p.trim().is_empty())
        });
        let pid = fs::read_to_string(&pid_file).unwrap().trim().to_string();
        if how == "prose.cancelRun" {
            let r = execute(&mut c, "prose.cancelRun", json!({ "runId": run_id }));
            assert_eq!(r["result"], Value::Null, "{r}");
        } else {
            let token = json!(format!("prose-run/{run_id}"));
            c.server_request_where("window/workDoneProgress/create", |p| p["token"] == token);
            c.notify(how, json!({ "token": token }));
        }
        let (events, _) = until_finished(&mut c);
        let ts = types(&events);
        assert_eq!(&ts[ts.len() - 2..], ["cancelled", "run_finished"], "{how}");
        assert_eq!(events[ts.len() - 2]["reason"], "cancelled from the editor");
        assert_eq!(events.last().unwrap()["status"], "cancelled");
        eventually("the backend's process to be killed", || gone(&pid));
        let dir = PathBuf::from(answer["runDir"].as_str().unwrap());
        assert_eq!(run_json(&dir)["status"], "cancelled");
        // Cancelling again: it has ended.
        assert_eq!(
            refused(&mut c, "prose.cancelRun", json!({ "runId": run_id })),
            format!("no run {run_id} is running")
        );
    }
    assert!(c.shutdown_and_exit().success());
}

#[test]
fn inputs_are_asked_with_prose_input_request() {
    let sb = Sandbox::new("lsp-run-inputs");
    let text = "input topic: \"What about?\"\nlet note = session \"Write about {topic}\"\noutput note = note\n";
    sb.write("ask.prose", text);
    let (mut c, _) = start(&sb, caps(), mock());
    c.answers
        .push(("prose/inputRequest", json!({ "value": "tide pools" })));
    let uri = file_uri(&sb.path().join("ask.prose"));
    c.open(&uri, 1, text);
    let answer = c.call(
        "workspace/executeCommand",
        json!({ "command": "prose.run", "arguments": [{ "uri": uri }] }),
    );
    let (events, _) = until_finished(&mut c);
    let asked = c.server_request("prose/inputRequest");
    assert_eq!(
        asked["params"],
        json!({ "runId": answer["runId"], "name": "topic", "description": "What about?" })
    );
    assert_eq!(
        types(&events)[..3],
        ["run_started", "input_requested", "input_received"]
    );
    assert_eq!(events[2]["excerpt"], "tide pools");
    assert_eq!(
        events.last().unwrap()["outputs"],
        json!({ "note": "Write about tide pools" })
    );

    // Inputs given in the arguments are not asked.
    let before = c.server_requests.len();
    c.call(
        "workspace/executeCommand",
        json!({ "command": "prose.run", "arguments": [{ "uri": uri, "inputs": { "topic": "kelp" } }] }),
    );
    let (events, _) = until_finished(&mut c);
    assert_eq!(
        events.last().unwrap()["outputs"],
        json!({ "note": "Write about kelp" })
    );
    assert!(
        c.server_requests[before..]
            .iter()
            .all(|r| r["method"] != "prose/inputRequest")
    );

    // Declining (null) cancels the run.
    c.answers.clear();
    c.call(
        "workspace/executeCommand",
        json!({ "command": "prose.run", "arguments": [{ "uri": uri }] }),
    );
    let (events, _) = until_finished(&mut c);
    let ts = types(&events);
    assert_eq!(&ts[ts.len() - 2..], ["cancelled", "run_finished"]);
    assert_eq!(
        events[ts.len() - 2]["reason"],
        "input `topic` was not given"
    );
    assert!(c.shutdown_and_exit().success());

    // A client that cannot be asked: the run does not start, and says why.
    let (mut c, _) = start(&sb, json!({}), mock());
    c.open(&uri, 1, text);
    let message = refused(&mut c, "prose.run", json!({ "uri": uri }));
    assert_eq!(
        message,
        "the program needs the input topic, and this editor cannot ask for it (it does not declare experimental.proseInputRequest): give it in the `inputs` of prose.run"
    );
    assert!(c.shutdown_and_exit().success());
}

#[test]
fn the_dry_run_is_the_plan_of_prose_run_dry_run() {
    let sb = Sandbox::new("lsp-run-dry");
    sb.write("hello.prose", HELLO);
    let (mut c, _) = start(&sb, caps(), mock());
    let uri = file_uri(&sb.path().join("hello.prose"));
    c.open(&uri, 1, HELLO);
    let result = c.call(
        "workspace/executeCommand",
        json!({ "command": "prose.dryRun", "arguments": [{ "uri": uri }] }),
    );
    let cli = sb.prose(&["run", "hello.prose", "--dry-run"]);
    assert_eq!(cli.code, 0, "{}", cli.stderr);
    assert_eq!(result, json!({ "plan": cli.stdout }));
    assert!(!sb.path().join(".prose").exists(), "a dry run makes no run");
    assert!(c.shutdown_and_exit().success());
}

#[test]
fn errors_block_the_run_and_their_lens_reveals_the_first() {
    let sb = Sandbox::new("lsp-run-errors");
    let text = "let x = session \"hi\"\nsession: nobody\nsession \"bad \\q\"\n";
    sb.write("bad.prose", text);
    let (mut c, _) = start(&sb, caps(), mock());
    let uri = file_uri(&sb.path().join("bad.prose"));
    c.open(&uri, 1, text);
    let lenses = c.call(
        "textDocument/codeLens",
        json!({ "textDocument": { "uri": uri } }),
    );
    assert_eq!(
        lenses,
        json!([{
            "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 0, "character": 20 } },
            "command": { "title": "2 errors block the run", "command": "prose.revealErrors", "arguments": [{ "uri": uri }] }
        }])
    );
    let r = execute(&mut c, "prose.revealErrors", json!({ "uri": uri }));
    assert_eq!(r["result"], Value::Null, "{r}");
    let shown = c.server_request("window/showDocument");
    assert_eq!(
        shown["params"],
        json!({
            "uri": uri,
            "external": false,
            "takeFocus": true,
            "selection": { "start": { "line": 1, "character": 9 }, "end": { "line": 1, "character": 15 } }
        })
    );

    let message = refused(&mut c, "prose.run", json!({ "uri": uri }));
    assert!(
        message.starts_with("bad.prose has 2 errors; it was not run (line 2: "),
        "{message}"
    );
    let message = refused(&mut c, "prose.dryRun", json!({ "uri": uri }));
    assert!(
        message.starts_with("bad.prose has 2 errors; it has no plan (line 2: "),
        "{message}"
    );
    assert!(!sb.path().join(".prose").exists(), "nothing ran");

    // Fixed in the editor (not yet saved): the lenses offer the run.
    c.change(&uri, 2, &[(1, 0, 3, 0, "")]);
    let lenses = c.call(
        "textDocument/codeLens",
        json!({ "textDocument": { "uri": uri } }),
    );
    assert_eq!(lenses[0]["command"]["command"], "prose.run", "{lenses}");

    // Bad arguments and unknown commands are the client's error.
    let r = execute(&mut c, "prose.run", json!({ "url": uri }));
    assert_eq!(r["error"]["code"], -32602, "{r}");
    let r = execute(&mut c, "prose.fly", json!({}));
    assert_eq!(r["error"]["code"], -32602, "{r}");
    assert!(c.shutdown_and_exit().success());
}

/// Starts a run of the sleeper and waits until its program runs.
fn start_sleeping_run(c: &mut LspClient, sb: &Sandbox, uri: &str) -> (String, PathBuf) {
    let answer = c.call(
        "workspace/executeCommand",
        json!({ "command": "prose.run", "arguments": [{ "uri": uri }] }),
    );
    let pid_file = sb.path().join("pid");
    eventually("the backend's program to start", || {
        fs::read_to_string(&pid_file).is_ok_and(|p| !p.trim().is_empty())
    });
    (
        answer["runId"].as_str().unwrap().to_string(),
        PathBuf::from(answer["runDir"].as_str().unwrap()),
    )
}

/// Resumes `run_id` with `prose run --resume` and a program that answers.
fn resume_with_cli(sb: &Sandbox, run_id: &str) {
    sb.write("answer.sh", "#!/bin/sh\ncat >/dev/null\necho hi there\n");
    make_executable(&sb.path().join("answer.sh"));
    let home = sb.path().join("home").display().to_string();
    let r = sb.prose_with_env(
        &[
            "run",
            "hello.prose",
            "--resume",
            run_id,
            "--backend",
            "command",
            "--command",
            &sb.path().join("answer.sh").display().to_string(),
        ],
        &[("PROSE_HOME", home.as_str())],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, "message:\nhi there\n\n");
}

#[test]
fn shutdown_cancels_runs_and_leaves_them_resumable() {
    let sb = Sandbox::new("lsp-run-shutdown");
    sb.write("hello.prose", HELLO);
    let program = sleeper(&sb);
    let (mut c, _) = start(&sb, caps(), command_settings(&program));
    let uri = file_uri(&sb.path().join("hello.prose"));
    c.open(&uri, 1, HELLO);
    let (run_id, dir) = start_sleeping_run(&mut c, &sb, &uri);
    let pid = fs::read_to_string(sb.path().join("pid")).unwrap();

    // By the time `shutdown` answers, the run has ended and said so.
    c.call("shutdown", Value::Null);
    let (events, _) = until_finished(&mut c);
    let cancelled = &events[events.len() - 2];
    assert_eq!(cancelled["type"], "cancelled");
    assert_eq!(cancelled["reason"], "the language server shut down");
    assert_eq!(run_json(&dir)["status"], "cancelled");
    eventually("the backend's process to be killed", || gone(pid.trim()));
    c.notify("exit", Value::Null);
    assert!(c.wait_exit().success());

    // Resumed from the editor (`resume`), with another backend.
    let (mut c, _) = start(&sb, caps(), mock());
    c.open(&uri, 1, HELLO);
    let answer = c.call(
        "workspace/executeCommand",
        json!({ "command": "prose.run", "arguments": [{ "uri": uri, "resume": run_id, "backend": "mock" }] }),
    );
    assert_eq!(answer["runId"], json!(run_id));
    let (events, _) = until_finished(&mut c);
    assert_eq!(events[0]["type"], "run_started");
    assert_eq!(events[0]["resumed"], true);
    let last = events.last().unwrap();
    assert_eq!(last["status"], "succeeded", "{last}");
    assert_eq!(last["outputs"], json!({ "message": "Say hello" }));
    assert_eq!(run_json(&dir)["status"], "succeeded");

    // An unknown run or backend: not started, and the message says why.
    let message = refused(
        &mut c,
        "prose.run",
        json!({ "uri": uri, "resume": "19990101-000000-abcdef" }),
    );
    assert!(message.starts_with("cannot resume: "), "{message}");
    assert_eq!(
        refused(&mut c, "prose.run", json!({ "uri": uri, "backend": "gpt" })),
        "unknown backend `gpt`: expected one of claude, codex, openai, anthropic, command, mock"
    );
    assert!(c.shutdown_and_exit().success());
}

#[test]
fn the_end_of_input_cancels_runs_and_leaves_them_resumable() {
    let sb = Sandbox::new("lsp-run-eof");
    sb.write("hello.prose", HELLO);
    let program = sleeper(&sb);
    let (mut c, _) = start(&sb, caps(), command_settings(&program));
    let uri = file_uri(&sb.path().join("hello.prose"));
    c.open(&uri, 1, HELLO);
    let (run_id, dir) = start_sleeping_run(&mut c, &sb, &uri);
    let pid = fs::read_to_string(sb.path().join("pid")).unwrap();

    c.close_stdin();
    c.wait_exit();
    assert_eq!(run_json(&dir)["status"], "cancelled");
    let log = fs::read_to_string(dir.join("events.jsonl")).unwrap();
    assert!(
        log.contains("\"reason\":\"the language server stopped\""),
        "{log}"
    );
    eventually("the backend's process to be killed", || gone(pid.trim()));
    resume_with_cli(&sb, &run_id);
}
