//! # P706 `max-not-positive`
//!
//! **Max iterations must be positive.** `(max: N)` on a `loop` with an
//! integer N that is zero or negative.
//!
//! ## Why is this bad?
//! A loop allowed zero iterations never runs its body.
//!
//! ## Example
//! ```prose
//! loop until **the tests pass** (max: 0):
//!   session "Fix the next failing test"
//! ```
//!
//! ## Fix
//! ```prose
//! loop until **the tests pass** (max: 10):
//!   session "Fix the next failing test"
//! ```
//!
//! The diagnostic is on N. A value that is not an integer literal is
//! [P707](P707.md).
//!
//! ## Specification
//! compiler.md, Unbounded Loops, Validation Rules: "Max iterations <= 0"
//! (Error, "Max iterations must be positive"). Same severity in every
//! profile.

use super::control_shared::report_not_positive;
use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P706",
    name: "max-not-positive",
    summary: "Max iterations must be positive",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("max_not_positive.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    report_not_positive(acc, loop_max_values(ctx), "Max iterations");
}

/// The values of every `max:` modifier of a `loop`.
pub(super) fn loop_max_values(ctx: &Ctx<'_>) -> Vec<ast::Expr> {
    nodes::<ast::LoopExpr>(ctx)
        .flat_map(|l| l.modifiers())
        .flat_map(|m| m.modifiers())
        .filter(|m| m.key().as_deref() == Some("max"))
        .filter_map(|m| m.value())
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn zero_and_negative_max() {
        check_code(
            "P706",
            "loop (max: 0):\n  session \"a\"\nloop until **done** (max: -3):\n  session \"b\"\n",
            expect![[r#"
                P706 1:12-1:13 error: Max iterations must be positive (got `0`)
                P706 3:27-3:29 error: Max iterations must be positive (got `-3`)
            "#]],
        );
    }

    #[test]
    fn positive_max_is_fine() {
        check_no(
            "P706",
            "loop (max: 1):\n  session \"a\"\nloop (max: 2.5):\n  session \"b\"\n",
        );
    }
}
