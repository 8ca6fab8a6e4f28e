//! # J006 `invalid-failure-action`
//!
//! **Invalid failure action.** `criteria.failureAction` says what to do when
//! a task does not meet its criteria, in one of two forms:
//!
//! - `["RetryWithNewSession", n]`: retry at most `n` times, each time in a
//!   new task session;
//! - `["RetryWithUserPrompt", n, prompt]`: retry at most `n` times in the
//!   same task session, sending `prompt` (expanded like every prompt).
//!
//! Anything else is this error: another first item, the wrong number of
//! items for the form, or a retry count that is not a whole number of 0 or
//! more.
//!
//! ## Example
//! ```json
//! {
//!   "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "gpt-5.2-codex", "reviewers": []},
//!   "promptVariables": {},
//!   "grid": [],
//!   "tasks": {
//!     "build-task": {
//!       "model": "coding",
//!       "prompt": ["Build the project."],
//!       "requireUserInput": false,
//!       "criteria": {"toolExecuted": ["job_prepare_document"], "failureAction": ["RetryWithNewSesion", 2.5]}
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
//!     "build-task": {
//!       "model": "coding",
//!       "prompt": ["Build the project."],
//!       "requireUserInput": false,
//!       "criteria": {"toolExecuted": ["job_prepare_document"], "failureAction": ["RetryWithNewSession", 3]}
//!     }
//!   }
//! }
//! ```
//!
//! A misspelled form gets a fix to the nearest one. The prompt of
//! `RetryWithUserPrompt` is checked like any prompt (its code path is
//! `entry.tasks["name"].criteria.failureAction[2]`).

use text_size::TextRange;

use crate::{
    diagnostic::{JobDiagnostic, Rule, Severity},
    json::{Value, ValueKind},
    lower::Lower,
    model::{FailureAction, FailureKind},
    nearest::nearest,
    path::{At, quote},
    rules::correction,
};

pub(crate) const RULE: Rule = Rule {
    code: "J006",
    name: "invalid-failure-action",
    summary: "Invalid failure action",
    severity: Severity::Error,
    source: include_str!("invalid_failure_action.rs"),
};

const FORMS: &str =
    r#"["RetryWithNewSession", retries] or ["RetryWithUserPrompt", retries, prompt]"#;
const EXPECTED: &str = r#"a failure action (["RetryWithNewSession", retries] or ["RetryWithUserPrompt", retries, prompt])"#;

fn report(cx: &mut Lower, path: &At<'_>, reason: impl AsRef<str>, range: TextRange) {
    cx.report(JobDiagnostic::new(&RULE, &path.render(), reason, range));
}

/// Reads `failureAction` at `path`, reporting what is wrong with it.
pub(crate) fn read(cx: &mut Lower, value: &Value, path: &At<'_>) -> Option<FailureAction> {
    let items = cx.array(value, path, EXPECTED)?;
    let mut action = FailureAction {
        range: value.range,
        kind: None,
        retries: None,
        prompt: None,
    };
    let Some(first) = items.first() else {
        report(
            cx,
            path,
            format!("Expected {FORMS}, found an empty array."),
            value.range,
        );
        return Some(action);
    };
    let names = FailureKind::ALL.map(FailureKind::as_str);
    match &first.kind {
        ValueKind::Missing => return Some(action),
        ValueKind::String(s) => match FailureKind::ALL
            .into_iter()
            .find(|k| k.as_str() == s.as_str())
        {
            Some(kind) => action.kind = Some(kind),
            None => {
                let near = nearest(s.as_str(), names);
                let reason = match near {
                    Some(n) => format!(
                        "Unknown failure action {}; did you mean {}?",
                        quote(s.as_str()),
                        quote(n)
                    ),
                    None => format!(
                        "Unknown failure action {}; expected \"RetryWithNewSession\" or \"RetryWithUserPrompt\".",
                        quote(s.as_str())
                    ),
                };
                cx.report(
                    JobDiagnostic::new(&RULE, &path.index(0).render(), reason, s.range())
                        .with_fix(near.map(|n| correction(s, n, names))),
                );
                return Some(action);
            }
        },
        _ => {
            let reason = format!(
                "Expected \"RetryWithNewSession\" or \"RetryWithUserPrompt\", found {}.",
                first.describe()
            );
            report(cx, &path.index(0), reason, first.range);
            return Some(action);
        }
    }
    let kind = action.kind?;
    if items.len() != kind.arity() {
        let form = match kind {
            FailureKind::RetryWithNewSession => r#"["RetryWithNewSession", retries]"#,
            FailureKind::RetryWithUserPrompt => r#"["RetryWithUserPrompt", retries, prompt]"#,
        };
        let reason = format!(
            "{} takes {} items ({form}), found {}.",
            quote(kind.as_str()),
            kind.arity(),
            items.len()
        );
        report(cx, path, reason, value.range);
    }
    if let Some(count) = items.get(1) {
        action.retries = retries(cx, count, &path.index(1));
    }
    if kind == FailureKind::RetryWithUserPrompt
        && let Some(prompt) = items.get(2)
    {
        action.prompt = cx.prompt(prompt, &path.index(2));
    }
    Some(action)
}

/// The retry count: a whole number from 0 to 2^32 - 1.
fn retries(cx: &mut Lower, value: &Value, path: &At<'_>) -> Option<u32> {
    let found = match &value.kind {
        ValueKind::Missing => return None,
        ValueKind::Number(Some(n))
            if n.fract() == 0.0 && *n >= 0.0 && *n <= f64::from(u32::MAX) =>
        {
            return Some(*n as u32);
        }
        ValueKind::Number(Some(n)) => n.to_string(),
        _ => value.describe().to_string(),
    };
    report(
        cx,
        path,
        format!("The retry count must be a whole number of 0 or more, found {found}."),
        value.range,
    );
    None
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use crate::rules::tests::{check, entry};

    fn task(i: usize, action: &str) -> String {
        format!(
            r#""t{i}": {{"prompt": ["x"], "requireUserInput": false, "criteria": {{"failureAction": {action}}}}}"#
        )
    }

    #[test]
    fn forms() {
        let tasks = [
            r#"[]"#,
            r#"["RetryWithNewSesion", 3]"#,
            r#"[3, 3]"#,
            r#"["RetryWithNewSession"]"#,
            r#"["RetryWithNewSession", 3, ["x"]]"#,
            r#"["RetryWithUserPrompt", 3]"#,
            r#"["RetryWithUserPrompt", -1, "x"]"#,
            r#"["RetryWithNewSession", 2.5]"#,
            r#"["RetryWithNewSession", "3"]"#,
            r#"["RetryWithUserPrompt", 0, ["Go on: $reported-false-reason"]]"#,
            r#"["RetryWithNewSession", 4294967295]"#,
            r#"["RetryWithNewSession", 4294967296]"#,
        ]
        .iter()
        .enumerate()
        .map(|(i, a)| task(i, a))
        .collect::<Vec<_>>()
        .join(",\n");
        check(
            "J006",
            &entry("", &tasks),
            expect![[r#"
                J006 5:92-5:94 error: entry.tasks["t0"].criteria.failureAction: Expected ["RetryWithNewSession", retries] or ["RetryWithUserPrompt", retries, prompt], found an empty array.
                J006 6:83-6:103 error: entry.tasks["t1"].criteria.failureAction[0]: Unknown failure action "RetryWithNewSesion"; did you mean "RetryWithNewSession"?
                  fix (safe): Change to "RetryWithNewSession": 6:83-6:103 "\"RetryWithNewSession\""
                J006 7:83-7:84 error: entry.tasks["t2"].criteria.failureAction[0]: Expected "RetryWithNewSession" or "RetryWithUserPrompt", found a number.
                J006 8:82-8:105 error: entry.tasks["t3"].criteria.failureAction: "RetryWithNewSession" takes 2 items (["RetryWithNewSession", retries]), found 1.
                J006 9:82-9:115 error: entry.tasks["t4"].criteria.failureAction: "RetryWithNewSession" takes 2 items (["RetryWithNewSession", retries]), found 3.
                J006 10:82-10:108 error: entry.tasks["t5"].criteria.failureAction: "RetryWithUserPrompt" takes 3 items (["RetryWithUserPrompt", retries, prompt]), found 2.
                J006 11:106-11:108 error: entry.tasks["t6"].criteria.failureAction[1]: The retry count must be a whole number of 0 or more, found -1.
                J006 12:106-12:109 error: entry.tasks["t7"].criteria.failureAction[1]: The retry count must be a whole number of 0 or more, found 2.5.
                J006 13:106-13:109 error: entry.tasks["t8"].criteria.failureAction[1]: The retry count must be a whole number of 0 or more, found a string.
                J006 16:107-16:117 error: entry.tasks["t11"].criteria.failureAction[1]: The retry count must be a whole number of 0 or more, found 4294967296.
            "#]],
        );
    }
}
