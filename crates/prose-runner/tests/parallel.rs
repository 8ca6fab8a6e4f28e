//! Parallel blocks, `parallel for` and `pmap`: real concurrency, join
//! strategies, failure policies, named results, branch events.

mod common;

use std::sync::{
    Arc, Mutex,
    atomic::{AtomicUsize, Ordering},
};

use common::{mock, run, run_with};
use futures::future::BoxFuture;
use prose_runner::{
    backend::{
        Backend, BackendRequest, BackendResult, CancellationToken, PermissionRule,
        mock::MockBackend,
    },
    events::{EventKind, RunStatus},
};

/// The mock, counting how many requests are in flight at once.
#[derive(Clone)]
struct Counting {
    inner: MockBackend,
    now: Arc<AtomicUsize>,
    max: Arc<AtomicUsize>,
    finished: Arc<Mutex<Vec<String>>>,
}

impl Counting {
    fn new(inner: MockBackend) -> Self {
        Counting {
            inner,
            now: Arc::default(),
            max: Arc::default(),
            finished: Arc::default(),
        }
    }
}

impl Backend for Counting {
    fn name(&self) -> &str {
        "mock"
    }
    fn call<'a>(
        &'a self,
        r: &'a BackendRequest,
        c: &'a CancellationToken,
    ) -> BoxFuture<'a, BackendResult> {
        Box::pin(async move {
            let n = self.now.fetch_add(1, Ordering::SeqCst) + 1;
            self.max.fetch_max(n, Ordering::SeqCst);
            let out = self.inner.call(r, c).await;
            self.now.fetch_sub(1, Ordering::SeqCst);
            self.finished.lock().unwrap().push(r.parts.task.clone());
            out
        })
    }
    fn enforces(&self, _: &PermissionRule) -> bool {
        true
    }
}

async fn run_counting(src: &str, script: &str) -> (common::Ran, Counting) {
    let c = Counting::new(mock(script));
    let root = tempfile::tempdir().unwrap();
    let o = common::options(src, root.path(), Arc::new(c.clone()));
    let (outcome, events) = common::run_options(o).await.unwrap();
    let ran = common::Ran {
        outcome,
        calls: c.inner.calls(),
        events,
        clock: prose_runner::clock::FakeClock::new(),
        root,
    };
    (ran, c)
}

const SLOW: &str = "[[rule]]\nprompt = \"Slow\"\ndelay = \"600ms\"\n";

#[tokio::test]
async fn branches_run_at_the_same_time() {
    let src = "parallel:\n  a = session \"Slow A\"\n  b = session \"Slow B\"\n  c = session \"Slow C\"\n  d = session \"Slow D\"\nsession \"After\"\n";
    let (ran, c) = run_counting(src, SLOW).await;
    assert_eq!(ran.outcome.status, RunStatus::Succeeded);
    // All four were in flight together, and the next statement waited.
    assert_eq!(c.max.load(Ordering::SeqCst), 4);
    assert_eq!(c.finished.lock().unwrap().last().unwrap(), "After");
    assert_eq!(ran.binding("a"), "Slow A");
    assert_eq!(ran.binding("d"), "Slow D");
    let branches: Vec<String> = ran
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::BranchStarted { name } => {
                Some(format!("{} start {name}", e.branch.clone().unwrap()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(
        branches,
        [
            "p1.b0 start a",
            "p1.b1 start b",
            "p1.b2 start c",
            "p1.b3 start d"
        ]
    );
    // Session events carry their branch.
    let started_in: Vec<Option<String>> = ran
        .events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::SessionStarted { .. }))
        .map(|e| e.branch.clone())
        .collect();
    assert_eq!(started_in[..4].iter().flatten().count(), 4);
    assert_eq!(started_in[4], None);
}

#[tokio::test]
async fn parallel_for_and_pmap_fan_out() {
    let src = "parallel for x in [\"1\", \"2\", \"3\"]:\n  let y = session \"Slow {x}\"\nlet r = [\"a\", \"b\"] | pmap:\n  session \"Slow {item}\"\n";
    let (ran, c) = run_counting(src, SLOW).await;
    assert_eq!(
        ran.outcome.status,
        RunStatus::Succeeded,
        "{:?}",
        ran.outcome.error
    );
    assert_eq!(c.max.load(Ordering::SeqCst), 3);
    // Each iteration binds in a frame of its own: no collision.
    let mut files = ran.binding_files();
    files.retain(|f| f.starts_with("y__"));
    assert_eq!(files.len(), 3, "{files:?}");
    assert_eq!(ran.binding("r"), "[\n  \"Slow a\",\n  \"Slow b\"\n]");
}

#[tokio::test]
async fn values_of_parallel_blocks() {
    let ran = run(
        "let named = parallel:\n  a = session \"A\"\n  b = session \"B\"\nlet list = parallel:\n  session \"C\"\n  session \"D\"\n",
        "",
    )
    .await;
    assert_eq!(
        ran.binding("named"),
        "{\n  \"a\": \"A\",\n  \"b\": \"B\"\n}"
    );
    assert_eq!(ran.binding("list"), "[\n  \"C\",\n  \"D\"\n]");
}

#[tokio::test]
async fn fail_fast_stops_the_others_and_fails_the_block() {
    let src = "try:\n  parallel:\n    session \"Slow one\"\n    session \"Broken\"\ncatch as e:\n  session \"Caught {e}\"\n";
    let ran = run(
        src,
        &format!("{SLOW}[[rule]]\nprompt = \"Broken\"\nfail = \"exit 1\"\n"),
    )
    .await;
    assert_eq!(ran.outcome.status, RunStatus::Succeeded);
    assert_eq!(
        ran.call_lines()[2],
        "session anon_003: Caught line 4: session s2@4 failed: exit 1"
    );
    let statuses: Vec<String> = ran
        .events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::BranchFinished { status, .. } => {
                Some(format!("{}:{}", e.branch.clone().unwrap(), status.as_str()))
            }
            _ => None,
        })
        .collect();
    assert_eq!(statuses, ["p2.b1:failed", "p2.b0:skipped"]);
    // The stopped branch's session is reported as ended.
    assert!(ran.events.iter().any(
        |e| matches!(&e.kind, EventKind::SessionFailed { error, .. } if error == "cancelled")
    ));
}

#[tokio::test]
async fn continue_and_ignore_let_the_program_go_on() {
    let script = "[[rule]]\nprompt = \"Broken\"\nfail = \"exit 1\"\n";
    let ran = run(
        "parallel (on-fail: \"continue\"):\n  a = session \"Fine\"\n  b = session \"Broken\"\nsession \"Process {a} and {b}\"\n",
        script,
    )
    .await;
    assert_eq!(ran.outcome.status, RunStatus::Succeeded);
    assert_eq!(
        ran.call_lines()[2],
        "session anon_003: Process Fine and error: line 3: session s2@3 failed: exit 1"
    );
    let ran = run(
        "parallel (on-fail: \"ignore\"):\n  a = session \"Fine\"\n  b = session \"Broken\"\nsession \"Process {a} and [{b}]\"\n",
        script,
    )
    .await;
    assert_eq!(ran.call_lines()[2], "session anon_003: Process Fine and []");
}

#[tokio::test]
async fn first_and_any_join_strategies() {
    let ran = run(
        "let w = parallel (\"first\"):\n  session \"Slow\"\n  session \"Quick\"\n",
        SLOW,
    )
    .await;
    assert_eq!(ran.binding("w"), "Quick");

    let script = format!("{SLOW}[[rule]]\nprompt = \"Broken\"\nfail = \"exit 1\"\n");
    let ran = run(
        "let two = parallel (\"any\", count: 2, on-fail: \"ignore\"):\n  session \"Broken\"\n  session \"Quick 1\"\n  session \"Slow\"\n  session \"Quick 2\"\n",
        &script,
    )
    .await;
    assert_eq!(ran.binding("two"), "[\n  \"Quick 1\",\n  \"Quick 2\"\n]");

    // Not enough successes: the block fails (unless failures are ignored).
    let ran = run(
        "parallel (\"any\", count: 2, on-fail: \"continue\"):\n  session \"Broken\"\n  session \"Fine\"\n",
        &script,
    )
    .await;
    assert_eq!(ran.outcome.status, RunStatus::Failed);
    assert_eq!(
        ran.outcome.error.as_deref(),
        Some("line 1: the parallel block needed 2 successful branches and got 0")
    );
}

#[tokio::test]
async fn a_concurrency_limit_is_respected() {
    let c = Counting::new(mock(SLOW));
    let root = tempfile::tempdir().unwrap();
    let mut o = common::options(
        "parallel:\n  session \"Slow 1\"\n  session \"Slow 2\"\n  session \"Slow 3\"\n",
        root.path(),
        Arc::new(c.clone()),
    );
    o.config.max_parallel = Some(prose_runner::config::Sourced::new(
        2,
        prose_runner::config::Origin::CommandLine,
    ));
    let (outcome, _) = common::run_options(o).await.unwrap();
    assert_eq!(outcome.status, RunStatus::Succeeded);
    assert_eq!(c.max.load(Ordering::SeqCst), 2);
}

#[tokio::test]
async fn nested_parallel_branch_paths() {
    let ran = run_with(
        "parallel:\n  session \"Outer\"\n  parallel:\n    session \"Inner\"\n",
        mock(""),
        &[],
    )
    .await;
    let inner = ran
        .events
        .iter()
        .find(|e| matches!(&e.kind, EventKind::SessionStarted { prompt_excerpt, .. } if prompt_excerpt == "Inner"))
        .unwrap();
    assert_eq!(inner.branch.as_deref(), Some("p1.b1/p3.b0"));
}
