//! # E001 `unterminated-string`
//!
//! **Unterminated string literal.** A string opened with `"` has no closing
//! `"` on the same line, or a `"""` string has no closing `"""` before the
//! end of the file.
//!
//! ## Why is this bad?
//! The rest of the line (or, for `"""`, the rest of the file) is swallowed
//! into the string, so the program means something other than it looks.
//!
//! ## Example
//! ```prose
//! session "Hello
//! ```
//!
//! ## Fix
//! ```prose
//! session "Hello"
//! ```
//!
//! The diagnostic points at the opening quote. Single-line strings end at
//! the end of their line; use `"""` for text that spans lines.
//!
//! ## Specification
//! compiler.md, String Literals: "Unterminated string" (Error); Validation
//! Rules: E001 "Unterminated string literal". Same severity in every profile.

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "E001",
    name: "unterminated-string",
    summary: "Unterminated string literal",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("unterminated_string.rs"),
    check: Check::OpenProse(|ctx, acc| syntax_errors(ctx, acc, SyntaxErrorCode::E001)),
};

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::check;
    use expect_test::expect;

    #[test]
    fn single_and_triple() {
        check(
            "session \"Hello\nsession \"\"\"never closed\n",
            expect![[r#"
                E001 1:9-1:10 error: Unterminated string literal
                E001 2:9-2:12 error: Unterminated string literal: `"""` needs a closing `"""`
            "#]],
        );
    }
}
