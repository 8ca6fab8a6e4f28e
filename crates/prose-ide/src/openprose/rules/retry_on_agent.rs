//! # P811 `retry-on-agent`
//!
//! **Retry on agent definition.** An `agent` block has a `retry:` (or
//! `backoff:`) property. Retries belong to the session that might fail,
//! not to the agent's template.
//!
//! ## Example
//! ```prose
//! agent fetcher:
//!   model: haiku
//!   retry: 3
//! ```
//!
//! ## Fix
//! Move it to the sessions that use the agent:
//! ```prose
//! agent fetcher:
//!   model: haiku
//!
//! session: fetcher
//!   prompt: "Fetch the latest release notes"
//!   retry: 3
//! ```
//!
//! The diagnostic is on the key and links to the agent's name. `backoff:`
//! on an agent gets the same code, because a backoff means nothing without
//! a retry; neither key is also reported as an unknown property (W005).
//!
//! ## Specification
//! compiler.md, Error Handling › Validation Rules: "Retry on agent
//! definition" (Warning, "Retry property is only valid in session
//! statements"). The agent grammar lists `retry:` and `backoff:`, but the
//! Error Handling row is the specific rule for them (spec-rows.md §3.6).
//! Warning in every profile.

use crate::openprose::rules::prelude::*;

use super::key_range;

pub(crate) const RULE: Rule = Rule {
    code: "P811",
    name: "retry-on-agent",
    summary: "Retry on agent definition",
    strict: Severity::Warning,
    default: Level::On(Severity::Warning),
    source: include_str!("retry_on_agent.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for agent in nodes::<ast::AgentDef>(ctx) {
        for p in agent.properties() {
            let message = match p.key().as_str() {
                "retry" => "Retry property is only valid in session statements",
                "backoff" => "Backoff property is only valid in session statements",
                _ => continue,
            };
            let name = agent
                .name()
                .map(|n| {
                    vec![related(
                        ctx,
                        n.syntax().text_range(),
                        "in this agent definition",
                    )]
                })
                .unwrap_or_default();
            acc.report_related(key_range(&p), message, name);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn retry_and_backoff_on_agent() {
        check_code(
            "P811",
            "agent a:\n  model: haiku\n  retry: 3\n  backoff: exponential\n",
            expect![[r#"
                P811 3:3-3:8 warning: Retry property is only valid in session statements
                  related 1:7-1:8: in this agent definition
                P811 4:3-4:10 warning: Backoff property is only valid in session statements
                  related 1:7-1:8: in this agent definition
            "#]],
        );
    }

    #[test]
    fn retry_on_session() {
        check_no(
            "P811",
            "agent a:\n  model: haiku\nsession: a\n  retry: 3\n  backoff: linear\n",
        );
    }
}
