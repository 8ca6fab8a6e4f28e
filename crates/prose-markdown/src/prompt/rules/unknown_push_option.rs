//! # M008 `unknown-push-option`
//!
//! **Unknown `/push` option.** A `key=value` word before the prompt whose
//! key is not one `/push` knows (`name`).
//!
//! ## Why is this bad?
//! A misspelled `nmae=research` does not name the task; depending on the
//! runtime it is ignored or becomes part of the prompt.
//!
//! ## Example
//! ```markdown
//! /push nmae=research-a "Research approach A"
//! Analyze the requirements.
//! ```
//!
//! ## Fix
//! ```markdown
//! /push name=research-a "Research approach A"
//! Analyze the requirements.
//! ```
//!
//! A quick fix renames a key close to a known one. A prompt that really
//! starts with `word=…` is quoted.
//!
//! ## Severity
//! Warning: seed 004 is an early design whose options may grow.

use super::prelude::*;
use crate::prompt::PUSH_OPTIONS;

pub(crate) const RULE: Rule = Rule {
    code: "M008",
    name: "unknown-push-option",
    summary: "Unknown `/push` option",
    severity: Severity::Warning,
    source: include_str!("unknown_push_option.rs"),
};

pub(crate) fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for cmd in ctx.file.processed() {
        let Some(push) = cmd.push.as_ref() else {
            continue;
        };
        for o in &push.options {
            if o.key.is_empty() || PUSH_OPTIONS.contains(&o.key.as_str()) {
                continue;
            }
            let guess = closest(&o.key, PUSH_OPTIONS);
            let dym = did_you_mean(guess.map(str::to_string));
            let d = acc.report(
                o.key_range,
                format!(
                    "Unknown `/push` option `{}`{dym}; the known option is `name`",
                    o.key
                ),
            );
            if let Some(g) = guess {
                d.fix(format!("Change to `{g}`"), o.key_range, g);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::prompt::tests::{check_code, check_fix};
    use expect_test::expect;

    #[test]
    fn unknown_keys() {
        check_code(
            "M008",
            "/push nmae=a \"A\"\n/push priority=high \"B\"\n/push name=c \"C\"\nText.\n",
            expect![[r#"
                M008 1:7-1:11 warning: Unknown `/push` option `nmae` (did you mean `name`?); the known option is `name`
                M008 2:7-2:15 warning: Unknown `/push` option `priority`; the known option is `name`
            "#]],
        );
    }

    #[test]
    fn quick_fix() {
        check_fix(
            "M008",
            "/push nmae=a \"A\"\nText.\n",
            expect![[r#"
            /push name=a "A"
            Text.
        "#]],
        );
    }
}
