//! # J008 `invalid-variable-name`
//!
//! **Prompt variable no `$reference` can name.** A prompt refers to a
//! variable as `$` followed by words of ASCII letters joined by hyphens
//! (`$cppjob`, `$design-doc`), and the name in `promptVariables` is written
//! without the `$`. A name with other characters can never be used: in a
//! prompt, `$step2` reads as the variable `$step` followed by `2`, and
//! `$plan_doc` as `$plan` followed by `_doc`.
//!
//! ## Example
//! ```json
//! {
//!   "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "gpt-5.2-codex", "reviewers": []},
//!   "promptVariables": {
//!     "$plan": ["Write the plan."],
//!     "plan_doc": ["REPO-ROOT/plan.md"]
//!   },
//!   "grid": [],
//!   "tasks": {
//!     "plan-task": {"model": "planning", "prompt": ["Write the plan."], "requireUserInput": false}
//!   }
//! }
//! ```
//!
//! ## Fix
//! ```json
//! {
//!   "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "gpt-5.2-codex", "reviewers": []},
//!   "promptVariables": {
//!     "plan": ["Write the plan in $plan-doc."],
//!     "plan-doc": ["REPO-ROOT/plan.md"]
//!   },
//!   "grid": [],
//!   "tasks": {
//!     "plan-task": {"model": "planning", "prompt": ["$plan"], "requireUserInput": false}
//!   }
//! }
//! ```
//!
//! A name written with its `$` gets a fix that removes it. This is a
//! warning: the definition is harmless in itself, but every prompt that
//! tries to use it fails with `J015`.

use crate::{
    diagnostic::{JobDiagnostic, Rule, Severity},
    model::Entry,
    path::{CodePath, quote},
    rules::rename_fix,
    variables::{find_variables, is_variable_name},
};

pub(crate) const RULE: Rule = Rule {
    code: "J008",
    name: "invalid-variable-name",
    summary: "Prompt variable name that no `$reference` can match",
    severity: Severity::Warning,
    source: include_str!("invalid_variable_name.rs"),
};

pub(crate) fn check(entry: &Entry) -> Vec<JobDiagnostic> {
    let vars = CodePath::entry().field("promptVariables");
    let mut out = Vec::new();
    for v in &entry.prompt_variables {
        let name = v.name.as_str();
        if is_variable_name(name) {
            continue;
        }
        let path = vars.key(name);
        let bare = name.trim_start_matches('$');
        let diagnostic = if bare.len() < name.len() && is_variable_name(bare) {
            JobDiagnostic::new(
                &RULE,
                path.as_str(),
                format!(
                    "Write the name without \"$\": prompts use it as ${bare}, which looks up {}.",
                    quote(bare)
                ),
                v.name.range(),
            )
            // Safe unless a variable already has the bare name (then the
            // renamed one would replace it).
            .with_fix(Some(
                rename_fix(&v.name, bare).safe_if(entry.prompt_variable(bare).is_none()),
            ))
        } else {
            let written = format!("${name}");
            let read = match find_variables(&written).first() {
                _ if name.is_empty() => "is a lone \"$\"".to_string(),
                Some(&(0, end)) => format!(
                    "reads as {} followed by {}",
                    &written[..end],
                    quote(&written[end..])
                ),
                _ => "is not a variable at all".into(),
            };
            JobDiagnostic::new(
                &RULE,
                path.as_str(),
                format!(
                    "No prompt can use this variable: {written} {read}. A name is words of letters joined by hyphens."
                ),
                v.name.range(),
            )
        };
        out.push(diagnostic);
    }
    out
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use crate::rules::tests::{check, entry};

    #[test]
    fn names_that_cannot_be_referenced() {
        check(
            "J008",
            &entry(
                r#""$a": ["x"], "step2": ["x"], "a-": ["x"], "": ["x"], "2x": ["x"], "ok-name": ["x"], "$$b": ["x"]"#,
                "",
            ),
            expect![[r#"
                J008 3:21-3:25 warning: entry.promptVariables["$a"]: Write the name without "$": prompts use it as $a, which looks up "a".
                  fix (safe): Change to "a": 3:21-3:25 "\"a\""
                J008 3:34-3:41 warning: entry.promptVariables["step2"]: No prompt can use this variable: $step2 reads as $step followed by "2". A name is words of letters joined by hyphens.
                J008 3:50-3:54 warning: entry.promptVariables["a-"]: No prompt can use this variable: $a- reads as $a followed by "-". A name is words of letters joined by hyphens.
                J008 3:63-3:65 warning: entry.promptVariables[""]: No prompt can use this variable: $ is a lone "$". A name is words of letters joined by hyphens.
                J008 3:74-3:78 warning: entry.promptVariables["2x"]: No prompt can use this variable: $2x is not a variable at all. A name is words of letters joined by hyphens.
                J008 3:105-3:110 warning: entry.promptVariables["$$b"]: Write the name without "$": prompts use it as $b, which looks up "b".
                  fix (safe): Change to "b": 3:105-3:110 "\"b\""
            "#]],
        );
    }
}
