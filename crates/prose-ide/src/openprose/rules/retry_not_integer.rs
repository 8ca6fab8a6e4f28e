//! # P808 `retry-not-integer`
//!
//! **Retry count must be an integer.** A session's `retry:` value is not an
//! integer literal: a decimal (`2.5`), a string (`"3"`) or a variable.
//!
//! ## Example
//! ```prose
//! session "Fetch the latest exchange rates"
//!   retry: "3"
//! ```
//!
//! ## Fix
//! ```prose
//! session "Fetch the latest exchange rates"
//!   retry: 3
//! ```
//!
//! The diagnostic is on the value. Unlike `repeat` and `max:`, a variable
//! is not accepted in any profile: the grammar gives `retry: NUMBER`, and
//! the official programs always write a literal (16 uses: 2, 3 or 5).
//!
//! ## Specification
//! compiler.md, Error Handling, Validation Rules: "Non-integer retry count"
//! (Error, "Retry count must be an integer"). Same severity in every
//! profile.

use super::control_shared::{Count, classify, session_settings, shown};
use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P808",
    name: "retry-not-integer",
    summary: "Retry count must be an integer",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("retry_not_integer.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for value in session_settings(ctx, "retry") {
        if !matches!(classify(&value), Count::Int(_)) {
            acc.report(
                value.syntax().text_range(),
                format!("Retry count must be an integer (got `{}`)", shown(&value)),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn non_integer_retries() {
        check_code(
            "P808",
            "const n = 3\nsession \"a\"\n  retry: \"3\"\nsession \"b\" (retry: 2.5)\nsession \"c\"\n  retry: n\n",
            expect![[r#"
                P808 3:10-3:13 error: Retry count must be an integer (got `"3"`)
                P808 4:21-4:24 error: Retry count must be an integer (got `2.5`)
                P808 6:10-6:11 error: Retry count must be an integer (got `n`)
            "#]],
        );
    }

    #[test]
    fn integer_retries_are_fine() {
        check_no(
            "P808",
            "session \"a\"\n  retry: 3\nsession \"b\" (retry: 0)\nagent x:\n  retry: \"3\"\n",
        );
    }
}
