//! # P505 `block-conflicts-with-agent`
//!
//! **Block name conflicts with agent.** A `block` has the same name as an
//! agent.
//!
//! ## Why is this bad?
//! Agents and blocks are both hoisted program-wide names; sharing one makes
//! the program hard to read and a mistyped `do` / `session:` hard to spot.
//!
//! ## Example
//! ```prose
//! agent reviewer:
//!   model: sonnet
//!
//! block reviewer:
//!   session: reviewer
//!     prompt: "Review the code"
//! ```
//!
//! ## Fix
//! ```prose
//! agent reviewer:
//!   model: sonnet
//!
//! block review:
//!   session: reviewer
//!     prompt: "Review the code"
//! ```
//!
//! The diagnostic is on the block's name and links to the agent.
//!
//! ## Specification
//! compiler.md, Composition Blocks: "Block name conflicts with agent"
//! (Error, "Block name conflicts with agent name"). Same severity in every
//! profile.

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P505",
    name: "block-conflicts-with-agent",
    summary: "Block name conflicts with agent",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("block_conflicts_with_agent.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for (_, block) in ctx.sema().defs_of(DefKind::Block) {
        if let Some((_, agent)) = ctx.sema().find(DefKind::Agent, &block.name) {
            acc.report_related(
                block.name_range,
                format!("Block name conflicts with agent name: `{}`", block.name),
                vec![related(ctx, agent.name_range, "agent defined here")],
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn block_named_like_an_agent() {
        check_code(
            "P505",
            "block writer(x):\n  session \"{x}\"\nagent writer:\n  model: opus\n",
            expect![[r#"
                P505 1:7-1:13 error: Block name conflicts with agent name: `writer`
                  related 3:7-3:13: agent defined here
            "#]],
        );
    }

    #[test]
    fn different_names_are_fine() {
        check_no(
            "P505",
            "agent writer:\n  model: opus\nblock write:\n  session: writer\n",
        );
    }
}
