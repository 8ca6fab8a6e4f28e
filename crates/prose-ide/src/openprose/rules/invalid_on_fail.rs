//! # P602 `invalid-on-fail`
//!
//! **Invalid on-fail policy.** The `on-fail:` value of `parallel (…)` is not
//! `"fail-fast"`, `"continue"` or `"ignore"`.
//!
//! ## Example
//! ```prose
//! parallel (on-fail: "retry"):
//!   session "Task 1"
//!   session "Task 2"
//! ```
//!
//! ## Fix
//! ```prose
//! parallel (on-fail: "continue"):
//!   session "Task 1"
//!   session "Task 2"
//! ```
//!
//! `"fail-fast"` (the default) cancels the other branches on the first
//! failure, `"continue"` lets every branch finish and then reports the
//! failures, `"ignore"` treats failures as successes.
//!
//! ## Specification
//! compiler.md, Parallel Blocks: "Invalid on-fail policy" (Error, "Must be
//! "fail-fast", "continue", or "ignore"").
//!
//! ## Profiles
//! As for [P601](P601.md): prose.md's grammar writes the policy unquoted,
//! so `default` accepts `on-fail: continue`; `strict` reports it. Invalid
//! values are errors in both. The official programs quote every policy
//! (`"continue"` 9 times, `"ignore"` once, `"fail-fast"` once).

use super::variables_shared::{parallels, report_invalid_words};
use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P602",
    name: "invalid-on-fail",
    summary: "Invalid on-fail policy",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("invalid_on_fail.rs"),
    check: Check::OpenProse(check),
};

const MESSAGE: &str = r#"Must be "fail-fast", "continue", or "ignore""#;

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for p in parallels(ctx) {
        report_invalid_words(
            acc,
            &p.on_fail,
            vocabulary::FAILURE_POLICIES,
            MESSAGE,
            "policy",
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_code_strict, check_no};
    use expect_test::expect;

    const TEXT: &str = "parallel (on-fail: \"retry\"):\n  session \"a\"\nparallel (\"first\", on-fail: continue):\n  session \"b\"\nparallel (on-fail: 2):\n  session \"c\"\n";

    #[test]
    fn invalid_policies() {
        check_code(
            "P602",
            TEXT,
            expect![[r#"
            P602 1:20-1:27 error: Must be "fail-fast", "continue", or "ignore" (found `"retry"`)
            P602 5:20-5:21 error: Must be "fail-fast", "continue", or "ignore" (found `2`)
        "#]],
        );
    }

    #[test]
    fn strict_wants_quotes() {
        check_code_strict(
            "P602",
            TEXT,
            expect![[r#"
            P602 1:20-1:27 error: Must be "fail-fast", "continue", or "ignore" (found `"retry"`)
            P602 3:29-3:37 error: Must be "fail-fast", "continue", or "ignore": quote the policy, `"continue"`
            P602 5:20-5:21 error: Must be "fail-fast", "continue", or "ignore" (found `2`)
        "#]],
        );
    }

    #[test]
    fn valid_policies_are_fine() {
        check_no(
            "P602",
            "parallel (on-fail: \"fail-fast\"):\n  session \"a\"\nparallel (on-fail: \"ignore\"):\n  session \"b\"\n",
        );
    }
}
