//! # J020 `unused-prompt-variable`
//!
//! **Prompt variable never used.** No task expands this prompt variable:
//! no task's prompt, condition or retry prompt uses it, directly or
//! through other variables. It is probably left over from an edit, or its
//! uses are misspelled.
//!
//! ## Example
//! ```json
//! {
//!   "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "gpt-5.2-codex", "reviewers": []},
//!   "promptVariables": {
//!     "plan": ["Write the plan."],
//!     "oldPlan": ["Write the plan in Copilot_Planning.md."]
//!   },
//!   "grid": [],
//!   "tasks": {
//!     "plan-task": {"model": "planning", "prompt": ["$plan"], "requireUserInput": false}
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
//! A warning, on the variable's name (editors show it faded). Its prompt
//! is still checked, with the code path `entry.promptVariables["name"]`.
//! A variable whose name no prompt can use is reported by `J008` or
//! `J009` instead.

use crate::{
    diagnostic::{JobDiagnostic, Rule, Severity},
    model::PromptVariable,
    path::At,
};

pub(crate) const RULE: Rule = Rule {
    code: "J020",
    name: "unused-prompt-variable",
    summary: "Prompt variable never used",
    severity: Severity::Warning,
    source: include_str!("unused_prompt_variable.rs"),
};

pub(crate) fn diagnostic(var: &PromptVariable, path: &At<'_>) -> JobDiagnostic {
    let mut d = JobDiagnostic::new(
        &RULE,
        &path.render(),
        format!(
            "${} is never used: no task's prompt expands it.",
            var.name.as_str()
        ),
        var.name.range(),
    );
    d.unnecessary = true;
    d
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use crate::rules::tests::{check, entry};

    #[test]
    fn reached_only_from_unused_variables() {
        check(
            "J020",
            &entry(
                r#""used": ["$deep"], "deep": ["x"], "orphan": ["$leaf"], "leaf": ["y"], "cond": ["job_boolean_true"], "retry": ["again"]"#,
                r#""t": {"prompt": ["$used"], "requireUserInput": false, "availability": {"condition": ["$cond"]},
                       "criteria": {"failureAction": ["RetryWithUserPrompt", 1, ["$retry"]]}}"#,
            ),
            expect![[r#"
                J020 3:55-3:63 warning: entry.promptVariables["orphan"]: $orphan is never used: no task's prompt expands it.
                J020 3:76-3:82 warning: entry.promptVariables["leaf"]: $leaf is never used: no task's prompt expands it.
            "#]],
        );
    }
}
