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

use crate::{contract::Persist, openprose::rules::prelude::*};

use rustc_hash::FxHashMap as HashMap;

use super::{
    agent_with_persist, green_first_token_text, program_order::ProgramOrder, property_range,
};

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
        // The cheap test first: most resumes follow an invocation.
        if earlier(&first, &inv.agent, order).is_some() {
            continue;
        }
        let Some((agent, Some(persist))) = agent_with_persist(ctx, &inv.agent) else {
            continue;
        };
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
        if !ctx.has_workspace() {
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
    pub(crate) agent: crate::openprose::semantics::Name,
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
            .entry(&*inv.agent)
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

/// Every agent invocation of the file, with its program-order position
/// (computed once per file, shared).
pub(crate) fn invocations(ctx: &Ctx<'_>) -> std::rc::Rc<Vec<Invocation>> {
    ctx.shared(compute_invocations)
}

fn compute_invocations(ctx: &Ctx<'_>) -> Vec<Invocation> {
    let order = ProgramOrder::new(ctx);
    let (file, memos) = ctx.statement_memos();
    if memos.is_batch() {
        // Analysed once (the CLI): the handles of the rules' index, made
        // anyway for the other rules.
        let mut out = Vec::new();
        for node in
            ctx.nodes_matching(|k| ast::SessionExpr::can_cast(k) || ast::ResumeExpr::can_cast(k))
        {
            let Some((agent, name_range)) = agent_name(node.green(), node.text_range().start())
            else {
                continue;
            };
            out.push(Invocation {
                agent,
                name_range,
                is_resume: node.kind() == SyntaxKind::RESUME_EXPR,
                order: order.position(&node),
            });
        }
        return out;
    }
    // Each statement's invocations read from its green nodes and kept while
    // it is unchanged: after an edit, only the statements it re-parsed are
    // read again, and no handle is made for a session.
    let root = ctx.syntax();
    memos.invocations.lend(
        file,
        root,
        |stmt| StatementInvocations::of(stmt.green()),
        |per_statement| {
            let mut out = Vec::new();
            for &(start, found) in per_statement {
                for f in &found.0 {
                    let range = f.range + start;
                    out.push(Invocation {
                        agent: f.agent.clone(),
                        name_range: f.name_range + start,
                        is_resume: f.is_resume,
                        order: order.place(order.frame_at(range), u32::from(range.start())),
                    });
                }
            }
            out
        },
    )
}

/// The `session:` and `resume:` nodes of a top-level statement that name
/// an agent, in pre-order, relative to the statement's start (kept per
/// statement: `StatementMemos::invocations`).
pub(crate) struct StatementInvocations(Vec<Found>);

/// One invocation of [`StatementInvocations`].
struct Found {
    /// The `session:` or `resume:` node.
    range: TextRange,
    name_range: TextRange,
    agent: crate::openprose::semantics::Name,
    is_resume: bool,
}

impl StatementInvocations {
    /// The invocations under the green node of a statement.
    fn of(statement: &prose_syntax::GreenNodeData) -> StatementInvocations {
        let mut found = Vec::new();
        prose_syntax::walk::green_pre_order(statement, TextSize::default(), |g, at| {
            let is_resume = g.kind().0 == SyntaxKind::RESUME_EXPR as u16;
            if !is_resume && g.kind().0 != SyntaxKind::SESSION_EXPR as u16 {
                return;
            }
            if let Some((agent, name_range)) = agent_name(g, at) {
                found.push(Found {
                    range: TextRange::at(at, g.text_len()),
                    name_range,
                    agent,
                    is_resume,
                });
            }
        });
        StatementInvocations(found)
    }
}

/// The agent a `session:` or `resume:` node (`green`, starting at `start`)
/// names, as `agent()` finds it (its first `NameRef` child), with the text
/// `NameRef::text` gives (its first token's) and the `NameRef`'s range.
/// Read from the green tree: no node handle is made per child.
fn agent_name(
    green: &prose_syntax::GreenNodeData,
    start: TextSize,
) -> Option<(crate::openprose::semantics::Name, TextRange)> {
    let mut offset = start;
    for child in green.children() {
        match child {
            prose_syntax::NodeOrToken::Node(n) if n.kind().0 == SyntaxKind::NAME_REF as u16 => {
                let text = green_first_token_text(n).unwrap_or("");
                return Some((text.into(), TextRange::at(offset, n.text_len())));
            }
            _ => offset += child.text_len(),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_code_strict, check_no};
    use expect_test::expect;

    /// The place of every agent invocation as a path: the offsets of the
    /// calls from the top level down to its frame, then its own offset,
    /// each block body at its least call from outside it, found by
    /// relaxing until nothing changes (the definition `ProgramOrder`
    /// computes without keeping paths).
    fn paths(ctx: &super::Ctx<'_>) -> Vec<Option<Vec<u32>>> {
        use super::{AstNode, SyntaxKind, SyntaxNode, ast, nodes};
        let mut defs: Vec<SyntaxNode> = Vec::new();
        let mut names: Vec<String> = Vec::new();
        for b in nodes::<ast::BlockDef>(ctx) {
            if let Some(n) = b.name()
                && !names.contains(&n.text())
            {
                names.push(n.text());
                defs.push(b.syntax().clone());
            }
        }
        // The frame of a node: None at the top level, Some(None) in a
        // block that never runs, Some(Some(i)) in the body of `defs[i]`.
        let frame = |n: &SyntaxNode| -> Option<Option<usize>> {
            let def = n
                .ancestors()
                .skip(1)
                .find(|a| a.kind() == SyntaxKind::BLOCK_DEF)?;
            Some(defs.iter().position(|d| *d == def))
        };
        let mut first: Vec<Option<Vec<u32>>> = vec![None; defs.len()];
        let place = |first: &[Option<Vec<u32>>], f: Option<Option<usize>>, offset: u32| match f {
            None => Some(vec![offset]),
            Some(None) => None,
            Some(Some(i)) => first[i].clone().map(|mut p| {
                p.push(offset);
                p
            }),
        };
        loop {
            let mut changed = false;
            for c in nodes::<ast::DoCall>(ctx) {
                let Some(name) = c.name_ref() else { continue };
                let Some(target) = names.iter().position(|n| *n == name.text()) else {
                    continue;
                };
                if c.syntax().ancestors().any(|a| a == defs[target]) {
                    continue;
                }
                let offset = u32::from(c.syntax().text_range().start());
                if let Some(p) = place(&first, frame(c.syntax()), offset)
                    && first[target].as_ref().is_none_or(|cur| p < *cur)
                {
                    first[target] = Some(p);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        ctx.syntax()
            .descendants()
            .filter(|n| matches!(n.kind(), SyntaxKind::SESSION_EXPR | SyntaxKind::RESUME_EXPR))
            .map(|n| place(&first, frame(&n), u32::from(n.text_range().start())))
            .collect()
    }

    /// Programs of blocks calling each other in every order: chains
    /// defined forwards and backwards, calls from block bodies before and
    /// after the top level's, recursion, repeated and nested definitions.
    fn block_programs() -> Vec<String> {
        let mut out = Vec::new();
        let mut numbers = prose_test_support::Lcg::new(0x9e37_79b9_7f4a_7c15);
        let mut next = |n: u64| numbers.below(n as usize) as u64;
        for _ in 0..300 {
            let blocks = 1 + next(6);
            let mut text = String::new();
            let line = |next: &mut dyn FnMut(u64) -> u64, indent: &str| match next(4) {
                0 => format!("{indent}session \"s\"\n"),
                1 => format!("{indent}session: a\n"),
                2 => format!("{indent}resume: a\n  {indent}prompt: \"p\"\n"),
                _ => format!("{indent}do b{}()\n", next(blocks)),
            };
            for _ in 0..next(4) {
                text += &line(&mut next, "");
            }
            for _ in 0..blocks + next(3) {
                text += &format!("block b{}():\n", next(blocks));
                for _ in 0..1 + next(3) {
                    text += &line(&mut next, "  ");
                }
                if next(5) == 0 {
                    text += &format!("  block b{}():\n", next(blocks));
                    text += &line(&mut next, "    ");
                    // Back in the outer body, after the inner definition.
                    text += &line(&mut next, "  ");
                }
                if next(2) == 0 {
                    text += &line(&mut next, "");
                }
            }
            out.push(text);
        }
        out
    }

    /// `ProgramOrder` orders every two invocations as their paths do, and
    /// places the same ones, whether their frame is found from the node or
    /// from its range (on the sample programs and on programs of blocks
    /// calling each other).
    #[test]
    fn program_order_compares_as_the_call_paths() {
        let mut texts = crate::openprose::rule_tests::sample_texts();
        texts.extend(block_programs());
        let mut compared = 0;
        for text in texts {
            let mut host = crate::AnalysisHost::new();
            let file = host.set_file_text("/ws/p.prose", text.as_str());
            let analysis = host.analysis();
            compared += analysis
                .with_db(|db| {
                    use super::SyntaxKind;
                    let mut compared = 0;
                    let ctx = super::Ctx::new(db, analysis.source_file(file), None);
                    let order = super::ProgramOrder::new(&ctx);
                    let placed: Vec<Option<Vec<u32>>> = ctx
                        .syntax()
                        .descendants()
                        .filter(|n| {
                            matches!(n.kind(), SyntaxKind::SESSION_EXPR | SyntaxKind::RESUME_EXPR)
                        })
                        .map(|n| {
                            // Found from the range as from the node.
                            let range = n.text_range();
                            let by_range = order.place(order.frame_at(range), range.start().into());
                            assert_eq!(by_range, order.position(&n), "{text}");
                            by_range
                        })
                        .collect();
                    let paths = paths(&ctx);
                    for (a, pa) in placed.iter().zip(&paths) {
                        assert_eq!(a.is_some(), pa.is_some(), "{text}");
                        for (b, pb) in placed.iter().zip(&paths) {
                            if let (Some(a), Some(b), Some(pa), Some(pb)) = (a, b, pa, pb) {
                                assert_eq!(a.cmp(b), pa.cmp(pb), "{text}");
                                compared += 1;
                            }
                        }
                    }
                    compared
                })
                .unwrap();
        }
        assert!(compared > 2_000, "{compared} comparisons");
    }

    /// The invocations kept per statement (a host that keeps them) are
    /// those a batch database finds through the rules' index, over the
    /// sample programs, before and after an edit that moves every
    /// statement (the codes of both rules that read them).
    #[test]
    fn invocations_kept_per_statement_are_the_indexes() {
        use crate::AnalysisHost;
        let codes = |d: &[crate::Diagnostic]| -> Vec<String> {
            d.iter()
                .filter(|d| matches!(d.code.as_str(), "E018" | "W011"))
                .map(|d| format!("{} {:?} {}", d.code.as_str(), d.range, d.message))
                .collect()
        };
        let mut kept = AnalysisHost::new();
        let mut reported = 0;
        // The shipped samples hold no such invocation; the corpora do
        // (`PROSE_CORPUS`), and this program does in any case.
        let mut texts = crate::openprose::rule_tests::sample_texts();
        texts.push(
            "agent a:\n  persist: true\nresume: a\nsession: a\nblock b:\n  resume: a\ndo b\n"
                .to_string(),
        );
        for (i, text) in texts.into_iter().enumerate() {
            let path = format!("/ws/{i}.prose");
            for text in [text.clone(), format!("# moved\n{text}")] {
                let file = kept.set_file_text(&path, text.clone());
                let mine = codes(&kept.analysis().diagnostics(file).unwrap());
                let mut batch = AnalysisHost::for_batch();
                let id = batch.set_file_text(&path, text);
                assert_eq!(
                    mine,
                    codes(&batch.analysis().diagnostics(id).unwrap()),
                    "{path}"
                );
                reported += mine.len();
            }
        }
        assert!(
            reported > 0,
            "the sample programs hold invocations reported"
        );
    }

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
