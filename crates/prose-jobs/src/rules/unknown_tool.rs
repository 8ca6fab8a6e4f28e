//! # J014 `unknown-tool`
//!
//! **Unknown tool.** `criteria.toolExecuted` lists the tools the task
//! session must have called in its last answer for the task to succeed;
//! each must be one of the tools a session can call:
//! `job_prepare_document`, `job_boolean_true`, `job_boolean_false`,
//! `job_prerequisite_failed`.
//!
//! ## Example
//! ```json
//! {
//!   "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "gpt-5.2-codex", "reviewers": []},
//!   "promptVariables": {},
//!   "grid": [],
//!   "tasks": {
//!     "review-task": {
//!       "model": "planning",
//!       "prompt": ["Review the plan and call job_prepare_document with the review's path."],
//!       "requireUserInput": false,
//!       "criteria": {"toolExecuted": ["job_prepare_doc"], "failureAction": ["RetryWithNewSession", 3]}
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
//!     "review-task": {
//!       "model": "planning",
//!       "prompt": ["Review the plan and call job_prepare_document with the review's path."],
//!       "requireUserInput": false,
//!       "criteria": {"toolExecuted": ["job_prepare_document"], "failureAction": ["RetryWithNewSession", 3]}
//!     }
//!   }
//! }
//! ```
//!
//! ## Specification
//! Seed 002, `validateEntry`:
//! "`entry.tasks[name].criteria.toolExecuted[index]`: Must be in
//! `availableTools`."

use crate::{
    diagnostic::{JobDiagnostic, Rule, Severity},
    model::Task,
    path::At,
    rules::{Scope, names_in},
};

pub(crate) const RULE: Rule = Rule {
    code: "J014",
    name: "unknown-tool",
    summary: "`toolExecuted` names no available tool",
    severity: Severity::Error,
    source: include_str!("unknown_tool.rs"),
};

pub(crate) fn check(scope: &Scope<'_>, task: &Task, path: &At<'_>) -> Vec<JobDiagnostic> {
    let Some(criteria) = &task.criteria else {
        return Vec::new();
    };
    names_in(
        &RULE,
        &path.field("criteria").field("toolExecuted"),
        &criteria.tool_executed,
        &scope.tools,
        "an available tool",
        true,
    )
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use crate::rules::tests::{check, entry};

    #[test]
    fn tools() {
        check(
            "J014",
            &entry(
                "",
                r#""t": {"prompt": ["x"], "requireUserInput": false, "criteria": {"toolExecuted": ["job_boolean_true", "job_boolean_ture", "bash"], "failureAction": ["RetryWithNewSession", 1]}}"#,
            ),
            expect![[r#"
                J014 5:111-5:129 error: entry.tasks["t"].criteria.toolExecuted[1]: "job_boolean_ture" is not an available tool; did you mean "job_boolean_true"?
                  fix (safe): Change to "job_boolean_true": 5:111-5:129 "\"job_boolean_true\""
                J014 5:131-5:137 error: entry.tasks["t"].criteria.toolExecuted[2]: "bash" is not an available tool; expected "job_prepare_document", "job_boolean_true", "job_boolean_false" or "job_prerequisite_failed".
            "#]],
        );
    }
}
