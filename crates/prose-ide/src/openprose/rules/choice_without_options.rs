//! # P901 `choice-without-options`
//!
//! **Choice block must have at least one option.** A `choice` whose body
//! holds no `option "…":` clause (or that has no body at all).
//!
//! ## Why is this bad?
//! The model running the program is asked to choose, but there is nothing
//! to choose from; statements written directly in the body are not options.
//!
//! ## Example
//! ```prose
//! choice **the best approach for this codebase**:
//!   session "Refactor the module in place"
//!   session "Rewrite the module from scratch"
//! ```
//!
//! ## Fix
//! ```prose
//! choice **the best approach for this codebase**:
//!   option "Refactor":
//!     session "Refactor the module in place"
//!   option "Rewrite":
//!     session "Rewrite the module from scratch"
//! ```
//!
//! The diagnostic is on the `choice` keyword. A `choice:` header with no
//! body is reported here, not as a syntax error.
//!
//! ## Specification
//! compiler.md, Choice Blocks, Validation Rules: "Choice without options"
//! (Error, "Choice block must have at least one option"). Same severity in
//! every profile.

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P901",
    name: "choice-without-options",
    summary: "Choice block must have at least one option",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("choice_without_options.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for c in nodes::<ast::ChoiceStmt>(ctx) {
        if c.options().next().is_none()
            && let Some(kw) = c.keyword()
        {
            acc.report(
                kw.text_range(),
                "Choice block must have at least one option",
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check, check_code, check_no};
    use expect_test::expect;

    #[test]
    fn no_options() {
        check_code(
            "P901",
            "choice **pick**:\n  session \"a\"\nchoice **pick again**:\n  # nothing yet\nsession \"b\"\n",
            expect![[r#"
                P901 1:1-1:7 error: Choice block must have at least one option
                P901 3:1-3:7 error: Choice block must have at least one option
            "#]],
        );
    }

    #[test]
    fn empty_choice_has_no_syntax_error() {
        check(
            "choice **which one to use**:\n",
            expect![[r#"
            P901 1:1-1:7 error: Choice block must have at least one option
        "#]],
        );
    }

    #[test]
    fn one_option_is_enough() {
        check_no(
            "P901",
            "choice **pick**:\n  option \"Only\":\n    session \"a\"\n",
        );
    }
}
