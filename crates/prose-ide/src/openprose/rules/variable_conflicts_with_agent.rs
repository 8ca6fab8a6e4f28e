//! # P403 `variable-conflicts-with-agent`
//!
//! **Variable conflicts with agent.** A variable has the same name as an
//! agent defined in the program. The variable may be declared (`input`,
//! `let`, `const`, `output`, a destructured name, `session name:`, an
//! assignment, a named parallel result) or scoped (a block parameter, a
//! loop or `as` variable, a `catch as` variable, a `reduce` variable).
//!
//! ## Why is this bad?
//! A reader (and the runtime) cannot tell whether `context: reviewer`
//! means the agent or the variable, and `session: reviewer` next to a
//! variable `reviewer` invites the wrong one.
//!
//! ## Example
//! ```prose
//! agent reviewer:
//!   model: sonnet
//!
//! let reviewer = session: reviewer
//!   prompt: "Review the draft"
//! ```
//!
//! ## Fix
//! ```prose
//! agent reviewer:
//!   model: sonnet
//!
//! let review = session: reviewer
//!   prompt: "Review the draft"
//! ```
//!
//! The diagnostic is on the variable's name and links to the agent.
//!
//! ## Specification
//! compiler.md, Variables & Context: "Variable conflicts with agent"
//! (Error, "Variable name conflicts with agent name"); Parallel Blocks:
//! the same row for named parallel results.
//!
//! ## Profiles
//! `strict` reports every conflict as an error. `default` keeps declarations
//! at error but reports **scoped** variables (parameters, loop, `as`, error
//! and `reduce` variables) as a warning: they live only inside their body,
//! where the agent name and the variable never share a syntactic slot
//! (`session: x` always names an agent). The official programs have one
//! such case: `for polecat in polecat_status:` with `agent polecat`
//! (`examples/28-gas-town.prose:705`).

use super::variables_shared::declarations;
use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P403",
    name: "variable-conflicts-with-agent",
    summary: "Variable conflicts with agent",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("variable_conflicts_with_agent.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    let agent = |name: &str| {
        ctx.sema()
            .find(DefKind::Agent, name)
            .map(|(_, d)| d.name_range)
    };
    let mut found: Vec<(TextRange, String, &'static str, TextRange, Level)> = Vec::new();
    for d in declarations(ctx).iter() {
        // A parallel result that reassigns a variable: reported at its declaration.
        if d.reassigns.is_some() {
            continue;
        }
        if let Some(a) = agent(&d.name) {
            found.push((
                d.name_range,
                d.name.to_string(),
                d.kind.describe(),
                a,
                Level::On(Severity::Error),
            ));
        }
    }
    for def in &ctx.sema().defs {
        let scoped = matches!(
            def.kind,
            DefKind::Param
                | DefKind::LoopVar
                | DefKind::IndexVar
                | DefKind::CatchVar
                | DefKind::ReduceVar
        );
        if scoped && let Some(a) = agent(&def.name) {
            found.push((
                def.name_range,
                def.name.to_string(),
                def.kind.describe(),
                a,
                Level::On(Severity::Warning),
            ));
        }
    }
    found.sort_by_key(|f| f.0.start());
    for (range, name, what, agent_range, level) in found {
        acc.report_calibrated(
            range,
            format!("Variable name conflicts with agent name: {what} `{name}`"),
            vec![related(ctx, agent_range, "agent defined here")],
            level,
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_code_strict, check_no};
    use expect_test::expect;

    const TEXT: &str = r#"agent critic:
  model: opus
input critic: "an input"
parallel:
  critic = session "a"
block review(critic):
  session "{critic}"
for critic in [1]:
  session "b"
try:
  session "c"
catch as critic:
  session "d"
let r = [1] | reduce(critic, x):
  session "e"
"#;

    #[test]
    fn declarations_are_errors_scoped_variables_warnings() {
        check_code(
            "P403",
            TEXT,
            expect![[r#"
            P403 3:7-3:13 error: Variable name conflicts with agent name: input `critic`
              related 1:7-1:13: agent defined here
            P403 6:14-6:20 warning: Variable name conflicts with agent name: block parameter `critic`
              related 1:7-1:13: agent defined here
            P403 8:5-8:11 warning: Variable name conflicts with agent name: loop variable `critic`
              related 1:7-1:13: agent defined here
            P403 12:10-12:16 warning: Variable name conflicts with agent name: error variable `critic`
              related 1:7-1:13: agent defined here
            P403 14:22-14:28 warning: Variable name conflicts with agent name: reduce variable `critic`
              related 1:7-1:13: agent defined here
        "#]],
        );
    }

    #[test]
    fn strict_reports_all_as_errors() {
        check_code_strict(
            "P403",
            TEXT,
            expect![[r#"
            P403 3:7-3:13 error: Variable name conflicts with agent name: input `critic`
              related 1:7-1:13: agent defined here
            P403 6:14-6:20 error: Variable name conflicts with agent name: block parameter `critic`
              related 1:7-1:13: agent defined here
            P403 8:5-8:11 error: Variable name conflicts with agent name: loop variable `critic`
              related 1:7-1:13: agent defined here
            P403 12:10-12:16 error: Variable name conflicts with agent name: error variable `critic`
              related 1:7-1:13: agent defined here
            P403 14:22-14:28 error: Variable name conflicts with agent name: reduce variable `critic`
              related 1:7-1:13: agent defined here
        "#]],
        );
    }

    #[test]
    fn different_names_are_fine() {
        check_no(
            "P403",
            "agent critic:\n  model: opus\nlet critique = session: critic\n  prompt: \"x\"\nsession: critic\n",
        );
    }
}
