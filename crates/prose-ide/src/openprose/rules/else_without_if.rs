//! # P905 `else-without-if`
//!
//! **Else must follow if or elif.** An `else` that does not follow an `if`
//! or `elif` body at the same indentation.
//!
//! ## Example
//! ```prose
//! if **the tests pass**:
//!   session "Merge the change"
//! session "Post a summary"
//! else:
//!   session "Report the failures"
//! ```
//!
//! ## Fix
//! ```prose
//! if **the tests pass**:
//!   session "Merge the change"
//! else:
//!   session "Report the failures"
//! session "Post a summary"
//! ```
//!
//! The diagnostic is on the `else` keyword. The parser keeps the stray
//! clause in the tree without a syntax error. A second `else` in one chain
//! is [P906](P906.md).
//!
//! ## Specification
//! compiler.md, Conditional Statements, Validation Rules: "Else without
//! if" (Error, "Else must follow if or elif"). Reported instead of E004
//! (spec-rows.md §2.6). Same severity in every profile.

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P905",
    name: "else-without-if",
    summary: "Else must follow if or elif",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("else_without_if.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for e in nodes::<ast::ElseClause>(ctx) {
        let in_chain = e
            .syntax()
            .parent()
            .is_some_and(|p| p.kind() == SyntaxKind::IF_STMT);
        if !in_chain && let Some(kw) = e.keyword() {
            acc.report(kw.text_range(), "Else must follow if or elif");
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check, check_no};
    use expect_test::expect;

    #[test]
    fn stray_else() {
        check(
            "session \"a\"\nelse:\n  session \"b\"\nfor x in [1]:\n  session \"c\"\nelse:\n  session \"d\"\n",
            expect![[r#"
                P905 2:1-2:5 error: Else must follow if or elif
                P905 6:1-6:5 error: Else must follow if or elif
            "#]],
        );
    }

    #[test]
    fn else_after_if_or_elif_is_fine() {
        check_no(
            "P905",
            "if **p q**:\n  session \"a\"\nelse:\n  session \"b\"\nif **r s**:\n  session \"c\"\nelif **t u**:\n  session \"d\"\nelse:\n  session \"e\"\n",
        );
    }
}
