//! # P809 `retry-count-high`
//!
//! **Retry count is unusually high.** A session's `retry:` is an integer
//! greater than 10.
//!
//! ## Why is this bad?
//! Each retry is another full session. A failure that survives ten retries
//! is rarely transient, and more attempts multiply cost and run time.
//!
//! ## Example
//! ```prose
//! session "Fetch the latest exchange rates"
//!   retry: 50
//! ```
//!
//! ## Fix
//! ```prose
//! session "Fetch the latest exchange rates"
//!   retry: 5
//!   backoff: exponential
//! ```
//!
//! The diagnostic is on the value.
//!
//! ## Specification
//! compiler.md, Error Handling, Validation Rules: "High retry count (>10)"
//! (Warning, "Retry count is unusually high"). Same severity in every
//! profile.

use super::control_shared::{Count, classify, session_settings};
use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P809",
    name: "retry-count-high",
    summary: "Retry count is unusually high",
    strict: Severity::Warning,
    default: Level::On(Severity::Warning),
    source: include_str!("retry_count_high.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for value in session_settings(ctx, "retry") {
        if let Count::Int(n) = classify(&value)
            && n > 10
        {
            acc.report(
                value.syntax().text_range(),
                format!("Retry count is unusually high ({n} retries; at most 10 expected)"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn more_than_ten() {
        check_code(
            "P809",
            "session \"a\"\n  retry: 11\nsession \"b\" (retry: 100)\n",
            expect![[r#"
                P809 2:10-2:12 warning: Retry count is unusually high (11 retries; at most 10 expected)
                P809 3:21-3:24 warning: Retry count is unusually high (100 retries; at most 10 expected)
            "#]],
        );
    }

    #[test]
    fn ten_or_fewer_is_fine() {
        check_no(
            "P809",
            "session \"a\"\n  retry: 10\nsession \"b\" (retry: 3)\n",
        );
    }
}
