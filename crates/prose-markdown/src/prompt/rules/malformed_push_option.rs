//! # M007 `malformed-push-option`
//!
//! **Malformed `/push` option.** An option of `/push` is written
//! `key=value` before the prompt. Reported: an option without a key
//! (`=x`), without a value (`name=`), a task name with characters other
//! than letters, digits, `-`, `_` and `.`, and an option given twice in
//! one command.
//!
//! ## Why is this bad?
//! The task name is how `/check` and `/receive` find a task's result;
//! a name that is empty, ambiguous or full of punctuation makes that
//! lookup fail or guess.
//!
//! ## Example
//! ```markdown
//! /push name= "Research approach A"
//! Analyze the requirements.
//! ```
//!
//! ## Fix
//! ```markdown
//! /push name=research-a "Research approach A"
//! Analyze the requirements.
//! ```
//!
//! ## Severity
//! Error: the task cannot be queued as written.

use super::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "M007",
    name: "malformed-push-option",
    summary: "Malformed `/push` option",
    severity: Severity::Error,
    source: include_str!("malformed_push_option.rs"),
};

fn valid_name(s: &str) -> bool {
    !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

pub(crate) fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for cmd in ctx.file.processed() {
        let Some(push) = cmd.push.as_ref() else {
            continue;
        };
        for (i, o) in push.options.iter().enumerate() {
            if o.key.is_empty() {
                acc.report(
                    o.range,
                    "Option without a name before `=` (write `name=NAME`)",
                );
                continue;
            }
            if o.value.is_empty() && !o.unterminated {
                acc.report(o.range, format!("`{}=` needs a value", o.key));
                continue;
            }
            if let Some(first) = push.options[..i].iter().find(|p| p.key == o.key) {
                acc.report(
                    o.key_range,
                    format!("`{}` is given twice in this `/push`", o.key),
                )
                .related(first.range, "first given here");
                continue;
            }
            if o.key == "name" && !o.unterminated && !valid_name(&o.value) {
                acc.report(
                    o.value_range,
                    format!(
                        "Task name `{}` may hold only letters, digits, `-`, `_` and `.`",
                        o.value
                    ),
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::prompt::tests::check_code;
    use expect_test::expect;

    #[test]
    fn empty_keys_values_bad_names_and_repeats() {
        check_code(
            "M007",
            "/push =x \"A\"\n/push name= \"B\"\n/push name=\"two words\" \"C\"\n/push name=a name=b \"D\"\n/push name=ok.v2_x-y \"E\"\nText.\n",
            expect![[r#"
                M007 1:7-1:9 error: Option without a name before `=` (write `name=NAME`)
                M007 2:7-2:12 error: `name=` needs a value
                M007 3:12-3:23 error: Task name `two words` may hold only letters, digits, `-`, `_` and `.`
                M007 4:14-4:18 error: `name` is given twice in this `/push`
                  related 4:7-4:13: first given here
            "#]],
        );
    }
}
