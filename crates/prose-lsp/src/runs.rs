//! The runs in progress: started by `prose.run` (`handlers/run.rs`),
//! stopped by `prose.cancelRun`, by `window/workDoneProgress/cancel` for
//! their progress token, and all at once when the server shuts down or its
//! input ends, so that no run outlives the server (each is left resumable).
//!
//! A run goes on on a thread of its own (the runner's); this registry only
//! holds what stops it and tells when it has ended. Its lock is held for
//! lookups only, never across an `.await`.

use std::{
    collections::HashMap,
    sync::{Mutex, MutexGuard, PoisonError},
    time::Duration,
};

use prose_runner::run::Canceller;
use tokio::sync::watch;

/// What the client can do for runs (from `initialize`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RunCaps {
    /// `window.workDoneProgress`: `$/progress` for each run.
    pub progress: bool,
    /// `experimental.proseInputRequest`: program inputs are asked with
    /// `prose/inputRequest`.
    pub input_request: bool,
    /// `window.showDocument.support`: `prose.revealErrors` shows the error.
    pub show_document: bool,
    /// `workspace.codeLens.refreshSupport`: lenses are refreshed when the
    /// workspace's trust changes.
    pub lens_refresh: bool,
}

struct Active {
    canceller: Canceller,
    /// The `$/progress` token, once created.
    token: Option<String>,
    /// Becomes true when the run has ended.
    done: watch::Receiver<bool>,
}

#[derive(Default)]
pub struct Runs {
    active: Mutex<HashMap<String, Active>>,
    caps: Mutex<RunCaps>,
}

impl Runs {
    fn active(&self) -> MutexGuard<'_, HashMap<String, Active>> {
        self.active.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub fn set_caps(&self, caps: RunCaps) {
        *self.caps.lock().unwrap_or_else(PoisonError::into_inner) = caps;
    }

    pub fn caps(&self) -> RunCaps {
        *self.caps.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Records a started run; `done` turns true when it ends (see
    /// [`Runs::finished`]).
    pub fn insert(&self, run_id: &str, canceller: Canceller, done: watch::Receiver<bool>) {
        self.active().insert(
            run_id.to_string(),
            Active {
                canceller,
                token: None,
                done,
            },
        );
    }

    /// Notes the progress token of a run.
    pub fn set_token(&self, run_id: &str, token: &str) {
        if let Some(run) = self.active().get_mut(run_id) {
            run.token = Some(token.to_string());
        }
    }

    /// Forgets a run that has ended.
    pub fn finished(&self, run_id: &str) {
        self.active().remove(run_id);
    }

    /// The ids of the runs in progress, sorted.
    pub fn ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = self.active().keys().cloned().collect();
        ids.sort();
        ids
    }

    /// Cancels a run in progress; false when there is none by that id.
    pub fn cancel(&self, run_id: &str, reason: &str) -> bool {
        match self.active().get(run_id) {
            Some(run) => {
                run.canceller.cancel(reason);
                true
            }
            None => false,
        }
    }

    /// Cancels the run whose progress token is `token`; false when none.
    pub fn cancel_token(&self, token: &str, reason: &str) -> bool {
        let active = self.active();
        let run = active.values().find(|r| r.token.as_deref() == Some(token));
        if let Some(run) = run {
            run.canceller.cancel(reason);
        }
        run.is_some()
    }

    /// Cancels every run and waits until they have ended (their state
    /// written, resumable), for at most `timeout`. Returns how many were
    /// cancelled.
    pub async fn cancel_all(&self, reason: &str, timeout: Duration) -> usize {
        let waits: Vec<watch::Receiver<bool>> = {
            let active = self.active();
            for run in active.values() {
                run.canceller.cancel(reason);
            }
            active.values().map(|r| r.done.clone()).collect()
        };
        let n = waits.len();
        let all = futures::future::join_all(waits.into_iter().map(|mut done| async move {
            let _ = done.wait_for(|d| *d).await;
        }));
        let _ = tokio::time::timeout(timeout, all).await;
        n
    }
}
