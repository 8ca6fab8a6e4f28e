//! Retry with backoff (on a fake clock), persistent agents' memory,
//! permissions, program invocation.

mod common;

use std::{sync::Arc, time::Duration};

use common::{mock, run};
use prose_runner::{
    backend::SessionMode,
    events::{EventKind, RunStatus},
    run::StartError,
};

const FLAKY: &str =
    "[[rule]]\nprompt = \"Flaky\"\nfail_times = 3\nfail = \"HTTP 503\"\nanswer = \"finally\"\n";

#[tokio::test]
async fn retry_with_no_linear_and_exponential_backoff() {
    for (backoff, sleeps) in [
        ("none", vec![]),
        ("linear", vec![1, 1, 1]),
        ("\"exponential\"", vec![1, 2, 4]),
    ] {
        let src = format!("let x = session \"Flaky\"\n  retry: 3\n  backoff: {backoff}\n");
        let ran = run(&src, FLAKY).await;
        assert_eq!(ran.outcome.status, RunStatus::Succeeded, "{backoff}");
        assert_eq!(ran.binding("x"), "finally");
        assert_eq!(ran.calls.len(), 4);
        assert_eq!(
            ran.calls.iter().map(|c| c.attempt).collect::<Vec<_>>(),
            [1, 2, 3, 4]
        );
        let expected: Vec<Duration> = sleeps.into_iter().map(Duration::from_secs).collect();
        assert_eq!(ran.clock.sleeps(), expected, "{backoff}");
        let failed: Vec<(u32, bool)> = ran
            .events
            .iter()
            .filter_map(|e| match &e.kind {
                EventKind::SessionFailed {
                    attempt,
                    will_retry,
                    error,
                    ..
                } => {
                    assert_eq!(error, "HTTP 503");
                    Some((*attempt, *will_retry))
                }
                _ => None,
            })
            .collect();
        assert_eq!(failed, [(1, true), (2, true), (3, true)]);
    }
}

#[tokio::test]
async fn retries_run_out_and_the_error_propagates() {
    let ran = run("session \"Flaky\" (retry: 2)\n", FLAKY).await;
    assert_eq!(ran.outcome.status, RunStatus::Failed);
    assert_eq!(ran.calls.len(), 3);
    assert_eq!(
        ran.outcome.error.as_deref(),
        Some("line 1: session s1@1 failed: HTTP 503")
    );
    assert!(ran.clock.sleeps().is_empty());
}

#[tokio::test]
async fn exponential_backoff_is_capped() {
    let ran = run(
        "session \"Flaky\"\n  retry: 9\n  backoff: exponential\n",
        "[[rule]]\nprompt = \"Flaky\"\nfail_times = 9\nanswer = \"ok\"\n",
    )
    .await;
    let secs: Vec<u64> = ran.clock.sleeps().iter().map(|d| d.as_secs()).collect();
    assert_eq!(secs, [1, 2, 4, 8, 16, 32, 60, 60, 60]);
}

#[tokio::test]
async fn persistent_agents_keep_memory_across_sessions() {
    let ran = run(
        r#"
agent captain:
  model: opus
  persist: true
  prompt: "You coordinate"

session: captain
  prompt: "Review the plan"
resume: captain
  prompt: "Review step 1"
let final = resume: captain
  prompt: "Final review"
"#,
        "[[rule]]\nagent = \"captain\"\nanswers = [\"Plan approved\", \"Step 1 fine\", \"All good\"]\n",
    )
    .await;
    assert_eq!(
        ran.outcome.status,
        RunStatus::Succeeded,
        "{:?}",
        ran.outcome.error
    );
    let c = &ran.calls;
    assert_eq!(c[0].identity.mode, SessionMode::New);
    assert_eq!(c[0].parts.memory, None);
    assert_eq!(c[1].identity.mode, SessionMode::Resume);
    let memory = c[1].parts.memory.as_deref().unwrap();
    assert!(memory.starts_with("# Agent Memory: captain\n"), "{memory}");
    assert!(memory.contains("Plan approved"), "{memory}");
    assert!(c[1].prompt.contains("## Memory\n\n# Agent Memory: captain"));
    let memory = c[2].parts.memory.as_deref().unwrap();
    assert!(
        memory.contains("Plan approved") && memory.contains("Step 1 fine"),
        "{memory}"
    );
    let dir = ran.outcome.run_dir.join("agents/captain");
    assert_eq!(
        common::files(&dir),
        [
            "captain-001.md",
            "captain-002.md",
            "captain-003.md",
            "memory.md"
        ]
    );
    let seg = std::fs::read_to_string(dir.join("captain-002.md")).unwrap();
    assert!(seg.starts_with("# Segment 002\n\ntimestamp: "), "{seg}");
    assert!(
        seg.contains("prompt: \"Review step 1\"") && seg.ends_with("Step 1 fine\n"),
        "{seg}"
    );
}

#[tokio::test]
async fn project_memory_survives_runs() {
    let root = tempfile::tempdir().unwrap();
    let src = "agent advisor:\n  persist: project\n  prompt: \"Advise\"\n\nresume: advisor\n  prompt: \"Go on\"\n";
    std::fs::create_dir_all(root.path().join(".prose/agents/advisor")).unwrap();
    std::fs::write(
        root.path().join(".prose/agents/advisor/memory.md"),
        "# Agent Memory: advisor\n\nEarlier advice.\n",
    )
    .unwrap();
    for round in 1..=2 {
        let m = mock("");
        let o = common::options(src, root.path(), Arc::new(m.clone()));
        let (outcome, _) = common::run_options(o).await.unwrap();
        assert_eq!(outcome.status, RunStatus::Succeeded, "{:?}", outcome.error);
        let memory = m.calls()[0].parts.memory.clone().unwrap();
        if round == 1 {
            assert!(memory.contains("Earlier advice."), "{memory}");
        } else {
            assert!(memory.contains("Go on"), "{memory}");
        }
    }
    assert_eq!(
        common::files(&root.path().join(".prose/agents/advisor")),
        ["advisor-001.md", "advisor-002.md", "memory.md"]
    );
}

#[tokio::test]
async fn unenforceable_permissions_refuse_the_run_unless_allowed() {
    let src = "agent locked:\n  prompt: \"x\"\n  permissions:\n    read: [\"*.md\"]\n    bash: deny\n    network: allow\n\nsession: locked\n";
    let root = tempfile::tempdir().unwrap();
    let command = prose_runner::backend::command::CommandBackend::new("true", vec![]).unwrap();
    let o = common::options(src, root.path(), Arc::new(command.clone()));
    let Err(StartError::Usage(message)) = common::run_options(o).await else {
        panic!("the run started")
    };
    assert_eq!(
        message,
        "the run would not respect the program's permissions:\n  agent `locked` has `read: [\"*.md\"]`, which the `command` backend cannot enforce\n  agent `locked` has `bash: deny`, which the `command` backend cannot enforce\nchoose a backend that enforces them, or pass --allow-unenforced-permissions to run anyway (the run's state records it)"
    );
    let mut o = common::options(src, root.path(), Arc::new(command));
    o.allow_unenforced_permissions = true;
    let (outcome, events) = common::run_options(o).await.unwrap();
    assert_eq!(outcome.status, RunStatus::Succeeded);
    let meta = std::fs::read_to_string(outcome.run_dir.join("run.json")).unwrap();
    assert!(
        meta.contains("\"allow_unenforced_permissions\": true"),
        "{meta}"
    );
    assert!(
        meta.contains("`bash: deny`, which the `command` backend cannot enforce"),
        "{meta}"
    );
    assert!(events.iter().any(
        |e| matches!(&e.kind, EventKind::Warning { message } if message.contains("running anyway"))
    ));
    // The mock runs nothing, so it enforces everything; the permissions
    // reach the backend as data.
    let ran = run(src, "").await;
    assert_eq!(ran.outcome.status, RunStatus::Succeeded);
    assert_eq!(ran.calls[0].permissions.rules.len(), 3);
}

#[tokio::test]
async fn invoking_an_imported_program() {
    let root = tempfile::tempdir().unwrap();
    let lib = root.path().join(".prose/imports/alice--research");
    std::fs::create_dir_all(&lib).unwrap();
    std::fs::write(
        lib.join("program.prose"),
        "input topic: \"What to research\"\n\nlet raw = session \"Research {topic}\"\noutput findings = session \"Synthesize\"\n  context: raw\noutput sources = \"none\"\n",
    )
    .unwrap();
    let src = "use \"@alice/research\" as research\n\nlet result = research(topic: \"qubits\")\nlet { findings, sources } = research(topic: \"ions\")\nsession \"Summary\"\n  context: result.findings\n";
    let m = mock("");
    let o = common::options(src, root.path(), Arc::new(m.clone()));
    let (outcome, _) = common::run_options(o).await.unwrap();
    assert_eq!(outcome.status, RunStatus::Succeeded, "{:?}", outcome.error);
    assert_eq!(
        common::call_lines(&m.calls()),
        [
            "session raw: Research qubits",
            "session findings: Synthesize",
            "session raw: Research ions",
            "session findings: Synthesize",
            "session anon_005: Summary",
        ]
    );
    assert_eq!(m.calls()[4].parts.context[0].name, "result.findings");
    assert_eq!(m.calls()[4].parts.context[0].text, "Synthesize");
    let imports = common::files(&outcome.run_dir.join("imports"));
    assert_eq!(imports, ["alice--research__1", "alice--research__2"]);
    let nested = outcome.run_dir.join("imports/alice--research__1");
    assert_eq!(common::files(&nested), ["bindings", "program.prose"]);
    assert_eq!(
        common::files(&nested.join("bindings")),
        ["findings.md", "raw.md", "sources.md", "topic.md"]
    );
    assert_eq!(
        common::value_of(
            &std::fs::read_to_string(outcome.run_dir.join("bindings/sources.md")).unwrap()
        ),
        "none"
    );
}

#[tokio::test]
async fn a_missing_imported_program_is_a_clear_error() {
    let ran = run("use \"@nobody/nothing\" as n\nlet r = n(x: 1)\n", "").await;
    assert_eq!(ran.outcome.status, RunStatus::Failed);
    assert!(
        ran.outcome.error.as_deref().unwrap().starts_with("line 2: program `@nobody/nothing` (`n`) was not found; the runner does not download programs"),
        "{:?}",
        ran.outcome.error
    );
}
