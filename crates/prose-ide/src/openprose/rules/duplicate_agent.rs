//! # E006 `duplicate-agent`
//!
//! **Duplicate agent definition.** Two `agent` definitions use the same name.
//!
//! ## Why is this bad?
//! Agents are collected before the program runs; a second definition with
//! the same name makes every `session: name` ambiguous.
//!
//! ## Example
//! ```prose
//! agent reviewer:
//!   model: sonnet
//!
//! agent reviewer:
//!   model: opus
//! ```
//!
//! ## Fix
//! Rename one of them:
//! ```prose
//! agent reviewer:
//!   model: sonnet
//!
//! agent senior-reviewer:
//!   model: opus
//! ```
//!
//! The diagnostic is on the second name and links to the first definition.
//!
//! ## Specification
//! compiler.md, Agent Definitions: "Duplicate agent name" (Error, "Agent
//! already defined"); Validation Rules: E006. Same severity in every profile.

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "E006",
    name: "duplicate-agent",
    summary: "Duplicate agent definition",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("duplicate_agent.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    report_duplicate_defs(ctx, acc, DefKind::Agent, "Agent");
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check, check_no};
    use expect_test::expect;

    #[test]
    fn second_definition_is_reported() {
        check(
            "agent a:\n  model: opus\nagent b:\n  model: opus\nagent a:\n  model: haiku\n",
            expect![[r#"
                E006 5:7-5:8 error: Agent already defined: `a`
                  related 1:7-1:8: first defined here
            "#]],
        );
    }

    #[test]
    fn distinct_names_are_fine() {
        check_no(
            "E006",
            "agent a:\n  model: opus\nagent a2:\n  model: opus\n",
        );
    }
}
