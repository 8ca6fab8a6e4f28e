//! # D005 `invalid-marker`
//!
//! **Not a permission marker.** The last word of the action starts with `?`
//! or `!` but is not one of `.`, `?`, `?ask`, `!` or `?word`; or the action
//! ends with two markers.
//!
//! ## Why is this bad?
//! Markers ask the permission system for consent. A garbled one could ask for
//! less than the agent meant, so the action does not run until it is clear.
//!
//! ## Example
//! ```dialect
//! /tell @anchor "should I do this?" ?!
//! ```
//!
//! ## Fix
//! ```dialect
//! /tell @anchor "should I do this?" ?ask
//! ```
//!
//! A marker must be a word of its own: `/reply sounds good.` ends a sentence,
//! `/reply sounds good .` is routine. `?word` flags are letters, digits, `_`
//! and `-`, starting with a letter (`?public`).

use super::{Code, Severity};

pub(crate) const CODE: Code = Code {
    code: "D005",
    name: "invalid-marker",
    summary: "Not a permission marker",
    severity: Severity::Error,
    source: include_str!("invalid_marker.rs"),
};

#[cfg(test)]
mod tests {
    use crate::diagnostics::tests::check;
    use expect_test::expect;

    #[test]
    fn garbled_and_double() {
        check(
            "/reply ok ??\n/reply ok !!\n/post x \"y\" !public\n/reply ok . ?\n/reply ok ?1\n",
            expect![[r#"
                D005 1:11-1:13 error: `??` is not a permission marker - end with . (routine), ? (might need checking), ?ask (confirm with partner), ! (serious) or ?word (a flag like ?public)
                  fix 1:11-1:13: Write ? => "?"
                D005 2:11-2:13 error: `!!` is not a permission marker - end with . (routine), ? (might need checking), ?ask (confirm with partner), ! (serious) or ?word (a flag like ?public)
                  fix 2:11-2:13: Write ! => "!"
                D005 3:13-3:20 error: `!public` is not a permission marker - end with . (routine), ? (might need checking), ?ask (confirm with partner), ! (serious) or ?word (a flag like ?public)
                  fix 3:13-3:20: Write ?public => "?public"
                D005 4:11-4:14 error: Two permission markers (`.` and `?`) - keep the one you mean
                  fix 4:11-4:14: Keep ? => "?"
                D005 5:11-5:13 error: `?1` is not a permission marker - end with . (routine), ? (might need checking), ?ask (confirm with partner), ! (serious) or ?word (a flag like ?public)
            "#]],
        );
    }
}
