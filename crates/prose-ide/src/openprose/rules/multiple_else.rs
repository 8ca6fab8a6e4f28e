//! # P906 `multiple-else`
//!
//! **Only one else clause allowed.** An `if` chain with a second `else`.
//!
//! ## Why is this bad?
//! The first `else` already catches every remaining case, so the second
//! one can never run.
//!
//! ## Example
//! ```prose
//! if **the build is green**:
//!   session "Deploy"
//! else:
//!   session "Fix the build"
//! else:
//!   session "Notify the team"
//! ```
//!
//! ## Fix
//! ```prose
//! if **the build is green**:
//!   session "Deploy"
//! else:
//!   session "Fix the build"
//!   session "Notify the team"
//! ```
//!
//! The diagnostic is on the second (and any further) `else` keyword and
//! links to the first `else`.
//!
//! ## Specification
//! compiler.md, Conditional Statements, Validation Rules: "Multiple else"
//! (Error, "Only one else clause allowed"). Reported instead of E004
//! (spec-rows.md §2.6). Same severity in every profile.

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P906",
    name: "multiple-else",
    summary: "Only one else clause allowed",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("multiple_else.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for i in nodes::<ast::IfStmt>(ctx) {
        let mut elses = i.else_clauses().filter_map(|e| e.keyword());
        let Some(first) = elses.next() else { continue };
        for kw in elses {
            acc.report_related(
                kw.text_range(),
                "Only one else clause allowed",
                vec![related(ctx, first.text_range(), "first `else` here")],
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check, check_no};
    use expect_test::expect;

    #[test]
    fn second_else() {
        check(
            "if **p q**:\n  session \"a\"\nelse:\n  session \"b\"\nelse:\n  session \"c\"\n",
            expect![[r#"
                P906 5:1-5:5 error: Only one else clause allowed
                  related 3:1-3:5: first `else` here
            "#]],
        );
    }

    #[test]
    fn one_else_per_chain() {
        check_no(
            "P906",
            "if **p q**:\n  session \"a\"\nelse:\n  session \"b\"\nif **r s**:\n  session \"c\"\nelse:\n  session \"d\"\n",
        );
    }
}
