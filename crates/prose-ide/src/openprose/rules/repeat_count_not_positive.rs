//! # P701 `repeat-count-not-positive`
//!
//! **Repeat count must be positive.** `repeat N` with an integer N that is
//! zero or negative.
//!
//! ## Why is this bad?
//! A fixed loop that runs zero times (or a negative number of times) never
//! runs its body; the count is almost certainly a typo.
//!
//! ## Example
//! ```prose
//! repeat 0:
//!   session "Generate a creative idea"
//! ```
//!
//! ## Fix
//! ```prose
//! repeat 3:
//!   session "Generate a creative idea"
//! ```
//!
//! The diagnostic is on the count. A count that is not an integer literal
//! (`2.5`, `"3"`, an expression) is [P702](P702.md) instead.
//!
//! ## Specification
//! compiler.md, Fixed Loops, Validation Rules: "Repeat count must be
//! positive" (Error, "Repeat count must be positive"). Same severity in
//! every profile.

use super::control_shared::report_not_positive;
use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P701",
    name: "repeat-count-not-positive",
    summary: "Repeat count must be positive",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("repeat_count_not_positive.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    let counts = nodes::<ast::RepeatExpr>(ctx).filter_map(|r| r.count());
    report_not_positive(acc, counts, "Repeat count");
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn zero_and_negative_counts() {
        check_code(
            "P701",
            "repeat 0:\n  session \"a\"\nrepeat -2 as i:\n  session \"b\"\n",
            expect![[r#"
                P701 1:8-1:9 error: Repeat count must be positive (got `0`)
                P701 3:8-3:10 error: Repeat count must be positive (got `-2`)
            "#]],
        );
    }

    #[test]
    fn positive_and_non_integer_counts_are_not_p701() {
        check_no(
            "P701",
            "repeat 1:\n  session \"a\"\nrepeat 2.5:\n  session \"b\"\nrepeat n:\n  session \"c\"\n",
        );
    }
}
