//! # J012 `unknown-job-keyword`
//!
//! **Unknown grid keyword.** `availability.previousJobKeywords` lists the
//! keywords of the jobs after which the task may run; each must be the
//! `keyword` of a row of `grid`.
//!
//! ## Example
//! ```json
//! {
//!   "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "gpt-5.2-codex", "reviewers": []},
//!   "promptVariables": {},
//!   "grid": [
//!     {"keyword": "execute", "automate": true, "jobs": [{"name": "start", "id": "execute-start"}]}
//!   ],
//!   "tasks": {
//!     "verify-task": {
//!       "model": "coding",
//!       "prompt": ["Run the tests."],
//!       "requireUserInput": false,
//!       "availability": {"previousJobKeywords": ["exec", "verify"]}
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
//!   "grid": [
//!     {"keyword": "execute", "automate": true, "jobs": [{"name": "start", "id": "execute-start"}]},
//!     {"keyword": "verify", "automate": true, "jobs": [{"name": "start", "id": "verify-start"}]}
//!   ],
//!   "tasks": {
//!     "verify-task": {
//!       "model": "coding",
//!       "prompt": ["Run the tests."],
//!       "requireUserInput": false,
//!       "availability": {"previousJobKeywords": ["execute", "verify"]}
//!     }
//!   }
//! }
//! ```
//!
//! A misspelled keyword gets a fix to the nearest one. Several rows may
//! share a keyword.
//!
//! ## Specification
//! Seed 002, `validateEntry`:
//! "`entry.tasks[name].availability.previousJobKeywords[index]`: Must be in
//! any `entry.grid[index].keyword`."

use crate::{
    diagnostic::{JobDiagnostic, Rule, Severity},
    model::Task,
    path::At,
    rules::{Scope, names_in},
};

pub(crate) const RULE: Rule = Rule {
    code: "J012",
    name: "unknown-job-keyword",
    summary: "`previousJobKeywords` names no grid keyword",
    severity: Severity::Error,
    source: include_str!("unknown_job_keyword.rs"),
};

pub(crate) fn check(scope: &Scope<'_>, task: &Task, path: &At<'_>) -> Vec<JobDiagnostic> {
    let (Some(availability), Some(keywords)) = (&task.availability, &scope.keywords) else {
        return Vec::new();
    };
    names_in(
        &RULE,
        &path.field("availability").field("previousJobKeywords"),
        &availability.previous_job_keywords,
        keywords,
        "the keyword of any grid row",
        false,
    )
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use crate::rules::tests::{check, entry};

    #[test]
    fn keywords_come_from_the_grid() {
        check(
            "J012",
            &entry(
                "",
                r#""t": {"prompt": ["x"], "requireUserInput": false, "availability": {"previousJobKeywords": ["scrum", "srcum", "design", 5]}}"#,
            ),
            expect![[r#"
                J012 5:111-5:118 error: entry.tasks["t"].availability.previousJobKeywords[1]: "srcum" is not the keyword of any grid row; did you mean "scrum"?
                  fix (safe): Change to "scrum": 5:111-5:118 "\"scrum\""
                J012 5:120-5:128 error: entry.tasks["t"].availability.previousJobKeywords[2]: "design" is not the keyword of any grid row.
            "#]],
        );
    }
}
