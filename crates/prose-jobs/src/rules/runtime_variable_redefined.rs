//! # J009 `runtime-variable-redefined`
//!
//! **Prompt variable named like a runtime variable.** `$user-input`,
//! `$reported-document`, `$reported-true-reason` and
//! `$reported-false-reason` are runtime variables: static expansion keeps
//! them in the prompt, and the runner fills them in each time it sends the
//! prompt. A prompt variable with one of these names is never used, since
//! the runtime variable wins.
//!
//! ## Example
//! ```json
//! {
//!   "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "gpt-5.2-codex", "reviewers": []},
//!   "promptVariables": {
//!     "user-input": ["Fix the failing tests."]
//!   },
//!   "grid": [],
//!   "tasks": {
//!     "fix-task": {"model": "coding", "prompt": ["$user-input"], "requireUserInput": true}
//!   }
//! }
//! ```
//!
//! ## Fix
//! ```json
//! {
//!   "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "gpt-5.2-codex", "reviewers": []},
//!   "promptVariables": {
//!     "fix-tests": ["Fix the failing tests."]
//!   },
//!   "grid": [],
//!   "tasks": {
//!     "fix-task": {"model": "coding", "prompt": ["$fix-tests"], "requireUserInput": false}
//!   }
//! }
//! ```
//!
//! ## Why
//! The seed lists both lookups without an order; the original
//! implementation looks at the runtime variables first. Either way one of
//! the two meanings would be lost, so the name is an error.

use crate::{
    diagnostic::{JobDiagnostic, Rule, Severity},
    model::Entry,
    path::CodePath,
    variables::is_runtime_variable,
};

pub(crate) const RULE: Rule = Rule {
    code: "J009",
    name: "runtime-variable-redefined",
    summary: "Prompt variable named like a runtime variable",
    severity: Severity::Error,
    source: include_str!("runtime_variable_redefined.rs"),
};

pub(crate) fn check(entry: &Entry) -> Vec<JobDiagnostic> {
    let vars = CodePath::entry().field("promptVariables");
    entry
        .prompt_variables
        .iter()
        .filter(|v| is_runtime_variable(v.name.as_str()))
        .map(|v| {
            let name = v.name.as_str();
            JobDiagnostic::new(
                &RULE,
                vars.key(name).as_str(),
                format!("${name} is a runtime variable: prompts keep it for the runner to fill in, so this definition is never used."),
                v.name.range(),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use crate::rules::tests::{check, entry};

    #[test]
    fn runtime_names() {
        check(
            "J009",
            &entry(
                r#""user-input": ["x"], "reported-document": ["y"], "user": ["z"]"#,
                "",
            ),
            expect![[r#"
                J009 3:21-3:33 error: entry.promptVariables["user-input"]: $user-input is a runtime variable: prompts keep it for the runner to fill in, so this definition is never used.
                J009 3:42-3:61 error: entry.promptVariables["reported-document"]: $reported-document is a runtime variable: prompts keep it for the runner to fill in, so this definition is never used.
            "#]],
        );
    }
}
