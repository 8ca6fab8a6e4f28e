//! # E017 `resume-non-persistent`
//!
//! **`resume:` requires a persistent agent.** `resume: name` names an agent
//! whose definition has no `persist:` property, so there is no memory to
//! resume.
//!
//! ## Example
//! ```prose
//! agent captain:
//!   model: opus
//!
//! session: captain
//!   prompt: "Review the plan"
//! resume: captain
//!   prompt: "Review step 1"
//! ```
//!
//! ## Fix
//! ```prose
//! agent captain:
//!   model: opus
//!   persist: true
//!
//! session: captain
//!   prompt: "Review the plan"
//! resume: captain
//!   prompt: "Review step 1"
//! ```
//!
//! The diagnostic is on the agent name after `resume:` and links to the
//! agent's definition. `persist: false` counts as no `persist:`. An
//! undefined agent is E007 only; an invalid `persist:` value is P301 only.
//!
//! ## Specification
//! compiler.md, Resume Statement: "`resume:` on non-persistent agent"
//! (Error, "Agent must have `persist:` property to use `resume:`");
//! Validation Rules: E017. Same severity in every profile.

use crate::openprose::rules::prelude::*;

use super::agent_with_persist;

pub(crate) const RULE: Rule = Rule {
    code: "E017",
    name: "resume-non-persistent",
    summary: "`resume:` requires persistent agent",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("resume_non_persistent.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for r in nodes::<ast::ResumeExpr>(ctx) {
        let Some(name) = r.agent() else { continue };
        let Some((agent, persist)) = agent_with_persist(ctx, &name.text()) else {
            continue;
        };
        // A scope read from `persist:` is never `false`.
        if persist.is_some() {
            continue;
        }
        let detail = match agent.property("persist").map(|p| p.any_value()) {
            None => "has none",
            Some(Some(ast::Expr::Literal(l))) if l.token().is_some_and(|t| t.text() == "false") => {
                "has `persist: false`"
            }
            Some(_) => continue,
        };
        let def_name = agent
            .name()
            .map_or_else(|| agent.syntax().text_range(), |n| n.syntax().text_range());
        acc.report_related(
            name.syntax().text_range(),
            format!(
                "Agent must have `persist:` property to use `resume:`: `{}` {detail}",
                name.text()
            ),
            vec![related(
                ctx,
                def_name,
                "agent defined here without `persist:`",
            )],
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn resume_without_persist() {
        check_code(
            "E017",
            "agent a:\n  model: opus\nagent b:\n  persist: false\nsession: a\nresume: a\nresume: b\nresume: ghost\n",
            expect![[r#"
                E017 6:9-6:10 error: Agent must have `persist:` property to use `resume:`: `a` has none
                  related 1:7-1:8: agent defined here without `persist:`
                E017 7:9-7:10 error: Agent must have `persist:` property to use `resume:`: `b` has `persist: false`
                  related 3:7-3:8: agent defined here without `persist:`
            "#]],
        );
    }

    #[test]
    fn persistent_agents() {
        check_no(
            "E017",
            "agent a:\n  persist: true\nagent b:\n  persist: projet\nsession: a\nresume: a\nresume: b\n",
        );
    }
}
