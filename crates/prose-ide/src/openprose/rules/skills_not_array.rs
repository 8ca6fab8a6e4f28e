//! # E013 `skills-not-array`
//!
//! **Skills must be an array.** An agent's `skills:` value is not an array
//! literal `[...]`.
//!
//! ## Example
//! ```prose
//! import "web-search" from "github:anthropic/skills"
//!
//! agent researcher:
//!   skills: "web-search"
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
//! The diagnostic is on the value, or on the `skills` key when no value
//! follows it.
//!
//! ## Specification
//! compiler.md, Agent Definitions › Properties (`skills`: "String array")
//! and the grammar (`"skills:" "[" string* "]"`); Validation Rules: E013
//! "Skills must be an array" (no table row). Same severity in every
//! profile.

use crate::openprose::rules::prelude::*;

use super::{agent_properties, value_or_key_range};

pub(crate) const RULE: Rule = Rule {
    code: "E013",
    name: "skills-not-array",
    summary: "Skills must be an array",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("skills_not_array.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for p in agent_properties(ctx, "skills") {
        match p.any_value() {
            Some(ast::Expr::Array(_)) => {}
            Some(v) => acc.report(
                v.syntax().text_range(),
                "Skills must be an array: write `skills: [\"name\", ...]`",
            ),
            None => acc.report(
                value_or_key_range(&p),
                "Skills must be an array: `skills:` has no value",
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn not_an_array() {
        check_code(
            "E013",
            "agent a:\n  skills: \"web-search\"\nagent b:\n  skills: web\nagent c:\n  skills:\n",
            expect![[r#"
                E013 2:11-2:23 error: Skills must be an array: write `skills: ["name", ...]`
                E013 4:11-4:14 error: Skills must be an array: write `skills: ["name", ...]`
                E013 6:3-6:9 error: Skills must be an array: `skills:` has no value
            "#]],
        );
    }

    #[test]
    fn arrays_are_fine() {
        check_no(
            "E013",
            "agent a:\n  skills: []\nagent b:\n  skills: [\"x\", y]\n",
        );
    }
}
