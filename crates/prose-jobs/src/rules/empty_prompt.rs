//! # J016 `empty-prompt`
//!
//! **Prompt is empty.** A prompt is an array of strings; an empty array
//! has nothing to send. This applies to every prompt: a task's `prompt`,
//! the two `condition`s, the prompt of `RetryWithUserPrompt`, and the value
//! of every prompt variable a prompt uses.
//!
//! ## Example
//! ```json
//! {
//!   "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "gpt-5.2-codex", "reviewers": []},
//!   "promptVariables": {
//!     "plan": []
//!   },
//!   "grid": [],
//!   "tasks": {
//!     "plan-task": {"model": "planning", "prompt": ["$plan"], "requireUserInput": false},
//!     "idle-task": {"model": "planning", "prompt": [], "requireUserInput": false}
//!   }
//! }
//! ```
//!
//! ## Fix
//! ```json
//! {
//!   "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "gpt-5.2-codex", "reviewers": []},
//!   "promptVariables": {
//!     "plan": ["Write the plan."]
//!   },
//!   "grid": [],
//!   "tasks": {
//!     "plan-task": {"model": "planning", "prompt": ["$plan"], "requireUserInput": false}
//!   }
//! }
//! ```
//!
//! An array holding one empty string (`[""]`) is not empty: it expands to
//! the empty text. The code path of an empty prompt variable is the path
//! of the first prompt that used it (`entry.tasks["plan-task"].prompt/$plan`).
//!
//! ## Specification
//! Seed 002, `expandPromptStatic`: "Report an error if `prompt` is
//! empty."

use text_size::TextRange;

use crate::{
    diagnostic::{JobDiagnostic, Rule, Severity},
    path::At,
};

pub(crate) const RULE: Rule = Rule {
    code: "J016",
    name: "empty-prompt",
    summary: "Prompt is empty",
    severity: Severity::Error,
    source: include_str!("empty_prompt.rs"),
};

/// The prompt at `path`, written at `range`, is `[]`.
pub(crate) fn diagnostic(path: &At<'_>, range: TextRange) -> JobDiagnostic {
    JobDiagnostic::new(&RULE, &path.render(), "Prompt is empty.", range)
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use crate::rules::tests::{check, entry};

    #[test]
    fn every_kind_of_prompt() {
        check(
            "J016",
            &entry(
                r#""nothing": [], "blank": [""]"#,
                r#""a": {"prompt": ["$nothing", "$blank"], "requireUserInput": false, "availability": {"condition": []},
                       "criteria": {"condition": [], "runConditionInSameSession": true, "failureAction": ["RetryWithUserPrompt", 1, []]}},
                 "b": {"prompt": ["$nothing"], "requireUserInput": false}"#,
            ),
            expect![[r#"
                J016 3:32-3:34 error: entry.tasks["a"].prompt/$nothing: Prompt is empty.
                J016 5:108-5:110 error: entry.tasks["a"].availability.condition: Prompt is empty.
                J016 6:50-6:52 error: entry.tasks["a"].criteria.condition: Prompt is empty.
                J016 6:133-6:135 error: entry.tasks["a"].criteria.failureAction[2]: Prompt is empty.
            "#]],
        );
    }
}
