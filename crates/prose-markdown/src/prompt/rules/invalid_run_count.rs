//! # M011 `invalid-run-count`
//!
//! **`/run` count is not a positive whole number.** `/run` starts every
//! queued task; `/run N` starts `N` of them, where `N` is 1 or more.
//!
//! ## Why is this bad?
//! `/run 0` starts nothing, `/run -1` or `/run two` means nothing the
//! runtime can count, and `/run 1 2` is ambiguous.
//!
//! ## Example
//! ```markdown
//! /push name=a "Research approach A"
//! /push name=b "Research approach B"
//! /run 0
//! Compare the approaches.
//! ```
//!
//! ## Fix
//! ```markdown
//! /push name=a "Research approach A"
//! /push name=b "Research approach B"
//! /run 2
//! Compare the approaches.
//! ```
//!
//! ## Severity
//! Error: the command cannot be processed as written.

use super::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "M011",
    name: "invalid-run-count",
    summary: "`/run` count is not a positive whole number",
    severity: Severity::Error,
    source: include_str!("invalid_run_count.rs"),
};

pub(crate) fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for cmd in ctx.file.processed().filter(|c| c.kind == CommandKind::Run) {
        match cmd.args.as_slice() {
            [] => {}
            [n] => {
                let ok = !n.quoted
                    && n.value.bytes().all(|b| b.is_ascii_digit())
                    && n.value.parse::<u64>().is_ok_and(|v| v > 0);
                if !ok {
                    acc.report(
                        n.range,
                        format!(
                            "`/run` takes a positive whole number (how many queued tasks to start), not `{}`",
                            n.value
                        ),
                    );
                }
            }
            [_, extra @ ..] => {
                let r = extra[0].range.cover(extra[extra.len() - 1].range);
                acc.report(r, "`/run` takes at most one number");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::prompt::tests::check_code;
    use expect_test::expect;

    #[test]
    fn counts() {
        check_code(
            "M011",
            "/run\n/run 3\n/run 0\n/run -1\n/run two\n/run 1.5\n/run 1 2\n/run 99999999999999999999\nText.\n",
            expect![[r#"
                M011 3:6-3:7 error: `/run` takes a positive whole number (how many queued tasks to start), not `0`
                M011 4:6-4:8 error: `/run` takes a positive whole number (how many queued tasks to start), not `-1`
                M011 5:6-5:9 error: `/run` takes a positive whole number (how many queued tasks to start), not `two`
                M011 6:6-6:9 error: `/run` takes a positive whole number (how many queued tasks to start), not `1.5`
                M011 7:8-7:9 error: `/run` takes at most one number
                M011 8:6-8:26 error: `/run` takes a positive whole number (how many queued tasks to start), not `99999999999999999999`
            "#]],
        );
    }
}
