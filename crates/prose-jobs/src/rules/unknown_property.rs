//! # J004 `unknown-entry-property`
//!
//! **Unknown property.** An object has a property the entry format does not
//! define, usually a misspelled one (`promt`, `requireUserInputs`,
//! `previousTask`). The property is ignored, so what it was meant to say
//! has no effect.
//!
//! ## Example
//! ```json
//! {
//!   "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "gpt-5.2-codex", "reviewers": []},
//!   "promptVariables": {},
//!   "grid": [],
//!   "tasks": {
//!     "plan-task": {"model": "planning", "prompt": ["Write the plan."], "requireUserInput": false, "avaliability": {}}
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
//!     "plan-task": {"model": "planning", "prompt": ["Write the plan."], "requireUserInput": false, "availability": {}}
//!   }
//! }
//! ```
//!
//! When a known property is close to the name, the message names it and
//! the fix renames the key. The entry may have a `$schema` property (for
//! editors that validate JSON against a schema). `models` and the two maps
//! (`promptVariables`, `tasks`) take any key: in `models`, every string
//! field but `reviewers` is a model key a task may name.

use crate::{
    diagnostic::{JobDiagnostic, Rule, Severity},
    json::JsonString,
    nearest::nearest,
    path::{At, quote},
    rules::{correction, one_of},
};

pub(crate) const RULE: Rule = Rule {
    code: "J004",
    name: "unknown-entry-property",
    summary: "Unknown property",
    severity: Severity::Error,
    source: include_str!("unknown_property.rs"),
};

/// `key` is not one of `known`, the properties of the object at `path`;
/// `taken` says whether the object has a property of that name already
/// (then renaming the key would replace it: the fix is not safe).
pub(crate) fn diagnostic(
    path: &At<'_>,
    key: &JsonString,
    known: &[&str],
    taken: impl Fn(&str) -> bool,
) -> JobDiagnostic {
    let name = key.as_str();
    let near = nearest(name, known.iter().copied());
    let reason = match near {
        Some(n) => format!(
            "Unknown property {}; did you mean {}?",
            quote(name),
            quote(n)
        ),
        None => format!(
            "Unknown property {}; expected {}.",
            quote(name),
            one_of(known)
        ),
    };
    JobDiagnostic::new(&RULE, &path.member(name).render(), reason, key.range()).with_fix(near.map(
        |n| {
            let fix = correction(key, n, known.iter().copied());
            if taken(n) { fix.offered() } else { fix }
        },
    ))
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use crate::rules::tests::{check, entry};

    #[test]
    fn misspelled_and_foreign_properties() {
        check(
            "J004",
            &entry(
                "",
                r#""t": {"promt": ["x"], "prompt": ["x"], "requireUserInput": false, "owner": "me",
                 "availability": {"previousTask": []}, "criteria": {"failureAction": ["RetryWithNewSession", 1], "tools": []}}"#,
            ),
            expect![[r#"
                J004 5:17-5:24 error: entry.tasks["t"].promt: Unknown property "promt"; did you mean "prompt"?
                  fix (offered): Change to "prompt": 5:17-5:24 "\"prompt\""
                J004 5:77-5:84 error: entry.tasks["t"].owner: Unknown property "owner"; expected "model", "prompt", "requireUserInput", "availability" or "criteria".
                J004 6:35-6:49 error: entry.tasks["t"].availability.previousTask: Unknown property "previousTask"; did you mean "previousTasks"?
                  fix (safe): Change to "previousTasks": 6:35-6:49 "\"previousTasks\""
                J004 6:114-6:121 error: entry.tasks["t"].criteria.tools: Unknown property "tools"; expected "toolExecuted", "failureAction", "condition" or "runConditionInSameSession".
            "#]],
        );
    }

    #[test]
    fn schema_and_grid_properties() {
        check(
            "J004",
            r#"{"$schema": "x", "model": {}, "grid": [{"keyword": "a", "automate": true, "jobs": [{"name": "n", "id": "i", "ID": 1}], "auto": 1}]}"#,
            expect![[r#"
                J004 1:18-1:25 error: entry.model: Unknown property "model"; did you mean "models"?
                  fix (safe): Change to "models": 1:18-1:25 "\"models\""
                J004 1:109-1:113 error: entry.grid[0].jobs[0].ID: Unknown property "ID"; did you mean "id"?
                  fix (offered): Change to "id": 1:109-1:113 "\"id\""
                J004 1:120-1:126 error: entry.grid[0].auto: Unknown property "auto"; expected "keyword", "automate" or "jobs".
            "#]],
        );
    }
}
