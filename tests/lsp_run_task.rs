//! Running job tasks from the editor, end to end over stdio (docs/lsp.md,
//! "Running job tasks"): the "▶ Run task" and "Dry run" lenses of each
//! task, `prose.runTask` from the lens's own command and arguments,
//! `$user-input` through `prose/inputRequest`, the job events as
//! `prose/runEvent`s and the `$/progress` of the run; cancelling
//! (`prose.cancelRun`, the progress's cancel) and resuming from the
//! editor; the consent a repository's `prose.toml` needs; and the runs
//! refused: without consent, in an untrusted workspace, with errors in the
//! entry, for an unknown task or input, without a way to ask for
//! `$user-input`.

mod common;
#[path = "common/lsp.rs"]
mod lsp;
#[path = "common/runs.rs"]
mod runs;

use std::{fs, path::PathBuf};

use common::{Sandbox, prose_bin};
use lsp::{LspClient, file_uri};
use runs::{
    caps, eventually, execute, gone, make_executable, refused, run_json, sleeper, started, types,
    until_finished,
};
use serde_json::{Value, json};

/// One task: a plan for `$user-input`, checked by a condition.
const ENTRY: &str = r#"{
  "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "gpt-5.2-codex", "reviewers": []},
  "promptVariables": {"rules": ["Be brief."], "answer": ["Call job_boolean_true if it holds, job_boolean_false if not."]},
  "grid": [{"keyword": "plan", "automate": false, "jobs": [{"name": "start", "id": "plan-start"}]}],
  "tasks": {
    "plan-task": {"model": "planning", "prompt": ["$rules", "Write plan.md for $user-input."], "requireUserInput": true,
                  "criteria": {"condition": ["$answer", "plan.md exists and covers $user-input."], "runConditionInSameSession": true, "failureAction": ["RetryWithNewSession", 1]}}
  }
}
"#;

/// The mock's answers: the plan, then the condition holds.
const SCRIPT: &str = r#"[[rule]]
role = "driving"
prompt = "plan.md exists"
answer = "It does."
tools = [[{ name = "job_boolean_true", argument = "plan.md covers the login page" }]]

[[rule]]
role = "task"
answer = "I wrote plan.md."
"#;

/// The repository's `prose.toml`: the mock backend with the script (which
/// runs nothing, so needs no consent).
const PROSE_TOML: &str =
    "[runner]\nbackend = \"mock\"\n\n[runner.mock]\nscript = \"plan.mock.toml\"\n";

fn start(sb: &Sandbox, capabilities: Value, options: Value) -> LspClient {
    let mut c =
        LspClient::spawn_with_home(prose_bin(), &["lsp"], sb.path(), &sb.path().join("home"));
    c.initialize(sb.path(), capabilities, options);
    c
}

/// A sandbox with the entry, opened as VS Code opens it (`json`).
fn open_entry(sb: &Sandbox, c: &mut LspClient, text: &str) -> String {
    sb.write("team.jobs.json", text);
    let uri = file_uri(&sb.path().join("team.jobs.json"));
    c.open_as(&uri, "json", 1, text);
    uri
}

fn lenses(c: &mut LspClient, uri: &str) -> Value {
    c.call_retrying(
        "textDocument/codeLens",
        json!({ "textDocument": { "uri": uri } }),
    )
}

/// Clicks a lens: its own command and arguments.
fn click(c: &mut LspClient, lens: &Value) -> Value {
    let command = &lens["command"];
    c.call(
        "workspace/executeCommand",
        json!({ "command": command["command"], "arguments": command["arguments"] }),
    )
}

#[test]
fn a_task_runs_from_its_lens_with_its_input_events_and_progress() {
    let sb = Sandbox::new("lsp-task-run");
    sb.write("plan.mock.toml", SCRIPT);
    sb.write("prose.toml", PROSE_TOML);
    let mut c = start(&sb, caps(), Value::Null);
    let uri = open_entry(&sb, &mut c, ENTRY);

    let lenses = lenses(&mut c, &uri);
    let (line, start, end) = (5, 4, 15);
    let range = json!({ "start": { "line": line, "character": start }, "end": { "line": line, "character": end } });
    let task = json!([{ "uri": uri, "task": "plan-task" }]);
    assert_eq!(
        lenses,
        json!([
            { "range": range, "command": { "title": "▶ Run task", "command": "prose.runTask", "arguments": task } },
            { "range": range, "command": { "title": "Dry run", "command": "prose.dryRunTask", "arguments": task } },
            { "range": range, "command": { "title": "Show expanded prompt", "command": "prose.showTaskPrompt", "arguments": task } },
        ])
    );

    // The dry run: the plan of `prose jobs run --dry-run`, nothing asked.
    let plan = click(&mut c, &lenses[1]);
    let cli = sb.prose(&["jobs", "run", "team.jobs.json", "plan-task", "--dry-run"]);
    assert_eq!(cli.code, 0, "{}", cli.stderr);
    assert_eq!(plan, json!({ "plan": cli.stdout }));
    assert!(!sb.path().join(".prose").exists(), "a dry run makes no run");
    assert!(
        c.server_requests
            .iter()
            .all(|r| r["method"] != "window/showMessageRequest")
    );

    // Run: the user gives the input when asked.
    c.answers = vec![("prose/inputRequest", json!({ "value": "the login page" }))];
    let answer = click(&mut c, &lenses[0]);
    let (run_id, run_dir) = started(&answer, sb.path());
    let (events, progress) = until_finished(&mut c);
    assert_eq!(
        types(&events),
        [
            "run_started",
            "task_started",
            "input_requested",
            "input_received",
            "session_started",
            "session_finished",
            "session_started",
            "session_finished",
            "tool_called",
            "criteria_checked",
            "task_finished",
            "run_finished"
        ]
    );
    for (i, e) in events.iter().enumerate() {
        assert_eq!(e["version"], 1);
        assert_eq!(e["run_id"], json!(run_id));
        assert_eq!(e["seq"], json!(i));
    }
    assert_eq!(events[0]["backend"], "mock");
    // Named as `prose jobs run` from the root names it.
    assert_eq!(events[0]["program"], "team.jobs.json");
    assert_eq!(events[1]["entry"], "team.jobs.json");
    assert_eq!(events[1]["task"], "plan-task");
    assert_eq!(events[1]["task_model"], "gpt-5.2");
    let input = c.server_request("prose/inputRequest");
    assert_eq!(input["params"]["runId"], json!(run_id));
    assert_eq!(input["params"]["name"], "user-input");
    assert_eq!(events[3]["excerpt"], "the login page");
    assert_eq!(
        events[4]["prompt_excerpt"],
        "Be brief.\nWrite plan.md for the login page."
    );
    assert_eq!(events[8]["name"], "job_boolean_true");
    assert_eq!(events[8]["argument"], "plan.md covers the login page");
    assert_eq!(events[9]["check"], "condition");
    assert_eq!(events[9]["result"], true);
    assert_eq!(events[10]["outcome"], "succeeded");
    let last = events.last().unwrap();
    assert_eq!(last["status"], "succeeded", "{last}");
    assert_eq!(
        last["outputs"],
        json!({ "reported-true-reason": "plan.md covers the login page" })
    );
    // The same events as the run's own log.
    let logged: Vec<Value> = fs::read_to_string(run_dir.join("events.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(logged, events);

    // Progress on the token it created: the sessions and the task's steps.
    let token = format!("prose-run/{run_id}");
    let create = c.server_request("window/workDoneProgress/create");
    assert_eq!(create["params"], json!({ "token": token }));
    assert!(progress.iter().all(|p| p["token"] == json!(token)));
    let mut values: Vec<Value> = progress.iter().map(|p| p["value"].clone()).collect();
    if values.last().is_none_or(|v| v["kind"] != "end") {
        let rest =
            c.collect_notifications(&["$/progress"], |m| m["params"]["value"]["kind"] == "end");
        values.extend(rest.iter().map(|m| m["params"]["value"].clone()));
    }
    let report =
        |message: String| json!({ "kind": "report", "cancellable": true, "message": message });
    let session = |i: usize| events[i]["session_id"].as_str().unwrap().to_string();
    assert_eq!(
        values,
        [
            json!({ "kind": "begin", "title": "Running task plan-task of team.jobs.json", "cancellable": true, "message": format!("run {run_id}") }),
            report(format!("{} finished", session(5))),
            report(format!("{} finished", session(7))),
            report(format!(
                "{} driving called job_boolean_true: plan.md covers the login page",
                session(8)
            )),
            report(
                "✓ criteria condition (attempt 1): the session called job_boolean_true: plan.md covers the login page".into(),
            ),
            json!({ "kind": "end", "message": "succeeded" }),
        ]
    );

    // The input in the arguments: not asked.
    let before = c.server_requests.len();
    let answer = execute(
        &mut c,
        "prose.runTask",
        json!({ "uri": uri, "task": "plan-task", "inputs": { "user-input": "the signup page" } }),
    );
    assert!(answer["result"]["runId"].is_string(), "{answer}");
    let (events, _) = until_finished(&mut c);
    assert_eq!(events.last().unwrap()["status"], "succeeded");
    assert!(
        c.server_requests[before..].iter().all(|r| {
            r["method"] != "window/showMessageRequest" && r["method"] != "prose/inputRequest"
        }),
        "{:?}",
        &c.server_requests[before..]
    );
    assert_eq!(events[2]["type"], "session_started");
    assert_eq!(
        events[2]["prompt_excerpt"],
        "Be brief.\nWrite plan.md for the signup page."
    );
    assert!(c.shutdown_and_exit().success());
}

#[test]
fn task_runs_are_cancelled_by_command_and_by_their_progress_and_resume() {
    let sb = Sandbox::new("lsp-task-cancel");
    let pid_file = sb.path().join("pid");
    let program = sleeper(&sb);
    // Chosen in the editor's settings: no consent needed.
    let settings =
        json!({ "runner": { "backend": "command", "command": program.display().to_string() } });
    let mut c = start(&sb, caps(), settings);
    let uri = open_entry(&sb, &mut c, ENTRY);

    let mut last = String::new();
    for how in ["prose.cancelRun", "window/workDoneProgress/cancel"] {
        let _ = fs::remove_file(&pid_file);
        let answer = execute(
            &mut c,
            "prose.runTask",
            json!({ "uri": uri, "task": "plan-task", "inputs": { "user-input": "x" } }),
        );
        let run_id = answer["result"]["runId"].as_str().unwrap().to_string();
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
        assert_eq!(ts[..3], ["run_started", "task_started", "session_started"]);
        assert_eq!(&ts[ts.len() - 2..], ["cancelled", "run_finished"], "{how}");
        assert!(!ts.contains(&"task_finished"), "{ts:?}");
        assert_eq!(events[ts.len() - 2]["reason"], "cancelled from the editor");
        assert_eq!(events.last().unwrap()["status"], "cancelled");
        eventually("the backend's process to be killed", || gone(&pid));
        let dir = PathBuf::from(answer["result"]["runDir"].as_str().unwrap());
        assert_eq!(run_json(&dir)["status"], "cancelled");
        assert_eq!(
            refused(&mut c, "prose.cancelRun", json!({ "runId": run_id })),
            format!("no run {run_id} is running")
        );
        last = run_id;
    }

    // Resumed from the editor with another backend: the run's task and
    // input, no task named.
    let answer = execute(
        &mut c,
        "prose.runTask",
        json!({ "uri": uri, "resume": last, "backend": "mock" }),
    );
    assert_eq!(answer["result"]["runId"], json!(last), "{answer}");
    let (events, _) = until_finished(&mut c);
    assert_eq!(events[0]["resumed"], true);
    assert_eq!(events[0]["backend"], "mock");
    assert_eq!(events[1]["task"], "plan-task");
    assert_eq!(
        events[2]["prompt_excerpt"],
        "Be brief.\nWrite plan.md for x."
    );
    assert_eq!(events[events.len() - 2]["type"], "task_finished");
    assert!(c.shutdown_and_exit().success());
}

#[test]
fn task_runs_need_consent_trust_a_clean_entry_and_the_input() {
    let sb = Sandbox::new("lsp-task-refused");
    let marker = sb.path().join("marker");
    sb.write(
        "agent.sh",
        format!(
            "#!/bin/sh\necho ran >> '{}'\ncat >/dev/null\necho hi\n",
            marker.display()
        ),
    );
    make_executable(&sb.path().join("agent.sh"));
    let agent = sb.path().join("agent.sh").display().to_string();
    sb.write(
        "prose.toml",
        format!("[runner]\nbackend = \"command\"\ncommand = \"{agent}\"\n"),
    );
    let run = json!({ "uri": file_uri(&sb.path().join("team.jobs.json")), "task": "plan-task", "inputs": { "user-input": "x" } });

    // The user does not allow the repository's command: nothing runs.
    let mut c = start(&sb, caps(), Value::Null);
    let uri = open_entry(&sb, &mut c, ENTRY);
    c.answers = vec![("window/showMessageRequest", json!({ "title": "Cancel" }))];
    let message = refused(&mut c, "prose.runTask", run.clone());
    assert!(
        message.starts_with("not run: you did not allow "),
        "{message}"
    );
    assert!(message.ends_with("; nothing was executed"), "{message}");
    let asked = c.server_request("window/showMessageRequest");
    assert!(
        asked["params"]["message"]
            .as_str()
            .unwrap()
            .contains(&agent),
        "{asked}"
    );

    assert!(!marker.exists(), "nothing ran");
    assert!(!sb.path().join(".prose").exists(), "no run was made");

    // Allowed: it runs (the agent calls no tool: the criteria are unmet).
    c.answers = vec![("window/showMessageRequest", json!({ "title": "Allow" }))];
    let answer = execute(&mut c, "prose.runTask", run.clone());
    assert!(answer["result"]["runId"].is_string(), "{answer}");
    let (events, _) = until_finished(&mut c);
    let finished = &events[events.len() - 2];
    assert_eq!(finished["type"], "task_finished");
    assert_eq!(finished["outcome"], "criteria_unmet");
    let ran = fs::read_to_string(&marker).unwrap().lines().count();
    assert!(ran > 0);

    // Errors in the entry block its tasks, as a program's block it.
    let line = ENTRY.lines().nth(5).unwrap();
    let col = line.find("\"planning\"").unwrap() as u32;
    c.change(&uri, 2, &[(5, col, 5, col + 10, "\"planing\"")]);
    let blocked = lenses(&mut c, &uri);
    assert_eq!(
        blocked[0]["command"],
        json!({ "title": "1 error blocks the run", "command": "prose.revealErrors", "arguments": [{ "uri": uri }] }),
        "{blocked}"
    );
    let message = refused(&mut c, "prose.runTask", run.clone());
    assert!(
        message.starts_with("team.jobs.json has 1 error; it was not run (line 6: "),
        "{message}"
    );
    let message = refused(
        &mut c,
        "prose.dryRunTask",
        json!({ "uri": uri, "task": "plan-task" }),
    );
    assert!(
        message.starts_with("team.jobs.json has 1 error; it has no plan (line 6: "),
        "{message}"
    );
    let r = execute(&mut c, "prose.revealErrors", json!({ "uri": uri }));
    assert_eq!(r["result"], Value::Null, "{r}");
    let shown = c.server_request("window/showDocument");
    assert_eq!(shown["params"]["selection"]["start"]["line"], 5, "{shown}");
    // Back to clean, an unknown task and a wrong input are told.
    c.change(&uri, 3, &[(5, col, 5, col + 9, "\"planning\"")]);
    let message = refused(
        &mut c,
        "prose.runTask",
        json!({ "uri": uri, "task": "plan", "inputs": { "user-input": "x" } }),
    );
    assert!(message.contains("there is no task `plan`"), "{message}");
    let message = refused(
        &mut c,
        "prose.runTask",
        json!({ "uri": uri, "task": "plan-task", "inputs": { "topic": "x" } }),
    );
    assert_eq!(
        message,
        "unknown input `topic`: a task takes one input, `user-input` ($user-input)"
    );
    assert!(c.shutdown_and_exit().success());

    // An editor that cannot ask for `$user-input`: not started, and says why.
    let mut c = start(&sb, json!({}), Value::Null);
    let uri = open_entry(&sb, &mut c, ENTRY);
    assert_eq!(
        refused(
            &mut c,
            "prose.runTask",
            json!({ "uri": uri, "task": "plan-task" })
        ),
        "task `plan-task` takes the user's input ($user-input), and this editor cannot ask for it (it does not declare experimental.proseInputRequest): give it in the `inputs` of prose.runTask, as `user-input`"
    );
    assert!(c.shutdown_and_exit().success());

    // A workspace the editor has not trusted: no run lens, no run.
    let mut c = start(&sb, caps(), json!({ "trusted": false }));
    let uri = open_entry(&sb, &mut c, ENTRY);
    let titles: Vec<Value> = lenses(&mut c, &uri)
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["command"]["title"].clone())
        .collect();
    assert_eq!(
        titles,
        [
            "Run disabled: workspace not trusted",
            "Show expanded prompt"
        ]
    );
    assert_eq!(
        refused(&mut c, "prose.runTask", run),
        "running tasks is disabled: the workspace is not trusted"
    );
    assert!(c.shutdown_and_exit().success());

    assert_eq!(
        fs::read_to_string(&marker).unwrap().lines().count(),
        ran,
        "nothing ran again"
    );
    assert_eq!(
        fs::read_dir(sb.path().join(".prose/runs")).unwrap().count(),
        1
    );
}
