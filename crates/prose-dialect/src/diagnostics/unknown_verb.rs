//! # D001 `unknown-verb`
//!
//! **Unknown verb.** The word after `/` is not a verb or alias, and not close
//! enough to one to be a typo.
//!
//! ## Why is this bad?
//! Nothing can run: the framework does not know what the agent wants. The
//! message names the nearest verb when one is somewhat near (an editor offers
//! it as a fix), otherwise the common verbs.
//!
//! ## Example
//! ```dialect
//! /summarize meeting notes
//! ```
//!
//! ## Fix
//! ```dialect
//! /recall meeting notes
//! ```
//!
//! Lines that start with `/` but hold another `/` in their first word
//! (`/usr/bin/env`) are text, not actions. A verb the framework adds itself
//! (the seed's `/summarize`) is still unknown to this parser: the action is
//! reported, and a chain is cut before it.

use super::{Code, Severity};

pub(crate) const CODE: Code = Code {
    code: "D001",
    name: "unknown-verb",
    summary: "Unknown verb",
    severity: Severity::Error,
    source: include_str!("unknown_verb.rs"),
};

#[cfg(test)]
mod tests {
    use crate::diagnostics::tests::check;
    use expect_test::expect;

    #[test]
    fn suggestion_and_list() {
        check(
            "/serach notes\n/summarize x\n/recall x -> /summarize -> /tell @entropy\n",
            expect![[r#"
                D002 1:2-1:8 hint: I read /serach as /search
                  fix 1:2-1:8: Write /search => "search"
                D001 2:2-2:11 error: I don't know the verb /summarize - the common ones are /recall, /search, /reply, /post and /tell
                D001 3:15-3:24 error: I don't know the verb /summarize - the common ones are /recall, /search, /reply, /post and /tell
            "#]],
        );
    }
}
