//! # J015 `unknown-prompt-variable`
//!
//! **Cannot find prompt variable.** A prompt uses `$name`, but `name` is
//! neither a key of `promptVariables` nor a runtime variable
//! (`$user-input`, `$reported-document`, `$reported-true-reason`,
//! `$reported-false-reason`).
//!
//! ## Example
//! ```json
//! {
//!   "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "gpt-5.2-codex", "reviewers": []},
//!   "promptVariables": {
//!     "cppjob": ["Follow REPO-ROOT/.github/copilot-instructions.md."],
//!     "plan": ["$cppjb", "Write the plan."]
//!   },
//!   "grid": [],
//!   "tasks": {
//!     "plan-task": {"model": "planning", "prompt": ["$plan", "$reported-documents"], "requireUserInput": false}
//!   }
//! }
//! ```
//!
//! ## Fix
//! ```json
//! {
//!   "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "gpt-5.2-codex", "reviewers": []},
//!   "promptVariables": {
//!     "cppjob": ["Follow REPO-ROOT/.github/copilot-instructions.md."],
//!     "plan": ["$cppjob", "Write the plan."]
//!   },
//!   "grid": [],
//!   "tasks": {
//!     "plan-task": {"model": "planning", "prompt": ["$plan", "$reported-document"], "requireUserInput": false}
//!   }
//! }
//! ```
//!
//! The diagnostic is on the `$name` inside the string, and the message is
//! the seed's: `CODE-PATH: Cannot find prompt variable: $name.`, where the
//! code path says how the prompt was reached: a use inside the prompt
//! variable `plan`, reached from a task's prompt, has the code path
//! `entry.tasks["plan-task"].prompt/$plan`. Each use is reported once,
//! with the path of the first prompt that reached it; uses inside prompt
//! variables that no task uses are reported with the code path
//! `entry.promptVariables["name"]`. When a name is close, the fix
//! replaces it.
//!
//! When the entry has no `promptVariables` object at all, that is the one
//! error reported (`J003` or `J002`), not one per use.
//!
//! A variable is `$` followed by words of ASCII letters joined by hyphens,
//! so in `$plan2` the variable is `$plan`, and `$$plan` is a `$` followed
//! by `$plan`.
//!
//! ## Specification
//! Seed 002, `expandPromptStatic`: "When it fails to look up the value,
//! report an error `${codePath}: Cannot find prompt variable:
//! ${variableName}.`".

use crate::{
    diagnostic::{Fix, JobDiagnostic, Rule, Severity},
    model::VariableUse,
    nearest::{Candidates, is_obvious},
    path::At,
    variables::RUNTIME_VARIABLES,
};

pub(crate) const RULE: Rule = Rule {
    code: "J015",
    name: "unknown-prompt-variable",
    summary: "Cannot find prompt variable",
    severity: Severity::Error,
    source: include_str!("unknown_prompt_variable.rs"),
};

/// `u`, used in the prompt at `path`, names no variable; `suggested` is
/// its [`suggestion`].
pub(crate) fn diagnostic(
    path: &At<'_>,
    u: &VariableUse,
    suggested: Option<&(String, bool)>,
) -> JobDiagnostic {
    JobDiagnostic::new(
        &RULE,
        &path.render(),
        format!("Cannot find prompt variable: ${}.", u.name),
        u.range,
    )
    .with_fix(suggested.map(|(n, obvious)| {
        Fix::replace(format!("Change to ${n}"), u.range, format!("${n}")).safe_if(*obvious)
    }))
}

/// The names an unknown variable may be a misspelling of: the prompt
/// variables `names`, then the runtime variables.
pub(crate) fn candidates<'a>(names: impl Iterator<Item = &'a str>) -> Candidates<'a> {
    let runtime = RUNTIME_VARIABLES.iter().map(|r| &r[1..]);
    Candidates::new(names.chain(runtime))
}

/// The name to suggest for the unknown variable `name` among
/// `candidates`, and whether the correction is obvious (safe to apply).
/// The same for every use of one name: callers ask once per name.
pub(crate) fn suggestion(name: &str, candidates: &Candidates<'_>) -> Option<(String, bool)> {
    let near = candidates.nearest(name)?;
    Some((near.to_string(), is_obvious(name, near, candidates.names())))
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use crate::rules::tests::{check, entry};

    #[test]
    fn each_use_once_with_the_first_path() {
        check(
            "J015",
            &entry(
                r#""inner": ["$nope and $cppjb"], "outer": ["$inner"], "cppjob": ["x"], "unused": ["$gone"]"#,
                r#""a": {"prompt": ["$outer $outer", "$user-inputt"], "requireUserInput": false},
                 "b": {"prompt": ["$inner", "$$cppjob", "$cppjob2"], "requireUserInput": false}"#,
            ),
            expect![[r#"
                J015 3:32-3:37 error: entry.tasks["a"].prompt/$outer/$inner: Cannot find prompt variable: $nope.
                J015 3:42-3:48 error: entry.tasks["a"].prompt/$outer/$inner: Cannot find prompt variable: $cppjb.
                  fix (safe): Change to $cppjob: 3:42-3:48 "$cppjob"
                J015 3:102-3:107 error: entry.promptVariables["unused"]: Cannot find prompt variable: $gone.
                J015 5:46-5:58 error: entry.tasks["a"].prompt: Cannot find prompt variable: $user-inputt.
                  fix (safe): Change to $user-input: 5:46-5:58 "$user-input"
            "#]],
        );
    }

    #[test]
    fn a_tie_suggests_the_first_in_file_order() {
        let vars: Vec<String> = ["ab", "ac", "ad", "ae", "af", "ag", "ah", "ai"]
            .iter()
            .map(|v| format!(r#""{v}": ["x"]"#))
            .collect();
        let uses = r#""t": {"prompt": ["$ab $ac $ad $ae $af $ag $ah $ai $az"], "requireUserInput": false}"#;
        check(
            "J015",
            &entry(&vars.join(", "), uses),
            expect![[r#"
                J015 5:61-5:64 error: entry.tasks["t"].prompt: Cannot find prompt variable: $az.
                  fix: Change to $ab: 5:61-5:64 "$ab"
            "#]],
        );
    }

    #[test]
    fn escaped_strings_keep_exact_ranges() {
        check(
            "J015",
            &entry(
                "",
                r#""a": {"prompt": ["\"quoted\" \u0024missing-var\n"], "requireUserInput": false}"#,
            ),
            expect![[r#"
                J015 5:40-5:57 error: entry.tasks["a"].prompt: Cannot find prompt variable: $missing-var.
            "#]],
        );
    }

    #[test]
    fn no_prompt_variables_no_cascade() {
        check(
            "J015",
            r#"{"tasks": {"t": {"prompt": ["$a $b"], "requireUserInput": false}}}"#,
            expect![""],
        );
    }
}
