//! The events of a job task run (docs/runner.md, "Events"; the same
//! contract as programs', version 1). They travel as
//! [`crate::events::EventKind::Job`], so a consumer that matches event
//! kinds has one more arm, whatever job tasks add later.

use std::collections::BTreeMap;

use serde_json::{Value as Json, json};

use crate::backend::JobRole;

/// How a task ended (`task_finished`'s `outcome`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TaskOutcome {
    /// Its availability held and its criteria were met.
    Succeeded,
    /// Its availability did not hold, or a session called
    /// `job_prerequisite_failed`.
    PrerequisiteFailed,
    /// Its criteria were still not met after the last retry.
    CriteriaUnmet,
    /// A session failed (a backend error, a timeout): the task stops at once.
    SessionFailed,
    /// The runner could not go on (a prompt whose runtime variables have
    /// no value, the run's state could not be written).
    Error,
}

impl TaskOutcome {
    pub fn as_str(self) -> &'static str {
        match self {
            TaskOutcome::Succeeded => "succeeded",
            TaskOutcome::PrerequisiteFailed => "prerequisite_failed",
            TaskOutcome::CriteriaUnmet => "criteria_unmet",
            TaskOutcome::SessionFailed => "session_failed",
            TaskOutcome::Error => "error",
        }
    }
}

/// What happened in a job task.
#[derive(Debug, Clone, PartialEq)]
pub enum JobEvent {
    /// The task starts (after `run_started`): which sessions run it.
    TaskStarted {
        /// The entry's path as given.
        entry: String,
        task: String,
        /// `single` (one session is the driving and the task session) or
        /// `double` (the driving session has `models.driving`).
        mode: &'static str,
        /// The task session's model id; empty for the backend's default.
        task_model: String,
        /// The driving session's model id; empty for the backend's default.
        driving_model: String,
    },
    /// A session called a tool, and the runner applied it.
    ToolCalled {
        name: String,
        /// The argument's excerpt.
        argument: String,
        role: JobRole,
    },
    /// One check of `availability`.
    AvailabilityChecked {
        /// `previousJobKeywords`, `previousTasks` or `condition`.
        check: &'static str,
        result: bool,
        reason: String,
    },
    /// One check of `criteria` after an attempt of the task.
    CriteriaChecked {
        /// `toolExecuted` or `condition`.
        check: &'static str,
        result: bool,
        reason: String,
        /// The attempt checked (1-based).
        attempt: u32,
    },
    /// The criteria were not met and `failureAction` retries.
    Retry {
        /// `RetryWithNewSession` or `RetryWithUserPrompt`.
        action: &'static str,
        /// The attempt that starts (2, 3, ...).
        attempt: u32,
        /// 1 + the failure action's retry count.
        max_attempts: u32,
        reason: String,
    },
    /// The task ended (not sent when the run is cancelled).
    TaskFinished {
        task: String,
        outcome: TaskOutcome,
        reason: String,
        /// The runtime variables that have a value (name without `$` to
        /// excerpt), `user-input` included.
        variables: BTreeMap<String, String>,
    },
}

impl JobEvent {
    /// The event's `type`.
    pub fn type_name(&self) -> &'static str {
        match self {
            JobEvent::TaskStarted { .. } => "task_started",
            JobEvent::ToolCalled { .. } => "tool_called",
            JobEvent::AvailabilityChecked { .. } => "availability_checked",
            JobEvent::CriteriaChecked { .. } => "criteria_checked",
            JobEvent::Retry { .. } => "retry",
            JobEvent::TaskFinished { .. } => "task_finished",
        }
    }

    /// The event's own fields.
    pub fn fields(&self) -> Json {
        match self {
            JobEvent::TaskStarted {
                entry,
                task,
                mode,
                task_model,
                driving_model,
            } => json!({"entry": entry, "task": task, "mode": mode,
                "task_model": task_model, "driving_model": driving_model}),
            JobEvent::ToolCalled {
                name,
                argument,
                role,
            } => json!({"name": name, "argument": argument, "role": role.as_str()}),
            JobEvent::AvailabilityChecked {
                check,
                result,
                reason,
            } => json!({"check": check, "result": result, "reason": reason}),
            JobEvent::CriteriaChecked {
                check,
                result,
                reason,
                attempt,
            } => json!({"check": check, "result": result, "reason": reason, "attempt": attempt}),
            JobEvent::Retry {
                action,
                attempt,
                max_attempts,
                reason,
            } => json!({"action": action, "attempt": attempt, "max_attempts": max_attempts,
                "reason": reason}),
            JobEvent::TaskFinished {
                task,
                outcome,
                reason,
                variables,
            } => json!({"task": task, "outcome": outcome.as_str(), "reason": reason,
                "variables": variables}),
        }
    }
}
