//! # E005 `invalid-syntax`
//!
//! **Invalid syntax.** A construct was recognised but is incomplete or
//! malformed: a header without its indented block, an unclosed bracket, an
//! unterminated `**` discretion, an indented line that belongs to nothing,
//! or a line whose indentation lines up with no enclosing block.
//!
//! (An unexpected token that is present and wrong is E004 instead.)
//!
//! ## Example
//! ```prose
//! let reviewers = ["security", "style"
//! session "Review the change"
//!   context: reviewers
//! ```
//!
//! ## Fix
//! ```prose
//! let reviewers = ["security", "style"]
//! session "Review the change"
//!   context: reviewers
//! ```
//!
//! ## Specification
//! compiler.md, Validation Rules: E005 "Invalid syntax". Same severity in
//! every profile.

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "E005",
    name: "invalid-syntax",
    summary: "Invalid syntax",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("invalid_syntax.rs"),
    check: Check::OpenProse(|ctx, acc| syntax_errors(ctx, acc, SyntaxErrorCode::E005)),
};

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::check;
    use expect_test::expect;

    #[test]
    fn missing_block_and_unclosed_bracket() {
        check(
            "agent w:\n  model: opus\n    prompt: \"x\"\nlet a = [1, 2\nsession \"b\"\n",
            expect![[r#"
                E005 3:5-3:11 error: Unexpected indentation
                E005 4:9-4:10 error: Unclosed `[`: expected `]`
            "#]],
        );
    }
}
