//! # J017 `missing-boolean-tool`
//!
//! **Condition does not mention a boolean tool.** A condition
//! (`availability.condition`, `criteria.condition`) is a prompt the driving
//! session answers by calling `job_boolean_true` (the condition holds) or
//! `job_boolean_false` (it does not). The expanded condition must mention
//! at least one of them, or the session has no way to answer.
//!
//! ## Example
//! ```json
//! {
//!   "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "gpt-5.2-codex", "reviewers": []},
//!   "promptVariables": {},
//!   "grid": [],
//!   "tasks": {
//!     "execute-task": {
//!       "model": "coding",
//!       "prompt": ["Carry out the plan."],
//!       "requireUserInput": false,
//!       "availability": {"condition": ["REPO-ROOT/plan.md should exist."]}
//!     }
//!   }
//! }
//! ```
//!
//! ## Fix
//! ```json
//! {
//!   "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "gpt-5.2-codex", "reviewers": []},
//!   "promptVariables": {
//!     "reportBoolean": ["Call job_boolean_true if the condition below holds, job_boolean_false if not, with the reason."]
//!   },
//!   "grid": [],
//!   "tasks": {
//!     "execute-task": {
//!       "model": "coding",
//!       "prompt": ["Carry out the plan."],
//!       "requireUserInput": false,
//!       "availability": {"condition": ["$reportBoolean", "REPO-ROOT/plan.md should exist."]}
//!     }
//!   }
//! }
//! ```
//!
//! The mention may come from a prompt variable, as in the fix. The
//! diagnostic is on the condition. When the condition has an error of its
//! own (an unknown variable, say) this check waits for it to be fixed.
//!
//! ## Specification
//! Seed 002, `validateEntry`: conditions run "extra verification":
//! "`expandPromptStatic`'s `requiresBooleanTool` will be set to true, it
//! verifies that `job_boolean_true` or `job_boolean_false` must be
//! mentioned in the expanded prompt."

use crate::{
    diagnostic::{JobDiagnostic, Rule, Severity},
    expand::summary::{BOOLEAN_FALSE, BOOLEAN_TRUE, Summary},
    model::Prompt,
    path::At,
};

pub(crate) const RULE: Rule = Rule {
    code: "J017",
    name: "missing-boolean-tool",
    summary: "Condition mentions neither `job_boolean_true` nor `job_boolean_false`",
    severity: Severity::Error,
    source: include_str!("missing_boolean_tool.rs"),
};

/// Checks the condition `prompt` at `path`, whose expansion is `summary`.
pub(crate) fn check(prompt: &Prompt, summary: &Summary, path: &At<'_>) -> Option<JobDiagnostic> {
    if !summary.complete || summary.has(BOOLEAN_TRUE) || summary.has(BOOLEAN_FALSE) {
        return None;
    }
    Some(JobDiagnostic::new(
        &RULE,
        &path.render(),
        "The expanded condition must mention job_boolean_true or job_boolean_false, the tools that answer it.",
        prompt.range,
    ))
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use crate::rules::tests::{check, entry};

    #[test]
    fn both_conditions() {
        check(
            "J017",
            &entry(
                r#""yes": ["call job_boolean_", "true"], "half": ["job_boolean_"], "t": ["true"]"#,
                r#""a": {"prompt": ["x"], "requireUserInput": false, "availability": {"condition": ["Is it done?"]},
                       "criteria": {"condition": ["$half$t"], "runConditionInSameSession": true, "failureAction": ["RetryWithNewSession", 1]}},
                 "b": {"prompt": ["x"], "requireUserInput": false, "availability": {"condition": ["$yes"]},
                       "criteria": {"condition": ["$missing"], "runConditionInSameSession": true, "failureAction": ["RetryWithUserPrompt", 1, ["no tool needed here"]]}}"#,
            ),
            expect![[r#"
                J017 5:91-5:106 error: entry.tasks["a"].availability.condition: The expanded condition must mention job_boolean_true or job_boolean_false, the tools that answer it.
                J017 7:98-7:106 error: entry.tasks["b"].availability.condition: The expanded condition must mention job_boolean_true or job_boolean_false, the tools that answer it.
            "#]],
        );
    }
}
