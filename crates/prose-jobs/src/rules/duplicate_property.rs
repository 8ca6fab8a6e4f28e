//! # J005 `duplicate-entry-property`
//!
//! **Duplicate property.** The same key appears twice in one object: two
//! tasks or two prompt variables with the same name, or a property written
//! twice. As in JavaScript, the last one counts; the earlier ones are
//! ignored, by the checks as by a runner.
//!
//! ## Example
//! ```json
//! {
//!   "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "gpt-5.2-codex", "reviewers": []},
//!   "promptVariables": {
//!     "plan": ["Write the plan."],
//!     "plan": ["Write the plan in REPO-ROOT/plan.md."]
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
//!     "plan": ["Write the plan in REPO-ROOT/plan.md."]
//!   },
//!   "grid": [],
//!   "tasks": {
//!     "plan-task": {"model": "planning", "prompt": ["$plan"], "requireUserInput": false}
//!   }
//! }
//! ```
//!
//! The warning is on each ignored key, with the key that counts as a
//! related location.

use crate::{
    diagnostic::{JobDiagnostic, Rule, Severity},
    json::JsonString,
    path::{At, quote},
};

pub(crate) const RULE: Rule = Rule {
    code: "J005",
    name: "duplicate-entry-property",
    summary: "Duplicate property",
    severity: Severity::Warning,
    source: include_str!("duplicate_property.rs"),
};

/// `earlier` is overridden by `last`, a key of the same object at `path`;
/// `map` tells a map (tasks, prompt variables: `["name"]` in code paths)
/// from a record (`.name`).
pub(crate) fn diagnostic(
    path: &At<'_>,
    map: bool,
    earlier: &JsonString,
    last: &JsonString,
) -> JobDiagnostic {
    let reason = format!(
        "Duplicate key {}; only the last one counts, so this one is ignored.",
        quote(earlier.as_str())
    );
    let name = earlier.as_str();
    let at = if map {
        path.key(name)
    } else {
        path.member(name)
    };
    JobDiagnostic::new(&RULE, &at.render(), reason, earlier.range())
        .with_related(last.range(), "the key that counts")
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use crate::rules::tests::{check, entry};

    #[test]
    fn earlier_keys_are_ignored() {
        check(
            "J005",
            &entry(
                r#""a": ["1"], "a": ["2"], "a": ["3"]"#,
                r#""t": {"prompt": ["$a"], "requireUserInput": false, "requireUserInput": false}"#,
            ),
            expect![[r#"
                J005 3:21-3:24 warning: entry.promptVariables["a"]: Duplicate key "a"; only the last one counts, so this one is ignored.
                  related 3:45-3:48: the key that counts
                J005 3:33-3:36 warning: entry.promptVariables["a"]: Duplicate key "a"; only the last one counts, so this one is ignored.
                  related 3:45-3:48: the key that counts
                J005 5:35-5:53 warning: entry.tasks["t"].requireUserInput: Duplicate key "requireUserInput"; only the last one counts, so this one is ignored.
                  related 5:62-5:80: the key that counts
            "#]],
        );
    }

    #[test]
    fn large_maps_too() {
        let mut tasks: Vec<String> = (0..20)
            .map(|i| {
                format!(
                    r#""t{}": {{"prompt": ["x"], "requireUserInput": false}}"#,
                    "x".repeat(i)
                )
            })
            .collect();
        tasks.insert(
            3,
            r#""txx": {"prompt": ["y"], "requireUserInput": false}"#.into(),
        );
        let text = entry("", &tasks.join(",\n"));
        check(
            "J005",
            &text,
            expect![[r#"
                J005 7:1-7:6 warning: entry.tasks["txx"]: Duplicate key "txx"; only the last one counts, so this one is ignored.
                  related 8:1-8:6: the key that counts
            "#]],
        );
        let parsed = crate::parse(&text);
        assert_eq!(parsed.entry.tasks.len(), 20);
        let kept = parsed.entry.task("txx").unwrap();
        assert_eq!(&text[kept.prompt.as_ref().unwrap().range], r#"["y"]"#);
    }
}
