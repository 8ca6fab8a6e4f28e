//! # E004 `unexpected-token`
//!
//! **Unexpected token.** A token is present that cannot start or continue
//! what is being parsed at that point.
//!
//! prose-lsp separates E004 from E005 by one rule: **E004** points at a
//! token that is there and wrong (a stray `)`, a word after a complete
//! statement, `@` where a name is expected); **E005** points at a construct
//! that was recognised but is incomplete or malformed where no single wrong
//! token exists.
//!
//! ## Example
//! ```prose
//! session "Review" )
//! ```
//!
//! ## Fix
//! ```prose
//! session "Review"
//! ```
//!
//! ## Specification
//! compiler.md, Validation Rules: E004 "Unexpected token". The message names
//! the token and what was expected there. Same severity in every profile.

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "E004",
    name: "unexpected-token",
    summary: "Unexpected token",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("unexpected_token.rs"),
    check: Check::OpenProse(|ctx, acc| syntax_errors(ctx, acc, SyntaxErrorCode::E004)),
};

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::check;
    use expect_test::expect;

    #[test]
    fn points_at_the_token() {
        check(
            "session \"a\" )\nagent @x:\n",
            expect![[r#"
                E004 1:13-1:14 error: Unexpected `)`: expected end of line
                E004 2:7-2:8 error: Unexpected character `@`: expected an agent name
            "#]],
        );
    }
}
