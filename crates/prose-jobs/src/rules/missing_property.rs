//! # J003 `missing-property`
//!
//! **Required property missing.** A property the entry format requires is
//! not there. Required: `models`, `promptVariables`, `grid` and `tasks` in
//! the entry; `driving`, `planning`, `coding` and `reviewers` in `models`;
//! `keyword`, `automate` and `jobs` in a grid row; `name` and `id` in a
//! grid job; `prompt` and `requireUserInput` in a task; `failureAction` in
//! `criteria`.
//!
//! ## Example
//! ```json
//! {
//!   "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "gpt-5.2-codex", "reviewers": []},
//!   "promptVariables": {},
//!   "grid": [],
//!   "tasks": {
//!     "plan-task": {"model": "planning", "prompt": ["Write the plan."]}
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
//!     "plan-task": {"model": "planning", "prompt": ["Write the plan."], "requireUserInput": false}
//!   }
//! }
//! ```
//!
//! The diagnostic is on the key of the object that lacks the property (the
//! task's name, `"models"`, `"criteria"`), or on the opening brace of an
//! object that has no key (the entry, a grid row or job); the code path
//! names the missing property.

use text_size::TextRange;

use crate::{
    diagnostic::{JobDiagnostic, Rule, Severity},
    path::At,
};

pub(crate) const RULE: Rule = Rule {
    code: "J003",
    name: "missing-property",
    summary: "Required property missing",
    severity: Severity::Error,
    source: include_str!("missing_property.rs"),
};

/// The property at `path` is missing; `anchor` is where to say so.
pub(crate) fn diagnostic(path: &At<'_>, anchor: TextRange) -> JobDiagnostic {
    JobDiagnostic::new(&RULE, &path.render(), "Required, but missing.", anchor)
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use crate::rules::tests::{check, entry};

    #[test]
    fn required_properties() {
        check(
            "J003",
            "{\"models\": {\"driving\": \"d\"}, \"grid\": [{\"jobs\": [{}]}],\n \"tasks\": {\"t\": {\"criteria\": {}}}}",
            expect![[r#"
                J003 1:1-1:2 error: entry.promptVariables: Required, but missing.
                J003 1:2-1:10 error: entry.models.planning: Required, but missing.
                J003 1:2-1:10 error: entry.models.coding: Required, but missing.
                J003 1:2-1:10 error: entry.models.reviewers: Required, but missing.
                J003 1:39-1:40 error: entry.grid[0].keyword: Required, but missing.
                J003 1:39-1:40 error: entry.grid[0].automate: Required, but missing.
                J003 1:49-1:50 error: entry.grid[0].jobs[0].name: Required, but missing.
                J003 1:49-1:50 error: entry.grid[0].jobs[0].id: Required, but missing.
                J003 2:12-2:15 error: entry.tasks["t"].prompt: Required, but missing.
                J003 2:12-2:15 error: entry.tasks["t"].requireUserInput: Required, but missing.
                J003 2:18-2:28 error: entry.tasks["t"].criteria.failureAction: Required, but missing.
            "#]],
        );
    }

    #[test]
    fn a_complete_entry_misses_nothing() {
        check(
            "J003",
            &entry("", r#""t": {"prompt": ["x"], "requireUserInput": false}"#),
            expect![""],
        );
    }
}
