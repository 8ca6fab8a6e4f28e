//! # K014 `then-without-if`
//!
//! **`_then_` without an `_if_` before it.** `_then_` separates the
//! condition of an `_if_` or `_elif_` from its action, in the same
//! paragraph, list item or heading.
//!
//! ## Why is this bad?
//! A `_then_` with no condition before it makes the action look
//! conditional when nothing decides whether it runs.
//!
//! ## Example
//! ```markdown
//! When the tests fail, _then_ _terminate_ "SGN_FAILED".
//! ```
//!
//! ## Fix
//! ```markdown
//! _if_ the tests fail, _then_ _terminate_ "SGN_FAILED".
//! ```
//!
//! ## Severity
//! Error: the statement is malformed.

use super::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "K014",
    name: "then-without-if",
    summary: "`_then_` without an `_if_` before it",
    severity: Severity::Error,
    source: include_str!("then_without_if.rs"),
};

pub(crate) fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for r in &ctx.ins.stray_thens {
        acc.report(
            *r,
            "`_then_` without an `_if_` or `_elif_` before it in this paragraph, list item or heading",
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::instructions::tests::check_code;
    use expect_test::expect;

    #[test]
    fn stray_thens() {
        check_code(
            "K014",
            "_then_ stop.\n_if_ a, _then_ b, _then_ c.\n- _if_ a,\n- _then_ b.\n",
            expect![[r#"
                K014 1:1-1:7 error: `_then_` without an `_if_` or `_elif_` before it in this paragraph, list item or heading
                K014 2:19-2:25 error: `_then_` without an `_if_` or `_elif_` before it in this paragraph, list item or heading
                K014 4:3-4:9 error: `_then_` without an `_if_` or `_elif_` before it in this paragraph, list item or heading
            "#]],
        );
    }
}
