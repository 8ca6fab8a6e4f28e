//! # D018 `invalid-url`
//!
//! **Not a URL.** /fetch needs a URL: with a scheme (`https://...`), or a
//! domain name (`example.com/page`).
//!
//! ## Why is this bad?
//! There is nothing to fetch.
//!
//! ## Example
//! ```dialect
//! /fetch the rust book
//! ```
//!
//! ## Fix
//! ```dialect
//! /fetch https://doc.rust-lang.org/book/
//! ```

use super::{Code, Severity};

pub(crate) const CODE: Code = Code {
    code: "D018",
    name: "invalid-url",
    summary: "Not a URL",
    severity: Severity::Error,
    source: include_str!("invalid_url.rs"),
};

#[cfg(test)]
mod tests {
    use crate::diagnostics::tests::check;
    use expect_test::expect;

    #[test]
    fn forms() {
        check(
            "/fetch notes\n/fetch example.com\n/fetch @[https://x.y/a b]\n/fetch \"https://x.y\"\n",
            expect![[r#"
                D018 1:8-1:13 error: `notes` doesn't look like a URL - give one like https://example.com
            "#]],
        );
    }
}
