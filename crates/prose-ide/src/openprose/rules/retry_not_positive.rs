//! # P807 `retry-not-positive`
//!
//! **Retry count must be positive.** `retry: N` on a session (as a property
//! or inline, `session "…" (retry: N)`) with an integer N that is zero or
//! negative.
//!
//! ## Why is this bad?
//! A retry count of zero retries nothing: the property has no effect and
//! probably hides a typo.
//!
//! ## Example
//! ```prose
//! session "Fetch the latest exchange rates"
//!   retry: 0
//! ```
//!
//! ## Fix
//! ```prose
//! session "Fetch the latest exchange rates"
//!   retry: 3
//! ```
//!
//! The diagnostic is on N. A value that is not an integer literal is
//! [P808](P808.md); more than 10 retries is [P809](P809.md). `retry:` on an
//! agent is [P811](P811.md) and its value is not checked here.
//!
//! ## Specification
//! compiler.md, Error Handling, Validation Rules: "Non-positive retry count"
//! (Error, "Retry count must be positive"). Same severity in every profile.

use super::control_shared::{report_not_positive, session_settings};
use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P807",
    name: "retry-not-positive",
    summary: "Retry count must be positive",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("retry_not_positive.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    report_not_positive(acc, session_settings(ctx, "retry"), "Retry count");
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn zero_and_negative_retries() {
        check_code(
            "P807",
            "session \"a\"\n  retry: 0\nsession \"b\" (retry: -1)\n",
            expect![[r#"
                P807 2:10-2:11 error: Retry count must be positive (got `0`)
                P807 3:21-3:23 error: Retry count must be positive (got `-1`)
            "#]],
        );
    }

    #[test]
    fn positive_retries_and_agents_are_not_p807() {
        check_no(
            "P807",
            "agent a:\n  retry: 0\nsession \"a\"\n  retry: 2\nsession \"b\" (retry: 1)\n",
        );
    }
}
