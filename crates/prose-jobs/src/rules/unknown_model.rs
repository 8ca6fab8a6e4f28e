//! # J010 `unknown-model`
//!
//! **Task model is not a model key.** A task's `model` names one of the
//! fields of `models` (`driving`, `planning`, `coding`, or another string
//! field the entry adds), whose value is the model id the task runs with.
//! It cannot be `reviewers` (a list of models, not one) and it is not a
//! model id itself.
//!
//! ## Example
//! ```json
//! {
//!   "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "gpt-5.2-codex", "reviewers": ["claude-opus-4.5"]},
//!   "promptVariables": {},
//!   "grid": [],
//!   "tasks": {
//!     "plan-task": {"model": "planing", "prompt": ["Write the plan."], "requireUserInput": false},
//!     "review-task": {"model": "reviewers", "prompt": ["Review the plan."], "requireUserInput": false},
//!     "code-task": {"model": "gpt-5.2-codex", "prompt": ["Carry out the plan."], "requireUserInput": false}
//!   }
//! }
//! ```
//!
//! ## Fix
//! ```json
//! {
//!   "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "gpt-5.2-codex", "reviewers": ["claude-opus-4.5"]},
//!   "promptVariables": {},
//!   "grid": [],
//!   "tasks": {
//!     "plan-task": {"model": "planning", "prompt": ["Write the plan."], "requireUserInput": false},
//!     "review-task": {"prompt": ["Review the plan."], "requireUserInput": false},
//!     "code-task": {"model": "coding", "prompt": ["Carry out the plan."], "requireUserInput": false}
//!   }
//! }
//! ```
//!
//! A task without `model` is fine: the runner assigns one when it starts
//! the task. A misspelled key, or a model id that one key has as its
//! value, gets a fix to that key.
//!
//! ## Specification
//! Seed 002, `validateEntry`: "`entry.tasks[name].model`: Must be in
//! fields of `entry.models` but not `reviewers`."

use crate::{
    diagnostic::{JobDiagnostic, Rule, Severity},
    model::{Entry, Task},
    nearest::nearest,
    path::{At, quote},
    rules::{Scope, correction, one_of, rename_fix},
};

pub(crate) const RULE: Rule = Rule {
    code: "J010",
    name: "unknown-model",
    summary: "Task model is not a model key",
    severity: Severity::Error,
    source: include_str!("unknown_model.rs"),
};

pub(crate) fn check(
    entry: &Entry,
    scope: &Scope<'_>,
    task: &Task,
    path: &At<'_>,
) -> Option<JobDiagnostic> {
    let model = task.model.as_ref()?;
    // Without `models` there is nothing to check against (J002/J003 say so).
    let (Some(models), Some(keys)) = (&entry.models, &scope.model_keys) else {
        return None;
    };
    let name = model.as_str();
    if keys.contains(name) {
        return None;
    }
    let keys = &keys.list;
    // A model id written where its key belongs.
    let mut with_id = models.keys.iter().filter(|k| k.model.as_str() == name);
    let by_id = with_id.next().map(|k| k.key.as_str());
    // The key whose model it is, when only one key has that model.
    let one_key = by_id.is_some() && with_id.next().is_none();
    let near = by_id.or_else(|| nearest(name, keys.iter().copied()));
    let expected = format!("expected {}", one_of(keys));
    let reason = if name == "reviewers" {
        format!("\"reviewers\" is a list of models, not a model key; {expected}.")
    } else if let Some(key) = by_id {
        format!(
            "{} is a model id, not a model key; use {}, whose model it is.",
            quote(name),
            quote(key)
        )
    } else if let Some(n) = near {
        format!(
            "{} is not a model key; did you mean {}?",
            quote(name),
            quote(n)
        )
    } else {
        format!("{} is not a model key; {expected}.", quote(name))
    };
    Some(
        JobDiagnostic::new(&RULE, &path.field("model").render(), reason, model.range()).with_fix(
            near.map(|n| match by_id {
                Some(_) => rename_fix(model, n).safe_if(one_key),
                None => correction(model, n, keys.iter().copied()),
            }),
        ),
    )
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use crate::rules::tests::{check, entry};

    #[test]
    fn model_keys() {
        check(
            "J010",
            &entry(
                "",
                r#""a": {"model": "planing", "prompt": ["x"], "requireUserInput": false},
                 "b": {"model": "reviewers", "prompt": ["x"], "requireUserInput": false},
                 "c": {"model": "c", "prompt": ["x"], "requireUserInput": false},
                 "d": {"model": "gpt", "prompt": ["x"], "requireUserInput": false},
                 "e": {"model": "coding", "prompt": ["x"], "requireUserInput": false},
                 "f": {"model": "Driving", "prompt": ["x"], "requireUserInput": false}"#,
            ),
            expect![[r#"
                J010 5:26-5:35 error: entry.tasks["a"].model: "planing" is not a model key; did you mean "planning"?
                  fix (safe): Change to "planning": 5:26-5:35 "\"planning\""
                J010 6:33-6:44 error: entry.tasks["b"].model: "reviewers" is a list of models, not a model key; expected "driving", "planning" or "coding".
                J010 7:33-7:36 error: entry.tasks["c"].model: "c" is a model id, not a model key; use "coding", whose model it is.
                  fix (safe): Change to "coding": 7:33-7:36 "\"coding\""
                J010 8:33-8:38 error: entry.tasks["d"].model: "gpt" is not a model key; expected "driving", "planning" or "coding".
                J010 10:33-10:42 error: entry.tasks["f"].model: "Driving" is not a model key; did you mean "driving"?
                  fix (safe): Change to "driving": 10:33-10:42 "\"driving\""
            "#]],
        );
    }

    #[test]
    fn a_model_id_two_keys_share_is_fixed_only_on_request() {
        check(
            "J010",
            r#"{"models": {"driving": "m", "planning": "m", "coding": "c", "reviewers": []}, "promptVariables": {}, "grid": [],
               "tasks": {"t": {"model": "m", "prompt": ["x"], "requireUserInput": false}}}"#,
            expect![[r#"
                J010 2:41-2:44 error: entry.tasks["t"].model: "m" is a model id, not a model key; use "driving", whose model it is.
                  fix: Change to "driving": 2:41-2:44 "\"driving\""
            "#]],
        );
    }

    #[test]
    fn extra_model_keys_count() {
        check(
            "J010",
            r#"{"models": {"driving": "d", "planning": "p", "coding": "c", "reviewers": [], "fast": "f"}, "promptVariables": {}, "grid": [],
               "tasks": {"t": {"model": "fast", "prompt": ["x"], "requireUserInput": false}}}"#,
            expect![""],
        );
    }

    #[test]
    fn no_models_no_check() {
        check(
            "J010",
            r#"{"tasks": {"t": {"model": "fast", "prompt": ["x"], "requireUserInput": false}}}"#,
            expect![""],
        );
    }
}
