//! # D004 `ambiguous-action`
//!
//! **I couldn't tell which action was meant.** The verb is equally close to
//! two different verbs, or /post was given a conversation (`@parent`,
//! `@thread`, `@last`) instead of a platform.
//!
//! ## Why is this bad?
//! Either reading could be wrong, so the agent is asked: "I couldn't tell if
//! you meant /post or /reply - which one?"
//!
//! ## Example
//! ```dialect
//! /stor the meeting moved to Friday
//! /post @parent "sounds good"
//! ```
//!
//! ## Fix
//! ```dialect
//! /store "the meeting moved to Friday"
//! /reply sounds good
//! ```

use super::{Code, Severity};

pub(crate) const CODE: Code = Code {
    code: "D004",
    name: "ambiguous-action",
    summary: "I couldn't tell which action was meant",
    severity: Severity::Error,
    source: include_str!("ambiguous_action.rs"),
};

#[cfg(test)]
mod tests {
    use crate::diagnostics::tests::check;
    use expect_test::expect;

    #[test]
    fn ties_and_post_to_a_conversation() {
        check(
            "/stor x\n/looke x\n/post @thread hi\n",
            expect![[r#"
                D004 1:2-1:6 error: I couldn't tell if you meant /store or /stop - which one?
                D002 2:2-2:7 hint: I read /looke as /look
                  fix 2:2-2:7: Write /look => "look"
                D004 3:7-3:14 error: I couldn't tell if you meant /post or /reply - which one?
            "#]],
        );
    }
}
