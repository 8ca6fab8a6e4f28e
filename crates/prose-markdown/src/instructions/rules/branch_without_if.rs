//! # K002 `branch-without-if`
//!
//! **`_elif_` or `_else_` without an `_if_` before it.** A branch belongs
//! to the `_if_` just before it: earlier in the same paragraph, or on the
//! previous line or list item at the same level (or the previous heading
//! of the same level, for sections).
//!
//! ## Why is this bad?
//! Without the `_if_`, there is no condition whose failure the branch
//! handles: the model has to guess which earlier test it continues.
//!
//! ## Example
//! ```markdown
//! - _if_ the tests pass, _then_ _terminate_ "SGN_DONE".
//! - Tell the user what failed.
//! - _else_ _terminate_ "SGN_FAILED".
//! ```
//!
//! ## Fix
//! ```markdown
//! - _if_ the tests pass, _then_ _terminate_ "SGN_DONE".
//! - _else_ tell the user what failed, then _terminate_ "SGN_FAILED".
//! ```
//!
//! ## Severity
//! Error: the branch has no meaning on its own.

use super::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "K002",
    name: "branch-without-if",
    summary: "`_elif_` or `_else_` without an `_if_` before it",
    severity: Severity::Error,
    source: include_str!("branch_without_if.rs"),
};

pub(crate) fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for b in ctx.ins.branches.iter().filter(|b| !b.follows_if) {
        acc.report(
            b.keyword_range,
            format!(
                "`{}` without an `_if_` before it: put it right after the `_if_` branch, in the same paragraph or on the next line or list item at the same level",
                b.keyword.written()
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::instructions::tests::check_code;
    use expect_test::expect;

    #[test]
    fn orphan_branches() {
        check_code(
            "K002",
            "_else_ stop.\n\n_if_ a, _then_ b.\n\nSomething else.\n\n_elif_ c, _then_ d.\n- x\n  - _if_ e, _then_ f.\n- _else_ g.\n",
            expect![[r#"
                K002 1:1-1:7 error: `_else_` without an `_if_` before it: put it right after the `_if_` branch, in the same paragraph or on the next line or list item at the same level
                K002 7:1-7:7 error: `_elif_` without an `_if_` before it: put it right after the `_if_` branch, in the same paragraph or on the next line or list item at the same level
                K002 10:3-10:9 error: `_else_` without an `_if_` before it: put it right after the `_if_` branch, in the same paragraph or on the next line or list item at the same level
            "#]],
        );
    }

    #[test]
    fn chains_on_lines_items_inline_and_headings() {
        check_code(
            "K002",
            r#"_if_ a, _then_ b.
_elif_ c, _then_ _follow_:
1) d
2) e
_else_ f.

- _if_ a, _then_:
    - b
- _else_:
    - c

_if_ a, _then_ b, _else_ c.

## _if_ a, _then_:
Do b.
## _else_:
Do c.
"#,
            expect![""],
        );
    }
}
