//! A task's own events (`task_started`, `tool_called`,
//! `availability_checked`, `criteria_checked`, `retry`, `task_finished`)
//! as one line each: what `prose jobs run` shows among its sessions' lines
//! and what the language server reports in a task's `$/progress`.

use super::{JobEvent, TaskOutcome};
use crate::events::Event;

fn first_line(s: &str) -> &str {
    s.lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim()
}

fn mark(ok: bool) -> &'static str {
    if ok { "✓" } else { "✗" }
}

/// The line shown for a job event.
pub fn describe(e: &Event, job: &JobEvent) -> String {
    let sid = e.session_id.as_deref().unwrap_or("");
    match job {
        JobEvent::TaskStarted {
            task,
            mode,
            task_model,
            driving_model,
            ..
        } => {
            let model = |m: &str| {
                if m.is_empty() {
                    "the backend's default model".to_string()
                } else {
                    m.to_string()
                }
            };
            match *mode {
                "double" => format!(
                    "task {task}: task session on {}, a driving session on {} for each condition",
                    model(task_model),
                    model(driving_model)
                ),
                _ => format!(
                    "task {task}: one session on {} (single model)",
                    model(task_model)
                ),
            }
        }
        JobEvent::ToolCalled {
            name,
            argument,
            role,
        } => format!("  {sid} {role} called {name}: {}", first_line(argument)),
        JobEvent::AvailabilityChecked {
            check,
            result,
            reason,
        } => format!("{} availability {check}: {reason}", mark(*result)),
        JobEvent::CriteriaChecked {
            check,
            result,
            reason,
            attempt,
        } => format!(
            "{} criteria {check} (attempt {attempt}): {reason}",
            mark(*result)
        ),
        JobEvent::Retry {
            action,
            attempt,
            max_attempts,
            ..
        } => format!("↻ {action}: attempt {attempt} of {max_attempts}"),
        JobEvent::TaskFinished {
            task,
            outcome,
            reason,
            ..
        } => {
            let what = match outcome {
                TaskOutcome::Succeeded => "succeeded",
                TaskOutcome::PrerequisiteFailed => "failed (prerequisite)",
                TaskOutcome::CriteriaUnmet => "failed (criteria unmet)",
                TaskOutcome::SessionFailed => "failed (a session failed)",
                TaskOutcome::Error => "failed",
            };
            format!("task {task} {what}: {reason}")
        }
    }
}
