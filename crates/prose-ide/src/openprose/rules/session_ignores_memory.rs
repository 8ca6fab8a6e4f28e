//! # W011 `session-ignores-memory`
//!
//! **`session:` on a persistent agent with memory.** `session: name` starts
//! a persistent agent afresh although it already has memory: it was
//! invoked earlier in this run, or (for `project`, `user` and path scopes)
//! its memory file exists. The existing memory is ignored.
//!
//! ## Example
//! ```prose
//! agent captain:
//!   model: opus
//!   persist: true
//!
//! session: captain
//!   prompt: "Review the plan"
//! session: captain
//!   prompt: "Review step 1"
//! ```
//!
//! ## Fix
//! Continue the agent with `resume:`:
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
//! The diagnostic is on the agent name after `session:` and links to the
//! earlier invocation, or to the agent's `persist:` property when the
//! memory is a file on disk. *Earlier* is program order, as defined for
//! E018: source order, with a `block` body placed at the block's first
//! `do` invocation; sessions in a block that is never invoked are not
//! checked. Multi-file example: with this memory file present, the
//! `session:` is reported:
//! ```prose
//! #- /ws/.prose/agents/advisor/memory.md
//! #- /ws/main.prose
//! agent advisor:
//!   persist: project
//! session: advisor
//! ```
//!
//! ## Specification
//! compiler.md, Resume Statement: "`session:` on persistent agent with
//! memory" (Warning, "Will ignore existing memory; use `resume:` to
//! continue"); Validation Rules: W011. Memory locations: state-filesystem.md
//! (spec-rows.md §3.10, §4).
//!
//! ## Profiles
//! `strict`: warning. `default`: **hint**. prose.md documents `session:`
//! on a persistent agent as "First invocation OR re-initialize (starts
//! fresh)": starting over on purpose is documented usage, and 6 official
//! programs do it (`examples/37-the-forge.prose:260-267` runs `resume:
//! smith` and then `session: smith` for the actual work;
//! `examples/28-gas-town.prose:660`). The hint still points out where the
//! memory is dropped.

use crate::{contract::Persist, openprose::rules::prelude::*};

use super::{
    agent_with_persist, property_range,
    resume_without_memory::{earlier, first_invocations, invocations},
};

pub(crate) const RULE: Rule = Rule {
    code: "W011",
    name: "session-ignores-memory",
    summary: "`session:` on persistent agent with memory",
    strict: Severity::Warning,
    default: Level::On(Severity::Hint),
    source: include_str!("session_ignores_memory.rs"),
    check: Check::OpenProse(check),
};

const MESSAGE: &str = "Will ignore existing memory; use `resume:` to continue";

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    let all = invocations(ctx);
    let first = first_invocations(&all);
    for inv in all.iter().filter(|i| !i.is_resume) {
        let Some(order) = &inv.order else { continue };
        let Some((agent, Some(persist))) = agent_with_persist(ctx, &inv.agent) else {
            continue;
        };
        if let Some(prev) = earlier(&first, &inv.agent, order) {
            let kind = if prev.is_resume { "resume" } else { "session" };
            acc.report_related(
                inv.name_range,
                format!(
                    "{MESSAGE}: `{}` already ran earlier in this run (`{kind}: {}`)",
                    inv.agent, inv.agent
                ),
                vec![related(ctx, prev.name_range, "memory created here")],
            );
            continue;
        }
        if persist == Persist::Execution || !ctx.has_workspace() {
            continue;
        }
        let Some(path) = ctx.memory_file_path(&inv.agent, &persist) else {
            continue;
        };
        if ctx.memory_file_exists(&path) {
            let persist_range = agent
                .property("persist")
                .map_or_else(|| agent.syntax().text_range(), |p| property_range(&p));
            acc.report_related(
                inv.name_range,
                format!("{MESSAGE}: `{}` exists", ctx.display_path(&path)),
                vec![related(ctx, persist_range, "memory scope declared here")],
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_code_strict, check_no};
    use expect_test::expect;

    const TWICE: &str =
        "agent a:\n  persist: true\nblock later:\n  session: a\nresume: a\nsession: a\ndo later\n";

    #[test]
    fn earlier_invocation_is_a_hint_by_default() {
        check_code(
            "W011",
            TWICE,
            expect![[r#"
            W011 4:12-4:13 hint: Will ignore existing memory; use `resume:` to continue: `a` already ran earlier in this run (`resume: a`)
              related 5:9-5:10: memory created here
            W011 6:10-6:11 hint: Will ignore existing memory; use `resume:` to continue: `a` already ran earlier in this run (`resume: a`)
              related 5:9-5:10: memory created here
        "#]],
        );
    }

    #[test]
    fn earlier_invocation_is_a_warning_in_strict() {
        check_code_strict(
            "W011",
            TWICE,
            expect![[r#"
            W011 4:12-4:13 warning: Will ignore existing memory; use `resume:` to continue: `a` already ran earlier in this run (`resume: a`)
              related 5:9-5:10: memory created here
            W011 6:10-6:11 warning: Will ignore existing memory; use `resume:` to continue: `a` already ran earlier in this run (`resume: a`)
              related 5:9-5:10: memory created here
        "#]],
        );
    }

    #[test]
    fn memory_file_on_disk() {
        check_code(
            "W011",
            "#- /ws/.prose/agents/captain/memory.md\n#- /home/user/.prose/agents/inspector/memory.md\n#- /ws/main.prose\nagent captain:\n  persist: project\nagent inspector:\n  persist: user\nagent fresh:\n  persist: project\nsession: captain\nsession: inspector\nsession: fresh\n",
            expect![[r#"
                W011 7:10-7:17 hint: Will ignore existing memory; use `resume:` to continue: `.prose/agents/captain/memory.md` exists
                  related 2:3-2:19: memory scope declared here
                W011 8:10-8:19 hint: Will ignore existing memory; use `resume:` to continue: `~/.prose/agents/inspector/memory.md` exists
                  related 4:3-4:16: memory scope declared here
            "#]],
        );
    }

    #[test]
    fn first_session_without_memory() {
        check_no(
            "W011",
            "agent a:\n  persist: true\nagent b:\n  persist: project\nagent c:\n  model: opus\nsession: a\nresume: a\nsession: b\nsession: c\nsession: c\nblock never:\n  session: a\n",
        );
    }
}
