//! # J011 `user-input-mismatch`
//!
//! **`requireUserInput` disagrees with the prompt.** A task that requires
//! user input must use `$user-input` in its prompt, which is where the
//! input goes; a task that does not require it must not use it, since
//! nothing would fill it in. The prompt is checked fully expanded, so a
//! `$user-input` inside a prompt variable counts.
//!
//! ## Example
//! ```json
//! {
//!   "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "gpt-5.2-codex", "reviewers": []},
//!   "promptVariables": {
//!     "ask": ["Answer this question: $user-input"]
//!   },
//!   "grid": [],
//!   "tasks": {
//!     "ask-task": {"model": "planning", "prompt": ["$ask"], "requireUserInput": false},
//!     "plan-task": {"model": "planning", "prompt": ["Write the plan."], "requireUserInput": true}
//!   }
//! }
//! ```
//!
//! ## Fix
//! ```json
//! {
//!   "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "gpt-5.2-codex", "reviewers": []},
//!   "promptVariables": {
//!     "ask": ["Answer this question: $user-input"]
//!   },
//!   "grid": [],
//!   "tasks": {
//!     "ask-task": {"model": "planning", "prompt": ["$ask"], "requireUserInput": true},
//!     "plan-task": {"model": "planning", "prompt": ["Write the plan.", "$user-input"], "requireUserInput": true}
//!   }
//! }
//! ```
//!
//! The diagnostic is on the `requireUserInput` value, with a fix that flips
//! it; when the prompt uses `$user-input` through variables, the place
//! where it is written is a related location. When the prompt has an error
//! of its own (an unknown variable, say) this check waits for it to be
//! fixed.
//!
//! ## Specification
//! Seed 002, `validateEntry`: "`entry.tasks[name].requireUserInput`: If it
//! is true, its evaluated `prompt` should use `$user-input`, otherwise
//! should not use." As in the seed, "use" means the expanded text contains
//! `$user-input`.

use crate::{
    diagnostic::{Fix, JobDiagnostic, Rule, Severity},
    expand::summary::{Summary, USER_INPUT},
    model::Task,
    path::At,
};

pub(crate) const RULE: Rule = Rule {
    code: "J011",
    name: "user-input-mismatch",
    summary: "`requireUserInput` disagrees with the prompt's use of `$user-input`",
    severity: Severity::Error,
    source: include_str!("user_input_mismatch.rs"),
};

/// Checks `task`, whose expanded prompt is summarized by `prompt`.
pub(crate) fn check(task: &Task, prompt: &Summary, path: &At<'_>) -> Option<JobDiagnostic> {
    let flag = task.require_user_input?;
    let uses = prompt.has(USER_INPUT);
    if !prompt.complete || flag.value == uses {
        return None;
    }
    let reason = if flag.value {
        "requireUserInput is true, but the expanded prompt does not use $user-input."
    } else {
        "requireUserInput is false, but the expanded prompt uses $user-input."
    };
    // Changing the prompt may be what is meant instead: only offered.
    let fix = Fix::replace(format!("Change to {uses}"), flag.range, uses.to_string()).offered();
    let mut d = JobDiagnostic::new(
        &RULE,
        &path.field("requireUserInput").render(),
        reason,
        flag.range,
    )
    .with_fix(Some(fix));
    if let Some(at) = prompt.user_input_at {
        d = d.with_related(at, "$user-input is used here");
    }
    Some(d)
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use crate::rules::tests::{check, entry};

    #[test]
    fn flag_and_prompt_agree() {
        check(
            "J011",
            &entry(
                r#""ask": ["Q: $user-input"], "outer": ["$ask"]"#,
                r#""a": {"prompt": ["$outer"], "requireUserInput": false},
                 "b": {"prompt": ["no input"], "requireUserInput": true},
                 "c": {"prompt": ["$user-input"], "requireUserInput": true},
                 "d": {"prompt": ["x"], "requireUserInput": false},
                 "e": {"prompt": ["$unknown"], "requireUserInput": true},
                 "f": {"prompt": ["$user-inputs"], "requireUserInput": true}"#,
            ),
            expect![[r#"
                J011 5:59-5:64 error: entry.tasks["a"].requireUserInput: requireUserInput is false, but the expanded prompt uses $user-input.
                  related 3:33-3:44: $user-input is used here
                  fix (offered): Change to true: 5:59-5:64 "true"
                J011 6:68-6:72 error: entry.tasks["b"].requireUserInput: requireUserInput is true, but the expanded prompt does not use $user-input.
                  fix (offered): Change to false: 6:68-6:72 "false"
            "#]],
        );
    }
}
