//! `prose jobs run` with the real `claude` and `codex` CLIs, offline: the
//! built binary runs a task, the CLI reaches the job tools through the
//! runner's MCP server (`prose jobs mcp`, started by the CLI itself), and
//! a fake model server on 127.0.0.1 plays the model, asking for the tools.
//! What is asserted: the CLI offers the tools to the model, the model's
//! calls reach the runner and set the runtime variables (the next prompt
//! is expanded with them), the driving and the task sessions get their
//! models, a single-model task resumes the CLI's own conversation round
//! after round, and the run succeeds with the variables as its outputs.
//!
//! The pinned CLIs are installed by `.ci/run` (see
//! ../shared/docs/agent-backends.md); a test whose CLI is not on PATH says
//! so and passes, except under `CI=true`, where it fails.

#![cfg(unix)]

mod common;
#[path = "../crates/prose-runner/tests/fake_api/mod.rs"]
mod fake_api;

use common::Sandbox;
use fake_api::{FakeServer, Reply, cli::Cli};
use serde_json::{Value, json};

const KEY: &str = "sk-test-JOBS-CLI-7c1f";
// Not `PROSE_*`: the runner keeps those from the CLIs.
const CODEX_KEY_VAR: &str = "JOBS_TEST_CODEX_KEY";

const ENTRY: &str = r#"{
  "models": {"driving": "drive-model", "planning": "plan-model", "coding": "code-model", "reviewers": []},
  "promptVariables": {"ask": ["Answer with job_boolean_true or job_boolean_false."]},
  "grid": [],
  "tasks": {
    "write": {
      "model": "planning",
      "prompt": ["Write notes.md, then report it with job_prepare_document."],
      "requireUserInput": false,
      "criteria": {
        "toolExecuted": ["job_prepare_document"],
        "runConditionInSameSession": false,
        "condition": ["$ask", "Is $reported-document written?"],
        "failureAction": ["RetryWithNewSession", 0]
      }
    },
    "same": {
      "model": "planning",
      "prompt": ["Write the plan."],
      "requireUserInput": false,
      "criteria": {
        "runConditionInSameSession": true,
        "condition": ["$ask", "Is the plan done?"],
        "failureAction": ["RetryWithUserPrompt", 1, ["Go on: $reported-false-reason"]]
      }
    }
  }
}"#;

impl Cli {
    /// The model calls the job tool `name` with `argument`, as the CLI
    /// offers it: `mcp__prose__NAME` to Claude, the namespace
    /// `mcp__prose` to Codex.
    fn call(self, name: &str, argument: &str) -> Reply {
        let args = json!({ "argument": argument });
        match self {
            Cli::Claude => {
                fake_api::anthropic_stream_tool_use("toolu_1", &format!("mcp__prose__{name}"), args)
            }
            Cli::Codex => fake_api::responses_stream_mcp_call("call_1", "mcp__prose", name, args),
        }
    }

    /// The environment and flags that point the CLI at `srv`.
    fn setup(self, sb: &Sandbox, srv: &FakeServer) -> (Vec<(String, String)>, Vec<String>) {
        let home = sb.path().join("home");
        std::fs::create_dir_all(&home).unwrap();
        let mut env = vec![("HOME".to_string(), home.display().to_string())];
        let mut flags = vec!["--backend".to_string(), self.name().to_string()];
        match self {
            Cli::Claude => {
                for (k, v) in [
                    ("ANTHROPIC_BASE_URL", srv.url.as_str()),
                    ("ANTHROPIC_API_KEY", KEY),
                    ("ANTHROPIC_AUTH_TOKEN", ""),
                    ("CLAUDE_CODE_MAX_RETRIES", "0"),
                    ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1"),
                    ("DISABLE_AUTOUPDATER", "1"),
                ] {
                    env.push((k.into(), v.into()));
                }
                flags.extend(["--env".into(), "DISABLE_AUTOUPDATER".into()]);
            }
            Cli::Codex => {
                let codex_home = home.join("codex");
                std::fs::create_dir_all(&codex_home).unwrap();
                std::fs::write(
                    codex_home.join("config.toml"),
                    format!(
                        "model_provider = \"fake\"\n\n[model_providers.fake]\nname = \"fake\"\nbase_url = \"{}/v1\"\nwire_api = \"responses\"\nenv_key = \"{CODEX_KEY_VAR}\"\nrequest_max_retries = 0\nstream_max_retries = 0\n",
                        srv.url
                    ),
                )
                .unwrap();
                env.push(("CODEX_HOME".into(), codex_home.display().to_string()));
                env.push((CODEX_KEY_VAR.into(), KEY.into()));
                flags.extend(["--env".into(), CODEX_KEY_VAR.into()]);
            }
        }
        (env, flags)
    }
}

/// Runs `prose jobs run work.jobs.json TASK` with `cli` against `srv`;
/// returns the run and its events.
fn run_task(cli: Cli, sb: &Sandbox, srv: &FakeServer, task: &str) -> (common::Run, Vec<Value>) {
    sb.write("work.jobs.json", ENTRY);
    let (env, flags) = cli.setup(sb, srv);
    let mut args: Vec<&str> = vec![
        "jobs",
        "run",
        "work.jobs.json",
        task,
        "--timeout",
        "2m",
        "--events-file",
        "events.jsonl",
    ];
    args.extend(flags.iter().map(String::as_str));
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let run = sb.prose_with_env(&args, &env);
    let events = std::fs::read_to_string(sb.path().join("events.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (run, events)
}

/// `name(argument) by role` of each `tool_called` event.
fn tool_calls(events: &[Value]) -> Vec<String> {
    events
        .iter()
        .filter(|e| e["type"] == "tool_called")
        .map(|e| {
            format!(
                "{}({}) by {}",
                e["name"].as_str().unwrap(),
                e["argument"].as_str().unwrap(),
                e["role"].as_str().unwrap()
            )
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_clis_call_the_job_tools_through_the_mcp_server() {
    for cli in [Cli::Claude, Cli::Codex] {
        if cli.installed().is_none() {
            continue;
        }
        let sb = Sandbox::new(&format!("jobs-{}-tools", cli.name()));
        let srv = cli
            .server(vec![
                // The task session reports its document...
                cli.call("job_prepare_document", "notes.md\nsecond line"),
                cli.text("Wrote notes.md."),
                // ... the driving session decides the condition.
                cli.call("job_boolean_true", "notes.md has three lines"),
                cli.text("It is written."),
            ])
            .await;
        let (run, events) = run_task(cli, &sb, &srv, "write");
        assert_eq!(run.code, 0, "{cli:?}: {}\n{}", run.stderr, run.stdout);
        assert_eq!(
            tool_calls(&events),
            [
                "job_prepare_document(notes.md\nsecond line) by task",
                "job_boolean_true(notes.md has three lines) by driving",
            ],
            "{cli:?}"
        );
        assert!(
            run.stdout.contains("reported-document:\nnotes.md\n"),
            "{cli:?}: {}",
            run.stdout
        );
        let main = cli.main_requests(&srv);
        assert_eq!(main.len(), 4, "{cli:?}: {main:#?}");
        // The tools reached the model, under the CLI's own names.
        let offered = match cli {
            Cli::Claude => "mcp__prose__job_boolean_true",
            Cli::Codex => "mcp__prose",
        };
        assert!(
            main[0].raw.contains(offered),
            "{cli:?}: the tools were not offered"
        );
        // The condition was expanded with the variable the task set, and
        // asked of the driving model.
        assert!(
            main[2].raw.contains("Is notes.md written?"),
            "{cli:?}: {}",
            main[2].raw
        );
        assert_eq!(main[0].body["model"], "plan-model", "{cli:?}");
        assert_eq!(main[2].body["model"], "drive-model", "{cli:?}");
        // The calls are kept with the run; no key is.
        let runs = sb.path().join(".prose/runs");
        let run_dir = std::fs::read_dir(&runs)
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path();
        let calls = std::fs::read_to_string(run_dir.join("tools/s1.jsonl")).unwrap();
        assert!(calls.contains("\"job_prepare_document\""), "{calls}");
        assert!(!run.stdout.contains(KEY) && !run.stderr.contains(KEY));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_single_model_task_resumes_the_clis_conversation_for_its_retry() {
    for cli in [Cli::Claude, Cli::Codex] {
        if cli.installed().is_none() {
            continue;
        }
        let sb = Sandbox::new(&format!("jobs-{}-same", cli.name()));
        let srv = cli
            .server(vec![
                cli.text("Plan started."),
                cli.call("job_boolean_false", "no steps yet"),
                cli.text("Not done."),
                cli.text("Plan finished."),
                cli.call("job_boolean_true", "three steps"),
                cli.text("Done."),
            ])
            .await;
        let (run, events) = run_task(cli, &sb, &srv, "same");
        assert_eq!(run.code, 0, "{cli:?}: {}\n{}", run.stderr, run.stdout);
        let retries: Vec<&Value> = events.iter().filter(|e| e["type"] == "retry").collect();
        assert_eq!(retries.len(), 1, "{cli:?}");
        let main = cli.main_requests(&srv);
        assert_eq!(main.len(), 6, "{cli:?}: {main:#?}");
        // The retry's request holds the whole conversation: the task's
        // prompt and its answer, the condition, then the retry prompt with
        // the reason the driving round gave.
        let retry = &main[3].raw;
        let order = [
            "Write the plan.",
            "Plan started.",
            "Is the plan done?",
            "Go on: no steps yet",
        ];
        let at: Vec<Option<usize>> = order.iter().map(|t| retry.find(t)).collect();
        assert!(
            at.iter().all(Option::is_some) && at.windows(2).all(|w| w[0] < w[1]),
            "{cli:?}: {at:?} in {retry}"
        );
    }
}
