//! # J007 `condition-session-pair`
//!
//! **`condition` and `runConditionInSameSession` go together.** In
//! `criteria`, the entry format gives `condition` and
//! `runConditionInSameSession` as a pair: both or neither.
//! `runConditionInSameSession` says where the condition runs after the
//! task: `true` in the task's own session (one model), `false` in a
//! separate driving session (`models.driving`). Without a condition it has
//! nothing to say; a condition without it leaves that choice unsaid.
//!
//! ## Example
//! ```json
//! {
//!   "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "gpt-5.2-codex", "reviewers": []},
//!   "promptVariables": {},
//!   "grid": [],
//!   "tasks": {
//!     "plan-task": {
//!       "model": "planning",
//!       "prompt": ["Write the plan in REPO-ROOT/plan.md."],
//!       "requireUserInput": false,
//!       "criteria": {
//!         "condition": ["Call job_boolean_true if REPO-ROOT/plan.md exists, job_boolean_false if not."],
//!         "failureAction": ["RetryWithNewSession", 3]
//!       }
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
//!     "plan-task": {
//!       "model": "planning",
//!       "prompt": ["Write the plan in REPO-ROOT/plan.md."],
//!       "requireUserInput": false,
//!       "criteria": {
//!         "runConditionInSameSession": false,
//!         "condition": ["Call job_boolean_true if REPO-ROOT/plan.md exists, job_boolean_false if not."],
//!         "failureAction": ["RetryWithNewSession", 3]
//!       }
//!     }
//!   }
//! }
//! ```
//!
//! A condition without `runConditionInSameSession` gets a fix that adds
//! `"runConditionInSameSession": true`, which is what a runner assumes
//! when it is missing (seed 002: the single model option is used when it
//! is "undefined or true").
//!
//! ## Why
//! The seed types `criteria` as `{toolExecuted?, failureAction} &
//! ({condition, runConditionInSameSession} | never)`: the two properties
//! come as one group. The seed's runner text ("undefined or true") shows
//! what a missing value would mean, and the fix writes exactly that.

use text_size::TextRange;

use crate::{
    diagnostic::{Fix, JobDiagnostic, Rule, Severity},
    json::JsonString,
    path::At,
};

pub(crate) const RULE: Rule = Rule {
    code: "J007",
    name: "condition-session-pair",
    summary: "`condition` and `runConditionInSameSession` must be given together",
    severity: Severity::Error,
    source: include_str!("condition_session_pair.rs"),
};

/// Checks the pair in the `criteria` at `path`, given the keys found.
pub(crate) fn check(
    path: &At<'_>,
    condition: Option<&JsonString>,
    same_session: Option<&JsonString>,
) -> Option<JobDiagnostic> {
    match (condition, same_session) {
        (Some(condition), None) => {
            let fix = Fix::replace(
                "Add \"runConditionInSameSession\": true",
                TextRange::empty(condition.range().start()),
                "\"runConditionInSameSession\": true, ",
            );
            Some(
                JobDiagnostic::new(
                    &RULE,
                    &path.field("runConditionInSameSession").render(),
                    "Required with criteria.condition: true runs the condition in the task's session, false in a separate driving session.",
                    condition.range(),
                )
                .with_fix(Some(fix)),
            )
        }
        (None, Some(same_session)) => Some(JobDiagnostic::new(
            &RULE,
            &path.field("runConditionInSameSession").render(),
            "Given without criteria.condition, so there is no condition to run; add the condition or remove this.",
            same_session.range(),
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use crate::rules::tests::{check, entry};

    #[test]
    fn both_or_neither() {
        check(
            "J007",
            &entry(
                "",
                r#""a": {"prompt": ["x"], "requireUserInput": false, "criteria": {"condition": ["job_boolean_true"], "failureAction": ["RetryWithNewSession", 1]}},
                 "b": {"prompt": ["x"], "requireUserInput": false, "criteria": {"runConditionInSameSession": true, "failureAction": ["RetryWithNewSession", 1]}},
                 "c": {"prompt": ["x"], "requireUserInput": false, "criteria": {"runConditionInSameSession": true, "condition": ["job_boolean_true"], "failureAction": ["RetryWithNewSession", 1]}},
                 "d": {"prompt": ["x"], "requireUserInput": false, "criteria": {"failureAction": ["RetryWithNewSession", 1]}}"#,
            ),
            expect![[r#"
                J007 5:74-5:85 error: entry.tasks["a"].criteria.runConditionInSameSession: Required with criteria.condition: true runs the condition in the task's session, false in a separate driving session.
                  fix: Add "runConditionInSameSession": true: 5:74-5:74 "\"runConditionInSameSession\": true, "
                J007 6:81-6:108 error: entry.tasks["b"].criteria.runConditionInSameSession: Given without criteria.condition, so there is no condition to run; add the condition or remove this.
            "#]],
        );
    }
}
