//! # W010 `empty-skills`
//!
//! **Empty skills array.** An agent declares `skills: []`.
//!
//! ## Why is this bad?
//! An empty list assigns nothing; it is usually a leftover or a list that
//! was meant to be filled in.
//!
//! ## Example
//! ```prose
//! agent researcher:
//!   model: sonnet
//!   skills: []
//! ```
//!
//! ## Fix
//! Remove the property, or list the skills:
//! ```prose
//! agent researcher:
//!   model: sonnet
//! ```
//!
//! The diagnostic is on the `[]`.
//!
//! ## Specification
//! Validation Rules: W010 "Empty skills array" (no table row). Warning in
//! every profile.

use crate::openprose::rules::prelude::*;

use super::agent_properties;

pub(crate) const RULE: Rule = Rule {
    code: "W010",
    name: "empty-skills",
    summary: "Empty skills array",
    strict: Severity::Warning,
    default: Level::On(Severity::Warning),
    source: include_str!("empty_skills.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for p in agent_properties(ctx, "skills") {
        if let Some(ast::Expr::Array(array)) = p.any_value()
            && array.elements().next().is_none()
        {
            acc.report_tagged(
                array.syntax().text_range(),
                "Empty skills array",
                vec![Tag::Unnecessary],
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn empty_array() {
        check_code(
            "W010",
            "agent a:\n  skills: [ ]\n",
            expect![[r#"
            W010 2:11-2:14 warning: Empty skills array
        "#]],
        );
    }

    #[test]
    fn non_empty_array() {
        check_no(
            "W010",
            "import \"x\" from \"./x\"\nagent a:\n  skills: [\"x\"]\n",
        );
    }
}
