//! # J018 `prompt-variable-cycle`
//!
//! **Prompt variable uses itself.** Expanding a prompt variable replaces
//! every `$name` in its prompt by that variable's expansion, so a variable
//! that uses itself, directly or through others, would expand forever.
//!
//! ## Example
//! ```json
//! {
//!   "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "gpt-5.2-codex", "reviewers": []},
//!   "promptVariables": {
//!     "cppjob": ["$defineRepoRoot", "Follow REPO-ROOT/.github/copilot-instructions.md."],
//!     "defineRepoRoot": ["REPO-ROOT is the root of the repository. $cppjob"]
//!   },
//!   "grid": [],
//!   "tasks": {
//!     "plan-task": {"model": "planning", "prompt": ["$cppjob", "Write the plan."], "requireUserInput": false}
//!   }
//! }
//! ```
//!
//! ## Fix
//! ```json
//! {
//!   "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "gpt-5.2-codex", "reviewers": []},
//!   "promptVariables": {
//!     "cppjob": ["$defineRepoRoot", "Follow REPO-ROOT/.github/copilot-instructions.md."],
//!     "defineRepoRoot": ["REPO-ROOT is the root of the repository."]
//!   },
//!   "grid": [],
//!   "tasks": {
//!     "plan-task": {"model": "planning", "prompt": ["$cppjob", "Write the plan."], "requireUserInput": false}
//!   }
//! }
//! ```
//!
//! The error is on the use that closes the cycle, and the message spells
//! the cycle out (`$cppjob → $defineRepoRoot → $cppjob`). Each cycle is
//! reported once, however many prompts reach it.
//!
//! ## Why
//! The seed does not mention cycles; the original implementation would
//! recurse until the stack overflows. Here a cycle is an error found in
//! one pass over the variables, never a hang.

use crate::{
    diagnostic::{JobDiagnostic, Rule, Severity},
    model::VariableUse,
    path::At,
};

pub(crate) const RULE: Rule = Rule {
    code: "J018",
    name: "prompt-variable-cycle",
    summary: "Prompt variable uses itself",
    severity: Severity::Error,
    source: include_str!("prompt_variable_cycle.rs"),
};

/// `u`, in the prompt at `path`, closes `cycle` (variable names, the first
/// and the last the same).
pub(crate) fn diagnostic(path: &At<'_>, u: &VariableUse, cycle: &[&str]) -> JobDiagnostic {
    let chain: Vec<String> = cycle.iter().map(|n| format!("${n}")).collect();
    JobDiagnostic::new(
        &RULE,
        &path.render(),
        format!(
            "Prompt variable ${} uses itself: {}.",
            u.name,
            chain.join(" → ")
        ),
        u.range,
    )
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use crate::rules::tests::{check, entry};

    #[test]
    fn cycles_are_reported_once() {
        check(
            "J018",
            &entry(
                r#""self": ["again $self"], "a": ["$b"], "b": ["$c", "$a"], "c": ["leaf"], "lone": ["$lone-ring"], "lone-ring": ["$lone"]"#,
                r#""t": {"prompt": ["$self $a"], "requireUserInput": false},
                 "u": {"prompt": ["$b", "$a"], "requireUserInput": false}"#,
            ),
            expect![[r#"
                J018 3:37-3:42 error: entry.tasks["t"].prompt/$self: Prompt variable $self uses itself: $self → $self.
                J018 3:72-3:74 error: entry.tasks["t"].prompt/$a/$b: Prompt variable $a uses itself: $a → $b → $a.
                J018 3:132-3:137 error: entry.promptVariables["lone"]/$lone-ring: Prompt variable $lone uses itself: $lone → $lone-ring → $lone.
            "#]],
        );
    }
}
