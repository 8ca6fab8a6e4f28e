//! # P707 `max-not-integer`
//!
//! **Max iterations must be an integer.** The value of `(max: N)` on a
//! `loop` is not an integer literal: a decimal, a number with a unit, a
//! string or an expression.
//!
//! ## Example
//! ```prose
//! loop until **the draft is approved** (max: "5"):
//!   session "Revise the draft"
//! ```
//!
//! ## Fix
//! ```prose
//! loop until **the draft is approved** (max: 5):
//!   session "Revise the draft"
//! ```
//!
//! The diagnostic is on the value. An integer that is zero or negative is
//! [P706](P706.md).
//!
//! ## Specification
//! compiler.md, Unbounded Loops, Validation Rules: "Max iterations not
//! integer" (Error, "Max iterations must be an integer").
//!
//! ## Profiles
//! As for [P702](P702.md): `strict` also reports a variable
//! (`(max: limit)`), because the grammar's value is a NUMBER; `default`
//! accepts a variable that resolves, or a field of one, whose value is
//! known at run time. An undefined variable is [P402](P402.md). The
//! official programs write integer literals only (29 uses, 3 to 1000).

use super::control_shared::report_not_integer;
use super::max_not_positive::loop_max_values;
use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P707",
    name: "max-not-integer",
    summary: "Max iterations must be an integer",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("max_not_integer.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    report_not_integer(acc, loop_max_values(ctx), "Max iterations");
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_code_strict, check_no};
    use expect_test::expect;

    const FIXTURE: &str = "const limit = 5\nloop (max: 2.5):\n  session \"a\"\nloop (max: \"5\"):\n  session \"b\"\nloop (max: limit):\n  session \"c\"\n";

    #[test]
    fn default_accepts_variables() {
        check_code(
            "P707",
            FIXTURE,
            expect![[r#"
            P707 2:12-2:15 error: Max iterations must be an integer (got `2.5`)
            P707 4:12-4:15 error: Max iterations must be an integer (got `"5"`)
        "#]],
        );
    }

    #[test]
    fn strict_reports_variables_too() {
        check_code_strict(
            "P707",
            FIXTURE,
            expect![[r#"
            P707 2:12-2:15 error: Max iterations must be an integer (got `2.5`)
            P707 4:12-4:15 error: Max iterations must be an integer (got `"5"`)
            P707 6:12-6:17 error: Max iterations must be an integer (got `limit`)
        "#]],
        );
    }

    #[test]
    fn integer_max_is_fine() {
        check_no(
            "P707",
            "loop (max: 10):\n  session \"a\"\nloop (max: 0):\n  session \"b\"\n",
        );
    }
}
