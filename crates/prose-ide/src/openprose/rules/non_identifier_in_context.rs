//! # P405 `non-identifier-in-context`
//!
//! **Non-identifier in context array.** An element of a `context: […]`
//! array is not a variable reference: a string, a number, a session, a
//! nested array or object, or another expression.
//!
//! ## Why is this bad?
//! `context:` passes the *results of earlier sessions*, by variable. A
//! literal in the list is not a result; to give a session fixed text, put
//! it in the prompt.
//!
//! ## Example
//! ```prose
//! let research = session "Research the topic"
//!
//! session "Write the report"
//!   context: [research, "the style guide"]
//! ```
//!
//! ## Fix
//! ```prose
//! let research = session "Research the topic"
//! let style = session "Summarize the style guide"
//!
//! session "Write the report"
//!   context: [research, style]
//! ```
//!
//! Accepted elements are a name, a field access on one (`review.summary`)
//! and an index into one (`drafts[0]`): each reads a variable. Whether the
//! name exists is [P404](P404.md). A value outside an array
//! (`context: "text"`) is not covered by this row.
//!
//! ## Specification
//! compiler.md, Variables & Context: "Non-identifier in context array"
//! (Error, "Context array elements must be variable references"). Same
//! severity in every profile.

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P405",
    name: "non-identifier-in-context",
    summary: "Non-identifier in context array",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("non_identifier_in_context.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for p in nodes::<ast::Property>(ctx) {
        if p.key() != "context" {
            continue;
        }
        let Some(ast::Expr::Array(array)) = p.any_value() else {
            continue;
        };
        for el in array.elements() {
            if let Some(found) = non_reference(&el) {
                acc.report(
                    el.syntax().text_range(),
                    format!("Context array elements must be variable references (found {found})"),
                );
            }
        }
    }
}

/// What `e` is, when it is not a variable reference.
fn non_reference(e: &ast::Expr) -> Option<&'static str> {
    use ast::Expr;
    match e {
        Expr::NameRef(_) => None,
        Expr::Field(f) => match f.receiver() {
            Some(r) => non_reference(&r),
            None => Some("an incomplete field access"),
        },
        // `xs[0]`: indexing keeps no argument list.
        Expr::Call(c) if c.arg_list().is_none() => match c.callee() {
            Some(r) => non_reference(&r),
            None => Some("an expression"),
        },
        Expr::Paren(p) => p.expr().and_then(|e| non_reference(&e)),
        Expr::String(_) => Some("a string"),
        Expr::Literal(_) => Some("a literal"),
        Expr::Session(_) | Expr::Resume(_) => Some("a session"),
        Expr::Array(_) => Some("a nested array"),
        Expr::Object(_) => Some("an object"),
        Expr::Call(_) => Some("a call"),
        Expr::Discretion(_) => Some("a discretion condition"),
        _ => Some("an expression"),
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn literals_and_expressions_in_the_array() {
        check_code(
            "P405",
            r#"let a = session "a"
session "b"
  context: [a, "text", 3, [a], { a }, a + a, session "inline"]
"#,
            expect![[r#"
                P405 3:16-3:22 error: Context array elements must be variable references (found a string)
                P405 3:24-3:25 error: Context array elements must be variable references (found a literal)
                P405 3:27-3:30 error: Context array elements must be variable references (found a nested array)
                P405 3:32-3:37 error: Context array elements must be variable references (found an object)
                P405 3:39-3:44 error: Context array elements must be variable references (found an expression)
                P405 3:46-3:62 error: Context array elements must be variable references (found a session)
            "#]],
        );
    }

    #[test]
    fn references_are_fine() {
        check_no(
            "P405",
            r#"let a = session "a"
session "b"
  context: [a, a.summary, a[0], a.items[1].name, missing]
session "c"
  context: "not an array"
session "d"
  context: []
"#,
        );
    }
}
