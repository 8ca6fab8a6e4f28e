//! # P702 `repeat-count-not-integer`
//!
//! **Repeat count must be an integer.** The count of `repeat` is not an
//! integer literal: a decimal (`2.5`), a number with a unit, a string
//! (`"3"`) or an expression.
//!
//! ## Why is this bad?
//! A fixed loop needs a whole number of iterations; `repeat 2.5` or
//! `repeat "3"` has no clear meaning.
//!
//! ## Example
//! ```prose
//! repeat 2.5:
//!   session "Generate a creative idea"
//! ```
//!
//! ## Fix
//! ```prose
//! repeat 3:
//!   session "Generate a creative idea"
//! ```
//!
//! The diagnostic is on the count. An integer that is zero or negative is
//! [P701](P701.md).
//!
//! ## Specification
//! compiler.md, Fixed Loops, Validation Rules: "Repeat count must be
//! integer" (Error, "Repeat count must be an integer").
//!
//! ## Profiles
//! `strict` also reports a variable used as the count (`repeat rounds:`),
//! because the grammar's count is a NUMBER. `default` accepts a variable
//! that resolves, or a field of one (`repeat config.rounds:`): its value is
//! only known at run time, and the VM (prose.md) evaluates it then. An
//! undefined variable is reported by [P402](P402.md) in both profiles.
//! The official programs only write `repeat 3` (2 uses), so the choice
//! costs nothing there.

use super::control_shared::report_not_integer;
use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P702",
    name: "repeat-count-not-integer",
    summary: "Repeat count must be an integer",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("repeat_count_not_integer.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    let counts = nodes::<ast::RepeatExpr>(ctx).filter_map(|r| r.count());
    report_not_integer(acc, counts, "Repeat count");
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_code_strict, check_no};
    use expect_test::expect;

    const FIXTURE: &str = "const rounds = 3\nrepeat 2.5:\n  session \"a\"\nrepeat \"3\":\n  session \"b\"\nrepeat rounds:\n  session \"c\"\nrepeat rounds + 1:\n  session \"d\"\n";

    #[test]
    fn default_accepts_variables() {
        check_code(
            "P702",
            FIXTURE,
            expect![[r#"
            P702 2:8-2:11 error: Repeat count must be an integer (got `2.5`)
            P702 4:8-4:11 error: Repeat count must be an integer (got `"3"`)
            P702 8:8-8:18 error: Repeat count must be an integer (got `rounds + 1`)
        "#]],
        );
    }

    #[test]
    fn strict_reports_variables_too() {
        check_code_strict(
            "P702",
            FIXTURE,
            expect![[r#"
            P702 2:8-2:11 error: Repeat count must be an integer (got `2.5`)
            P702 4:8-4:11 error: Repeat count must be an integer (got `"3"`)
            P702 6:8-6:14 error: Repeat count must be an integer (got `rounds`)
            P702 8:8-8:18 error: Repeat count must be an integer (got `rounds + 1`)
        "#]],
        );
    }

    #[test]
    fn integer_counts_are_fine() {
        check_no(
            "P702",
            "repeat 3 as i:\n  session \"a\"\nrepeat 0:\n  session \"b\"\n",
        );
    }
}
