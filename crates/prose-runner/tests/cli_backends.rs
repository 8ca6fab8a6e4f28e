//! The `claude` and `codex` backends with the real CLIs (`@anthropic-ai/claude-code`
//! and `@openai/codex` from npm; `.ci/run` installs the pinned versions),
//! offline: each test points the CLI at a fake model server on 127.0.0.1
//! and gives it a home of its own. What is asserted: the argv and stdin
//! the runner builds are accepted by the real CLI; the prompt the server
//! receives holds the session's prompt and its context; the answer
//! becomes the binding; permission rules are enforced by the CLI itself
//! (the model asks for a command, the CLI refuses or runs it); a failing
//! API becomes a failed session with the CLI's message, subject to retry;
//! a missing key too; persistent agents resume the CLI's own conversation;
//! a cancelled run leaves no CLI process behind; no key appears under
//! `.prose/runs/`.
//!
//! A test whose CLI is not on PATH says so and passes, except under
//! `CI=true`, where it fails.

#![cfg(unix)]

mod common;
mod fake_api;

use std::{
    path::{Path, PathBuf},
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use fake_api::{FakeServer, Recorded, Reply};
use prose_runner::{
    backend::{
        Backend, BackendKind,
        claude::{self, ClaudeBackend},
        cli::CliSettings,
        codex::{self, CodexBackend},
        process::find_executable,
    },
    config::{Origin, RunnerConfig, Sourced},
    events::{Event, EventKind, RunStatus},
    run::{RunOutcome, prepare, start},
};
use serde_json::{Value, json};

const KEY: &str = "sk-test-CLI-SECRET-51d2e8";

/// The CLI's path, or `None` (and a note) when it is not installed.
fn installed(name: &str) -> Option<PathBuf> {
    if let Some(p) = find_executable(name) {
        return Some(p);
    }
    let hint = format!(
        "`{name}` is not on PATH: install the pinned CLIs as .ci/run does (npm install --prefix DIR @anthropic-ai/claude-code@2.1.332 @openai/codex@0.169.0) and put DIR/node_modules/.bin on PATH"
    );
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("{hint}");
    }
    eprintln!("skipped: {hint}");
    None
}

/// A scratch workspace and a home for the CLI.
struct Scratch {
    root: tempfile::TempDir,
    home: tempfile::TempDir,
    /// A value no other process has in its environment, to find the
    /// CLI's processes.
    marker: String,
}

impl Scratch {
    fn new() -> Self {
        Scratch {
            root: tempfile::tempdir().unwrap(),
            home: tempfile::tempdir().unwrap(),
            marker: format!("prose-cli-test-{}", uuid::Uuid::new_v4()),
        }
    }

    fn root(&self) -> &Path {
        self.root.path()
    }
}

fn settings(kind: BackendKind, prefixes: &'static [&'static str], exe: &Path) -> CliSettings {
    let mut cli = CliSettings::from_config(&RunnerConfig::default(), kind, prefixes);
    cli.executable = exe.display().to_string();
    cli
}

// ---- claude ----------------------------------------------------------------

/// Requests of the conversation (the CLI's side requests declare no tools).
fn claude_main(r: &Recorded) -> bool {
    r.method == "POST" && !r.tool_names().is_empty()
}

async fn claude_server(replies: Vec<Reply>) -> FakeServer {
    FakeServer::scripted(
        replies,
        claude_main,
        fake_api::anthropic_stream_text("side answer"),
    )
    .await
}

fn claude(exe: &Path, srv: &FakeServer, s: &Scratch, key: Option<&str>) -> Arc<dyn Backend> {
    let vars = [
        ("HOME", s.home.path().display().to_string()),
        ("ANTHROPIC_BASE_URL", srv.url.clone()),
        ("ANTHROPIC_API_KEY", key.unwrap_or_default().to_string()),
        ("ANTHROPIC_AUTH_TOKEN", String::new()),
        ("CLAUDE_CODE_MAX_RETRIES", "0".into()),
        ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1".into()),
        ("DISABLE_AUTOUPDATER", "1".into()),
        ("PROSE_CLI_TEST_MARKER", s.marker.clone()),
    ];
    Arc::new(
        ClaudeBackend::new(settings(BackendKind::Claude, claude::ENV_PREFIXES, exe))
            .with_env(vars.into_iter().map(|(k, v)| (k.to_string(), v)).collect()),
    )
}

/// The text of every message of a Messages request, `role: text` a line
/// per block (tool results as `tool_result: ...`).
fn transcript(r: &Recorded) -> String {
    let mut out = String::new();
    for m in r.body["messages"].as_array().into_iter().flatten() {
        let role = m["role"].as_str().unwrap_or("?");
        match &m["content"] {
            Value::String(s) => out.push_str(&format!("{role}: {s}\n")),
            Value::Array(blocks) => {
                for b in blocks {
                    match b["type"].as_str() {
                        Some("text") => {
                            out.push_str(&format!("{role}: {}\n", b["text"].as_str().unwrap()))
                        }
                        Some("tool_result") => {
                            out.push_str(&format!("tool_result: {}\n", b["content"]))
                        }
                        Some(other) => out.push_str(&format!("{role}: [{other}]\n")),
                        None => {}
                    }
                }
            }
            _ => {}
        }
    }
    out
}

async fn run(src: &str, backend: Arc<dyn Backend>, root: &Path) -> (RunOutcome, Vec<Event>) {
    let mut o = common::options(src, root, backend);
    o.config.timeout = Sourced::new(Duration::from_secs(120), Origin::Default);
    common::run_options(o)
        .await
        .unwrap_or_else(|e| panic!("{e}"))
}

fn binding(outcome: &RunOutcome, name: &str) -> String {
    let p = outcome.run_dir.join("bindings").join(format!("{name}.md"));
    common::value_of(
        &std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())),
    )
}

fn failures(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::SessionFailed { error, .. } => Some(error.clone()),
            _ => None,
        })
        .collect()
}

/// No file under the workspace's `.prose/` holds the key.
fn assert_no_key(root: &Path) {
    let mut stack = vec![root.join(".prose")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let text = std::fs::read_to_string(&p).unwrap_or_default();
                assert!(!text.contains(KEY), "the key is in {}", p.display());
            }
        }
    }
}

const SCOUT: &str = r#"agent scout:
  model: haiku
  prompt: "You scout ahead."
  permissions:
    bash: deny

let notes = session "Collect notes about tides"
let report = session: scout
  prompt: "Report on the notes"
  context: notes
"#;

#[tokio::test]
async fn claude_answers_through_the_real_cli() {
    let Some(exe) = installed("claude") else {
        return;
    };
    let s = Scratch::new();
    let srv = claude_server(vec![
        fake_api::anthropic_stream_text("Notes: the moon pulls."),
        fake_api::anthropic_stream_text("Report: tides follow the moon."),
    ])
    .await;
    let (outcome, events) = run(SCOUT, claude(&exe, &srv, &s, Some(KEY)), s.root()).await;
    assert_eq!(
        outcome.status,
        RunStatus::Succeeded,
        "{:?} {:?}",
        outcome.error,
        failures(&events)
    );
    assert_eq!(binding(&outcome, "notes"), "Notes: the moon pulls.");
    assert_eq!(
        binding(&outcome, "report"),
        "Report: tides follow the moon."
    );

    let main: Vec<Recorded> = srv.requests().into_iter().filter(claude_main).collect();
    assert_eq!(main.len(), 2, "{main:#?}");
    for r in &main {
        assert_eq!(r.header("x-api-key"), Some(KEY));
        assert!(r.path.starts_with("/v1/messages"), "{}", r.path);
    }
    let first = transcript(&main[0]);
    assert!(first.contains("user: Collect notes about tides"), "{first}");
    let second = transcript(&main[1]);
    assert!(
        second.contains("Report on the notes\n\n## System\n\nYou scout ahead.\n\n## Context: notes\n\nNotes: the moon pulls."),
        "{second}"
    );
    // `model: haiku` reached the CLI, which chose its haiku model.
    assert!(
        main[1].body["model"].as_str().unwrap().contains("haiku"),
        "{}",
        main[1].body["model"]
    );
    // `bash: deny`: the CLI offers the model no shell in that session only.
    assert!(
        main[0].tool_names().contains(&"Bash".to_string()),
        "{:?}",
        main[0].tool_names()
    );
    assert!(
        !main[1].tool_names().contains(&"Bash".to_string()),
        "{:?}",
        main[1].tool_names()
    );
    assert_no_key(s.root());
}

#[tokio::test]
async fn claude_enforces_bash_deny_and_runs_what_bash_allow_allows() {
    let Some(exe) = installed("claude") else {
        return;
    };
    let s = Scratch::new();
    let denied = s.root().join("denied-marker");
    let allowed = s.root().join("allowed-marker");
    let touch = |p: &Path| {
        fake_api::anthropic_stream_tool_use(
            "toolu_1",
            "Bash",
            json!({"command": format!("touch {}", p.display()), "description": "touch a file"}),
        )
    };
    let srv = claude_server(vec![
        touch(&denied),
        fake_api::anthropic_stream_text("tried"),
        touch(&allowed),
        fake_api::anthropic_stream_text("done"),
    ])
    .await;
    let src = r#"agent careful:
  permissions:
    bash: deny
agent trusted:
  permissions:
    bash: allow

session: careful
  prompt: "Touch the first file"
session: trusted
  prompt: "Touch the second file"
"#;
    let (outcome, events) = run(src, claude(&exe, &srv, &s, Some(KEY)), s.root()).await;
    assert_eq!(
        outcome.status,
        RunStatus::Succeeded,
        "{:?} {:?}",
        outcome.error,
        failures(&events)
    );
    assert!(
        !denied.exists(),
        "the CLI ran a command that `bash: deny` forbids"
    );
    assert!(
        allowed.exists(),
        "`bash: allow` did not let the command run"
    );
    let main: Vec<Recorded> = srv.requests().into_iter().filter(claude_main).collect();
    let refused = transcript(&main[1]);
    assert!(
        refused.contains("No such tool available: Bash"),
        "{refused}"
    );
}

#[tokio::test]
async fn claude_api_failures_and_a_missing_key_fail_the_session_with_the_clis_message() {
    let Some(exe) = installed("claude") else {
        return;
    };
    let s = Scratch::new();
    let srv = claude_server(vec![
        fake_api::error(500, "model exploded"),
        fake_api::anthropic_stream_text("recovered"),
    ])
    .await;
    let (outcome, events) = run(
        "let x = session \"Flaky\"\n  retry: 1\n",
        claude(&exe, &srv, &s, Some(KEY)),
        s.root(),
    )
    .await;
    assert_eq!(outcome.status, RunStatus::Succeeded, "{:?}", outcome.error);
    assert_eq!(binding(&outcome, "x"), "recovered");
    let f = failures(&events);
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(
        f[0].starts_with("`") && f[0].contains("reported an error: API Error: 500 model exploded"),
        "{f:?}"
    );

    // No key, no login: the CLI's own message, and the run fails.
    let s = Scratch::new();
    let (outcome, events) = run(
        "session \"Hello\"\n",
        claude(&exe, &srv, &s, None),
        s.root(),
    )
    .await;
    assert_eq!(outcome.status, RunStatus::Failed);
    let f = failures(&events);
    assert!(f[0].contains("Not logged in"), "{f:?}");
}

const CAPTAIN: &str = r#"agent captain:
  persist: project
  prompt: "You lead the crew."

session: captain
  prompt: "Plan the voyage"
resume: captain
  prompt: "Report progress"
"#;

#[tokio::test]
async fn claude_persistent_agents_resume_the_clis_conversation() {
    let Some(exe) = installed("claude") else {
        return;
    };
    let s = Scratch::new();
    let srv = claude_server(vec![
        fake_api::anthropic_stream_text("Plan: sail north."),
        fake_api::anthropic_stream_text("Progress: halfway."),
        fake_api::anthropic_stream_text("Where we are: north."),
    ])
    .await;
    let backend = claude(&exe, &srv, &s, Some(KEY));
    let (outcome, events) = run(CAPTAIN, backend.clone(), s.root()).await;
    assert_eq!(
        outcome.status,
        RunStatus::Succeeded,
        "{:?} {:?}",
        outcome.error,
        failures(&events)
    );
    let main: Vec<Recorded> = srv.requests().into_iter().filter(claude_main).collect();
    let second = transcript(&main[1]);
    let plan = second.find("Plan the voyage").expect(&second);
    let answer = second.find("assistant: Plan: sail north.").expect(&second);
    let report = second.find("Report progress").expect(&second);
    assert!(plan < answer && answer < report, "{second}");
    let handle_file = s.root().join(".prose/agents/captain/session-handle");
    let handle = std::fs::read_to_string(&handle_file).unwrap();
    assert!(handle.starts_with("claude:"), "{handle}");

    // A conversation the CLI does not have: a new one starts.
    std::fs::write(&handle_file, "claude:0f0e0d0c-0b0a-4909-8807-060504030201").unwrap();
    let (outcome, events) = run(
        "agent captain:\n  persist: project\n\nresume: captain\n  prompt: \"Where are we?\"\n",
        backend,
        s.root(),
    )
    .await;
    assert_eq!(
        outcome.status,
        RunStatus::Succeeded,
        "{:?} {:?}",
        outcome.error,
        failures(&events)
    );
    let now = std::fs::read_to_string(&handle_file).unwrap();
    assert!(
        now.starts_with("claude:") && !now.contains("0f0e0d0c"),
        "{now}"
    );
    assert_no_key(s.root());
}

// ---- codex -----------------------------------------------------------------

fn codex_main(r: &Recorded) -> bool {
    r.method == "POST" && r.path.ends_with("/responses")
}

async fn codex_server(replies: Vec<Reply>) -> FakeServer {
    FakeServer::scripted(
        replies,
        codex_main,
        Reply::Json(200, json!({"data": [], "models": []})),
    )
    .await
}

const CODEX_KEY_VAR: &str = "PROSE_TEST_CODEX_KEY";

fn codex(exe: &Path, srv: &FakeServer, s: &Scratch) -> Arc<dyn Backend> {
    let codex_home = s.home.path().join("codex");
    std::fs::create_dir_all(&codex_home).unwrap();
    std::fs::write(
        codex_home.join("config.toml"),
        format!(
            r#"model_provider = "fake"
model = "gpt-test"

[model_providers.fake]
name = "fake"
base_url = "{}/v1"
wire_api = "responses"
env_key = "{CODEX_KEY_VAR}"
request_max_retries = 0
stream_max_retries = 0
"#,
            srv.url
        ),
    )
    .unwrap();
    let vars = [
        ("HOME", s.home.path().display().to_string()),
        ("CODEX_HOME", codex_home.display().to_string()),
        (CODEX_KEY_VAR, KEY.to_string()),
        ("PROSE_CLI_TEST_MARKER", s.marker.clone()),
    ];
    Arc::new(
        CodexBackend::new(settings(BackendKind::Codex, codex::ENV_PREFIXES, exe))
            .with_env(vars.into_iter().map(|(k, v)| (k.to_string(), v)).collect()),
    )
}

/// The text of every message of a Responses request, `role: text` a line.
fn codex_transcript(r: &Recorded) -> String {
    let mut out = String::new();
    for item in r.body["input"].as_array().into_iter().flatten() {
        let role = item["role"]
            .as_str()
            .unwrap_or_else(|| item["type"].as_str().unwrap_or("?"));
        if role == "developer" {
            continue;
        }
        match &item["content"] {
            Value::Array(parts) => {
                for p in parts {
                    if let Some(t) = p["text"].as_str() {
                        out.push_str(&format!("{role}: {t}\n"));
                    }
                }
            }
            _ => {
                if let Some(o) = item["output"].as_str() {
                    out.push_str(&format!("{role}: {o}\n"));
                }
            }
        }
    }
    out
}

#[tokio::test]
async fn codex_answers_through_the_real_cli() {
    let Some(exe) = installed("codex") else {
        return;
    };
    let s = Scratch::new();
    let srv = codex_server(vec![
        fake_api::responses_stream_text("Notes: the moon pulls."),
        fake_api::responses_stream_text("Report: tides follow the moon."),
    ])
    .await;
    let src = SCOUT.replace("    bash: deny\n", "    write: deny\n");
    let (outcome, events) = run(&src, codex(&exe, &srv, &s), s.root()).await;
    assert_eq!(
        outcome.status,
        RunStatus::Succeeded,
        "{:?} {:?}",
        outcome.error,
        failures(&events)
    );
    assert_eq!(binding(&outcome, "notes"), "Notes: the moon pulls.");
    assert_eq!(
        binding(&outcome, "report"),
        "Report: tides follow the moon."
    );
    let main: Vec<Recorded> = srv.requests().into_iter().filter(codex_main).collect();
    assert_eq!(main.len(), 2);
    for r in &main {
        assert_eq!(
            r.header("authorization"),
            Some(format!("Bearer {KEY}").as_str())
        );
        // `haiku` means nothing to Codex: its configured model answers.
        assert_eq!(r.body["model"], "gpt-test");
    }
    assert!(codex_transcript(&main[0]).contains("user: Collect notes about tides"));
    let second = codex_transcript(&main[1]);
    assert!(
        second.contains("Report on the notes\n\n## System\n\nYou scout ahead.\n\n## Context: notes\n\nNotes: the moon pulls."),
        "{second}"
    );
    assert_no_key(s.root());
}

#[tokio::test]
async fn codex_enforces_write_deny_with_its_sandbox() {
    let Some(exe) = installed("codex") else {
        return;
    };
    let s = Scratch::new();
    let denied = s.root().join("denied-marker");
    let allowed = s.root().join("allowed-marker");
    let touch = |p: &Path| {
        fake_api::responses_stream_call(
            "call_1",
            "exec_command",
            json!({"cmd": format!("touch {}", p.display())}),
        )
    };
    let srv = codex_server(vec![
        touch(&denied),
        fake_api::responses_stream_text("tried"),
        touch(&allowed),
        fake_api::responses_stream_text("done"),
    ])
    .await;
    let src = r#"agent reader:
  permissions:
    write: deny
agent writer:
  permissions:
    write: allow

session: reader
  prompt: "Touch the first file"
session: writer
  prompt: "Touch the second file"
"#;
    let (outcome, events) = run(src, codex(&exe, &srv, &s), s.root()).await;
    assert_eq!(
        outcome.status,
        RunStatus::Succeeded,
        "{:?} {:?}",
        outcome.error,
        failures(&events)
    );
    assert!(!denied.exists(), "a `write: deny` agent wrote a file");
    assert!(
        allowed.exists(),
        "`write: allow` did not let the agent write"
    );
    let main: Vec<Recorded> = srv.requests().into_iter().filter(codex_main).collect();
    let refused = codex_transcript(&main[1]);
    assert!(refused.contains("Read-only file system"), "{refused}");
}

#[tokio::test]
async fn codex_api_failures_fail_the_session_with_codexs_message() {
    let Some(exe) = installed("codex") else {
        return;
    };
    let s = Scratch::new();
    let srv = codex_server(vec![
        fake_api::error(500, "model exploded"),
        fake_api::responses_stream_text("recovered"),
    ])
    .await;
    let (outcome, events) = run(
        "let x = session \"Flaky\"\n  retry: 1\n",
        codex(&exe, &srv, &s),
        s.root(),
    )
    .await;
    assert_eq!(
        outcome.status,
        RunStatus::Succeeded,
        "{:?} {:?}",
        outcome.error,
        failures(&events)
    );
    assert_eq!(binding(&outcome, "x"), "recovered");
    let f = failures(&events);
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(f[0].contains("reported an error"), "{f:?}");
}

#[tokio::test]
async fn codex_persistent_agents_resume_the_thread() {
    let Some(exe) = installed("codex") else {
        return;
    };
    let s = Scratch::new();
    let srv = codex_server(vec![
        fake_api::responses_stream_text("Plan: sail north."),
        fake_api::responses_stream_text("Progress: halfway."),
    ])
    .await;
    let (outcome, events) = run(CAPTAIN, codex(&exe, &srv, &s), s.root()).await;
    assert_eq!(
        outcome.status,
        RunStatus::Succeeded,
        "{:?} {:?}",
        outcome.error,
        failures(&events)
    );
    let main: Vec<Recorded> = srv.requests().into_iter().filter(codex_main).collect();
    let second = codex_transcript(&main[1]);
    let plan = second.find("Plan the voyage").expect(&second);
    let answer = second.find("assistant: Plan: sail north.").expect(&second);
    let report = second.find("Report progress").expect(&second);
    assert!(plan < answer && answer < report, "{second}");
    let handle_file = s.root().join(".prose/agents/captain/session-handle");
    let handle = std::fs::read_to_string(&handle_file).unwrap();
    assert!(handle.starts_with("codex:"), "{handle}");

    // A thread Codex does not have: a new one starts.
    std::fs::write(&handle_file, "codex:01a21337-0000-7000-8000-000000000000").unwrap();
    let (outcome, events) = run(
        "agent captain:\n  persist: project\n\nresume: captain\n  prompt: \"Where are we?\"\n",
        codex(&exe, &srv, &s),
        s.root(),
    )
    .await;
    assert_eq!(
        outcome.status,
        RunStatus::Succeeded,
        "{:?} {:?}",
        outcome.error,
        failures(&events)
    );
    let now = std::fs::read_to_string(&handle_file).unwrap();
    assert!(
        now.starts_with("codex:") && !now.contains("01a21337-0000"),
        "{now}"
    );
    assert_no_key(s.root());
}

// ---- cancel ----------------------------------------------------------------

/// The processes whose environment holds `marker`.
#[cfg(target_os = "linux")]
fn processes_with(marker: &str) -> Vec<String> {
    let needle = format!("PROSE_CLI_TEST_MARKER={marker}");
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let pid = e.file_name().into_string().ok()?;
            pid.parse::<u32>().ok()?;
            let env = std::fs::read(e.path().join("environ")).ok()?;
            env.split(|b| *b == 0)
                .any(|v| v == needle.as_bytes())
                .then_some(pid)
        })
        .collect()
}

/// Starts `src`, waits until the CLI has asked the server (which never
/// answers), cancels, and checks that the run ends cancelled with no CLI
/// process left.
#[cfg(target_os = "linux")]
async fn cancel_leaves_no_process(
    backend: Arc<dyn Backend>,
    srv: &FakeServer,
    s: &Scratch,
    is_main: fn(&Recorded) -> bool,
) {
    let mut o = common::options("session \"Think forever\"\n", s.root(), backend);
    o.config.timeout = Sourced::new(Duration::from_secs(300), Origin::Default);
    let events: Arc<Mutex<Vec<Event>>> = Arc::default();
    let sink = events.clone();
    let handle = start(
        prepare(o).unwrap(),
        Arc::new(move |e: &Event| sink.lock().unwrap().push(e.clone())),
        None,
    );
    let waited = Instant::now();
    while !srv.requests().iter().any(is_main) {
        assert!(
            waited.elapsed() < Duration::from_secs(120),
            "the CLI never asked the server"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        !processes_with(&s.marker).is_empty(),
        "the CLI is not running"
    );
    handle.cancel("test");
    let outcome = handle.wait().await;
    assert_eq!(outcome.status, RunStatus::Cancelled);
    let waited = Instant::now();
    loop {
        let left = processes_with(&s.marker);
        if left.is_empty() {
            break;
        }
        assert!(
            waited.elapsed() < Duration::from_secs(30),
            "left running: {left:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn cancelling_a_run_kills_the_claude_cli() {
    let Some(exe) = installed("claude") else {
        return;
    };
    let s = Scratch::new();
    let srv = claude_server(vec![Reply::Hang]).await;
    cancel_leaves_no_process(claude(&exe, &srv, &s, Some(KEY)), &srv, &s, claude_main).await;
}

#[cfg(target_os = "linux")]
#[tokio::test]
async fn cancelling_a_run_kills_the_codex_cli() {
    let Some(exe) = installed("codex") else {
        return;
    };
    let s = Scratch::new();
    let srv = codex_server(vec![Reply::Hang]).await;
    cancel_leaves_no_process(codex(&exe, &srv, &s), &srv, &s, codex_main).await;
}
