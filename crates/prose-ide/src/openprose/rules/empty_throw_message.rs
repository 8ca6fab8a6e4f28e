//! # P806 `empty-throw-message`
//!
//! **Throw message is empty.** `throw ""`, or a message made only of
//! whitespace.
//!
//! ## Why is this bad?
//! Whoever catches the error (or reads the failed run) gets no hint of
//! what went wrong.
//!
//! ## Example
//! ```prose
//! let review = session "Review the release notes"
//! if **the review found blocking problems**:
//!   throw ""
//! ```
//!
//! ## Fix
//! ```prose
//! let review = session "Review the release notes"
//! if **the review found blocking problems**:
//!   throw "Release blocked by the review"
//! ```
//!
//! The diagnostic is on the string. A bare `throw` rethrows the error
//! being handled and is never reported.
//!
//! ## Specification
//! compiler.md, Error Handling, Validation Rules: "Empty throw message"
//! (Warning, "Throw message is empty"). Same severity in every profile.

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P806",
    name: "empty-throw-message",
    summary: "Throw message is empty",
    strict: Severity::Warning,
    default: Level::On(Severity::Warning),
    source: include_str!("empty_throw_message.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for t in nodes::<ast::ThrowStmt>(ctx) {
        if let Some(ast::Expr::String(s)) = t.message()
            && s.value().trim().is_empty()
        {
            acc.report(s.syntax().text_range(), "Throw message is empty");
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn empty_and_blank_messages() {
        check_code(
            "P806",
            "throw \"\"\nthrow \"  \\n \"\n",
            expect![[r#"
            P806 1:7-1:9 warning: Throw message is empty
            P806 2:7-2:14 warning: Throw message is empty
        "#]],
        );
    }

    #[test]
    fn messages_and_rethrow_are_fine() {
        check_no(
            "P806",
            "try:\n  session \"a\"\ncatch:\n  throw\nthrow \"Failed\"\nthrow \"{reason}\"\n",
        );
    }
}
