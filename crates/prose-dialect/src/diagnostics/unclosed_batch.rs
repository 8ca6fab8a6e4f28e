//! # D014 `unclosed-batch`
//!
//! **/batch never closed.** A `/batch {` has no `}` line after it.
//!
//! ## Why is this bad?
//! The batch takes every following action up to the end of the text, which is
//! rarely what was meant.
//!
//! ## Example
//! ```dialect
//! /batch {
//!   /recall project_notes
//!   /fetch https://project-docs.example.com
//! ```
//!
//! ## Fix
//! ```dialect
//! /batch {
//!   /recall project_notes
//!   /fetch https://project-docs.example.com
//! }
//! ```

use super::{Code, Severity};

pub(crate) const CODE: Code = Code {
    code: "D014",
    name: "unclosed-batch",
    summary: "/batch never closed",
    severity: Severity::Error,
    source: include_str!("unclosed_batch.rs"),
};

#[cfg(test)]
mod tests {
    use crate::diagnostics::tests::check;
    use expect_test::expect;

    #[test]
    fn nested_and_outer() {
        check(
            "/batch {\n  /recall x\n  /batch {\n    /recall y\n",
            expect![[r#"
                D014 1:8-1:9 error: This /batch is never closed - end it with `}` on a line of its own
                D014 3:10-3:11 error: This /batch is never closed - end it with `}` on a line of its own
            "#]],
        );
    }
}
