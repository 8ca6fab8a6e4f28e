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
//! `.prose/`.
//!
//! A test whose CLI is not on PATH says so and passes, except under
//! `CI=true`, where it fails.

#![cfg(unix)]

mod backend_run;
mod common;
mod fake_api;

use std::{
    path::Path,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use backend_run::{binding, errors, files_containing};
use fake_api::{
    FakeServer, Recorded, Reply,
    cli::{Cli, installed},
};
use prose_runner::{
    backend::{
        Backend, BackendKind,
        claude::{self, ClaudeBackend},
        cli::CliSettings,
        codex::{self, CodexBackend},
    },
    config::{Origin, RunnerConfig, Sourced},
    events::{Event, RunStatus},
    run::{RunOutcome, prepare, start},
};
use serde_json::{Value, json};

const KEY: &str = "sk-test-CLI-SECRET-51d2e8";

/// The variable of the fake Codex provider's key.
const CODEX_KEY_VAR: &str = "PROSE_TEST_CODEX_KEY";

/// Asserts that a run succeeded, with its error and failures otherwise.
fn assert_succeeded(cli: Cli, outcome: &RunOutcome, events: &[Event]) {
    assert_eq!(
        outcome.status,
        RunStatus::Succeeded,
        "{cli:?}: {:?} {:?}",
        outcome.error,
        errors(events)
    );
}

/// A scratch workspace and a home for the CLI.
struct Scratch {
    root: tempfile::TempDir,
    home: tempfile::TempDir,
    /// A value in the CLI's environment and in no other process's.
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

    /// Runs `src` with `backend` to the end.
    async fn run(&self, src: &str, backend: Arc<dyn Backend>) -> (RunOutcome, Vec<Event>) {
        backend_run::run_in(src, backend, config(), self.root()).await
    }

    /// No file under the workspace's `.prose/` holds the key.
    fn assert_no_key(&self) {
        assert_eq!(
            files_containing(&self.root().join(".prose"), KEY),
            Vec::<String>::new()
        );
    }
}

fn config() -> RunnerConfig {
    RunnerConfig {
        timeout: Sourced::new(Duration::from_secs(120), Origin::Default),
        ..RunnerConfig::default()
    }
}

impl Cli {
    /// The model asks to run `touch PATH`.
    fn touch(self, path: &Path) -> Reply {
        let cmd = format!("touch {}", path.display());
        match self {
            Cli::Claude => fake_api::anthropic_stream_tool_use(
                "toolu_1",
                "Bash",
                json!({"command": cmd, "description": "touch a file"}),
            ),
            Cli::Codex => {
                fake_api::responses_stream_call("call_1", "exec_command", json!({"cmd": cmd}))
            }
        }
    }

    /// The backend, with the CLI pointed at `srv` (with the key, or none).
    fn backend(self, srv: &FakeServer, s: &Scratch, key: Option<&str>) -> Arc<dyn Backend> {
        let home = s.home.path();
        let mut vars = vec![
            ("HOME", home.display().to_string()),
            ("PROSE_CLI_TEST_MARKER", s.marker.clone()),
        ];
        let exe = self.installed().unwrap().display().to_string();
        match self {
            Cli::Claude => {
                vars.extend([
                    ("ANTHROPIC_BASE_URL", srv.url.clone()),
                    ("ANTHROPIC_API_KEY", key.unwrap_or_default().to_string()),
                    ("ANTHROPIC_AUTH_TOKEN", String::new()),
                    ("CLAUDE_CODE_MAX_RETRIES", "0".into()),
                    ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1".into()),
                    ("DISABLE_AUTOUPDATER", "1".into()),
                ]);
                let vars = vars.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
                let mut cli = CliSettings::from_config(
                    &RunnerConfig::default(),
                    BackendKind::Claude,
                    claude::ENV_PREFIXES,
                );
                cli.executable = exe;
                Arc::new(ClaudeBackend::new(cli).with_env(vars))
            }
            Cli::Codex => {
                // A provider of its own, answering at once when it fails.
                let codex_home = home.join("codex");
                std::fs::create_dir_all(&codex_home).unwrap();
                std::fs::write(
                    codex_home.join("config.toml"),
                    format!(
                        "model_provider = \"fake\"\nmodel = \"gpt-test\"\n\n[model_providers.fake]\nname = \"fake\"\nbase_url = \"{}/v1\"\nwire_api = \"responses\"\nenv_key = \"{CODEX_KEY_VAR}\"\nrequest_max_retries = 0\nstream_max_retries = 0\n",
                        srv.url
                    ),
                )
                .unwrap();
                vars.extend([
                    ("CODEX_HOME", codex_home.display().to_string()),
                    (CODEX_KEY_VAR, key.unwrap_or_default().to_string()),
                ]);
                let vars = vars.into_iter().map(|(k, v)| (k.to_string(), v)).collect();
                let mut cli = CliSettings::from_config(
                    &RunnerConfig::default(),
                    BackendKind::Codex,
                    codex::ENV_PREFIXES,
                );
                cli.executable = exe;
                Arc::new(CodexBackend::new(cli).with_env(vars))
            }
        }
    }

    /// The key as the server received it.
    fn key_sent(self, r: &Recorded) -> Option<String> {
        match self {
            Cli::Claude => r.header("x-api-key").map(str::to_string),
            Cli::Codex => r
                .header("authorization")
                .and_then(|a| a.strip_prefix("Bearer "))
                .map(str::to_string),
        }
    }

    /// The conversation of a request, `role: text` a line (tool results as
    /// `tool_result: ...`), without the CLI's own instructions.
    fn transcript(self, r: &Recorded) -> String {
        let (list, content) = match self {
            Cli::Claude => ("messages", "content"),
            Cli::Codex => ("input", "content"),
        };
        let mut out = String::new();
        for m in r.body[list].as_array().into_iter().flatten() {
            let role = m["role"].as_str().or(m["type"].as_str()).unwrap_or("?");
            if role == "developer" {
                continue;
            }
            match &m[content] {
                Value::String(s) => out.push_str(&format!("{role}: {s}\n")),
                Value::Array(blocks) => {
                    for b in blocks {
                        if let Some(t) = b["text"].as_str() {
                            out.push_str(&format!("{role}: {t}\n"));
                        } else if b["type"] == "tool_result" {
                            out.push_str(&format!("tool_result: {}\n", b["content"]));
                        }
                    }
                }
                _ => {
                    if let Some(o) = m["output"].as_str() {
                        out.push_str(&format!("tool_result: {o}\n"));
                    }
                }
            }
        }
        out
    }
}

const SCOUT: &str = r#"agent scout:
  model: haiku
  prompt: "You scout ahead."
  permissions:
    network: deny

let notes = session "Collect notes about tides"
let report = session: scout
  prompt: "Report on the notes"
  context: notes
"#;

#[tokio::test]
async fn the_real_clis_answer_with_the_prompt_and_context_the_runner_gave() {
    for cli in installed() {
        let s = Scratch::new();
        let srv = cli
            .server(vec![
                cli.text("Notes: the moon pulls."),
                cli.text("Report: tides follow the moon."),
            ])
            .await;
        let (outcome, events) = s.run(SCOUT, cli.backend(&srv, &s, Some(KEY))).await;
        assert_succeeded(cli, &outcome, &events);
        assert_eq!(binding(&outcome, "notes"), "Notes: the moon pulls.");
        assert_eq!(
            binding(&outcome, "report"),
            "Report: tides follow the moon."
        );

        let main = cli.main_requests(&srv);
        assert_eq!(main.len(), 2, "{cli:?}: {main:#?}");
        for r in &main {
            assert_eq!(cli.key_sent(r).as_deref(), Some(KEY), "{cli:?}");
        }
        assert!(
            cli.transcript(&main[0])
                .contains("user: Collect notes about tides")
        );
        let second = cli.transcript(&main[1]);
        assert!(
            second.contains("Report on the notes\n\n## System\n\nYou scout ahead.\n\n## Context: notes\n\nNotes: the moon pulls."),
            "{cli:?}: {second}"
        );
        let model = main[1].body["model"].as_str().unwrap().to_string();
        match cli {
            // `haiku` reached the CLI, which chose its haiku model.
            Cli::Claude => assert!(model.contains("haiku"), "{model}"),
            // `haiku` means nothing to Codex: its configured model answers.
            Cli::Codex => assert_eq!(model, "gpt-test"),
        }
        // `network: deny`: no web tools in that session only.
        let web = |r: &Recorded| {
            r.tool_names()
                .iter()
                .any(|t| t.starts_with("Web") || t == "web_search" || t == "Bash")
                || r.raw.contains("\"type\":\"web_search\"")
        };
        assert!(web(&main[0]), "{cli:?}: {:?}", main[0].tool_names());
        assert!(!web(&main[1]), "{cli:?}: {:?}", main[1].tool_names());
        s.assert_no_key();
    }
}

#[tokio::test]
async fn the_clis_enforce_what_the_rules_forbid_and_do_what_they_allow() {
    for cli in installed() {
        let s = Scratch::new();
        let denied = s.root().join("denied-marker");
        let allowed = s.root().join("allowed-marker");
        let srv = cli
            .server(vec![
                cli.touch(&denied),
                cli.text("tried"),
                cli.touch(&allowed),
                cli.text("done"),
            ])
            .await;
        // The rule each CLI enforces: Claude's tool rules take the shell
        // away; Codex's sandbox makes the workspace read-only.
        let rule = match cli {
            Cli::Claude => "bash",
            Cli::Codex => "write",
        };
        let src = format!(
            "agent careful:\n  permissions:\n    {rule}: deny\nagent trusted:\n  permissions:\n    {rule}: allow\n\nsession: careful\n  prompt: \"Touch the first file\"\nsession: trusted\n  prompt: \"Touch the second file\"\n"
        );
        let (outcome, events) = s.run(&src, cli.backend(&srv, &s, Some(KEY))).await;
        assert_succeeded(cli, &outcome, &events);
        assert!(
            !denied.exists(),
            "{cli:?} ran a command that `{rule}: deny` forbids"
        );
        assert!(
            allowed.exists(),
            "{cli:?}: `{rule}: allow` did not let the command run"
        );
        let refused = cli.transcript(&cli.main_requests(&srv)[1]);
        let why = match cli {
            Cli::Claude => "No such tool available: Bash",
            Cli::Codex => "Read-only file system",
        };
        assert!(refused.contains(why), "{cli:?}: {refused}");
    }
}

#[tokio::test]
async fn api_failures_and_missing_keys_fail_the_session_with_the_clis_message() {
    for cli in installed() {
        let s = Scratch::new();
        let srv = cli
            .server(vec![
                fake_api::error(500, "model exploded"),
                cli.text("recovered"),
            ])
            .await;
        let (outcome, events) = s
            .run(
                "let x = session \"Flaky\"\n  retry: 1\n",
                cli.backend(&srv, &s, Some(KEY)),
            )
            .await;
        assert_eq!(
            outcome.status,
            RunStatus::Succeeded,
            "{cli:?}: {:?}",
            outcome.error
        );
        assert_eq!(binding(&outcome, "x"), "recovered");
        let f = errors(&events);
        assert_eq!(f.len(), 1, "{cli:?}: {f:?}");
        assert!(f[0].contains("reported an error: "), "{f:?}");
        if cli == Cli::Claude {
            assert!(f[0].contains("API Error: 500 model exploded"), "{f:?}");
        }

        // An answer cut off in the middle of its stream.
        let s = Scratch::new();
        let srv = cli
            .server(vec![
                fake_api::cut_after(&cli.text("never whole"), 2),
                cli.text("recovered"),
            ])
            .await;
        let (outcome, events) = s
            .run(
                "let x = session \"Cut\"\n  retry: 1\n",
                cli.backend(&srv, &s, Some(KEY)),
            )
            .await;
        assert_succeeded(cli, &outcome, &events);
        assert_eq!(binding(&outcome, "x"), "recovered");
        let f = errors(&events);
        assert_eq!(f.len(), 1, "{cli:?}: {f:?}");
        assert!(f[0].contains("reported an error: "), "{cli:?}: {f:?}");
    }

    // No key, no login: the CLI's own message, and the run fails.
    let cli = Cli::Claude;
    if cli.installed().is_some() {
        let s = Scratch::new();
        let srv = cli.server(vec![cli.text("never")]).await;
        let (outcome, events) = s
            .run("session \"Hello\"\n", cli.backend(&srv, &s, None))
            .await;
        assert_eq!(outcome.status, RunStatus::Failed);
        let f = errors(&events);
        assert!(f[0].contains("Not logged in"), "{f:?}");
    }
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
async fn persistent_agents_resume_the_clis_own_conversation() {
    for cli in installed() {
        let s = Scratch::new();
        let srv = cli
            .server(vec![
                cli.text("Plan: sail north."),
                cli.text("Progress: halfway."),
                cli.text("Where we are: north."),
            ])
            .await;
        let backend = cli.backend(&srv, &s, Some(KEY));
        let (outcome, events) = s.run(CAPTAIN, backend.clone()).await;
        assert_succeeded(cli, &outcome, &events);
        let second = cli.transcript(&cli.main_requests(&srv)[1]);
        let plan = second.find("Plan the voyage").expect(&second);
        let answer = second.find("assistant: Plan: sail north.").expect(&second);
        let report = second.find("Report progress").expect(&second);
        assert!(plan < answer && answer < report, "{cli:?}: {second}");
        let handle_file = s.root().join(".prose/agents/captain/session-handle");
        let handle = std::fs::read_to_string(&handle_file).unwrap();
        assert!(handle.starts_with(&format!("{}:", cli.name())), "{handle}");

        // A conversation the CLI does not have: a new one starts.
        let lost = format!("{}:0f0e0d0c-0b0a-4909-8807-060504030201", cli.name());
        std::fs::write(&handle_file, &lost).unwrap();
        let (outcome, events) = s
            .run("agent captain:\n  persist: project\n\nresume: captain\n  prompt: \"Where are we?\"\n", backend)
            .await;
        assert_succeeded(cli, &outcome, &events);
        let now = std::fs::read_to_string(&handle_file).unwrap();
        assert!(
            now.starts_with(&format!("{}:", cli.name())) && now != lost,
            "{now}"
        );
        s.assert_no_key();
    }
}

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

/// A run whose CLI waits for a server that never answers is cancelled: it
/// ends cancelled, and no CLI process is left.
#[cfg(target_os = "linux")]
#[tokio::test]
async fn cancelling_a_run_kills_the_cli() {
    for cli in installed() {
        let s = Scratch::new();
        let srv = cli.server(vec![Reply::Hang]).await;
        let mut o = common::options(
            "session \"Think forever\"\n",
            s.root(),
            cli.backend(&srv, &s, Some(KEY)),
        );
        o.config = config();
        let events: Arc<Mutex<Vec<Event>>> = Arc::default();
        let sink = events.clone();
        let handle = start(
            prepare(o).unwrap(),
            Arc::new(move |e: &Event| sink.lock().unwrap().push(e.clone())),
            None,
        );
        let waited = Instant::now();
        while cli.main_requests(&srv).is_empty() {
            assert!(
                waited.elapsed() < Duration::from_secs(120),
                "{cli:?} never asked the server"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert!(
            !processes_with(&s.marker).is_empty(),
            "{cli:?} is not running"
        );
        handle.cancel("test");
        assert_eq!(handle.wait().await.status, RunStatus::Cancelled);
        let waited = Instant::now();
        loop {
            let left = processes_with(&s.marker);
            if left.is_empty() {
                break;
            }
            assert!(
                waited.elapsed() < Duration::from_secs(30),
                "{cli:?} left running: {left:?}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

/// Rules a CLI cannot enforce stop the run before it starts, naming the
/// agent, the rule and the backend (no CLI needs to be installed).
#[tokio::test]
async fn rules_a_cli_cannot_enforce_stop_the_run() {
    let src = r#"agent secure:
  permissions:
    read: ["*.md", "*.txt"]
    write: deny
    bash: deny
    network: allow

session: secure
  prompt: "Summarise the notes"
"#;
    for (kind, expected) in [
        (
            BackendKind::Claude,
            vec![
                "agent `secure` has `read: [\"*.md\", \"*.txt\"]`, which the `claude` backend cannot enforce",
            ],
        ),
        (
            BackendKind::Codex,
            vec![
                "agent `secure` has `read: [\"*.md\", \"*.txt\"]`, which the `codex` backend cannot enforce",
                "agent `secure` has `bash: deny`, which the `codex` backend cannot enforce",
            ],
        ),
    ] {
        let mut cli = CliSettings::from_config(&RunnerConfig::default(), kind, &[]);
        cli.executable = "/bin/sh".into();
        let backend: Arc<dyn Backend> = match kind {
            BackendKind::Claude => Arc::new(ClaudeBackend::new(cli)),
            _ => Arc::new(CodexBackend::new(cli)),
        };
        let root = tempfile::tempdir().unwrap();
        let o = common::options(src, root.path(), backend.clone());
        let Err(prose_runner::run::StartError::Usage(message)) = prepare(o) else {
            panic!("{kind:?}: the run started");
        };
        let lines: Vec<&str> = message.lines().map(str::trim).collect();
        for e in &expected {
            assert!(lines.contains(e), "{kind:?}: {message}");
        }
        assert_eq!(lines.len(), expected.len() + 2, "{message}");

        // Run anyway: the run's state records it.
        let mut o = common::options(src, root.path(), backend);
        o.allow_unenforced_permissions = true;
        let prepared = prepare(o).unwrap();
        let meta = std::fs::read_to_string(prepared.run_dir().join("run.json")).unwrap();
        assert!(
            meta.contains("\"allow_unenforced_permissions\": true"),
            "{meta}"
        );
    }
}
