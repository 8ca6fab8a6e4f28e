//! Hovers of names: what a definition is bound to. Agents with their
//! model, memory scope and prompt; blocks with their parameters; inputs
//! with their description; imported programs with their inputs and
//! outputs (and the lookup of the file a `use` path names); variables with
//! their kind and defining line.

use prose_syntax::{
    AstNode, SyntaxNode,
    ast::{self, Expr},
};

use super::{
    Cx, code_block, docs::model_blurb, excerpt, first_line, leading_comments, line_number, node_at,
    word_value,
};
use crate::{
    contract::{Persist, agent_persist, program_contract},
    db::{Db, SourceFile, Workspace},
    semantics::{Def, DefId, DefKind, FileSemantics},
};

// ---- definitions ---------------------------------------------------------------

pub(super) fn def_hover(cx: &Cx<'_>, id: DefId, on_definition: bool) -> String {
    let def = cx.sema.def(id);
    let parts = match def.kind {
        DefKind::Agent => agent_hover(cx, def),
        DefKind::Block => block_hover(cx, def),
        DefKind::Program => program_hover(cx, def),
        DefKind::Input => input_hover(cx, def),
        DefKind::PipelineItem => {
            let op = node_at::<ast::PipeOp>(&cx.root, def.range).map(|o| o.op_name());
            Parts {
                header: "item".into(),
                summary: format!(
                    "pipeline item: the current element inside `{}`",
                    op.as_deref().unwrap_or("map")
                ),
                details: None,
            }
        }
        _ => {
            let mut summary = def.kind.describe().to_string();
            if let Some(note) = variable_note(cx, def) {
                summary.push_str(": ");
                summary.push_str(&note);
            }
            Parts {
                header: first_line(cx.text, def.range),
                summary,
                details: None,
            }
        }
    };
    let mut out = String::new();
    code_block(&mut out, &parts.header);
    out.push_str(&parts.summary);
    if !on_definition || def.kind == DefKind::PipelineItem {
        let line = line_number(cx.text, def.range.start());
        out.push_str(&format!(" · line {line}"));
    }
    // Comments above a statement document what it defines (not the loop
    // or block a scoped variable belongs to).
    if !def.kind.is_scoped()
        && let Some(comments) = leading_comments(cx.text, def.range.start())
    {
        out.push_str("\n\n");
        out.push_str(&comments);
    }
    if let Some(details) = parts.details {
        out.push_str("\n\n");
        out.push_str(&details);
    }
    out
}

/// A definition's hover: a code line, a one-line summary, more paragraphs.
struct Parts {
    header: String,
    summary: String,
    details: Option<String>,
}

/// One clause about a variable, after its kind.
fn variable_note(cx: &Cx<'_>, def: &Def) -> Option<String> {
    Some(match def.kind {
        DefKind::Let => "may be reassigned with `name = ...`".into(),
        DefKind::Const => "cannot be reassigned".into(),
        DefKind::Output => format!(
            "bound like `let` and returned to a caller, who reads it as `result.{}`",
            def.name
        ),
        DefKind::Assigned => "bound by assignment".into(),
        DefKind::SessionName => "the result of this named session".into(),
        DefKind::Destructured => "taken from the object on the right".into(),
        DefKind::Param => {
            let block = node_at::<ast::BlockDef>(&cx.root, def.range)?
                .name()?
                .text();
            format!("visible only in the body of `{block}`; read-only there")
        }
        DefKind::LoopVar => "the current element; visible only in the loop body".into(),
        DefKind::IndexVar => "the iteration number, from 0; visible only in the loop body".into(),
        DefKind::CatchVar => "the error being handled; visible only in the catch body".into(),
        DefKind::ReduceVar => {
            let op = node_at::<ast::PipeOp>(&cx.root, def.range)?;
            let first = op.params()?.params().next()?.name()?;
            if first.syntax().text_range() == def.name_range {
                "the accumulator (starts as the first element)".into()
            } else {
                "the current element".into()
            }
        }
        DefKind::Skill => "agents list it under `skills:`".into(),
        _ => return None,
    })
}

fn agent_hover(cx: &Cx<'_>, def: &Def) -> Parts {
    let mut parts = Parts {
        header: format!("agent {}", def.name),
        summary: "agent".into(),
        details: None,
    };
    let Some(agent) = node_at::<ast::AgentDef>(&cx.root, def.range) else {
        return parts;
    };
    let mut facts = Vec::new();
    if let Some(model) = agent
        .property("model")
        .and_then(|p| p.any_value())
        .map(|v| word_value(&v))
    {
        let blurb = model_blurb(&model).map_or(String::new(), |b| format!(" ({b})"));
        facts.push(format!("- model: `{model}`{blurb}"));
    }
    facts.push(match agent_persist(&agent) {
        Some(p) => format!("- persist: {}", persist_text(&p, &def.name)),
        None => "- persist: none (starts fresh every session; `resume:` is not possible)".into(),
    });
    if let Some(Expr::Array(a)) = agent.property("skills").and_then(|p| p.any_value()) {
        let skills: Vec<String> = a
            .elements()
            .map(|e| format!("`{}`", word_value(&e)))
            .collect();
        if !skills.is_empty() {
            facts.push(format!("- skills: {}", skills.join(", ")));
        }
    }
    if let Some(prompt) = agent.property("prompt").and_then(|p| p.any_value()) {
        let excerpt = excerpt(&word_value(&prompt), 160);
        if !excerpt.is_empty() {
            facts.push(format!("- prompt: \"{excerpt}\""));
        }
    }
    parts.details = Some(facts.join("\n"));
    parts
}

fn persist_text(p: &Persist, agent: &str) -> String {
    match p {
        Persist::Execution => {
            format!("`true`: memory for this run only (`.prose/runs/{{id}}/agents/{agent}/`)")
        }
        Persist::Project => {
            format!("`project`: memory in `.prose/agents/{agent}/`, kept across runs")
        }
        Persist::User => {
            format!("`user`: memory in `~/.prose/agents/{agent}/`, kept across projects")
        }
        Persist::Path(path) => format!("`\"{path}\"`: memory in `{path}`"),
    }
}

fn block_hover(cx: &Cx<'_>, def: &Def) -> Parts {
    let params: Vec<String> = node_at::<ast::BlockDef>(&cx.root, def.range)
        .map(|b| {
            b.params()
                .filter_map(|p| p.name())
                .map(|n| n.text())
                .collect()
        })
        .unwrap_or_default();
    if params.is_empty() {
        return Parts {
            header: format!("block {}", def.name),
            summary: format!("block without parameters; run it with `do {}`", def.name),
            details: None,
        };
    }
    let n = params.len();
    Parts {
        header: format!("block {}({})", def.name, params.join(", ")),
        summary: format!(
            "block with {n} parameter{}; run it with `do {}(...)`",
            if n == 1 { "" } else { "s" },
            def.name
        ),
        details: None,
    }
}

fn input_hover(cx: &Cx<'_>, def: &Def) -> Parts {
    let desc = node_at::<ast::InputDecl>(&cx.root, def.range)
        .and_then(|i| i.description())
        .map(|d| match d {
            Expr::Discretion(d) => d.text(),
            other => word_value(&other),
        })
        .unwrap_or_default();
    Parts {
        header: format!("input {}", def.name),
        summary: "input: supplied by the caller before the program runs".into(),
        details: (!desc.trim().is_empty()).then(|| desc.trim().to_string()),
    }
}

fn program_hover(cx: &Cx<'_>, def: &Def) -> Parts {
    let mut parts = Parts {
        header: first_line(cx.text, def.range),
        summary: format!("imported program `{}`", def.name),
        details: None,
    };
    let Some(path) = node_at::<ast::UseStmt>(&cx.root, def.range)
        .and_then(|u| u.path())
        .map(|p| p.value())
    else {
        return parts;
    };
    match resolve_use_path(cx.db, cx.ws, cx.file, &path) {
        Some(target) => {
            parts.summary.push_str(&format!(
                ", from `{}`",
                display_path(cx.db, cx.ws, cx.file, target.path(cx.db))
            ));
            parts.details = Some(contract_markdown(cx.db, target));
        }
        None => {
            parts.details = Some(
                "The program is not available locally, so its inputs and outputs are unknown."
                    .into(),
            )
        }
    }
    parts
}

/// The inputs (with descriptions) and outputs of a program, as Markdown.
pub(crate) fn contract_markdown(db: &dyn Db, program: SourceFile) -> String {
    let contract = program_contract(db, program);
    let mut out = String::new();
    if contract.inputs.is_empty() {
        out.push_str("Takes no inputs.");
    } else {
        out.push_str("**Inputs**");
        let mut seen = Vec::new();
        for (name, desc) in &contract.inputs {
            if seen.contains(&name) {
                continue;
            }
            seen.push(name);
            let desc = excerpt(desc, 120);
            if desc.is_empty() {
                out.push_str(&format!("\n- `{name}`"));
            } else {
                out.push_str(&format!("\n- `{name}`: {desc}"));
            }
        }
    }
    out.push_str("\n\n");
    if contract.outputs.is_empty() {
        out.push_str("Declares no outputs.");
    } else {
        let outputs: Vec<String> = contract.outputs.iter().map(|o| format!("`{o}`")).collect();
        out.push_str(&format!("**Outputs**: {}", outputs.join(", ")));
    }
    out
}

/// `topic` in `research(topic: ...)`: the input of the called program.
pub(super) fn program_argument_hover(cx: &Cx<'_>, name: &SyntaxNode) -> Option<String> {
    let arg = ast::Arg::cast(name.parent()?)?;
    let call = ast::CallExpr::cast(arg.syntax().parent()?.parent()?)?;
    let (callee, program) = called_program(cx.db, cx.ws, cx.file, cx.sema, &cx.root, &call)?;
    let key = name.text().to_string();
    let contract = program_contract(cx.db, program?);
    let (_, desc) = contract.inputs.iter().find(|(n, _)| *n == key)?;
    let mut out = String::new();
    code_block(&mut out, &format!("input {key}"));
    out.push_str(&format!("input of `{callee}`"));
    if !desc.trim().is_empty() {
        out.push_str("\n\n");
        out.push_str(desc.trim());
    }
    Some(out)
}

/// The imported program a call `name(...)` invokes: the name, and the file
/// if it is available locally.
pub(crate) fn called_program(
    db: &dyn Db,
    ws: Workspace,
    file: SourceFile,
    sema: &FileSemantics,
    root: &SyntaxNode,
    call: &ast::CallExpr,
) -> Option<(String, Option<SourceFile>)> {
    call.arg_list()?;
    let Some(Expr::NameRef(callee)) = call.callee() else {
        return None;
    };
    let r = sema
        .refs
        .iter()
        .find(|r| r.range == callee.syntax().text_range())?;
    let def = sema.def(r.target?);
    if def.kind != DefKind::Program {
        return None;
    }
    let path = node_at::<ast::UseStmt>(root, def.range)?.path()?.value();
    Some((def.name.to_string(), resolve_use_path(db, ws, file, &path)))
}

/// The file a `use` path names, if the host has it (same lookup order as
/// the diagnostics: see [`crate::imports::import_candidates`]).
pub(crate) fn resolve_use_path(
    db: &dyn Db,
    ws: Workspace,
    file: SourceFile,
    use_path: &str,
) -> Option<SourceFile> {
    let root = crate::db::file_root(db, file, ws);
    let dir = crate::db::dir_of(file.path(db));
    let files = ws.files(db);
    crate::imports::import_candidates(
        &root.config,
        &root.dir,
        ws.home(db).as_deref(),
        &dir,
        use_path,
    )
    .into_iter()
    .find_map(|p| files.get(&p).copied())
}

/// A path relative to the root of `from` when it lies inside it.
fn display_path(db: &dyn Db, ws: Workspace, from: SourceFile, path: &str) -> String {
    let root = crate::db::file_root(db, from, ws);
    if root.is_root
        && let Some(rel) = path.strip_prefix(&format!("{}/", root.dir.trim_end_matches('/')))
    {
        return rel.to_string();
    }
    path.to_string()
}
