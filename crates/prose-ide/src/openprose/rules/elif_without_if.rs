//! # P904 `elif-without-if`
//!
//! **Elif must follow if.** An `elif` that does not continue an `if` chain
//! at the same indentation, including an `elif` after the chain's `else`.
//!
//! ## Example
//! ```prose
//! let status = session "Check the deployment status"
//! session "Notify the team"
//! elif **the deployment failed**:
//!   session "Roll back"
//! ```
//!
//! ## Fix
//! ```prose
//! let status = session "Check the deployment status"
//! if **the deployment succeeded**:
//!   session "Notify the team"
//! elif **the deployment failed**:
//!   session "Roll back"
//! ```
//!
//! The diagnostic is on the `elif` keyword. The parser keeps the stray
//! clause (with its condition and body) in the tree without a syntax error.
//!
//! ## Specification
//! compiler.md, Conditional Statements, Validation Rules: "Elif without if"
//! (Error, "Elif must follow if"). Reported instead of E004 (spec-rows.md
//! §2.6). Same severity in every profile.

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P904",
    name: "elif-without-if",
    summary: "Elif must follow if",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("elif_without_if.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    // Where the first `else` of each chain ends (an `elif` after any `else`
    // of its chain is after the first one): found once per chain, not once
    // per `elif`, which made a chain of thousands quadratic.
    let mut first_else: rustc_hash::FxHashMap<TextRange, Option<TextSize>> = Default::default();
    for e in nodes::<ast::ElifClause>(ctx) {
        let Some(kw) = e.keyword() else { continue };
        let parent = e.syntax().parent();
        let message = match parent.as_ref().and_then(|p| ast::IfStmt::cast(p.clone())) {
            // Inside a chain: wrong only after its `else`.
            Some(chain) => {
                let first_else_end = *first_else
                    .entry(chain.syntax().text_range())
                    .or_insert_with(|| {
                        chain
                            .else_clauses()
                            .next()
                            .map(|x| x.syntax().text_range().end())
                    });
                if first_else_end.is_none_or(|end| end > e.syntax().text_range().start()) {
                    continue;
                }
                "Elif must follow if: this `elif` comes after the chain's `else`"
            }
            None => "Elif must follow if",
        };
        acc.report(kw.text_range(), message);
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check, check_no};
    use expect_test::expect;

    #[test]
    fn stray_elif_and_elif_after_else() {
        check(
            "session \"a\"\nelif **x y**:\n  session \"b\"\nif **p q**:\n  session \"c\"\nelse:\n  session \"d\"\nelif **r s**:\n  session \"e\"\n",
            expect![[r#"
                P904 2:1-2:5 error: Elif must follow if
                P904 8:1-8:5 error: Elif must follow if: this `elif` comes after the chain's `else`
            "#]],
        );
    }

    /// Each chain's own `else` decides, inner chains between the outer
    /// chain's `elif`s included.
    #[test]
    fn elif_after_else_in_nested_and_successive_chains() {
        check(
            "if **a b**:\n  session \"1\"\nelif **c d**:\n  if **e f**:\n    session \"2\"\n  else:\n    session \"3\"\n  elif **g h**:\n    session \"4\"\nelif **i j**:\n  session \"5\"\nif **k l**:\n  session \"6\"\nelse:\n  session \"7\"\nelif **m n**:\n  session \"8\"\nelif **o p**:\n  session \"9\"\n",
            expect![[r#"
                P904 8:3-8:7 error: Elif must follow if: this `elif` comes after the chain's `else`
                P904 16:1-16:5 error: Elif must follow if: this `elif` comes after the chain's `else`
                P904 18:1-18:5 error: Elif must follow if: this `elif` comes after the chain's `else`
            "#]],
        );
    }

    #[test]
    fn chained_elif_is_fine() {
        check_no(
            "P904",
            "if **p q**:\n  session \"c\"\nelif **r s**:\n  session \"d\"\nelif **t u**:\n  session \"e\"\nelse:\n  session \"f\"\n",
        );
    }
}
