//! # E014 `skill-not-string`
//!
//! **Skill name must be a string.** An element of an agent's `skills: [...]`
//! array is not a string literal.
//!
//! ## Example
//! ```prose
//! import "web-search" from "github:anthropic/skills"
//!
//! agent researcher:
//!   skills: [web-search]
//! ```
//!
//! ## Fix
//! ```prose
//! import "web-search" from "github:anthropic/skills"
//!
//! agent researcher:
//!   skills: ["web-search"]
//! ```
//!
//! The diagnostic is on the element.
//!
//! ## Specification
//! compiler.md, Agent Definitions › Properties (`skills`: "String array")
//! and the grammar (`"skills:" "[" string* "]"`); Validation Rules: E014
//! "Skill name must be a string" (no table row). Same severity in every
//! profile.

use crate::openprose::rules::prelude::*;

use super::skill_elements;

pub(crate) const RULE: Rule = Rule {
    code: "E014",
    name: "skill-not-string",
    summary: "Skill name must be a string",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("skill_not_string.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for el in skill_elements(ctx) {
        if !matches!(el, ast::Expr::String(_)) {
            let text = el.syntax().text().to_string();
            let hint = if matches!(el, ast::Expr::NameRef(_)) {
                format!(": write `\"{text}\"`")
            } else {
                String::new()
            };
            acc.report(
                el.syntax().text_range(),
                format!("Skill name must be a string{hint}"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn non_string_elements() {
        check_code(
            "E014",
            "agent a:\n  skills: [\"ok\", web, 3]\n",
            expect![[r#"
                E014 2:18-2:21 error: Skill name must be a string: write `"web"`
                E014 2:23-2:24 error: Skill name must be a string
            "#]],
        );
    }

    #[test]
    fn strings_are_fine() {
        check_no(
            "E014",
            "agent a:\n  skills: [\"web-search\", \"x\"]\nsession \"s\"\n  context: [a, b]\n",
        );
    }
}
