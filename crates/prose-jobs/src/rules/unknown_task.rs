//! # J013 `unknown-task`
//!
//! **Unknown task name.** `availability.previousTasks` lists the tasks
//! after which the task may run; each must be the name of a task in
//! `tasks`.
//!
//! ## Example
//! ```json
//! {
//!   "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "gpt-5.2-codex", "reviewers": []},
//!   "promptVariables": {},
//!   "grid": [],
//!   "tasks": {
//!     "learn-task": {"model": "planning", "prompt": ["Write down what we learned."], "requireUserInput": false},
//!     "refine-task": {
//!       "model": "planning",
//!       "prompt": ["Refine the notes."],
//!       "requireUserInput": false,
//!       "availability": {"previousTasks": ["learn"]}
//!     }
//!   }
//! }
//! ```
//!
//! ## Fix
//! ```json
//! {
//!   "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "gpt-5.2-codex", "reviewers": []},
//!   "promptVariables": {},
//!   "grid": [],
//!   "tasks": {
//!     "learn-task": {"model": "planning", "prompt": ["Write down what we learned."], "requireUserInput": false},
//!     "refine-task": {
//!       "model": "planning",
//!       "prompt": ["Refine the notes."],
//!       "requireUserInput": false,
//!       "availability": {"previousTasks": ["learn-task"]}
//!     }
//!   }
//! }
//! ```
//!
//! A misspelled name gets a fix to the nearest task name. A task may name
//! itself (it may run again after itself).
//!
//! ## Specification
//! Seed 002, `validateEntry`:
//! "`entry.tasks[name].availability.previousTasks[index]`: Must be in keys
//! of `entry.tasks`."

use crate::{
    diagnostic::{JobDiagnostic, Rule, Severity},
    model::Task,
    path::At,
    rules::{Scope, names_in},
};

pub(crate) const RULE: Rule = Rule {
    code: "J013",
    name: "unknown-task",
    summary: "`previousTasks` names no task",
    severity: Severity::Error,
    source: include_str!("unknown_task.rs"),
};

pub(crate) fn check(scope: &Scope<'_>, task: &Task, path: &At<'_>) -> Vec<JobDiagnostic> {
    let (Some(availability), Some(names)) = (&task.availability, &scope.tasks) else {
        return Vec::new();
    };
    names_in(
        &RULE,
        &path.field("availability").field("previousTasks"),
        &availability.previous_tasks,
        names,
        "the name of a task",
        false,
    )
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use crate::rules::tests::{check, entry};

    #[test]
    fn task_names() {
        check(
            "J013",
            &entry(
                "",
                r#""learn-task": {"prompt": ["x"], "requireUserInput": false, "availability": {"previousTasks": ["learn-task", "learn", "Learn-Task", "refine"]}}"#,
            ),
            expect![[r#"
                J013 5:119-5:126 error: entry.tasks["learn-task"].availability.previousTasks[1]: "learn" is not the name of a task.
                J013 5:128-5:140 error: entry.tasks["learn-task"].availability.previousTasks[2]: "Learn-Task" is not the name of a task; did you mean "learn-task"?
                  fix (safe): Change to "learn-task": 5:128-5:140 "\"learn-task\""
                J013 5:142-5:150 error: entry.tasks["learn-task"].availability.previousTasks[3]: "refine" is not the name of a task.
            "#]],
        );
    }
}
