//! # P810 `invalid-backoff`
//!
//! **Invalid backoff strategy.** A session's `backoff:` value is not
//! `none`, `linear` or `exponential`.
//!
//! ## Example
//! ```prose
//! session "Fetch the latest exchange rates"
//!   retry: 3
//!   backoff: exponentail
//! ```
//!
//! ## Fix
//! ```prose
//! session "Fetch the latest exchange rates"
//!   retry: 3
//!   backoff: exponential
//! ```
//!
//! The diagnostic is on the value, with the closest valid strategy
//! suggested. Applies to properties and to inline modifiers
//! (`session "…" (backoff: linear)`); `backoff:` on an agent is
//! [P811](P811.md).
//!
//! ## Specification
//! compiler.md, Error Handling, Validation Rules: "Invalid backoff
//! strategy" (Error, "Must be none, linear, or exponential").
//!
//! ## Profiles
//! `strict` also reports a quoted valid value (`backoff: "exponential"`),
//! because the grammar gives bare words. `default` accepts it: prose.md's
//! own "Retry Mechanism" example writes `backoff: "exponential"`, and the
//! official programs quote the value 10 times in 3 files (for example
//! `examples/23-retry-with-backoff.prose:11`).

use super::control_shared::{session_settings, shown};
use crate::openprose::rules::prelude::*;
use crate::vocabulary::BACKOFF_STRATEGIES as VALID;

pub(crate) const RULE: Rule = Rule {
    code: "P810",
    name: "invalid-backoff",
    summary: "Invalid backoff strategy",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("invalid_backoff.rs"),
    check: Check::OpenProse(check),
};

const MESSAGE: &str = "Must be none, linear, or exponential";

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for value in session_settings(ctx, "backoff") {
        let range = value.syntax().text_range();
        let (word, quoted) = match &value {
            ast::Expr::NameRef(n) => (n.text(), false),
            ast::Expr::String(s) => (s.value(), true),
            _ => (shown(&value), false),
        };
        if VALID.contains(&word.as_str()) {
            if quoted {
                acc.report_calibrated(
                    range,
                    format!("{MESSAGE} (a bare word: `{word}`, not a string)"),
                    Vec::new(),
                    Level::Off,
                );
            }
            continue;
        }
        let hint = did_you_mean_hint(&word, VALID);
        acc.report(range, format!("{MESSAGE}, found `{word}`{hint}"));
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_code_strict, check_no};
    use expect_test::expect;

    const FIXTURE: &str = "session \"a\"\n  retry: 3\n  backoff: \"exponential\"\nsession \"b\" (retry: 2, backoff: expo)\nsession \"c\"\n  backoff: \"fast\"\n";

    #[test]
    fn default_accepts_quoted_valid_values() {
        check_code(
            "P810",
            FIXTURE,
            expect![[r#"
            P810 4:33-4:37 error: Must be none, linear, or exponential, found `expo`
            P810 6:12-6:18 error: Must be none, linear, or exponential, found `fast`
        "#]],
        );
    }

    #[test]
    fn strict_reports_quoted_values() {
        check_code_strict(
            "P810",
            FIXTURE,
            expect![[r#"
            P810 3:12-3:25 error: Must be none, linear, or exponential (a bare word: `exponential`, not a string)
            P810 4:33-4:37 error: Must be none, linear, or exponential, found `expo`
            P810 6:12-6:18 error: Must be none, linear, or exponential, found `fast`
        "#]],
        );
    }

    #[test]
    fn bare_valid_values_are_fine() {
        check_no(
            "P810",
            "session \"a\"\n  backoff: none\nsession \"b\" (backoff: linear)\nresume: x\n  backoff: exponential\nagent x:\n  persist: true\n  backoff: slow\n",
        );
    }
}
