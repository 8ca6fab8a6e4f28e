//! # D015 `text-in-batch`
//!
//! **Text inside a batch is ignored.** A line between `/batch {` and `}` that
//! is not an action.
//!
//! ## Why is this bad?
//! Outside a batch, prose between actions is normal agent output. Inside one,
//! it is more likely an action that lost its `/`.
//!
//! ## Example
//! ```dialect
//! /batch {
//!   /recall project_notes
//!   search conversations about project
//! }
//! ```
//!
//! ## Fix
//! ```dialect
//! /batch {
//!   /recall project_notes
//!   /search conversations about project
//! }
//! ```

use super::{Code, Severity};

pub(crate) const CODE: Code = Code {
    code: "D015",
    name: "text-in-batch",
    summary: "Text inside a batch is ignored",
    severity: Severity::Warning,
    source: include_str!("text_in_batch.rs"),
};

#[cfg(test)]
mod tests {
    use crate::diagnostics::tests::check;
    use expect_test::expect;

    #[test]
    fn only_inside_batches() {
        check(
            "Some prose is fine here.\n/batch {\n  /recall x\n\n  not an action\n}\nmore prose\n",
            expect![[r#"
                D015 5:3-5:16 warning: This line is not an action, so the batch ignores it - start it with / or move it out of the batch
            "#]],
        );
    }
}
