//! # W004 `empty-agent-prompt`
//!
//! **Empty prompt property.** An agent's `prompt:` is empty or holds only
//! whitespace.
//!
//! ## Why is this bad?
//! The agent's prompt is the system context of every session that uses it;
//! an empty one gives the subagent no role. Omit the property if the agent
//! needs none.
//!
//! ## Example
//! ```prose
//! agent reviewer:
//!   model: opus
//!   prompt: ""
//! ```
//!
//! ## Fix
//! ```prose
//! agent reviewer:
//!   model: opus
//!   prompt: "You review code for correctness and clarity"
//! ```
//!
//! The diagnostic is on the string literal (on the `prompt` key when no
//! value follows it) and links to the agent's name. A session's or
//! resume's empty prompt is W001/W002 instead.
//!
//! ## Specification
//! compiler.md, Agent Definitions: "Empty prompt property" (Warning,
//! "Consider providing a prompt"); String Literals › Validation ("Empty
//! string as prompt": Warning); Validation Rules: W004 (spec-rows.md §3.5).
//! Warning in every profile.

use crate::openprose::rules::prelude::*;

use super::key_range;

pub(crate) const RULE: Rule = Rule {
    code: "W004",
    name: "empty-agent-prompt",
    summary: "Empty prompt property",
    strict: Severity::Warning,
    default: Level::On(Severity::Warning),
    source: include_str!("empty_agent_prompt.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for agent in nodes::<ast::AgentDef>(ctx) {
        let Some(p) = agent.property("prompt") else {
            continue;
        };
        let range = match p.any_value() {
            Some(ast::Expr::String(s)) if s.is_terminated() && s.value().trim().is_empty() => {
                s.syntax().text_range()
            }
            None => key_range(&p),
            Some(_) => continue,
        };
        let related_name = agent
            .name()
            .map(|n| vec![related(ctx, n.syntax().text_range(), "agent defined here")])
            .unwrap_or_default();
        acc.report_related(
            range,
            "Consider providing a prompt: the agent's prompt is empty",
            related_name,
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn empty_agent_prompts() {
        check_code(
            "W004",
            "agent a:\n  prompt: \"\"\nagent b:\n  prompt: \"\"\"\n\n  \"\"\"\nagent c:\n  prompt:\n  model: opus\n",
            expect![[r#"
                W004 2:11-2:13 warning: Consider providing a prompt: the agent's prompt is empty
                  related 1:7-1:8: agent defined here
                W004 4:11-6:6 warning: Consider providing a prompt: the agent's prompt is empty
                  related 3:7-3:8: agent defined here
                W004 8:3-8:9 warning: Consider providing a prompt: the agent's prompt is empty
                  related 7:7-7:8: agent defined here
            "#]],
        );
    }

    #[test]
    fn session_prompts_are_not_agent_prompts() {
        check_no(
            "W004",
            "agent a:\n  prompt: \"p\"\nsession: a\n  prompt: \"\"\nsession \"\"\n",
        );
    }
}
