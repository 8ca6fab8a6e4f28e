//! # D017 `invalid-reference`
//!
//! **Not a valid reference.** `@` alone, `@last.` with a field other than
//! `message` or `output`, `@[]`, or `@[` without its `]`.
//!
//! ## Why is this bad?
//! The framework cannot resolve it, so the action would run on nothing.
//!
//! ## Example
//! ```dialect
//! /tell @entropy @last.result
//! ```
//!
//! ## Fix
//! ```dialect
//! /tell @entropy @last.output
//! ```

use super::{Code, Severity};

pub(crate) const CODE: Code = Code {
    code: "D017",
    name: "invalid-reference",
    summary: "Not a valid reference",
    severity: Severity::Error,
    source: include_str!("invalid_reference.rs"),
};

#[cfg(test)]
mod tests {
    use crate::diagnostics::tests::check;
    use expect_test::expect;

    #[test]
    fn forms() {
        check(
            "/tell @entropy @last.foo\n/reply @\n/fetch @[https://x.y\n/reply @[]\n/tell @ \"hi\"\n",
            expect![[r#"
                D017 1:16-1:25 error: `@last.foo` is not a reference I know - use @last.message or @last.output
                D017 2:8-2:9 error: `@` needs a name after it, like @last or @entropy
                D017 3:8-3:21 error: `@[https://x.y` is missing its closing `]`
                D017 4:8-4:11 error: `@[]` needs a URI inside the brackets
                D017 5:7-5:8 error: `@` needs a name after it, like @last or @entropy
            "#]],
        );
    }
}
