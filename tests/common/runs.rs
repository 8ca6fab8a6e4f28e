//! What the end-to-end tests of runs started from the editor share
//! (`tests/lsp_run.rs` for programs, `tests/lsp_run_task.rs` for job
//! tasks): the client's capabilities, the commands, the events and
//! progress of a run until it ends, and the processes of its backend.

#![allow(dead_code)]

use std::{
    fs,
    path::{Path, PathBuf},
    thread,
    time::{Duration, Instant},
};

use serde_json::{Value, json};

use crate::{
    common::Sandbox,
    lsp::{LspClient, TIMEOUT},
};

/// The run id and directory a run command answered, the directory
/// checked to be the run's under `root`'s `.prose/runs/`.
pub fn started(answer: &Value, root: &Path) -> (String, PathBuf) {
    let run_id = answer["runId"].as_str().unwrap().to_string();
    let run_dir = PathBuf::from(answer["runDir"].as_str().unwrap());
    assert_eq!(
        run_dir,
        fs::canonicalize(root)
            .unwrap()
            .join(".prose/runs")
            .join(&run_id)
            .canonicalize()
            .unwrap()
    );
    (run_id, run_dir)
}

/// An editor that shows progress, documents and asks for inputs.
pub fn caps() -> Value {
    json!({
        "window": { "workDoneProgress": true, "showDocument": { "support": true } },
        "experimental": { "proseInputRequest": true }
    })
}

/// The run events and progress notifications until the run ends.
pub fn until_finished(c: &mut LspClient) -> (Vec<Value>, Vec<Value>) {
    let all = c.collect_notifications(&["prose/runEvent", "$/progress"], |m| {
        m["method"] == "prose/runEvent" && m["params"]["type"] == "run_finished"
    });
    let (events, progress): (Vec<Value>, Vec<Value>) = all
        .into_iter()
        .partition(|m| m["method"] == "prose/runEvent");
    (
        events.into_iter().map(|m| m["params"].clone()).collect(),
        progress.into_iter().map(|m| m["params"].clone()).collect(),
    )
}

/// The `type` of each event.
pub fn types(events: &[Value]) -> Vec<&str> {
    events.iter().map(|e| e["type"].as_str().unwrap()).collect()
}

/// The response to `workspace/executeCommand` of `command` with `[args]`.
pub fn execute(c: &mut LspClient, command: &str, args: Value) -> Value {
    let id = c.request(
        "workspace/executeCommand",
        json!({ "command": command, "arguments": [args] }),
    );
    c.response(id)
}

/// The message of a command refused with `RequestFailed` (-32803).
pub fn refused(c: &mut LspClient, command: &str, args: Value) -> String {
    let r = execute(c, command, args);
    assert_eq!(r["error"]["code"], -32803, "{r}");
    r["error"]["message"].as_str().unwrap().to_string()
}

/// The run's `run.json`.
pub fn run_json(dir: &Path) -> Value {
    serde_json::from_str(&fs::read_to_string(dir.join("run.json")).unwrap()).unwrap()
}

/// A program (`sleeper.sh`) that records its pid in `pid`, then sleeps
/// until killed.
pub fn sleeper(sb: &Sandbox) -> PathBuf {
    let pid = sb.path().join("pid");
    sb.write(
        "sleeper.sh",
        format!(
            "#!/bin/sh\ncat >/dev/null\necho $$ > '{}'\nexec sleep 120\n",
            pid.display()
        ),
    );
    let path = sb.path().join("sleeper.sh");
    make_executable(&path);
    path
}

pub fn make_executable(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
    }
}

/// Waits until `f` holds (failing after the timeout).
pub fn eventually(what: &str, f: impl Fn() -> bool) {
    let deadline = Instant::now() + TIMEOUT;
    while !f() {
        assert!(Instant::now() < deadline, "{what} within {TIMEOUT:?}");
        thread::sleep(Duration::from_millis(20));
    }
}

/// Whether the process `pid` is gone (or a zombie).
pub fn gone(pid: &str) -> bool {
    match fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => true,
        Ok(stat) => stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| rest.starts_with('Z')),
    }
}
