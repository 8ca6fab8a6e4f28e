//! Running a program on a real backend in the backends' tests, and reading
//! what the run left: bindings, failed sessions, files holding a secret.
//! The test file declares `mod common;` too.

#![allow(dead_code)]

use std::{path::Path, sync::Arc};

use prose_runner::{
    backend::Backend,
    config::RunnerConfig,
    events::{Event, EventKind},
    run::RunOutcome,
};

use super::common;

/// Runs `src` in the workspace `root` with `backend` to the end.
pub async fn run_in(
    src: &str,
    backend: Arc<dyn Backend>,
    config: RunnerConfig,
    root: &Path,
) -> (RunOutcome, Vec<Event>) {
    let mut o = common::options(src, root, backend);
    o.config = config;
    common::run_options(o)
        .await
        .unwrap_or_else(|e| panic!("{e}"))
}

/// The value of a binding of the run.
pub fn binding(outcome: &RunOutcome, name: &str) -> String {
    let p = outcome.run_dir.join("bindings").join(format!("{name}.md"));
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    common::value_of(&text)
}

/// Every failed session: (error, attempt, will_retry).
pub fn failures(events: &[Event]) -> Vec<(String, u32, bool)> {
    events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::SessionFailed {
                error,
                attempt,
                will_retry,
                ..
            } => Some((error.clone(), *attempt, *will_retry)),
            _ => None,
        })
        .collect()
}

/// The errors of the failed sessions.
pub fn errors(events: &[Event]) -> Vec<String> {
    failures(events).into_iter().map(|f| f.0).collect()
}

/// Files under `dir` that contain `needle`.
pub fn files_containing(dir: &Path, needle: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if std::fs::read_to_string(&p)
                .unwrap_or_default()
                .contains(needle)
            {
                found.push(p.display().to_string());
            }
        }
    }
    found
}
