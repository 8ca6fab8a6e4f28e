//! # D013 `dangling-chain`
//!
//! **`->` without an action after it.** A chain arrow ends the action, or is
//! followed by something that is not an action.
//!
//! ## Why is this bad?
//! `->` means "then prompt me again with the result": the next step is
//! missing. `-> summarize` (no `/`) gets a fix when the word is a verb.
//!
//! ## Example
//! ```dialect
//! /recall meeting notes -> tell @entropy
//! ```
//!
//! ## Fix
//! ```dialect
//! /recall meeting notes -> /tell @entropy
//! ```
//!
//! In /context an arrow between two texts is a replacement
//! (`/context persona "old" -> "new"`), not a chain.

use super::{Code, Severity};

pub(crate) const CODE: Code = Code {
    code: "D013",
    name: "dangling-chain",
    summary: "`->` without an action after it",
    severity: Severity::Error,
    source: include_str!("dangling_chain.rs"),
};

#[cfg(test)]
mod tests {
    use crate::diagnostics::tests::check;
    use expect_test::expect;

    #[test]
    fn ends_and_strays() {
        check(
            "/recall notes ->\n\n/recall notes -> web rust\n/recall x -> whatever\n",
            expect![[r#"
                D013 1:15-1:17 error: `->` leads nowhere - put the next action after it, like -> /tell @entropy, or remove it
                D013 3:15-3:21 error: `->` must be followed by an action - did you mean -> /web?
                  fix 3:15-3:21: Write -> /web => "-> /web"
                D013 4:11-4:13 error: `->` must be followed by an action starting with /, like -> /tell @entropy
            "#]],
        );
    }
}
