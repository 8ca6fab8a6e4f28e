//! # P601 `invalid-join-strategy`
//!
//! **Invalid join strategy.** The strategy in `parallel (…)` is not
//! `"all"`, `"first"` or `"any"`.
//!
//! ## Example
//! ```prose
//! parallel ("fastest"):
//!   session "Try approach A"
//!   session "Try approach B"
//! ```
//!
//! ## Fix
//! ```prose
//! parallel ("first"):
//!   session "Try approach A"
//!   session "Try approach B"
//! ```
//!
//! The strategy is the modifier written without a key. `"all"` (the
//! default) waits for every branch, `"first"` returns with the first one to
//! finish, `"any"` with the first success (or `count:` successes).
//!
//! ## Specification
//! compiler.md, Parallel Blocks: "Invalid join strategy" (Error, "Must be
//! "all", "first", or "any"").
//!
//! ## Profiles
//! compiler.md always quotes the strategy; prose.md's grammar writes it
//! unquoted (`strategy := "all" | "first" | "any"` as keywords). `strict`
//! reports an unquoted valid strategy (`parallel (first)`) as an error;
//! `default` accepts it. Invalid values are errors in both. The official
//! programs quote every strategy (`"first"` 3 times, `"any"` once).

use super::variables_shared::{parallels, report_invalid_words};
use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P601",
    name: "invalid-join-strategy",
    summary: "Invalid join strategy",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("invalid_join_strategy.rs"),
    check: Check::OpenProse(check),
};

const MESSAGE: &str = r#"Must be "all", "first", or "any""#;

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for p in parallels(ctx) {
        report_invalid_words(
            acc,
            &p.strategies,
            vocabulary::JOIN_STRATEGIES,
            MESSAGE,
            "strategy",
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_code_strict, check_no};
    use expect_test::expect;

    const TEXT: &str = "parallel (\"fastest\"):\n  session \"a\"\nparallel (first, on-fail: \"ignore\"):\n  session \"b\"\nparallel (3):\n  session \"c\"\n";

    #[test]
    fn invalid_strategies() {
        check_code(
            "P601",
            TEXT,
            expect![[r#"
            P601 1:11-1:20 error: Must be "all", "first", or "any" (found `"fastest"`)
            P601 5:11-5:12 error: Must be "all", "first", or "any" (found `3`)
        "#]],
        );
    }

    #[test]
    fn strict_wants_quotes() {
        check_code_strict(
            "P601",
            TEXT,
            expect![[r#"
            P601 1:11-1:20 error: Must be "all", "first", or "any" (found `"fastest"`)
            P601 3:11-3:16 error: Must be "all", "first", or "any": quote the strategy, `"first"`
            P601 5:11-5:12 error: Must be "all", "first", or "any" (found `3`)
        "#]],
        );
    }

    #[test]
    fn valid_strategies_are_fine() {
        check_no(
            "P601",
            "parallel (\"all\"):\n  session \"a\"\nparallel (\"any\", count: 1):\n  session \"b\"\nparallel:\n  session \"c\"\nparallel (on-fail: \"continue\"):\n  session \"d\"\n",
        );
    }
}
