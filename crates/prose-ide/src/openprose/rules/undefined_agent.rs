//! # E007 `undefined-agent`
//!
//! **Undefined agent reference.** `session: name`, `session x: name` or
//! `resume: name` names an agent that no `agent` definition in the program
//! defines.
//!
//! ## Example
//! ```prose
//! agent researcher:
//!   model: sonnet
//!
//! session: reseacher
//! ```
//!
//! ## Fix
//! ```prose
//! agent researcher:
//!   model: sonnet
//!
//! session: researcher
//! ```
//!
//! The diagnostic is on the agent name; the quick fix offers the closest
//! defined agent or a new definition.
//!
//! ## Specification
//! compiler.md, Session Statement and Resume Statement: "Undefined agent
//! reference" (Error, "Agent not defined"); Validation Rules: E007. Agents
//! are collected before execution, so an agent defined further down counts.

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "E007",
    name: "undefined-agent",
    summary: "Undefined agent reference",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("undefined_agent.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    report_undefined(ctx, acc, RefKind::Agent, DefKind::Agent, "Agent");
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check, check_no};
    use expect_test::expect;

    #[test]
    fn session_and_resume() {
        check(
            "agent researcher:\n  persist: true\nsession: reseacher\nresume: ghost\n",
            expect![[r#"
                E007 3:10-3:19 error: Agent not defined: `reseacher` (did you mean `researcher`?)
                E007 4:9-4:14 error: Agent not defined: `ghost`
            "#]],
        );
    }

    #[test]
    fn hoisted_agents_resolve() {
        check_no("E007", "session: later\nagent later:\n  model: opus\n");
    }
}
