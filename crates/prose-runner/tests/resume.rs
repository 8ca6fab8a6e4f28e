//! Cancel and resume: a cancelled run leaves resumable state; a resume
//! answers every finished request from the journal (same session ids, no
//! backend call), keeps every binding, continues the event numbering, and
//! runs the rest. (Killing the process with SIGKILL is tested end to end
//! in the workspace's tests/run.rs.)

mod common;

use std::sync::{Arc, Mutex};

use common::mock;
use prose_runner::{
    events::{Event, EventKind, RunStatus},
    run::{prepare, start},
};

const PROGRAM: &str = r#"let a = session "A"
parallel:
  b = session "B"
  c = session "Slow C"
loop until **done** (max: 3):
  session "Iterate"
let d = session "D {a} {b}"
"#;

const SCRIPT: &str = "[[rule]]\nprompt = \"Slow\"\ndelay = \"3s\"\n[[rule]]\nkind = \"condition\"\nanswers = [\"no\", \"yes\"]\n";

#[tokio::test]
async fn a_cancelled_run_resumes_without_repeating_finished_sessions() {
    let root = tempfile::tempdir().unwrap();
    let first = mock(SCRIPT);
    let o = common::options(PROGRAM, root.path(), Arc::new(first.clone()));
    let prepared = prepare(o).unwrap();
    let events: Arc<Mutex<Vec<Event>>> = Arc::default();
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Event>();
    let sink_events = events.clone();
    let handle = start(
        prepared,
        Arc::new(move |e: &Event| {
            sink_events.lock().unwrap().push(e.clone());
            let _ = tx.send(e.clone());
        }),
        None,
    );
    // Cancel once B has finished and C is running.
    let (mut b_done, mut c_started) = (false, false);
    while let Some(e) = rx.recv().await {
        b_done |= matches!(&e.kind, EventKind::SessionFinished { binding, .. } if binding == "b");
        c_started |= matches!(&e.kind, EventKind::SessionStarted { binding, .. } if binding == "c");
        if b_done && c_started {
            handle.cancel("Ctrl-C");
            break;
        }
    }
    let outcome = handle.wait().await;
    assert_eq!(outcome.status, RunStatus::Cancelled);
    assert_eq!(outcome.error.as_deref(), Some("Ctrl-C"));
    let first_events = events.lock().unwrap().clone();
    let tail: Vec<&str> = first_events
        .iter()
        .rev()
        .take(2)
        .map(|e| e.kind.type_name())
        .collect();
    assert_eq!(tail, ["run_finished", "cancelled"]);
    // C was stopped and said so.
    assert!(first_events.iter().any(|e| e.session_id.as_deref() == Some("s3@4")
        && matches!(&e.kind, EventKind::SessionFailed { error, .. } if error == "cancelled")), "{first_events:#?}");
    let last_seq = first_events.last().unwrap().seq;
    let meta = std::fs::read_to_string(outcome.run_dir.join("run.json")).unwrap();
    assert!(meta.contains("\"status\": \"cancelled\""), "{meta}");

    // Resume with a fresh backend: only the unfinished work is asked.
    let second = mock(SCRIPT);
    let mut o = common::options("", root.path(), Arc::new(second.clone()));
    o.resume = Some(outcome.run_id.clone());
    let (resumed, events) = common::run_options(o).await.unwrap();
    assert_eq!(resumed.status, RunStatus::Succeeded, "{:?}", resumed.error);
    assert_eq!(resumed.run_id, outcome.run_id);
    assert_eq!(
        common::call_lines(&second.calls()),
        [
            "session c: Slow C",
            "condition Decide whether this condition holds, given the context below:",
            "session anon_006: Iterate",
            "condition Decide whether this condition holds, given the context below:",
            "session d: D A B",
        ]
    );
    let reused: Vec<String> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::SessionReused { binding, .. } => {
                Some(format!("{} {binding}", e.session_id.clone().unwrap()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(reused, ["s1@1 a", "s2@3 b"]);
    // The interrupted C runs again under a new id; numbering goes on.
    let started: Vec<String> = events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::SessionStarted { .. }))
        .map(|e| e.session_id.clone().unwrap())
        .collect();
    assert_eq!(started, ["s4@4", "s5@5", "s6@6", "s7@5", "s8@7"]);
    assert!(matches!(
        events[0].kind,
        EventKind::RunStarted { resumed: true, .. }
    ));
    assert_eq!(events[0].seq, last_seq + 1);
    for name in ["a", "b", "c", "d"] {
        assert!(
            resumed
                .run_dir
                .join(format!("bindings/{name}.md"))
                .is_file(),
            "{name}"
        );
    }
    let meta = std::fs::read_to_string(resumed.run_dir.join("run.json")).unwrap();
    assert!(
        meta.contains("\"status\": \"succeeded\"") && meta.contains("\"resumes\": 1"),
        "{meta}"
    );

    // Resuming a finished run replays it entirely from the journal.
    let third = mock(SCRIPT);
    let mut o = common::options("", root.path(), Arc::new(third.clone()));
    o.resume = Some(outcome.run_id.clone());
    let (again, _) = common::run_options(o).await.unwrap();
    assert_eq!(again.status, RunStatus::Succeeded);
    assert!(
        third.calls().is_empty(),
        "{:?}",
        common::call_lines(&third.calls())
    );
}

#[tokio::test]
async fn resuming_an_unknown_run_is_a_usage_error() {
    let root = tempfile::tempdir().unwrap();
    let mut o = common::options("", root.path(), Arc::new(mock("")));
    o.resume = Some("20260101-000000-nope00".into());
    let e = common::run_options(o).await.unwrap_err();
    assert_eq!(e.exit_code(), 2);
    assert!(
        e.to_string()
            .starts_with("cannot resume: no run `20260101-000000-nope00` in "),
        "{e}"
    );
    let mut o = common::options("", root.path(), Arc::new(mock("")));
    o.resume = Some("../../etc".into());
    assert_eq!(common::run_options(o).await.unwrap_err().exit_code(), 2);
}

#[tokio::test]
async fn state_files_show_the_run() {
    let ran = common::run(
        PROGRAM,
        "[[rule]]\nkind = \"condition\"\nanswer = \"yes\"\n",
    )
    .await;
    let dir = &ran.outcome.run_dir;
    assert_eq!(
        common::files(dir),
        [
            "bindings",
            "events.jsonl",
            "journal",
            "program.prose",
            "run.json",
            "state.md"
        ]
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("program.prose")).unwrap(),
        PROGRAM
    );
    let state = std::fs::read_to_string(dir.join("state.md")).unwrap();
    assert!(state.contains("status: succeeded"), "{state}");
    assert!(
        state.contains("let a = session \"A\"            # --> bindings/a.md\n"),
        "{state}"
    );
    assert!(
        state.contains("| d | let | bindings/d.md | (root) |"),
        "{state}"
    );
    let log = std::fs::read_to_string(dir.join("events.jsonl")).unwrap();
    assert_eq!(log.lines().count(), ran.events.len());
    // a, b, c, the condition (yes: no iteration), d.
    assert_eq!(common::files(&dir.join("journal")).len(), 5);
}
