//! # D006 `unterminated-content`
//!
//! **Unterminated string or block.** A `"` string has no closing quote on its
//! line, or a `"""` or fenced block is never closed.
//!
//! ## Why is this bad?
//! Where the content ends is a guess: a string is read to the end of its line,
//! an unclosed block takes the rest of the text (as in markdown), so the
//! actions after it are swallowed.
//!
//! ## Example
//! ```dialect
//! /post bluesky "thoughts on this
//! ```
//!
//! ## Fix
//! ```dialect
//! /post bluesky "thoughts on this"
//! ```
//!
//! Use `"""` or a fence for text over several lines.

use super::{Code, Severity};

pub(crate) const CODE: Code = Code {
    code: "D006",
    name: "unterminated-content",
    summary: "Unterminated string or block",
    severity: Severity::Error,
    source: include_str!("unterminated_content.rs"),
};

#[cfg(test)]
mod tests {
    use crate::diagnostics::tests::check;
    use expect_test::expect;

    #[test]
    fn every_form() {
        check(
            "/reply \"open\n/reply “open\n/post x ```\nnever closed\n",
            expect![[r#"
                D006 1:8-1:13 error: This string has no closing `"` on its line - close it, or use """ for text over several lines
                  fix 1:13-1:13: Close the string with " => "\""
                D006 2:8-2:13 error: This string has no closing `”` on its line - close it, or use """ for text over several lines
                  fix 2:13-2:13: Close the string with ” => "”"
                D006 3:9-3:12 error: This ``` block is never closed, so it takes the rest of the text - end it with ``` on a line of its own
            "#]],
        );
    }

    #[test]
    fn triple() {
        check(
            "/post x \"\"\"\nnever\n/reply swallowed\n",
            expect![[r#"
                D006 1:9-1:12 error: This """ block is never closed, so it takes the rest of the text - end it with """ on a line of its own
            "#]],
        );
    }
}
