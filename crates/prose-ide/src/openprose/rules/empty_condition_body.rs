//! # P907 `empty-condition-body`
//!
//! **Condition has empty body.** An `if`, `elif` or `else` clause with no
//! statement in its body: no indented block at all, or only comments.
//!
//! ## Why is this bad?
//! The branch does nothing when taken. Usually the body was forgotten, or
//! indented under the wrong clause.
//!
//! ## Example
//! ```prose
//! if **the report contains errors**:
//!   # TODO
//! else:
//!   session "Publish the report"
//! ```
//!
//! ## Fix
//! ```prose
//! if **the report contains errors**:
//!   session "Fix the errors"
//! else:
//!   session "Publish the report"
//! ```
//!
//! The diagnostic is on the clause keyword (`if`, `elif` or `else`). The
//! parser accepts the empty body, so this is the only diagnostic for it.
//!
//! ## Specification
//! compiler.md, Conditional Statements, Validation Rules: "Empty body"
//! (Warning, "Condition has empty body"). Reported instead of E005
//! (spec-rows.md §2.6). Same severity in every profile.

use super::control_shared::is_empty_body;
use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P907",
    name: "empty-condition-body",
    summary: "Condition has empty body",
    strict: Severity::Warning,
    default: Level::On(Severity::Warning),
    source: include_str!("empty_condition_body.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for node in ctx.nodes_matching(|k| {
        ast::IfStmt::can_cast(k) || ast::ElifClause::can_cast(k) || ast::ElseClause::can_cast(k)
    }) {
        let (kw, body) = if let Some(i) = ast::IfStmt::cast(node.clone()) {
            (i.keyword(), i.body())
        } else if let Some(e) = ast::ElifClause::cast(node.clone()) {
            (e.keyword(), e.body())
        } else if let Some(e) = ast::ElseClause::cast(node.clone()) {
            (e.keyword(), e.body())
        } else {
            continue;
        };
        // Without the `:` the header is a syntax error (E005) already.
        let has_colon = child_token(&node, SyntaxKind::COLON).is_some();
        if let Some(kw) = kw
            && has_colon
            && is_empty_body(body)
        {
            acc.report(
                kw.text_range(),
                format!(
                    "Condition has empty body: this `{}` does nothing",
                    kw.text()
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check, check_no};
    use expect_test::expect;

    #[test]
    fn empty_clauses_without_syntax_errors() {
        check(
            "if **p q**:\n  # todo\nelif **r s**:\nelse:\nsession \"after\"\n",
            expect![[r#"
                P907 1:1-1:3 warning: Condition has empty body: this `if` does nothing
                P907 3:1-3:5 warning: Condition has empty body: this `elif` does nothing
                P907 4:1-4:5 warning: Condition has empty body: this `else` does nothing
            "#]],
        );
    }

    #[test]
    fn bodies_are_fine() {
        check_no(
            "P907",
            "if **p q**: session \"a\"\nelif **r s**:\n  session \"b\"\nelse:\n  session \"c\"\n",
        );
    }
}
