//! Cancelling one snapshot through its `CancelToken`:
//! - every later call on it answers `Err(Cancelled)`, and a fresh snapshot
//!   of the same host still works (the token does not poison the host);
//! - a `file_diagnostics` run that is cancelled part-way through its rules
//!   stops at the next rule (counted with salsa's `WillCheckCancellation`
//!   events, one per rule).

use std::sync::{
    Arc, Mutex,
    atomic::{AtomicUsize, Ordering},
};

use prose_ide::{AnalysisHost, CancelToken, Cancelled, all_rules, db::RootDatabase};

const DUPLICATE: &str = "agent reviewer:\n  model: sonnet\n\nagent reviewer:\n  model: opus\n\nsession: reviewer\n  prompt: \"Review {missing}\"\n";

fn codes(diags: &[prose_ide::Diagnostic]) -> Vec<&str> {
    diags.iter().map(|d| d.code.as_str()).collect()
}

#[test]
fn a_cancelled_snapshot_answers_cancelled_and_a_fresh_one_works() {
    let mut host = AnalysisHost::new();
    let file = host.set_file_text("/ws/a.prose", DUPLICATE);
    let expected = codes(&host.analysis().diagnostics(file).unwrap())
        .into_iter()
        .map(String::from)
        .collect::<Vec<_>>();
    assert!(expected.iter().any(|c| c == "E006"), "{expected:?}");

    // Cancelled before any query: nothing runs.
    let analysis = host.analysis();
    let token = analysis.cancel_token();
    assert!(!token.is_cancelled());
    token.cancel();
    assert!(token.is_cancelled());
    assert_eq!(analysis.diagnostics(file), Err(Cancelled));
    assert_eq!(analysis.file_text(file), Err(Cancelled));
    // Salsa clears its own flag after one cancelled query; ours stays.
    assert_eq!(analysis.diagnostics(file), Err(Cancelled));
    assert_eq!(analysis.workspace_symbols(""), Err(Cancelled));
    drop(analysis);

    // Cancelled after a query answered: later ones are refused.
    let analysis = host.analysis();
    assert!(!analysis.cancel_token().is_cancelled(), "a new token");
    assert!(analysis.diagnostics(file).is_ok());
    let token2: CancelToken = analysis.cancel_token();
    std::thread::spawn(move || token2.cancel()).join().unwrap();
    assert_eq!(analysis.diagnostics(file), Err(Cancelled));
    // Another snapshot taken meanwhile is not affected.
    let other = host.analysis();
    assert_eq!(codes(&other.diagnostics(file).unwrap()), expected);
    drop((analysis, other));

    // The host still writes, and fresh snapshots compute.
    host.set_file_text("/ws/a.prose", format!("{DUPLICATE}# edited\n"));
    assert_eq!(codes(&host.analysis().diagnostics(file).unwrap()), expected);
    let fresh = host.analysis();
    assert_eq!(
        fresh.file_text(file).unwrap(),
        format!("{DUPLICATE}# edited\n")
    );
}

#[test]
fn cancelling_during_the_rules_stops_at_the_next_rule() {
    // Cancels the snapshot in `slot` at the `cancel_at`-th cancellation
    // check of a `file_diagnostics` run, and counts the checks after it.
    struct Probe {
        slot: Mutex<Option<CancelToken>>,
        running: Mutex<bool>,
        checks: AtomicUsize,
        cancel_at: AtomicUsize,
        after_cancel: AtomicUsize,
    }
    let probe = Arc::new(Probe {
        slot: Mutex::new(None),
        running: Mutex::new(false),
        checks: AtomicUsize::new(0),
        cancel_at: AtomicUsize::new(usize::MAX),
        after_cancel: AtomicUsize::new(0),
    });
    let p = probe.clone();
    let db = RootDatabase::with_event_callback(Box::new(move |event| match event.kind {
        salsa::EventKind::WillExecute { database_key }
            if format!("{database_key:?}").starts_with("file_diagnostics(") =>
        {
            *p.running.lock().unwrap() = true;
        }
        salsa::EventKind::WillCheckCancellation if *p.running.lock().unwrap() => {
            let n = p.checks.fetch_add(1, Ordering::SeqCst) + 1;
            if n > p.cancel_at.load(Ordering::SeqCst) {
                p.after_cancel.fetch_add(1, Ordering::SeqCst);
            } else if n == p.cancel_at.load(Ordering::SeqCst)
                && let Some(token) = p.slot.lock().unwrap().as_ref()
            {
                token.cancel();
            }
        }
        _ => {}
    }));
    let mut host = AnalysisHost::with_db(db);
    let file = host.set_file_text("/ws/a.prose", DUPLICATE);

    // An uncancelled run checks at least once per rule of the program's
    // language.
    let full = host.analysis().diagnostics(file).unwrap();
    assert!(!full.is_empty());
    let per_run = probe.checks.swap(0, Ordering::SeqCst);
    let rules = all_rules()
        .iter()
        .filter(|r| matches!(r.check, prose_ide::Check::OpenProse(_)))
        .count();
    assert!(per_run >= rules, "{per_run} checks for {rules} rules");

    // Again from scratch (an edit), cancelled half-way through the rules.
    host.set_file_text("/ws/a.prose", format!("{DUPLICATE}# edited\n"));
    *probe.running.lock().unwrap() = false;
    let analysis = host.analysis();
    *probe.slot.lock().unwrap() = Some(analysis.cancel_token());
    probe.cancel_at.store(per_run / 2, Ordering::SeqCst);
    assert_eq!(analysis.diagnostics(file), Err(Cancelled));
    assert_eq!(
        probe.checks.load(Ordering::SeqCst),
        per_run / 2,
        "the run was cancelled at that check"
    );
    assert_eq!(
        probe.after_cancel.load(Ordering::SeqCst),
        0,
        "no rule ran after the cancelling check"
    );
    drop(analysis);

    // The cancelled run left nothing behind: a new snapshot computes it all.
    probe.slot.lock().unwrap().take();
    probe.cancel_at.store(usize::MAX, Ordering::SeqCst);
    probe.checks.store(0, Ordering::SeqCst);
    assert_eq!(
        codes(&host.analysis().diagnostics(file).unwrap()),
        codes(&full)
    );
    assert!(probe.checks.load(Ordering::SeqCst) >= rules);
}

/// A fork is the same snapshot on another handle: run on another thread
/// at the same time, the two compute a file's diagnostics once between
/// them; and cancelling the snapshot's token stops the fork too, mid-run
/// or before.
#[test]
fn a_fork_shares_the_work_and_the_token_of_its_snapshot() {
    let executed = Arc::new(AtomicUsize::new(0));
    let slot: Arc<Mutex<Option<CancelToken>>> = Arc::default();
    // Cancellation checks since the token in the slot was cancelled.
    let after: Arc<Mutex<Option<usize>>> = Arc::default();
    let (e, s, a) = (executed.clone(), slot.clone(), after.clone());
    let db = RootDatabase::with_event_callback(Box::new(move |event| match event.kind {
        salsa::EventKind::WillExecute { database_key }
            if format!("{database_key:?}").starts_with("file_diagnostics(") =>
        {
            e.fetch_add(1, Ordering::SeqCst);
        }
        // The first check of a run cancels the token put in the slot.
        salsa::EventKind::WillCheckCancellation => {
            if let Some(n) = a.lock().unwrap().as_mut() {
                *n += 1;
            }
            if let Some(token) = s.lock().unwrap().take() {
                token.cancel();
                *a.lock().unwrap() = Some(0);
            }
        }
        _ => {}
    }));
    let mut host = AnalysisHost::with_db(db);
    let file = host.set_file_text("/ws/a.prose", DUPLICATE);
    let mut plain = AnalysisHost::new();
    let plain_file = plain.set_file_text("/ws/a.prose", DUPLICATE);
    let expected = codes(&plain.analysis().diagnostics(plain_file).unwrap()).join(" ");

    let analysis = host.analysis();
    let fork = analysis.fork();
    let theirs = std::thread::spawn(move || fork.diagnostics(file).map(|d| codes(&d).join(" ")));
    let ours = analysis.diagnostics(file).map(|d| codes(&d).join(" "));
    assert_eq!(ours.as_deref(), Ok(expected.as_str()));
    assert_eq!(theirs.join().unwrap().as_deref(), Ok(expected.as_str()));
    assert_eq!(executed.load(Ordering::SeqCst), 1, "computed once");
    drop(analysis);

    // Cancelled through the snapshot's token while the fork runs.
    host.set_file_text("/ws/a.prose", format!("{DUPLICATE}# edited\n"));
    let analysis = host.analysis();
    let fork = analysis.fork();
    *slot.lock().unwrap() = Some(analysis.cancel_token());
    assert_eq!(fork.diagnostics(file), Err(Cancelled));
    assert!(slot.lock().unwrap().is_none(), "cancelled during the run");
    // The fork's own handle stopped at that very check, not after the rules.
    assert_eq!(*after.lock().unwrap(), Some(0));
    // A fork made after the cancel refuses at once.
    assert_eq!(analysis.fork().diagnostics(file), Err(Cancelled));
    drop((analysis, fork));
    assert_eq!(
        codes(&host.analysis().diagnostics(file).unwrap()).join(" "),
        expected
    );
}
