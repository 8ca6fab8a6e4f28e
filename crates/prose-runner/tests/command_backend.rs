//! The `command` backend's contract (docs/runner.md), against a scripted
//! executable: the prompt on stdin, the environment, the answer on stdout,
//! failures from the exit status, and never a shell.

#![cfg(unix)]

mod common;

use std::{os::unix::fs::PermissionsExt, path::Path, sync::Arc};

use prose_runner::{
    backend::command::CommandBackend,
    events::{EventKind, RunStatus},
};

/// Writes an executable script that records each request and answers.
fn agent_script(dir: &Path) -> std::path::PathBuf {
    let script = dir.join("agent.sh");
    std::fs::create_dir_all(dir.join("calls")).unwrap();
    std::fs::write(
        &script,
        r#"#!/bin/sh
here="$(dirname "$0")"
cat > "$here/calls/$PROSE_SESSION_ID.stdin"
env | sort > "$here/calls/$PROSE_SESSION_ID.env"
printf '%s\n' "$@" > "$here/calls/$PROSE_SESSION_ID.args"
case "$PROSE_KIND" in
  condition) echo "  Yes, it holds." ;;
  choice) echo "$PROSE_CHOICES" | tail -n 1 ;;
  *) case "$PROSE_BINDING" in
       broken) echo "the model is down" >&2; exit 7 ;;
       *) printf '  answer for %s  \n\n' "$PROSE_BINDING" ;;
     esac ;;
esac
"#,
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

async fn run_command(
    src: &str,
    command_line: &str,
    root: &Path,
) -> (
    prose_runner::run::RunOutcome,
    Vec<prose_runner::events::Event>,
) {
    let backend = CommandBackend::new(command_line, vec![]).unwrap();
    let o = common::options(src, root, Arc::new(backend));
    common::run_options(o).await.unwrap()
}

#[tokio::test]
async fn prompt_on_stdin_environment_and_trimmed_answer() {
    let root = tempfile::tempdir().unwrap();
    let script = agent_script(root.path());
    let src = r#"agent writer:
  model: opus
  prompt: "You write."

let notes = session "Collect notes"
let draft = session: writer
  prompt: "Draft from notes"
  context: notes
if **the draft is good**:
  choice **which audience**:
    option "Experts":
      session "For experts"
    option "Everyone":
      session "For everyone"
"#;
    let (outcome, _) = run_command(
        src,
        &format!("{} --flag 'two words'", script.display()),
        root.path(),
    )
    .await;
    assert_eq!(outcome.status, RunStatus::Succeeded, "{:?}", outcome.error);
    let calls = root.path().join("calls");
    let mut names = common::files(&calls);
    names.retain(|n| n.ends_with(".stdin"));
    assert_eq!(
        names,
        [
            "s1@5.stdin",
            "s2@6.stdin",
            "s3@9.stdin",
            "s4@10.stdin",
            "s5@14.stdin"
        ]
    );

    assert_eq!(read(&calls.join("s1@5.stdin")), "Collect notes");
    assert_eq!(
        read(&calls.join("s2@6.stdin")),
        "Draft from notes\n\n## System\n\nYou write.\n\n## Context: notes\n\nanswer for notes"
    );
    let env = read(&calls.join("s2@6.env"));
    let prose: Vec<&str> = env.lines().filter(|l| l.starts_with("PROSE_")).collect();
    let run_id = outcome.run_id.as_str();
    assert_eq!(
        prose,
        [
            "PROSE_AGENT=writer",
            "PROSE_ATTEMPT=1",
            "PROSE_BINDING=draft",
            "PROSE_CHOICES=",
            "PROSE_CONVERSATION=",
            "PROSE_KIND=session",
            "PROSE_MODEL=opus",
            "PROSE_ROLE=",
            &format!("PROSE_RUN_ID={run_id}"),
            "PROSE_SESSION_ID=s2@6",
            "PROSE_SESSION_MODE=new",
            "PROSE_TASK=",
            "PROSE_TOOLS=",
            "PROSE_TOOLS_FILE=",
        ]
    );
    // Only the minimal environment reaches the child: not the variables of
    // this process that no list names.
    assert!(!env.contains("CARGO_MANIFEST_DIR"), "{env}");
    assert!(env.contains("PATH="), "{env}");
    let cond_env = read(&calls.join("s3@9.env"));
    assert!(
        cond_env.contains("PROSE_KIND=condition\n")
            && cond_env.contains("PROSE_AGENT=\n")
            && cond_env.contains("PROSE_BINDING=\n"),
        "{cond_env}"
    );
    let choice_env = read(&calls.join("s4@10.env"));
    // `env | sort` puts the second line of the labels elsewhere.
    assert!(
        choice_env.contains("PROSE_KIND=choice\n")
            && choice_env.contains("PROSE_CHOICES=Experts\n"),
        "{choice_env}"
    );
    // The chosen option (the last line of PROSE_CHOICES) ran.
    assert!(read(&calls.join("s5@14.stdin")).starts_with("For everyone"));
    assert_eq!(read(&calls.join("s1@5.args")), "--flag\ntwo words\n");
    // The answer is stdout, trimmed.
    let draft = read(&outcome.run_dir.join("bindings/draft.md"));
    assert_eq!(common::value_of(&draft), "answer for draft");
}

#[tokio::test]
async fn a_failing_command_is_a_failed_session_with_its_stderr() {
    let root = tempfile::tempdir().unwrap();
    let script = agent_script(root.path());
    let src = "try:\n  let broken = session \"x\"\n    retry: 1\ncatch as e:\n  session \"Recover: {e}\"\n";
    let (outcome, events) = run_command(src, &script.display().to_string(), root.path()).await;
    assert_eq!(outcome.status, RunStatus::Succeeded);
    let failures: Vec<String> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::SessionFailed {
                error,
                attempt,
                will_retry,
                ..
            } => Some(format!("{attempt} {will_retry} {error}")),
            _ => None,
        })
        .collect();
    let program = script.display().to_string();
    assert_eq!(
        failures,
        [
            format!("1 true `{program}` failed with exit status 7: the model is down"),
            format!("2 false `{program}` failed with exit status 7: the model is down"),
        ]
    );
    let recover = read(&root.path().join("calls/s2@5.stdin"));
    assert_eq!(
        recover,
        format!(
            "Recover: line 2: session s1@2 failed: `{program}` failed with exit status 7: the model is down"
        )
    );
}

#[tokio::test]
async fn nothing_goes_through_a_shell() {
    let root = tempfile::tempdir().unwrap();
    let script = agent_script(root.path());
    let marker = root.path().join("injected");
    let marker2 = root.path().join("injected-from-argv");
    let src = format!(
        "session \"$(touch {}) `touch {}`; touch {}\"\n",
        marker.display(),
        marker.display(),
        marker.display()
    );
    let command_line = format!(
        "{} '$(touch {})' ';' touch {}",
        script.display(),
        marker2.display(),
        marker2.display()
    );
    let (outcome, _) = run_command(&src, &command_line, root.path()).await;
    assert_eq!(outcome.status, RunStatus::Succeeded, "{:?}", outcome.error);
    assert!(!marker.exists(), "the prompt was run by a shell");
    assert!(!marker2.exists(), "the command line was run by a shell");
    let args = read(&root.path().join("calls/s1@1.args"));
    assert_eq!(
        args,
        format!(
            "$(touch {})\n;\ntouch\n{}\n",
            marker2.display(),
            marker2.display()
        )
    );
}

#[tokio::test]
async fn a_missing_program_refuses_the_run() {
    let root = tempfile::tempdir().unwrap();
    let backend = CommandBackend::new("/nonexistent/agent --x", vec![]).unwrap();
    let o = common::options("session \"x\"\n", root.path(), Arc::new(backend));
    let e = common::run_options(o).await.unwrap_err();
    assert_eq!(e.exit_code(), 2);
    assert_eq!(
        e.to_string(),
        "the `command` backend cannot run: the command `/nonexistent/agent` was not found (give a path, or put it on PATH)"
    );
}

#[tokio::test]
async fn an_invoked_programs_permissions_are_checked_too() {
    let root = tempfile::tempdir().unwrap();
    let script = agent_script(root.path());
    let lib = root.path().join(".prose/imports/team--locked");
    std::fs::create_dir_all(&lib).unwrap();
    std::fs::write(
        lib.join("program.prose"),
        "agent guard:\n  prompt: \"x\"\n  permissions:\n    bash: deny\n\noutput out = session: guard\n",
    )
    .unwrap();
    let src = "use \"@team/locked\" as locked\nlet r = locked()\n";
    let (outcome, _) = run_command(src, &script.display().to_string(), root.path()).await;
    assert_eq!(outcome.status, RunStatus::Failed);
    assert_eq!(
        outcome.error.as_deref(),
        Some(
            "line 2: program `@team/locked` would not be held to its permissions: agent `guard` has `bash: deny`, which the `command` backend cannot enforce; pass --allow-unenforced-permissions to run it anyway"
        )
    );
    assert!(!root.path().join("calls/s1@6.stdin").exists());
}
