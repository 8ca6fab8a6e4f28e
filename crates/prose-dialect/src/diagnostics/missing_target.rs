//! # D008 `missing-target`
//!
//! **Message without a target.** `/send` to a domain other than `@user`,
//! `/dm` and `/tell` need a target starting with `@`.
//!
//! ## Why is this bad?
//! Without a target nobody gets the message. A bare word where the target
//! belongs (`/tell entropy ...`) gets a fix that adds the `@`.
//!
//! ## Example
//! ```dialect
//! /tell "should I do this?" ?ask
//! ```
//!
//! ## Fix
//! ```dialect
//! /tell @anchor "should I do this?" ?ask
//! ```

use super::{Code, Severity};

pub(crate) const CODE: Code = Code {
    code: "D008",
    name: "missing-target",
    summary: "Message without a target",
    severity: Severity::Error,
    source: include_str!("missing_target.rs"),
};

#[cfg(test)]
mod tests {
    use crate::diagnostics::tests::check;
    use expect_test::expect;

    #[test]
    fn every_message_verb() {
        check(
            "/send @agent \"hi\"\n/dm \"private info\" ?\n/tell entropy \"hi\"\n/tell\n",
            expect![[r#"
                D008 1:14-1:14 error: Who on @agent should get this? Put a target before the message: /send @agent @name "..."
                D008 2:5-2:5 error: Who should get this? Put a target before the message: /dm @user "..."
                D008 3:7-3:14 error: Who should get this? Targets start with @ - did you mean @entropy?
                  fix 3:7-3:14: Write @entropy => "@entropy"
                D008 4:6-4:6 error: Who should get this? Add a target: /tell @agent "..."
            "#]],
        );
    }
}
