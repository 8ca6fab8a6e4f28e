//! # E018 `resume-without-memory`
//!
//! **`resume:` with no existing memory.** `resume: name` continues a
//! persistent agent's memory, but no memory can exist yet: the agent has
//! not been invoked earlier in this run (`persist: true`), or its memory
//! file does not exist (`persist: project`, `user` or a path).
//!
//! ## Example
//! ```prose
//! agent captain:
//!   model: opus
//!   persist: true
//!
//! resume: captain
//!   prompt: "Review step 1"
//! ```
//!
//! ## Fix
//! Start the agent with `session:`, then resume it:
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
//! agent's `persist:` property.
//!
//! **`persist: true`** memory lives in the run's own directory
//! (`.prose/runs/{id}/agents/{name}/`), so it exists only after a
//! `session:` or `resume:` of the agent earlier in the same run. *Earlier*
//! means earlier in program order: source order, except that the body of a
//! `block` runs where the block is first invoked with `do` (from outside
//! its own body, found recursively), and a block that is never invoked
//! never runs. An earlier invocation on any path counts (an `if` branch, a
//! loop body), so only a resume that certainly has no memory is reported.
//!
//! **`persist: project`, `user` and `"path"`** keep memory on disk
//! (`.prose/agents/{name}/memory.md`, `~/.prose/agents/{name}/memory.md`,
//! `PATH/memory.md`). The check reports a `resume:` when that file does
//! not exist and no invocation of the agent comes earlier in the program.
//! Multi-file example: with this memory file present, nothing is reported:
//! ```prose
//! #- /ws/.prose/agents/advisor/memory.md
//! #- /ws/main.prose
//! agent advisor:
//!   persist: project
//! resume: advisor
//! ```
//!
//! An undefined agent is E007 only; an agent without `persist:` is E017
//! only.
//!
//! ## Specification
//! compiler.md, Resume Statement: "`resume:` with no existing memory"
//! (Error, "No memory file exists for agent; use `session:` for first
//! invocation"); Validation Rules: E018. Memory locations:
//! state-filesystem.md, "Memory Scoping for Persistent Agents"
//! (spec-rows.md §3.10, §4).
//!
//! ## Profiles
//! `persist: true`: error in both profiles; the answer follows from the
//! program alone. The one official case, `examples/48-habit-miner.prose:252`
//! (`resume: miner`), is a true positive: the program wants to remember
//! patterns "across runs" but declared execution-scoped memory, which dies
//! with each run (the fix is `persist: project`).
//!
//! Disk scopes: error under `strict`, **hint** under `default`. Whether the
//! file exists depends on the machine and on earlier runs, not on the
//! program: library programs such as `lib/project-memory.prose` and
//! `lib/profiler.prose` are written to be `resume:`d on every run, and
//! their memory is missing only before the first one.

use crate::{
    contract::{Persist, agent_persist},
    openprose::rules::prelude::*,
};

use rustc_hash::FxHashMap as HashMap;

use super::{agent_def, property_range};

pub(crate) const RULE: Rule = Rule {
    code: "E018",
    name: "resume-without-memory",
    summary: "`resume:` with no existing memory",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("resume_without_memory.rs"),
    check: Check::OpenProse(check),
};

const MESSAGE: &str = "No memory file exists for agent; use `session:` for first invocation";

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    let all = invocations(ctx);
    let first = first_invocations(&all);
    for inv in all.iter().filter(|i| i.is_resume) {
        let Some(order) = &inv.order else { continue };
        let Some(agent) = agent_def(ctx, &inv.agent) else {
            continue;
        };
        let Some(persist) = agent_persist(&agent) else {
            continue;
        };
        if earlier(&first, &inv.agent, order).is_some() {
            continue;
        }
        let persist_range = agent
            .property("persist")
            .map_or_else(|| agent.syntax().text_range(), |p| property_range(&p));
        let rel = vec![related(ctx, persist_range, "memory scope declared here")];
        if persist == Persist::Execution {
            acc.report_related(
                inv.name_range,
                format!(
                    "{MESSAGE}: `{}` has `persist: true` (memory of this run only) and is not invoked before this point",
                    inv.agent
                ),
                rel,
            );
            continue;
        }
        if ctx.workspace().is_none() {
            continue;
        }
        let Some(path) = ctx.memory_file_path(&inv.agent, &persist) else {
            continue;
        };
        if !ctx.memory_file_exists(&path) {
            acc.report_calibrated(
                inv.name_range,
                format!(
                    "{MESSAGE}: `{}` does not exist yet",
                    ctx.display_path(&path)
                ),
                rel,
                Level::On(Severity::Hint),
            );
        }
    }
}

/// A `session:` or `resume:` of an agent, placed in program order.
#[derive(Clone)]
pub(crate) struct Invocation {
    pub(crate) agent: String,
    /// The agent's name after `session:` / `resume:`.
    pub(crate) name_range: TextRange,
    pub(crate) is_resume: bool,
    /// Its position in program order (compare lexicographically); `None`
    /// when it sits in a block that is never invoked.
    pub(crate) order: Option<Vec<u32>>,
}

/// The first invocation of each agent in program order (the first written
/// on a tie), so that [`earlier`] is a lookup, not a scan of every
/// invocation of the file.
pub(crate) fn first_invocations(all: &[Invocation]) -> HashMap<&str, &Invocation> {
    let mut first: HashMap<&str, &Invocation> = HashMap::default();
    for inv in all.iter().filter(|i| i.order.is_some()) {
        first
            .entry(inv.agent.as_str())
            .and_modify(|f| {
                if inv.order < f.order {
                    *f = inv;
                }
            })
            .or_insert(inv);
    }
    first
}

/// The invocation of `agent` that comes first among those before `order`
/// (`first`: [`first_invocations`]).
pub(crate) fn earlier<'a>(
    first: &HashMap<&str, &'a Invocation>,
    agent: &str,
    order: &[u32],
) -> Option<&'a Invocation> {
    first
        .get(agent)
        .copied()
        .filter(|i| i.order.as_deref().is_some_and(|o| o < order))
}

/// Every agent invocation of the file, with its program-order position.
pub(crate) fn invocations(ctx: &Ctx<'_>) -> Vec<Invocation> {
    ctx.shared(compute_invocations).as_ref().clone()
}

fn compute_invocations(ctx: &Ctx<'_>) -> Vec<Invocation> {
    let order = ProgramOrder::new(ctx);
    let mut out = Vec::new();
    for node in
        ctx.nodes_matching(|k| ast::SessionExpr::can_cast(k) || ast::ResumeExpr::can_cast(k))
    {
        let (name, is_resume) = if let Some(s) = ast::SessionExpr::cast(node.clone()) {
            (s.agent(), false)
        } else if let Some(r) = ast::ResumeExpr::cast(node.clone()) {
            (r.agent(), true)
        } else {
            continue;
        };
        let Some(name) = name else { continue };
        out.push(Invocation {
            agent: name.text(),
            name_range: name.syntax().text_range(),
            is_resume,
            order: order.position(&node),
        });
    }
    out
}

/// Program order: source order, with each `block` body placed at the
/// block's first invocation from outside its own body.
struct ProgramOrder {
    /// Block definitions (first per name) and where each first runs.
    blocks: Vec<(SyntaxNode, Option<Vec<u32>>)>,
    /// Positions in `blocks` by definition node.
    index: HashMap<SyntaxNode, usize>,
}

impl ProgramOrder {
    fn new(ctx: &Ctx<'_>) -> ProgramOrder {
        let mut defs: Vec<(String, SyntaxNode)> = Vec::new();
        let mut seen: rustc_hash::FxHashSet<String> = Default::default();
        for b in nodes::<ast::BlockDef>(ctx) {
            if let Some(n) = b.name()
                && seen.insert(n.text())
            {
                defs.push((n.text(), b.syntax().clone()));
            }
        }
        // Calls by name: each definition meets only its own calls.
        let mut calls: HashMap<String, Vec<SyntaxNode>> = HashMap::default();
        for c in nodes::<ast::DoCall>(ctx) {
            if let Some(n) = c.name_ref() {
                calls.entry(n.text()).or_default().push(c.syntax().clone());
            }
        }
        let mut this = ProgramOrder {
            blocks: defs.iter().map(|(_, n)| (n.clone(), None)).collect(),
            index: defs
                .iter()
                .enumerate()
                .map(|(i, (_, n))| (n.clone(), i))
                .collect(),
        };
        // Bellman-Ford style relaxation: a block's first run is the
        // earliest of its calls; a call inside another block runs when that
        // block does. Shortest placements follow no cycle, so as many rounds
        // as there are blocks suffice.
        for _ in 0..=defs.len() {
            let mut changed = false;
            for (i, (name, def)) in defs.iter().enumerate() {
                let best = calls
                    .get(name)
                    .into_iter()
                    .flatten()
                    .filter(|call| !call.ancestors().any(|a| a == *def))
                    .filter_map(|call| this.position(call))
                    .min();
                if let Some(b) = best
                    && this.blocks[i].1.as_ref().is_none_or(|cur| b < *cur)
                {
                    this.blocks[i].1 = Some(b);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        this
    }

    /// Where `node` runs first in program order, if it runs at all.
    fn position(&self, node: &SyntaxNode) -> Option<Vec<u32>> {
        let offset = u32::from(node.text_range().start());
        let Some(block) = node
            .ancestors()
            .skip(1)
            .find(|a| a.kind() == SyntaxKind::BLOCK_DEF)
        else {
            return Some(vec![offset]);
        };
        let (_, first) = &self.blocks[*self.index.get(&block)?];
        let mut p = first.clone()?;
        p.push(offset);
        Some(p)
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_code_strict, check_no};
    use expect_test::expect;

    #[test]
    fn execution_scope_without_earlier_invocation() {
        check_code(
            "E018",
            "agent a:\n  persist: true\nresume: a\nsession: a\nresume: a\n",
            expect![[r#"
                E018 3:9-3:10 error: No memory file exists for agent; use `session:` for first invocation: `a` has `persist: true` (memory of this run only) and is not invoked before this point
                  related 2:3-2:16: memory scope declared here
            "#]],
        );
    }

    #[test]
    fn block_bodies_run_at_their_first_invocation() {
        check_code(
            "E018",
            "agent a:\n  persist: true\nblock late:\n  resume: a\nblock early:\n  resume: a\nblock never:\n  resume: a\nblock outer:\n  do early\ndo outer\nsession: a\ndo late\n",
            expect![[r#"
                E018 6:11-6:12 error: No memory file exists for agent; use `session:` for first invocation: `a` has `persist: true` (memory of this run only) and is not invoked before this point
                  related 2:3-2:16: memory scope declared here
            "#]],
        );
    }

    #[test]
    fn recursive_blocks() {
        check_code(
            "E018",
            "agent a:\n  persist: true\nblock ping:\n  resume: a\n  do pong\nblock pong:\n  session: a\n  do ping\ndo pong\n",
            expect![[""]],
        );
    }

    const DISK: &str = "agent captain:\n  persist: project\nagent inspector:\n  persist: user\nagent shared:\n  persist: \".prose/custom/shared/\"\nresume: captain\nresume: inspector\nresume: shared\n";

    #[test]
    fn disk_scopes_without_memory_are_hints_by_default() {
        check_code(
            "E018",
            DISK,
            expect![[r#"
            E018 7:9-7:16 hint: No memory file exists for agent; use `session:` for first invocation: `.prose/agents/captain/memory.md` does not exist yet
              related 2:3-2:19: memory scope declared here
            E018 8:9-8:18 hint: No memory file exists for agent; use `session:` for first invocation: `~/.prose/agents/inspector/memory.md` does not exist yet
              related 4:3-4:16: memory scope declared here
            E018 9:9-9:15 hint: No memory file exists for agent; use `session:` for first invocation: `.prose/custom/shared/memory.md` does not exist yet
              related 6:3-6:35: memory scope declared here
        "#]],
        );
    }

    #[test]
    fn disk_scopes_without_memory_are_errors_in_strict() {
        check_code_strict(
            "E018",
            DISK,
            expect![[r#"
            E018 7:9-7:16 error: No memory file exists for agent; use `session:` for first invocation: `.prose/agents/captain/memory.md` does not exist yet
              related 2:3-2:19: memory scope declared here
            E018 8:9-8:18 error: No memory file exists for agent; use `session:` for first invocation: `~/.prose/agents/inspector/memory.md` does not exist yet
              related 4:3-4:16: memory scope declared here
            E018 9:9-9:15 error: No memory file exists for agent; use `session:` for first invocation: `.prose/custom/shared/memory.md` does not exist yet
              related 6:3-6:35: memory scope declared here
        "#]],
        );
    }

    #[test]
    fn memory_files_present() {
        check_no(
            "E018",
            &format!(
                "#- /ws/.prose/agents/captain/memory.md\n#- /home/user/.prose/agents/inspector/memory.md\n#- /ws/.prose/custom/shared/memory.md\n#- /ws/main.prose\n{DISK}"
            ),
        );
    }

    #[test]
    fn earlier_session_creates_disk_memory() {
        check_no(
            "E018",
            "agent captain:\n  persist: project\nsession: captain\nresume: captain\n",
        );
    }

    #[test]
    fn non_persistent_or_undefined_agents_are_other_codes() {
        check_no(
            "E018",
            "agent a:\n  model: opus\nresume: a\nresume: ghost\n",
        );
    }
}
