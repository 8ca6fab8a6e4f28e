//! # P802 `reduce-without-variables`
//!
//! **Reduce without variables.** A `reduce` operation without a
//! parenthesised list of exactly two names, its accumulator and its item
//! (`reduce:`, `reduce():`, `reduce(acc):`).
//!
//! ## Why is this bad?
//! Unlike `map`, `filter` and `pmap`, `reduce` has no implicit variables:
//! without names the body cannot refer to the running result or to the
//! current item.
//!
//! ## Example
//! ```prose
//! let summary = ["a", "b"] | reduce:
//!   session "Merge the findings"
//! ```
//!
//! ## Fix
//! ```prose
//! let summary = ["a", "b"] | reduce(acc, finding):
//!   session "Merge {finding} into {acc}"
//! ```
//!
//! The diagnostic is on the `reduce` keyword, or on the list when it has
//! the wrong number of names.
//!
//! ## Specification
//! compiler.md, Pipeline Operations, Validation Rules: "Reduce without
//! variables" (Error, "Expected accumulator and item variables"). Same
//! severity in every profile.

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P802",
    name: "reduce-without-variables",
    summary: "Reduce without variables",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("reduce_without_variables.rs"),
    check: Check::OpenProse(check),
};

const MESSAGE: &str = "Expected accumulator and item variables";

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for op in nodes::<ast::PipeOp>(ctx) {
        if op.op_name() != "reduce" {
            continue;
        }
        match op.params() {
            None => {
                if let Some(kw) = op.op_token() {
                    acc.report(
                        kw.text_range(),
                        format!("{MESSAGE}: write `reduce(acc, item):`"),
                    );
                }
            }
            Some(list) => {
                let n = list.params().count();
                if n != 2 {
                    acc.report(
                        list.syntax().text_range(),
                        format!("{MESSAGE}: `reduce` takes exactly two names, found {n}"),
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn missing_and_wrong_lists() {
        check_code(
            "P802",
            "let a = xs | reduce:\n  session \"a\"\nlet b = xs | reduce(acc):\n  session \"b\"\nlet c = xs | reduce():\n  session \"c\"\n",
            expect![[r#"
                P802 1:14-1:20 error: Expected accumulator and item variables: write `reduce(acc, item):`
                P802 3:20-3:25 error: Expected accumulator and item variables: `reduce` takes exactly two names, found 1
                P802 5:20-5:22 error: Expected accumulator and item variables: `reduce` takes exactly two names, found 0
            "#]],
        );
    }

    #[test]
    fn two_names_are_fine() {
        check_no(
            "P802",
            "let a = xs | reduce(acc, x):\n  session \"a\"\nlet b = xs | map:\n  session \"b\"\n",
        );
    }
}
