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

use super::variables_shared::declared_by;
use crate::openprose::rules::prelude::*;
use crate::openprose::rules::relation::declared_places;

pub(crate) const RULE: Rule = Rule {
    code: "P403",
    name: "variable-conflicts-with-agent",
    summary: "Variable conflicts with agent",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("variable_conflicts_with_agent.rs"),
    check: Check::OpenProse(check),
};

/// Goes from the agents' names to the definitions of those names (a
/// handful per agent), not through every declaration of the file: a
/// long program's thousands of names were each looked up among the
/// agents after every edit. (A parallel result that assigns a bound name
/// defines nothing: it is reported at that name's declaration.)
fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    let sema = ctx.sema();
    let declared = declared_places(ctx);
    let mut agents: rustc_hash::FxHashSet<&str> = Default::default();
    // Each with where it stood among the reports made over the
    // declarations (in file order) and then over the scoped definitions:
    // its start, which of the two, its definition.
    let mut found = Vec::new();
    for (_, agent) in sema.defs_of(DefKind::Agent) {
        if !agents.insert(agent.name.as_str()) {
            continue;
        }
        // The first agent of the name is the one linked to.
        let Some((_, first)) = sema.find(DefKind::Agent, &agent.name) else {
            continue;
        };
        for id in sema.named(&agent.name) {
            let def = sema.def(id);
            let place = declared.get(id, def);
            let (group, what, level) = if let Some((kind, _)) = declared_by(def, place) {
                (0u8, kind.describe(), Level::On(Severity::Error))
            } else if matches!(
                def.kind,
                DefKind::Param
                    | DefKind::LoopVar
                    | DefKind::IndexVar
                    | DefKind::CatchVar
                    | DefKind::ReduceVar
            ) {
                (1, def.kind.describe(), Level::On(Severity::Warning))
            } else {
                continue;
            };
            let order = (def.name_range.start(), group, id.0);
            found.push((order, def, what, first.name_range, level));
        }
    }
    found.sort_unstable_by_key(|f| f.0);
    for (_, def, what, agent_range, level) in found {
        acc.report_calibrated(
            def.name_range,
            format!(
                "Variable name conflicts with agent name: {what} `{}`",
                def.name
            ),
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
