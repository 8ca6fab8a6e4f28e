//! Running job tasks in the runner's tests: a scratch workspace, an entry,
//! a backend, and what the run did (its outcome, events and requests).
//! The test file declares `mod common;` too.

#![allow(dead_code)]

use std::{
    path::Path,
    sync::{Arc, Mutex},
};

use prose_runner::{
    backend::{Backend, BackendRequest, JobRole, SessionMode},
    events::{Event, EventKind, RunStatus},
    input::InputProvider,
    jobs::{JobEvent, TaskOutcome, TaskRunOptions, prepare_task, start_task},
    run::{RunOutcome, StartError},
};

use super::common;

/// A finished task run.
pub struct TaskRan {
    pub outcome: RunOutcome,
    pub events: Vec<Event>,
    pub calls: Vec<BackendRequest>,
    pub root: tempfile::TempDir,
}

/// Options for task `task` of `entry` in `root`, with `backend`.
pub fn options(entry: &str, task: &str, root: &Path, backend: Arc<dyn Backend>) -> TaskRunOptions {
    let mut o = TaskRunOptions::new(root.join("work.jobs.json"), entry, task, root);
    o.backend = Some(backend);
    o.durable = false;
    o
}

/// Runs prepared options to the end, collecting the events.
pub async fn run_options(
    o: TaskRunOptions,
    provider: Option<Arc<dyn InputProvider>>,
) -> Result<(RunOutcome, Vec<Event>), StartError> {
    let prepared = prepare_task(o)?;
    let events: Arc<Mutex<Vec<Event>>> = Arc::default();
    let sink = events.clone();
    let handle = start_task(
        prepared,
        Arc::new(move |e: &Event| sink.lock().unwrap().push(e.clone())),
        provider,
    );
    let outcome = handle.wait().await;
    let events = events.lock().unwrap().clone();
    Ok((outcome, events))
}

/// Runs `task` of `entry` with the mock `script`; `edit` adjusts the options.
pub async fn run_task(
    entry: &str,
    task: &str,
    script: &str,
    edit: impl FnOnce(&mut TaskRunOptions),
) -> TaskRan {
    let root = tempfile::tempdir().unwrap();
    let mock = common::mock(script);
    let mut o = options(entry, task, root.path(), Arc::new(mock.clone()));
    edit(&mut o);
    let (outcome, events) = run_options(o, None)
        .await
        .unwrap_or_else(|e| panic!("{e}: {e:?}"));
    TaskRan {
        outcome,
        events,
        calls: mock.calls(),
        root,
    }
}

impl TaskRan {
    /// The job events and decisions, one line each, in order: what a
    /// reader of the run wants to see.
    pub fn story(&self) -> Vec<String> {
        self.events
            .iter()
            .filter_map(|e| {
                let sid = e.session_id.clone().unwrap_or_default();
                Some(match &e.kind {
                    EventKind::SessionStarted {
                        role,
                        prompt_excerpt,
                        ..
                    } => {
                        format!(
                            "{sid} {role}: {}",
                            prompt_excerpt.lines().next().unwrap_or("")
                        )
                    }
                    EventKind::SessionFailed { error, .. } => format!("{sid} failed: {error}"),
                    EventKind::SessionReused { output_excerpt, .. } => {
                        format!("{sid} reused: {output_excerpt}")
                    }
                    EventKind::Warning { message } => format!("warning: {message}"),
                    EventKind::Job(j) => match j {
                        JobEvent::ToolCalled {
                            name,
                            argument,
                            role,
                        } => {
                            format!("{sid} {role} called {name}({argument})")
                        }
                        JobEvent::AvailabilityChecked {
                            check,
                            result,
                            reason,
                        } => {
                            format!("availability {check} {result}: {reason}")
                        }
                        JobEvent::CriteriaChecked {
                            check,
                            result,
                            reason,
                            attempt,
                        } => {
                            format!("criteria {check} (attempt {attempt}) {result}: {reason}")
                        }
                        JobEvent::Retry {
                            action,
                            attempt,
                            max_attempts,
                            ..
                        } => {
                            format!("retry {action} {attempt}/{max_attempts}")
                        }
                        JobEvent::TaskFinished {
                            outcome, reason, ..
                        } => {
                            format!("finished {}: {reason}", outcome.as_str())
                        }
                        JobEvent::TaskStarted {
                            mode,
                            task_model,
                            driving_model,
                            ..
                        } => {
                            format!("started {mode} task={task_model} driving={driving_model}")
                        }
                    },
                    EventKind::Cancelled { reason } => format!("cancelled: {reason}"),
                    EventKind::InputRequested { name, .. } => format!("input requested: {name}"),
                    EventKind::InputReceived { name, excerpt } => {
                        format!("input received: {name}={excerpt}")
                    }
                    _ => return None,
                })
            })
            .collect()
    }

    pub fn outcome_of_task(&self) -> Option<TaskOutcome> {
        self.events.iter().find_map(|e| match &e.kind {
            EventKind::Job(JobEvent::TaskFinished { outcome, .. }) => Some(*outcome),
            _ => None,
        })
    }

    pub fn status(&self) -> RunStatus {
        self.outcome.status
    }

    /// Each request: its role, session mode, conversation key (with the
    /// run id cut out) and model.
    pub fn sessions(&self) -> Vec<String> {
        let run = &self.outcome.run_id;
        self.calls
            .iter()
            .map(|c| {
                let role = c.job.as_ref().map_or(JobRole::Task, |j| j.role);
                let mode = match c.identity.mode {
                    SessionMode::New => "new",
                    SessionMode::Resume => "resume",
                };
                let key = c
                    .identity
                    .key
                    .as_deref()
                    .map_or("one-off".to_string(), |k| k.replace(&format!("{run}:"), ""));
                format!(
                    "{role} {mode} {key} model={}",
                    c.model.alias.as_deref().unwrap_or("-")
                )
            })
            .collect()
    }

    pub fn output(&self, name: &str) -> Option<String> {
        self.outcome
            .outputs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.to_text())
    }
}
