//! Job tasks on the `command` backend: the program learns the task, the
//! session and the tools from its environment, and reports a tool call by
//! appending a line to `$PROSE_TOOLS_FILE` (what `prose jobs tool` does;
//! the end-to-end tests run that helper too).

#![cfg(unix)]

mod common;
mod task_run;

use std::{os::unix::fs::PermissionsExt, sync::Arc};

use prose_runner::{backend::command::CommandBackend, events::RunStatus};
use task_run::{options, run_options};

const ENTRY: &str = r#"{
  "models": {"driving": "small", "planning": "big", "coding": "c", "reviewers": []},
  "promptVariables": {},
  "grid": [],
  "tasks": {
    "plan": {
      "model": "planning",
      "prompt": ["Write the plan."],
      "requireUserInput": false,
      "criteria": {
        "toolExecuted": ["job_prepare_document"],
        "runConditionInSameSession": true,
        "condition": ["Is $reported-document done? Call job_boolean_true or job_boolean_false."],
        "failureAction": ["RetryWithNewSession", 0]
      }
    }
  }
}"#;

#[tokio::test]
async fn a_command_program_reports_tool_calls_through_its_calls_file() {
    let root = tempfile::tempdir().unwrap();
    let script = root.path().join("agent.sh");
    std::fs::write(
        &script,
        r#"#!/bin/sh
here="$(dirname "$0")"
n=$(ls "$here" | grep -c '^env-' )
env | grep '^PROSE_' | sort > "$here/env-$n"
cat > /dev/null
case "$PROSE_ROLE" in
  task)
    printf '{"name":"job_prepare_document","arguments":{"argument":"plan.md"}}\n' >> "$PROSE_TOOLS_FILE"
    echo "Wrote plan.md." ;;
  driving)
    printf '{"name":"job_boolean_true","arguments":{"argument":"it is done"}}\n' >> "$PROSE_TOOLS_FILE"
    echo "Yes." ;;
esac
"#,
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let backend = CommandBackend::new(&script.display().to_string(), vec![]).unwrap();
    let o = options(ENTRY, "plan", root.path(), Arc::new(backend));
    let (outcome, _) = run_options(o, None).await.unwrap();
    assert_eq!(outcome.status, RunStatus::Succeeded, "{:?}", outcome.error);
    let doc = outcome
        .outputs
        .iter()
        .find(|(k, _)| k == "reported-document");
    assert_eq!(doc.map(|(_, v)| v.to_text()), Some("plan.md".into()));

    let env = |n: usize| {
        std::fs::read_to_string(root.path().join(format!("env-{n}")))
            .unwrap()
            .lines()
            .filter(|l| {
                !l.starts_with("PROSE_RUN_ID=")
                    && !l.starts_with("PROSE_TOOLS_FILE=")
                    && !l.starts_with("PROSE_CONVERSATION=")
            })
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    expect_test::expect![[r#"
        [
            "PROSE_AGENT=",
            "PROSE_ATTEMPT=1",
            "PROSE_BINDING=",
            "PROSE_CHOICES=",
            "PROSE_KIND=session",
            "PROSE_MODEL=big",
            "PROSE_ROLE=task",
            "PROSE_SESSION_ID=s1@8",
            "PROSE_SESSION_MODE=new",
            "PROSE_TASK=plan",
            "PROSE_TOOLS=job_prepare_document",
        ]
    "#]]
    .assert_debug_eq(&env(0));
    let second = env(1);
    assert!(
        second.contains(&"PROSE_ROLE=driving".to_string()),
        "{second:?}"
    );
    assert!(
        second.contains(&"PROSE_SESSION_MODE=resume".to_string()),
        "single model: the condition goes on in the task's conversation"
    );
    // Both requests name the same conversation, and each its own file.
    let raw = |n: usize| std::fs::read_to_string(root.path().join(format!("env-{n}"))).unwrap();
    let conversation = |n: usize| {
        raw(n)
            .lines()
            .find(|l| l.starts_with("PROSE_CONVERSATION="))
            .unwrap()
            .to_string()
    };
    assert_eq!(conversation(0), conversation(1));
    assert!(conversation(0).ends_with(":plan#1"), "{}", conversation(0));
    assert!(raw(0).contains("/tools/s1.jsonl\n"), "{}", raw(0));
    assert!(raw(1).contains("/tools/s2.jsonl\n"), "{}", raw(1));
}
