//! # J002 `wrong-type`
//!
//! **Value of the wrong type.** A value is not of the type the entry
//! format gives it: a prompt that is a string instead of an array of
//! strings, `requireUserInput` written as `"true"`, a task that is not an
//! object, a model id that is a number.
//!
//! ## Example
//! ```json
//! {
//!   "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "gpt-5.2-codex", "reviewers": []},
//!   "promptVariables": {},
//!   "grid": [],
//!   "tasks": {
//!     "plan-task": {"model": "planning", "prompt": "Write the plan.", "requireUserInput": "false"}
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
//! A prompt given as one string gets a fix that wraps it in an array; a
//! boolean written as the string `"true"` or `"false"` gets a fix that
//! removes the quotes. A value of the wrong type is left out of the model,
//! so no other check reports it again.
//!
//! ## The types
//! `models`: object of strings, with `reviewers` an array of strings.
//! `promptVariables`: object of prompts. A prompt: array of strings.
//! `grid`: array of `{keyword: string, automate: boolean, jobs: [{name:
//! string, id: string}]}`. `tasks`: object of `{model?: string, prompt,
//! requireUserInput: boolean, availability?: {previousJobKeywords?:
//! string[], previousTasks?: string[], condition?: prompt}, criteria?:
//! {toolExecuted?: string[], failureAction, condition?: prompt,
//! runConditionInSameSession?: boolean}}`.

use crate::{
    diagnostic::{Confidence, Edit, Fix, JobDiagnostic, Rule, Severity},
    json::{Value, ValueKind},
    path::At,
};

pub(crate) const RULE: Rule = Rule {
    code: "J002",
    name: "wrong-type",
    summary: "Value of the wrong type",
    severity: Severity::Error,
    source: include_str!("wrong_type.rs"),
};

/// What a prompt is, as the messages say it.
pub(crate) const PROMPT: &str = "a prompt (an array of strings)";

/// `found` should have been `expected` (`a string`, [`PROMPT`], ...).
pub(crate) fn diagnostic(path: &At<'_>, expected: &str, found: &Value) -> JobDiagnostic {
    let reason = format!("Expected {expected}, found {}.", found.describe());
    let fix = match &found.kind {
        ValueKind::String(_) if expected == PROMPT => Some(Fix {
            title: "Wrap the string in an array".into(),
            edits: vec![
                Edit {
                    range: text_size::TextRange::empty(found.range.start()),
                    new_text: "[".into(),
                },
                Edit {
                    range: text_size::TextRange::empty(found.range.end()),
                    new_text: "]".into(),
                },
            ],
            confidence: Confidence::Safe,
        }),
        ValueKind::String(s)
            if expected == "a boolean" && matches!(s.as_str(), "true" | "false") =>
        {
            Some(
                Fix::replace(format!("Change to {}", s.as_str()), found.range, s.as_str())
                    .safe_if(true),
            )
        }
        _ => None,
    };
    JobDiagnostic::new(&RULE, &path.render(), reason, found.range).with_fix(fix)
}

/// For a caller expanding one prompt: the prompt at `path` (or the prompt
/// variable it names, used at `range`) is not an array of strings, so it
/// cannot be expanded.
pub(crate) fn not_a_prompt(path: &At<'_>, range: text_size::TextRange) -> JobDiagnostic {
    JobDiagnostic::new(
        &RULE,
        &path.render(),
        format!("Expected {PROMPT}; it cannot be expanded."),
        range,
    )
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use crate::rules::tests::{check, entry};

    #[test]
    fn every_field_has_its_type() {
        check(
            "J002",
            &entry(
                r#""a": "text", "b": [1, "ok", null]"#,
                r#""t": {"model": 5, "prompt": "$a", "requireUserInput": "true",
                 "availability": {"previousTasks": "t", "previousJobKeywords": [true], "condition": {}},
                 "criteria": {"toolExecuted": [1], "failureAction": "RetryWithNewSession", "condition": [[]], "runConditionInSameSession": 1}},
                 "u": []"#,
            ),
            expect![[r#"
                J002 3:26-3:32 error: entry.promptVariables["a"]: Expected a prompt (an array of strings), found a string.
                  fix (safe): Wrap the string in an array: 3:26-3:26 "[", 3:32-3:32 "]"
                J002 3:40-3:41 error: entry.promptVariables["b"][0]: Expected a string, found a number.
                J002 3:49-3:53 error: entry.promptVariables["b"][2]: Expected a string, found null.
                J002 5:26-5:27 error: entry.tasks["t"].model: Expected a string, found a number.
                J002 5:39-5:43 error: entry.tasks["t"].prompt: Expected a prompt (an array of strings), found a string.
                  fix (safe): Wrap the string in an array: 5:39-5:39 "[", 5:43-5:43 "]"
                J002 5:65-5:71 error: entry.tasks["t"].requireUserInput: Expected a boolean, found a string.
                  fix (safe): Change to true: 5:65-5:71 "true"
                J002 6:52-6:55 error: entry.tasks["t"].availability.previousTasks: Expected an array of strings, found a string.
                J002 6:81-6:85 error: entry.tasks["t"].availability.previousJobKeywords[0]: Expected a string, found a boolean.
                J002 6:101-6:103 error: entry.tasks["t"].availability.condition: Expected a prompt (an array of strings), found an object.
                J002 7:48-7:49 error: entry.tasks["t"].criteria.toolExecuted[0]: Expected a string, found a number.
                J002 7:69-7:90 error: entry.tasks["t"].criteria.failureAction: Expected a failure action (["RetryWithNewSession", retries] or ["RetryWithUserPrompt", retries, prompt]), found a string.
                J002 7:106-7:108 error: entry.tasks["t"].criteria.condition[0]: Expected a string, found an array.
                J002 7:140-7:141 error: entry.tasks["t"].criteria.runConditionInSameSession: Expected a boolean, found a number.
                J002 8:23-8:25 error: entry.tasks["u"]: Expected an object, found an array.
            "#]],
        );
    }

    #[test]
    fn top_level_shapes() {
        check(
            "J002",
            r#"{"models": [], "promptVariables": 1, "grid": {}, "tasks": "none"}"#,
            expect![[r#"
                J002 1:12-1:14 error: entry.models: Expected an object, found an array.
                J002 1:35-1:36 error: entry.promptVariables: Expected an object, found a number.
                J002 1:46-1:48 error: entry.grid: Expected an array of grid rows, found an object.
                J002 1:59-1:65 error: entry.tasks: Expected an object, found a string.
            "#]],
        );
        check(
            "J002",
            "[1, 2]",
            expect![[r#"
                J002 1:1-1:7 error: entry: Expected an object, found an array.
            "#]],
        );
    }
}
