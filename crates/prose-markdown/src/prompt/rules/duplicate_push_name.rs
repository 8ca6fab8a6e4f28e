//! # M010 `duplicate-push-name`
//!
//! **Two `/push`es name their tasks the same.** Among the leading and
//! trailing commands of one prompt, each `name=` is used once.
//!
//! ## Why is this bad?
//! Results are looked up by task name (`/check`, `/receive`): with two
//! tasks of one name, one result hides the other.
//!
//! ## Example
//! ```markdown
//! /push name=research "Research approach A"
//! /push name=research "Research approach B"
//! /run
//! Compare the two approaches.
//! ```
//!
//! ## Fix
//! ```markdown
//! /push name=research-a "Research approach A"
//! /push name=research-b "Research approach B"
//! /run
//! Compare the two approaches.
//! ```
//!
//! ## Severity
//! Error: the results cannot be told apart.

use super::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "M010",
    name: "duplicate-push-name",
    summary: "Two `/push`es name their tasks the same",
    severity: Severity::Error,
    source: include_str!("duplicate_push_name.rs"),
};

pub(crate) fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    let mut seen: std::collections::HashMap<&str, text_size::TextRange> = Default::default();
    for cmd in ctx.file.processed() {
        let Some(o) = cmd.push.as_ref().and_then(|p| p.name()) else {
            continue;
        };
        if o.value.is_empty() {
            continue;
        }
        match seen.get(o.value.as_str()) {
            Some(first) => {
                let line = line_number(ctx.text, usize::from(first.start()));
                acc.report(
                    o.value_range,
                    format!(
                        "Task name `{}` is already used by the `/push` on line {line}",
                        o.value
                    ),
                )
                .related(*first, "first used here");
            }
            None => {
                seen.insert(&o.value, o.value_range);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::prompt::tests::check_code;
    use expect_test::expect;

    #[test]
    fn leading_and_trailing_names_share_one_namespace() {
        check_code(
            "M010",
            "/push name=a \"A\"\n/push name=b \"B\"\n/push name=a \"A again\"\nText.\n/push name=b \"later\"\n",
            expect![[r#"
                M010 3:12-3:13 error: Task name `a` is already used by the `/push` on line 1
                  related 1:12-1:13: first used here
                M010 5:12-5:13 error: Task name `b` is already used by the `/push` on line 2
                  related 2:12-2:13: first used here
            "#]],
        );
    }
}
