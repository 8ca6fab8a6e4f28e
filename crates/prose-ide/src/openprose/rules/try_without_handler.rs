//! # P804 `try-without-handler`
//!
//! **Try without catch or finally.** A `try:` block followed by neither a
//! `catch` nor a `finally` clause.
//!
//! ## Why is this bad?
//! A `try` with no handler does nothing: an error in its body propagates
//! exactly as it would without the `try`.
//!
//! ## Example
//! ```prose
//! try:
//!   session "Call the flaky external API"
//! session "Summarize the response"
//! ```
//!
//! ## Fix
//! ```prose
//! try:
//!   session "Call the flaky external API"
//! catch as err:
//!   session "Log the failure: {err}"
//! session "Summarize the response"
//! ```
//!
//! The diagnostic is on the `try` keyword. A `catch` or `finally` must
//! follow the `try` body at the same indentation to belong to it.
//!
//! ## Specification
//! compiler.md, Error Handling, Validation Rules: "Try without catch or
//! finally" (Error, "Try block must have at least "catch:" or
//! "finally:""). Same severity in every profile.

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P804",
    name: "try-without-handler",
    summary: "Try without catch or finally",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("try_without_handler.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for t in nodes::<ast::TryStmt>(ctx) {
        if t.catch_clause().is_none()
            && t.finally_clause().is_none()
            && let Some(kw) = t.keyword()
        {
            acc.report(
                kw.text_range(),
                "Try block must have at least \"catch:\" or \"finally:\"",
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn try_alone() {
        check_code(
            "P804",
            "try:\n  session \"a\"\nsession \"b\"\nlet x = try:\n  session \"c\"\n",
            expect![[r#"
                P804 1:1-1:4 error: Try block must have at least "catch:" or "finally:"
                P804 4:9-4:12 error: Try block must have at least "catch:" or "finally:"
            "#]],
        );
    }

    #[test]
    fn catch_or_finally_is_enough() {
        check_no(
            "P804",
            "try:\n  session \"a\"\ncatch:\n  session \"b\"\ntry:\n  session \"c\"\nfinally:\n  session \"d\"\n",
        );
    }
}
