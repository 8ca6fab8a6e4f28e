//! Hover: what the thing under the cursor is, in Markdown.
//!
//! - a keyword (`session`, `loop`, `catch`, ...), the `|` and `->`
//!   operators or a discretion condition `**...**`: the construct's syntax,
//!   what it does and a tiny example;
//! - a property key (`model:`, `persist:`, `retry:`, `read:`, `on-fail:`,
//!   ...) and well-known values (`opus`, `project`, `exponential`, `deny`,
//!   `"first"`, ...): what they mean where they stand;
//! - a name: what it is bound to. Agents show their model, memory scope and
//!   prompt; blocks their parameters; imported programs their inputs and
//!   outputs; variables their kind and defining line (inputs also their
//!   description). Comment lines directly above a definition are shown as
//!   its documentation;
//! - a diagnostic under the cursor: its code, message and the first
//!   paragraph of its documentation (appended after the symbol, if any),
//!   then where the whole page is: `prose explain CODE`, and a link to it
//!   when `docs-url` is configured.
//!
//! The keyword and property texts live in tables that completion reuses
//! ([`keyword_docs`], [`property_docs`], [`value_docs`]).

use prose_syntax::{
    AstNode, SyntaxKind, SyntaxNode, SyntaxToken, TextRange, TextSize,
    ast::{self, Expr},
};

use crate::{
    config::Config,
    contract::{Persist, agent_persist, program_contract},
    db::{Db, SourceFile, Workspace, parse},
    diagnostics::{Diagnostic, file_config, file_diagnostics, rule},
    semantics::{Def, DefId, DefKind, FileSemantics, file_semantics},
};

/// The hover text for a position and the range it describes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HoverResult {
    pub range: TextRange,
    pub markdown: String,
}

pub(crate) fn hover(
    db: &dyn Db,
    ws: Workspace,
    file: SourceFile,
    offset: TextSize,
) -> Option<HoverResult> {
    let root = parse(db, file).syntax_node();
    if offset > root.text_range().end() {
        return None;
    }
    let cx = Cx {
        db,
        ws,
        file,
        text: file.text(db),
        root: root.clone(),
        sema: file_semantics(db, file),
    };
    let token = pick_token(&root, offset);
    let symbol = token.as_ref().and_then(|t| symbol_hover(&cx, t));
    let token_range = token.as_ref().map(|t| t.text_range());
    with_diagnostics(db, ws, file, offset, token_range, symbol)
}

/// A hover of any language: what `symbol` says about the thing under the
/// cursor (its range and Markdown), followed by the diagnostics there (at
/// `offset`, or overlapping `token_range`, the word under the cursor):
/// each one's code, message and the first paragraph of its page. `None`
/// when there is neither.
pub(crate) fn with_diagnostics(
    db: &dyn Db,
    ws: Workspace,
    file: SourceFile,
    offset: TextSize,
    token_range: Option<TextRange>,
    symbol: Option<(TextRange, String)>,
) -> Option<HoverResult> {
    let mut diags: Vec<&Diagnostic> = file_diagnostics(db, file, Some(ws))
        .iter()
        .filter(|d| {
            d.range.contains(offset)
                || (d.range.is_empty() && d.range.start() == offset)
                || token_range
                    .and_then(|r| r.intersect(d.range))
                    .is_some_and(|r| !r.is_empty())
        })
        .collect();
    diags.dedup_by(|a, b| a.code == b.code && a.message == b.message);

    let (range, mut markdown) = match (symbol, diags.first()) {
        (Some(s), _) => s,
        (None, Some(d)) => (d.range, String::new()),
        (None, None) => return None,
    };
    let config = file_config(db, file, Some(ws));
    append_diagnostics(&mut markdown, &diags, &config);
    Some(HoverResult { range, markdown })
}

/// More diagnostics than this at one spot are left to the problems list.
const MAX_DIAGNOSTICS: usize = 3;

/// Appends the explanation of each diagnostic of `diags` (the first
/// [`MAX_DIAGNOSTICS`]) to a hover's `markdown`, after a rule: its code,
/// message, the first paragraph of its page and where the page is. The
/// same for every language.
pub(crate) fn append_diagnostics(markdown: &mut String, diags: &[&Diagnostic], config: &Config) {
    for d in diags.iter().take(MAX_DIAGNOSTICS) {
        if !markdown.is_empty() {
            markdown.push_str("\n\n---\n\n");
        }
        let page = config.docs_url_for(d.code.as_str());
        markdown.push_str(&explain_diagnostic(d, page.as_deref()));
    }
}

/// What the hover needs to know about the file.
struct Cx<'a> {
    db: &'a dyn Db,
    ws: Workspace,
    file: SourceFile,
    text: &'a str,
    root: SyntaxNode,
    sema: &'a FileSemantics,
}

/// The most interesting token at `offset`: names and words over keywords,
/// keywords over punctuation, anything over whitespace (between two tokens,
/// the right one wins a tie).
pub(crate) fn pick_token(root: &SyntaxNode, offset: TextSize) -> Option<SyntaxToken> {
    if offset > root.text_range().end() {
        return None;
    }
    root.token_at_offset(offset).max_by_key(|t| {
        let k = t.kind();
        match k {
            SyntaxKind::IDENT
            | SyntaxKind::NUMBER
            | SyntaxKind::DISCRETION
            | SyntaxKind::STRING_TEXT
            | SyntaxKind::STRING_ESCAPE => 4,
            _ if k.is_keyword() => 3,
            SyntaxKind::STRING_OPEN
            | SyntaxKind::STRING_CLOSE
            | SyntaxKind::INTERP_OPEN
            | SyntaxKind::INTERP_CLOSE => 2,
            SyntaxKind::WHITESPACE | SyntaxKind::COMMENT | SyntaxKind::NEWLINE => 0,
            _ => 1,
        }
    })
}

fn symbol_hover(cx: &Cx<'_>, token: &SyntaxToken) -> Option<(TextRange, String)> {
    let parent = token.parent()?;
    let range = token.text_range();
    match token.kind() {
        SyntaxKind::IDENT => ident_hover(cx, token, &parent),
        SyntaxKind::DISCRETION => Some((range, discretion_hover(&parent))),
        SyntaxKind::STRING_OPEN
        | SyntaxKind::STRING_TEXT
        | SyntaxKind::STRING_CLOSE
        | SyntaxKind::STRING_ESCAPE => string_hover(cx, &parent),
        SyntaxKind::PIPE => Some((range, keyword_docs("|")?.to_string())),
        SyntaxKind::ARROW => Some((range, keyword_docs("->")?.to_string())),
        k if k.is_keyword() => {
            if let Some(docs) = property_value_docs(token) {
                return Some((range, docs.to_string()));
            }
            let word = if k == SyntaxKind::PARALLEL_KW && parent.kind() == SyntaxKind::FOR_EXPR {
                "parallel for"
            } else {
                token.text()
            };
            Some((range, keyword_docs(word)?.to_string()))
        }
        _ => None,
    }
}

fn ident_hover(
    cx: &Cx<'_>,
    token: &SyntaxToken,
    parent: &SyntaxNode,
) -> Option<(TextRange, String)> {
    let range = token.text_range();
    match parent.kind() {
        SyntaxKind::NAME | SyntaxKind::NAME_REF => {
            let prange = parent.text_range();
            if let Some(r) = cx.sema.refs.iter().find(|r| r.range == prange) {
                return r.target.map(|t| (range, def_hover(cx, t, false)));
            }
            // Definitions; an assignment's target is a NAME_REF.
            if let Some(i) = cx
                .sema
                .defs
                .iter()
                .position(|d| d.name_range == prange && d.kind != DefKind::PipelineItem)
            {
                return Some((range, def_hover(cx, DefId(i as u32), true)));
            }
            if parent.kind() == SyntaxKind::NAME {
                program_argument_hover(cx, parent).map(|md| (range, md))
            } else {
                property_value_docs(token).map(|d| (range, d.to_string()))
            }
        }
        SyntaxKind::PROPERTY if parent.first_token().as_ref() == Some(token) => {
            let ctx = property_context(parent)?;
            Some((range, property_docs(ctx, token.text())?.to_string()))
        }
        SyntaxKind::MODIFIER => {
            let m = ast::Modifier::cast(parent.clone())?;
            if m.key_token().as_ref() != Some(token) {
                return None;
            }
            let ctx = property_context(parent)?;
            Some((range, property_docs(ctx, token.text())?.to_string()))
        }
        _ => None,
    }
}

/// A string: an import path (the program or skill it binds), or a
/// well-known value (`"first"`, `on-fail: "continue"`, `persist: "project"`).
fn string_hover(cx: &Cx<'_>, string: &SyntaxNode) -> Option<(TextRange, String)> {
    let lit = ast::StringLit::cast(string.clone())?;
    let range = string.text_range();
    let parent = string.parent()?;
    match parent.kind() {
        SyntaxKind::USE_STMT | SyntaxKind::IMPORT_STMT => {
            let stmt = parent.text_range();
            let (i, _) = cx.sema.defs.iter().enumerate().find(|(_, d)| {
                d.range == stmt && matches!(d.kind, DefKind::Program | DefKind::Skill)
            })?;
            Some((range, def_hover(cx, DefId(i as u32), true)))
        }
        SyntaxKind::MODIFIER => {
            let m = ast::Modifier::cast(parent)?;
            let key = m.key().unwrap_or_else(|| "join".to_string());
            Some((range, value_docs(&key, &lit.value())?.to_string()))
        }
        SyntaxKind::PROPERTY => {
            let key = ast::Property::cast(parent)?.key();
            Some((range, value_docs(&key, &lit.value())?.to_string()))
        }
        _ => None,
    }
}

/// Docs for a word written as a property value (`model: opus`, `persist: true`).
fn property_value_docs(token: &SyntaxToken) -> Option<&'static str> {
    let prop = token
        .parent_ancestors()
        .take_while(|n| n.kind() != SyntaxKind::PROPERTY_BLOCK)
        .find_map(ast::Property::cast)?;
    // Only the value itself, not a word inside an array or object.
    let value = prop.any_value()?;
    if value.syntax().text_range() != token.text_range() {
        return None;
    }
    value_docs(&prop.key(), token.text())
}

fn discretion_hover(expr: &SyntaxNode) -> String {
    let general = keyword_docs("**").unwrap_or_default();
    let role = expr.parent().and_then(|parent| match parent.kind() {
        SyntaxKind::IF_STMT | SyntaxKind::ELIF_CLAUSE => {
            Some("Here: the branch runs when the VM judges this condition true.")
        }
        SyntaxKind::LOOP_EXPR => match ast::LoopExpr::cast(parent).map(|l| l.loop_kind()) {
            Some(ast::LoopKind::While) => {
                Some("Here: the loop goes on while the VM judges this condition true.")
            }
            _ => Some("Here: the loop stops as soon as the VM judges this condition met."),
        },
        SyntaxKind::CHOICE_STMT => {
            Some("Here: the VM runs the one `option` that best fits this criterion.")
        }
        SyntaxKind::INPUT_DECL => {
            Some("Here: the description of an input, for whoever supplies it.")
        }
        _ => None,
    });
    match role {
        Some(role) => format!("{general}\n\n{role}"),
        None => general.to_string(),
    }
}

// ---- definitions ---------------------------------------------------------------

fn def_hover(cx: &Cx<'_>, id: DefId, on_definition: bool) -> String {
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
fn program_argument_hover(cx: &Cx<'_>, name: &SyntaxNode) -> Option<String> {
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
    Some((def.name.clone(), resolve_use_path(db, ws, file, &path)))
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

// ---- diagnostics -----------------------------------------------------------------

/// A diagnostic's code, message and the first paragraph of its docs, then
/// where its whole page is (`page`: its address under `docs-url`).
pub(crate) fn explain_diagnostic(d: &Diagnostic, page: Option<&str>) -> String {
    let mut out = format!(
        "**{} {}** `{}`: {}",
        d.severity.as_str(),
        d.code.as_str(),
        d.name,
        d.message
    );
    if let Some(rule) = rule(d.code.as_str()) {
        let docs = rule.docs();
        if let Some(para) = first_paragraph(&docs) {
            out.push_str("\n\n");
            out.push_str(&para);
        }
        let code = d.code.as_str();
        out.push_str(&match page {
            Some(url) => format!("\n\n*More: [{code}]({url}), or `prose explain {code}`*"),
            None => format!("\n\n*More: `prose explain {code}`*"),
        });
    }
    out
}

/// The first paragraph of a docs page that is not a heading.
fn first_paragraph(docs: &str) -> Option<String> {
    let mut lines = docs
        .lines()
        .skip_while(|l| l.trim().is_empty() || l.starts_with('#'))
        .take_while(|l| !l.trim().is_empty())
        .peekable();
    lines.peek()?;
    Some(lines.collect::<Vec<_>>().join("\n"))
}

// ---- small helpers ----------------------------------------------------------------

pub(crate) use prose_syntax::ast::node_spanning as node_at;

/// The 1-based line of `offset`.
pub(crate) fn line_number(text: &str, offset: TextSize) -> usize {
    let end = usize::from(offset).min(text.len());
    prose_syntax::lines::count_breaks(&text[..end]) + 1
}

/// The first line of `range`'s text, shortened.
fn first_line(text: &str, range: TextRange) -> String {
    let s = text
        .get(usize::from(range.start())..usize::from(range.end()))
        .unwrap_or("");
    let line = prose_syntax::lines::lines(s)
        .next()
        .unwrap_or("")
        .trim_end();
    excerpt(line, 100)
}

/// `text` with whitespace runs collapsed, cut to about `max` characters.
pub(crate) fn excerpt(text: &str, max: usize) -> String {
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed.chars().count() <= max {
        return collapsed;
    }
    let mut cut: String = collapsed.chars().take(max).collect();
    if let Some(space) = cut.rfind(' ')
        && space > max / 2
    {
        cut.truncate(space);
    }
    cut.push('…');
    cut
}

/// The text of a simple value: a word, or a string's content.
fn word_value(e: &Expr) -> String {
    match e {
        Expr::String(s) => s.value(),
        other => other.syntax().text().to_string(),
    }
}

fn code_block(out: &mut String, code: &str) {
    out.push_str("```prose\n");
    out.push_str(code);
    out.push_str("\n```\n\n");
}

/// `# ...` lines directly above the line where `start` begins a statement,
/// as Markdown (the comment markers removed).
pub(crate) fn leading_comments(text: &str, start: TextSize) -> Option<String> {
    let start = usize::from(start).min(text.len());
    let line_start = prose_syntax::lines::line_start(text, start);
    if !text[line_start..start].trim().is_empty() {
        return None;
    }
    let mut lines = Vec::new();
    let above: Vec<&str> = prose_syntax::lines::lines(&text[..line_start]).collect();
    for line in above.into_iter().rev() {
        let Some(comment) = line.trim_start().strip_prefix('#') else {
            break;
        };
        lines.push(comment.strip_prefix(' ').unwrap_or(comment).trim_end());
        if lines.len() == 12 {
            break;
        }
    }
    if lines.iter().all(|l| l.trim().is_empty()) {
        return None;
    }
    lines.reverse();
    Some(lines.join("\n"))
}

// ---- the docs tables ----------------------------------------------------------------

/// A docs entry: the syntax, what it means, and optionally a tiny example.
macro_rules! doc {
    ($syntax:literal, $meaning:literal) => {
        concat!("```prose\n", $syntax, "\n```\n\n", $meaning)
    };
    ($syntax:literal, $meaning:literal, $example:literal) => {
        concat!(
            "```prose\n",
            $syntax,
            "\n```\n\n",
            $meaning,
            "\n\n*Example*\n```prose\n",
            $example,
            "\n```"
        )
    };
}

/// Hover text of a keyword (also `parallel for`, `**` for discretion
/// conditions, and the `|` and `->` operators). Completion labels such as `session:`, `do:` and
/// `loop while` are accepted too.
pub(crate) fn keyword_docs(word: &str) -> Option<&'static str> {
    let word = match word {
        "**" => word,
        "loop while" | "loop until" => "loop",
        _ => word.strip_suffix(':').unwrap_or(word),
    };
    Some(match word {
        "use" => doc!(
            "use \"@handle/slug\" [as name]",
            "Imports another OpenProse program so this one can call it like a function. \
             Without `as`, the program goes by the last segment of its path. Its `input`s \
             become the named arguments of the call; its `output`s the fields of the result.",
            "use \"@alice/research\" as research\nlet r = research(topic: \"tides\")"
        ),
        "import" => doc!(
            "import \"skill\" from \"source\"",
            "The older way to bring in a skill that agents then list under `skills:`. \
             New programs import other programs with `use`.",
            "import \"web-search\" from \"@anthropic/skills\""
        ),
        "from" => doc!(
            "import \"skill\" from \"source\"",
            "Names where a skill brought in by the older `import` statement comes from."
        ),
        "as" => doc!(
            "use \"...\" as name · catch as err: · repeat N as i: · loop ... as i:",
            "Gives something a name: the alias of an imported program, the error inside a \
             `catch` body, or the iteration counter of `repeat` and `loop` (counting from 0).",
            "repeat 3 as i:\n  session \"Write variant {i}\""
        ),
        "input" => doc!(
            "input name: \"description\"",
            "Declares a value the caller supplies before the program starts. Inputs come \
             before any executable statement and are visible everywhere in the program; \
             the description tells the caller what to pass.",
            "input topic: \"The subject to research\""
        ),
        "output" => doc!(
            "output name = expression",
            "Binds a variable like `let` and also makes it part of the program's result: \
             a caller that invokes this program reads it as `result.name` or by \
             destructuring.",
            "output summary = session \"Summarize the findings\""
        ),
        "agent" => doc!(
            "agent name:\n  property: value",
            "Defines a reusable template for subagents: model, system prompt, memory \
             (`persist`), skills and permissions. Sessions use it with `session: name` \
             and may override its properties. Agents may be defined anywhere in the file.",
            "agent reviewer:\n  model: opus\n  prompt: \"You review code for bugs\""
        ),
        "session" => doc!(
            "session \"prompt\"\nsession: agent\nsession name: agent",
            "Runs one subagent and waits for it to finish; bind its result with `let`, \
             `const` or `output`. With an agent, the session starts from the agent's \
             settings without its saved memory (see `resume:`); properties indented below \
             override them for this session only.",
            "let draft = session: writer\n  prompt: \"Draft the introduction\""
        ),
        "resume" => doc!(
            "resume: agent",
            "Continues a persistent agent (one with `persist:`) with the memory it built in \
             earlier sessions, where `session:` would start it fresh. The memory must \
             already exist.",
            "resume: captain\n  prompt: \"Review step 2 of the plan\""
        ),
        "let" => doc!(
            "let name = expression",
            "Binds a result (usually a session's) to a variable that later sessions read \
             through `context:` or `{name}` in a prompt. It may be reassigned with \
             `name = ...`. All variables share one program-wide namespace, so each name \
             must be unique.",
            "let research = session \"Research the topic\""
        ),
        "const" => doc!(
            "const name = expression",
            "Like `let`, but the variable can never be reassigned.",
            "const plan = session \"Write the plan\""
        ),
        "do" => doc!(
            "do:\n  statements\ndo name\ndo name(arguments)",
            "`do:` runs an indented body in order. `do name` runs a `block` defined \
             elsewhere, passing the arguments to its parameters by position.",
            "do review(\"security\")"
        ),
        "block" => doc!(
            "block name(param, ...):\n  statements",
            "Defines a named, reusable sequence of statements, run with `do name(...)`. \
             Parameters are visible only in the body and cannot be reassigned there. Blocks \
             may be used before their definition.",
            "block review(topic):\n  session \"Review {topic}\""
        ),
        "parallel" => doc!(
            "parallel (\"all\" | \"first\" | \"any\", on-fail: \"...\", count: N):\n  branches",
            "Runs every statement of the body at the same time, then waits: for all of them \
             (`\"all\"`, the default), the first to finish (`\"first\"`) or the first `count` \
             successes (`\"any\"`). `on-fail` says what a failing branch does. Name branches \
             (`a = session ...`) to use their results afterwards.",
            "parallel:\n  sec = session \"Security review\"\n  perf = session \"Performance review\""
        ),
        "parallel for" => doc!(
            "parallel for item in collection:\n  statements",
            "A `for` loop whose iterations all run at the same time (fan-out). It accepts \
             the same modifiers as `parallel`.",
            "parallel for topic in topics:\n  session \"Research {topic}\""
        ),
        "for" => doc!(
            "for item[, index] in collection:\n  statements",
            "Runs the body once per element of a collection (a variable or an array), in \
             order. The item and the optional index (from 0) are visible only in the body. \
             Write `parallel for` to run all iterations at once.",
            "for file in [\"a.md\", \"b.md\"]:\n  session \"Proofread {file}\""
        ),
        "in" => doc!(
            "for item in collection:",
            "Separates the loop variables of a `for` from the collection it walks through."
        ),
        "repeat" => doc!(
            "repeat N [as i]:\n  statements",
            "Runs the body a fixed number of times; N is a positive integer. `as i` names \
             the iteration number, counting from 0.",
            "repeat 3:\n  session \"Suggest a product name\""
        ),
        "loop" => doc!(
            "loop [until | while **condition**] [(max: N)] [as i]:\n  statements",
            "Repeats the body until the VM judges the condition met (`until`) or no longer \
             true (`while`); a plain `loop:` stops only at `max`. Give every loop a \
             `(max: N)` safety limit.",
            "loop until **the tests pass** (max: 5):\n  session \"Fix the next failing test\""
        ),
        "until" => doc!(
            "loop until **condition**:",
            "The loop stops as soon as the VM judges the condition met; it is checked \
             before every iteration.",
            "loop until **the draft is ready** (max: 4):\n  session \"Improve the draft\""
        ),
        "while" => doc!(
            "loop while **condition**:",
            "The loop goes on as long as the VM judges the condition true (the same as \
             `until` with the condition negated).",
            "loop while **there are open questions** (max: 5):\n  session \"Answer one\""
        ),
        "try" => doc!(
            "try:\n  statements\ncatch [as err]:\n  statements\nfinally:\n  statements",
            "Runs the body; when something in it fails, the `catch` body handles the error \
             instead of stopping the program, and the `finally` body runs either way. A \
             `try` needs a `catch`, a `finally` or both.",
            "try:\n  session \"Call the API\"\ncatch as err:\n  session \"Explain the failure\"\n    context: err"
        ),
        "catch" => doc!(
            "catch [as err]:\n  statements",
            "Handles a failure in the `try` body. `as err` names the error, visible only in \
             this body. A bare `throw` inside passes the error on to an outer handler.",
            "catch as err:\n  session \"Log the error\"\n    context: err"
        ),
        "finally" => doc!(
            "finally:\n  statements",
            "Runs after the `try` (and `catch`) body whether or not anything failed: the \
             place for cleanup.",
            "finally:\n  session \"Close the connection\""
        ),
        "throw" => doc!(
            "throw [\"message\"]",
            "Fails on purpose. With a message it raises a new error; alone inside a \
             `catch` body it raises the error being handled again.",
            "throw \"The repository has no tests\""
        ),
        "choice" => doc!(
            "choice **criteria**:\n  option \"label\":\n    statements",
            "The VM weighs the criteria, picks the one option that fits best and runs only \
             that option's body.",
            "choice **how risky the change is**:\n  option \"Low\":\n    session \"Merge it\"\n  option \"High\":\n    session \"Ask for a second review\""
        ),
        "option" => doc!(
            "option \"label\":\n  statements",
            "One branch of a `choice`. The label, unique within the choice, says when this \
             branch is the right one.",
            "option \"Quick fix\":\n  session \"Patch the bug\""
        ),
        "if" => doc!(
            "if **condition**:\n  statements\nelif **condition**:\n  statements\nelse:\n  statements",
            "Runs the body when the VM judges the condition true; otherwise the first \
             `elif` whose condition holds, otherwise the `else` body.",
            "if **the review found blocking issues**:\n  session \"Fix them\"\nelse:\n  session \"Ship it\""
        ),
        "elif" => doc!(
            "elif **condition**:\n  statements",
            "A further branch of an `if`, tried only when the conditions before it did not \
             hold."
        ),
        "else" => doc!(
            "else:\n  statements",
            "The branch of an `if` that runs when no condition held; at most one per `if`."
        ),
        "map" => doc!(
            "collection | map:\n  statements",
            "Transforms every element in order and yields the collection of results. \
             Inside the body the current element is `item`.",
            "let summaries = articles | map:\n  session \"Summarize {item}\""
        ),
        "filter" => doc!(
            "collection | filter:\n  statements",
            "Keeps the elements for which the body answers yes (or true). Inside the body \
             the current element is `item`.",
            "let open = issues | filter:\n  session \"Is {item} still open? Answer yes or no.\""
        ),
        "reduce" => doc!(
            "collection | reduce(acc, x):\n  statements",
            "Folds a collection into one value: the first element is the starting \
             accumulator `acc`, and the body combines it with each further element `x`. \
             Both names are required.",
            "let story = chapters | reduce(text, chapter):\n  session \"Append {chapter} to {text}\""
        ),
        "pmap" => doc!(
            "collection | pmap:\n  statements",
            "Like `map`, but all elements are processed at the same time. Inside the body \
             the current element is `item`.",
            "let reviews = files | pmap:\n  session \"Review {item}\""
        ),
        "true" | "false" => doc!(
            "true · false",
            "Boolean values. As an agent's `persist: true`, memory that lasts for the \
             current run."
        ),
        "null" => doc!("null", "The empty value."),
        "and" | "or" | "not" => doc!(
            "a and b · a or b · not a",
            "Logic in plain-expression conditions. Inside a discretion condition \
             (`**...**`), say the logic in words instead."
        ),
        "return" => doc!(
            "return expression",
            "Ends the current block and hands back a value. Not in the OpenProse reference; \
             accepted because real programs use it."
        ),
        "break" => doc!(
            "break",
            "Leaves the innermost loop. Not in the OpenProse reference; accepted because \
             real programs use it."
        ),
        "continue" => doc!(
            "continue",
            "Skips to the next iteration of the innermost loop. Not in the OpenProse \
             reference; accepted because real programs use it."
        ),
        "assert" => doc!(
            "assert condition:\n  \"message\"",
            "Stops with the message when the condition does not hold. Not in the OpenProse \
             reference; accepted because real programs use it."
        ),
        "**" => doc!(
            "**condition**\n***\n  a longer condition\n***",
            "A discretion condition: plain language that the OpenProse VM judges at run \
             time from everything that has happened so far, instead of a boolean \
             expression. Used by `if`, `elif`, `loop until/while` and `choice`.",
            "if **the summary is missing key facts**:\n  session \"Add them\""
        ),
        "|" => doc!(
            "collection | map: ... | filter: ... | reduce(acc, x): ... | pmap: ...",
            "The pipe: hands a collection to a `map`, `filter`, `reduce` or `pmap` \
             operation. Operations chain from left to right.",
            "let short = ideas | filter:\n  session \"Is {item} short? Answer yes or no.\""
        ),
        "->" => doc!(
            "step -> step -> step",
            "Runs the steps one after the other on a single line; the same as writing them \
             on separate lines.",
            "session \"Plan\" -> session \"Build\" -> session \"Review\""
        ),
        _ => return None,
    })
}

/// Where a property or modifier is written: which keys are valid there and
/// what they mean.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PropertyContext {
    /// The properties of an `agent` definition.
    Agent,
    /// The properties of a `session` or `resume:` (and `session "x" (...)`).
    Session,
    /// The keys inside `permissions:`.
    Permissions,
    /// The modifiers of `parallel (...)` and `parallel for ... (...)`.
    Parallel,
    /// The modifiers of `loop (...)`.
    Loop,
}

/// The context of a `PROPERTY` node (by its owner) or a `MODIFIER` node
/// (by the construct its list belongs to).
pub(crate) fn property_context(node: &SyntaxNode) -> Option<PropertyContext> {
    let owner = match node.kind() {
        SyntaxKind::PROPERTY => node.parent()?.parent()?,
        SyntaxKind::MODIFIER => node.parent()?.parent()?,
        SyntaxKind::PROPERTY_BLOCK | SyntaxKind::MODIFIER_LIST => node.parent()?,
        _ => return None,
    };
    Some(match owner.kind() {
        SyntaxKind::AGENT_DEF => PropertyContext::Agent,
        SyntaxKind::SESSION_EXPR | SyntaxKind::RESUME_EXPR => PropertyContext::Session,
        SyntaxKind::PROPERTY if ast::Property::cast(owner)?.key() == "permissions" => {
            PropertyContext::Permissions
        }
        SyntaxKind::PARALLEL_EXPR | SyntaxKind::FOR_EXPR => PropertyContext::Parallel,
        SyntaxKind::LOOP_EXPR => PropertyContext::Loop,
        _ => return None,
    })
}

/// Hover text of a property key where it is valid (`None` elsewhere).
pub(crate) fn property_docs(context: PropertyContext, key: &str) -> Option<&'static str> {
    use PropertyContext::*;
    Some(match (context, key) {
        (Agent, "model") => doc!(
            "model: sonnet | opus | haiku",
            "The model this agent's sessions run on, unless a session overrides it: \
             `haiku` for quick simple steps, `sonnet` as the balanced default, `opus` for \
             the hardest reasoning.",
            "agent analyst:\n  model: opus"
        ),
        (Session, "model") => doc!(
            "model: sonnet | opus | haiku",
            "The model for this session only, overriding the agent's.",
            "session: analyst\n  model: haiku\n  prompt: \"Skim the log\""
        ),
        (Agent, "prompt") => doc!(
            "prompt: \"...\"",
            "The agent's system prompt: who it is and how it works. Every session that \
             uses the agent starts from it.",
            "agent editor:\n  prompt: \"You edit for clarity and brevity\""
        ),
        (Session, "prompt") => doc!(
            "prompt: \"...\"",
            "The task of this session. With an agent, it comes on top of the agent's own \
             system prompt.",
            "session: editor\n  prompt: \"Tighten the introduction\""
        ),
        (Agent, "persist") => doc!(
            "persist: true | project | user | \"path\"",
            "Gives the agent a memory that `resume:` continues. `true` keeps it for this run \
             only; `project` in `.prose/agents/NAME/` across runs; `user` in \
             `~/.prose/agents/NAME/` across projects; a string names the directory.",
            "agent captain:\n  persist: project"
        ),
        (Agent, "skills") => doc!(
            "skills: [\"name\", ...]",
            "The skills this agent may use. Each must be imported in the program.",
            "agent researcher:\n  skills: [\"web-search\"]"
        ),
        (Agent, "permissions") => doc!(
            "permissions:\n  read | write | execute: [\"glob\", ...]\n  bash | network: allow | deny | prompt",
            "What the agent may touch: file patterns it may read, write or execute, and \
             whether it may use the shell or the network.",
            "agent auditor:\n  permissions:\n    read: [\"src/**\"]\n    bash: deny"
        ),
        (Session, "permissions") => doc!(
            "permissions:\n  read | write | execute: [\"glob\", ...]\n  bash | network: allow | deny | prompt",
            "Overrides the agent's permissions for this session only.",
            "session: auditor\n  permissions:\n    network: allow"
        ),
        (Agent, "context") => doc!(
            "context: name | [a, b] | { a, b }",
            "Variables that every session of this agent receives as context.",
            "agent writer:\n  context: style-guide"
        ),
        (Session, "context") => doc!(
            "context: name | [a, b] | { a, b } | []",
            "Earlier results this session gets to see. `[]` starts it with no context at \
             all.",
            "session \"Write the report\"\n  context: [research, analysis]"
        ),
        (Session, "retry") => doc!(
            "retry: N",
            "Runs the session again, up to N more times, when it fails. N is a positive \
             integer; more than 10 is unusual.",
            "session \"Call the flaky API\"\n  retry: 3"
        ),
        (Session, "backoff") => doc!(
            "backoff: none | linear | exponential",
            "How long to wait between retries: not at all (the default), a fixed delay, or \
             a delay that doubles each time.",
            "session \"Call the rate-limited API\"\n  retry: 5\n  backoff: exponential"
        ),
        (Permissions, "read") => doc!(
            "read: [\"glob\", ...]",
            "Files the agent may read.",
            "read: [\"*.md\", \"docs/**\"]"
        ),
        (Permissions, "write") => doc!(
            "write: [\"glob\", ...]",
            "Files the agent may create or change.",
            "write: [\"output/\"]"
        ),
        (Permissions, "execute") => doc!(
            "execute: [\"glob\", ...]",
            "Files the agent may run.",
            "execute: [\"scripts/*.sh\"]"
        ),
        (Permissions, "bash") => doc!(
            "bash: allow | deny | prompt",
            "Whether the agent may run shell commands: always, never, or after asking the \
             user each time.",
            "bash: deny"
        ),
        (Permissions, "network") => doc!(
            "network: allow | deny | prompt",
            "Whether the agent may use the network: always, never, or after asking the \
             user each time.",
            "network: prompt"
        ),
        (Parallel, "on-fail") => doc!(
            "on-fail: \"fail-fast\" | \"continue\" | \"ignore\"",
            "What a failing branch does: cancel the others and fail at once (the default), \
             let the others finish and fail afterwards, or count as done.",
            "parallel (on-fail: \"continue\"):"
        ),
        (Parallel, "count") => doc!(
            "count: N",
            "With the `\"any\"` strategy: how many branches must succeed before the program \
             goes on (1 by default).",
            "parallel (\"any\", count: 2):"
        ),
        (Loop, "max") => doc!(
            "max: N",
            "The most iterations the loop may run, even if its condition is never met. \
             N is a positive integer.",
            "loop until **done** (max: 10):"
        ),
        _ => return None,
    })
}

/// Hover text of a well-known property value: `value_docs("model", "opus")`.
/// The bare join strategy of `parallel ("first")` has the key `"join"`.
pub(crate) fn value_docs(key: &str, value: &str) -> Option<&'static str> {
    Some(match (key, value) {
        ("model", "haiku") => concat!(
            "**haiku**: the fastest, lightest model. Suits quick, simple steps: ",
            "classifying, extracting, short answers."
        ),
        ("model", "sonnet") => concat!(
            "**sonnet**: the balanced, general-purpose model and a good default for ",
            "most sessions."
        ),
        ("model", "opus") => concat!(
            "**opus**: the most capable model, for complex reasoning and careful, detailed ",
            "analysis; slower and costlier."
        ),
        ("persist", "true" | "execution") => concat!(
            "**persist: true**: the agent keeps a memory for the current run only ",
            "(`.prose/runs/{id}/agents/NAME/`)."
        ),
        ("persist", "false") => {
            "**persist: false**: the agent has no memory (the same as no `persist:`)."
        }
        ("persist", "project") => concat!(
            "**persist: project**: the agent's memory lives in `.prose/agents/NAME/` and ",
            "survives across runs of this project."
        ),
        ("persist", "user") => concat!(
            "**persist: user**: the agent's memory lives in `~/.prose/agents/NAME/` and ",
            "follows the user across projects."
        ),
        ("backoff", "none") => "**none**: retry immediately (the default).",
        ("backoff", "linear") => "**linear**: wait the same delay before every retry.",
        ("backoff", "exponential") => {
            "**exponential**: double the delay before each retry (1s, 2s, 4s, ...)."
        }
        ("bash" | "network", "allow") => "**allow**: permitted.",
        ("bash" | "network", "deny") => "**deny**: forbidden.",
        ("bash" | "network", "prompt") => "**prompt**: ask the user each time.",
        ("join", "all") => "**\"all\"**: wait for every branch (the default).",
        ("join", "first") => {
            "**\"first\"**: take the first branch to finish and cancel the others."
        }
        ("join", "any") => {
            "**\"any\"**: go on once `count` branches (1 by default) have succeeded."
        }
        ("on-fail", "fail-fast") => {
            "**\"fail-fast\"**: a failing branch cancels the others and fails the block (the default)."
        }
        ("on-fail", "continue") => {
            "**\"continue\"**: let every branch finish, then report the failures."
        }
        ("on-fail", "ignore") => {
            "**\"ignore\"**: failures count as done; the block always succeeds."
        }
        _ => return None,
    })
}

/// A few words on what a model is for (agent hovers).
fn model_blurb(model: &str) -> Option<&'static str> {
    Some(match model {
        "haiku" => "fast, for simple steps",
        "sonnet" => "balanced, general purpose",
        "opus" => "most capable, for complex reasoning",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};

    use crate::fixture::Fixture;

    /// Every word of the language's vocabularies has hover text where it
    /// stands: the tables here are keyed by `crate::vocabulary`'s lists.
    #[test]
    fn vocabulary_is_documented() {
        use super::{PropertyContext::*, model_blurb, property_docs, value_docs};
        use crate::vocabulary as v;
        let properties = [
            (Agent, v::AGENT_PROPERTIES),
            (Session, v::SESSION_PROPERTIES),
            (Permissions, v::PERMISSION_TYPES),
            (Parallel, v::PARALLEL_MODIFIERS),
            (Loop, v::LOOP_MODIFIERS),
        ];
        for (context, keys) in properties {
            for key in keys {
                assert!(property_docs(context, key).is_some(), "{context:?} {key}");
            }
        }
        let values = [
            ("model", v::MODELS),
            ("persist", v::PERSIST_VALUES),
            ("backoff", v::BACKOFF_STRATEGIES),
            ("bash", v::PERMISSION_VALUES),
            ("network", v::PERMISSION_VALUES),
            ("join", v::JOIN_STRATEGIES),
            ("on-fail", v::FAILURE_POLICIES),
        ];
        for (key, words) in values {
            for word in words {
                assert!(value_docs(key, word).is_some(), "{key}: {word}");
            }
        }
        for model in v::MODELS {
            assert!(model_blurb(model).is_some(), "{model}");
        }
    }

    fn check(fixture: &str, expect: Expect) {
        let f = Fixture::parse(fixture);
        let (host, pos) = f.position();
        let analysis = host.analysis();
        let text = analysis.file_text(pos.file).unwrap();
        let actual = match analysis.hover(pos).unwrap() {
            Some(h) => format!(
                "{:?} {:?}\n{}\n",
                h.range,
                &text[usize::from(h.range.start())..usize::from(h.range.end())],
                h.markdown
            ),
            None => "no hover\n".to_string(),
        };
        expect.assert_eq(&actual);
    }

    #[test]
    fn keyword() {
        check(
            r#"ses$0sion "Hello""#,
            expect![[r#"
                0..7 "session"
                ```prose
                session "prompt"
                session: agent
                session name: agent
                ```

                Runs one subagent and waits for it to finish; bind its result with `let`, `const` or `output`. With an agent, the session starts from the agent's settings without its saved memory (see `resume:`); properties indented below override them for this session only.

                *Example*
                ```prose
                let draft = session: writer
                  prompt: "Draft the introduction"
                ```
            "#]],
        );
    }

    #[test]
    fn parallel_for_and_pipe_keywords() {
        check(
            "par$0allel for t in topics:\n  session \"{t}\"\n",
            expect![[r#"
                0..8 "parallel"
                ```prose
                parallel for item in collection:
                  statements
                ```

                A `for` loop whose iterations all run at the same time (fan-out). It accepts the same modifiers as `parallel`.

                *Example*
                ```prose
                parallel for topic in topics:
                  session "Research {topic}"
                ```
            "#]],
        );
        check(
            "let r = xs | ma$0p:\n  session \"{item}\"\n",
            expect![[r#"
                13..16 "map"
                ```prose
                collection | map:
                  statements
                ```

                Transforms every element in order and yields the collection of results. Inside the body the current element is `item`.

                *Example*
                ```prose
                let summaries = articles | map:
                  session "Summarize {item}"
                ```
            "#]],
        );
    }

    #[test]
    fn property_keys_depend_on_their_place() {
        check(
            "agent a:\n  mo$0del: opus\n",
            expect![[r#"
                11..16 "model"
                ```prose
                model: sonnet | opus | haiku
                ```

                The model this agent's sessions run on, unless a session overrides it: `haiku` for quick simple steps, `sonnet` as the balanced default, `opus` for the hardest reasoning.

                *Example*
                ```prose
                agent analyst:
                  model: opus
                ```
            "#]],
        );
        check(
            "session \"x\"\n  mo$0del: opus\n",
            expect![[r#"
                14..19 "model"
                ```prose
                model: sonnet | opus | haiku
                ```

                The model for this session only, overriding the agent's.

                *Example*
                ```prose
                session: analyst
                  model: haiku
                  prompt: "Skim the log"
                ```
            "#]],
        );
        check(
            "agent a:\n  permissions:\n    ba$0sh: deny\n",
            expect![[r#"
                28..32 "bash"
                ```prose
                bash: allow | deny | prompt
                ```

                Whether the agent may run shell commands: always, never, or after asking the user each time.

                *Example*
                ```prose
                bash: deny
                ```
            "#]],
        );
        check(
            "parallel (on-f$0ail: \"continue\"):\n  session \"a\"\n",
            expect![[r#"
                10..17 "on-fail"
                ```prose
                on-fail: "fail-fast" | "continue" | "ignore"
                ```

                What a failing branch does: cancel the others and fail at once (the default), let the others finish and fail afterwards, or count as done.

                *Example*
                ```prose
                parallel (on-fail: "continue"):
                ```
            "#]],
        );
        check(
            "loop until **done** (ma$0x: 3):\n  session \"a\"\n",
            expect![[r#"
                21..24 "max"
                ```prose
                max: N
                ```

                The most iterations the loop may run, even if its condition is never met. N is a positive integer.

                *Example*
                ```prose
                loop until **done** (max: 10):
                ```
            "#]],
        );
    }

    #[test]
    fn property_values() {
        check(
            "agent a:\n  model: op$0us\n",
            expect![[r#"
            18..22 "opus"
            **opus**: the most capable model, for complex reasoning and careful, detailed analysis; slower and costlier.
        "#]],
        );
        check(
            "agent a:\n  persist: proj$0ect\n",
            expect![[r#"
            20..27 "project"
            **persist: project**: the agent's memory lives in `.prose/agents/NAME/` and survives across runs of this project.
        "#]],
        );
        check(
            "agent a:\n  persist: tr$0ue\n",
            expect![[r#"
            20..24 "true"
            **persist: true**: the agent keeps a memory for the current run only (`.prose/runs/{id}/agents/NAME/`).
        "#]],
        );
        check(
            "parallel (\"fi$0rst\"):\n  session \"a\"\n",
            expect![[r#"
                10..17 "\"first\""
                **"first"**: take the first branch to finish and cancel the others.
            "#]],
        );
        check(
            "session \"x\"\n  retry: 3\n  backoff: expo$0nential\n",
            expect![[r#"
                34..45 "exponential"
                **exponential**: double the delay before each retry (1s, 2s, 4s, ...).
            "#]],
        );
    }

    #[test]
    fn agent_reference() {
        check(
            r#"# Reviews plans.
# Keeps notes between runs.
agent captain:
  model: opus
  persist: project
  prompt: """
    You coordinate the crew and review every plan before it is carried out.
  """

session: capt$0ain
  prompt: "Review"
"#,
            expect![[r#"
                199..206 "captain"
                ```prose
                agent captain
                ```

                agent · line 3

                Reviews plans.
                Keeps notes between runs.

                - model: `opus` (most capable, for complex reasoning)
                - persist: `project`: memory in `.prose/agents/captain/`, kept across runs
                - prompt: "You coordinate the crew and review every plan before it is carried out."
            "#]],
        );
    }

    #[test]
    fn agent_definition_without_memory() {
        check(
            "agent wri$0ter:\n  model: sonnet\n  prompt: \"You write.\"\n",
            expect![[r#"
                6..12 "writer"
                ```prose
                agent writer
                ```

                agent

                - model: `sonnet` (balanced, general purpose)
                - persist: none (starts fresh every session; `resume:` is not possible)
                - prompt: "You write."
            "#]],
        );
    }

    #[test]
    fn resume_of_non_persistent_agent_explains_the_diagnostic() {
        check(
            "agent a:\n  model: haiku\nresume: $0a\n  prompt: \"go on\"\n",
            expect![[r#"
                32..33 "a"
                ```prose
                agent a
                ```

                agent · line 1

                - model: `haiku` (fast, for simple steps)
                - persist: none (starts fresh every session; `resume:` is not possible)

                ---

                **error E017** `resume-non-persistent`: Agent must have `persist:` property to use `resume:`: `a` has none

                **`resume:` requires a persistent agent.** `resume: name` names an agent
                whose definition has no `persist:` property, so there is no memory to
                resume.

                *More: `prose explain E017`*
            "#]],
        );
    }

    #[test]
    fn undefined_agent_shows_only_the_diagnostic() {
        check(
            "session: no$0body\n",
            expect![[r#"
            9..15 "nobody"
            **error E007** `undefined-agent`: Agent not defined: `nobody`

            **Undefined agent reference.** `session: name`, `session x: name` or
            `resume: name` names an agent that no `agent` definition in the program
            defines.

            *More: `prose explain E007`*
        "#]],
        );
    }

    #[test]
    fn the_page_is_linked_under_the_docs_url() {
        check(
            r#"#- /ws/prose.toml
docs-url = "https://example.com/prose/{code}.html"
#- /ws/main.prose
session: no$0body
"#,
            expect![[r#"
                9..15 "nobody"
                **error E007** `undefined-agent`: Agent not defined: `nobody`

                **Undefined agent reference.** `session: name`, `session x: name` or
                `resume: name` names an agent that no `agent` definition in the program
                defines.

                *More: [E007](https://example.com/prose/E007.html), or `prose explain E007`*
            "#]],
        );
    }

    #[test]
    fn syntax_error() {
        check(
            "session \"x\" $0)\n",
            expect![[r#"
            12..13 ")"
            **error E004** `unexpected-token`: Unexpected `)`: expected end of line

            **Unexpected token.** A token is present that cannot start or continue
            what is being parsed at that point.

            *More: `prose explain E004`*
        "#]],
        );
    }

    #[test]
    fn variables() {
        check(
            "let research = session \"Research\"\nsession \"Use {resea$0rch}\"\n",
            expect![[r#"
                48..56 "research"
                ```prose
                let research = session "Research"
                ```

                let variable: may be reassigned with `name = ...` · line 1
            "#]],
        );
        check(
            "const plan = session \"Plan\"\nsession \"x\"\n  context: pl$0an\n",
            expect![[r#"
                51..55 "plan"
                ```prose
                const plan = session "Plan"
                ```

                const variable: cannot be reassigned · line 1
            "#]],
        );
        check(
            "for f, i in [\"a\"]:\n  session \"{f} {$0i}\"\n",
            expect![[r#"
                35..36 "i"
                ```prose
                for f, i in ["a"]:
                ```

                index variable: the iteration number, from 0; visible only in the loop body · line 1
            "#]],
        );
        check(
            "let r = xs | map:\n  session \"{it$0em}\"\n",
            expect![[r#"
                30..34 "item"
                ```prose
                item
                ```

                pipeline item: the current element inside `map` · line 1
            "#]],
        );
        check(
            "let r = xs | reduce(acc, x):\n  session \"{a$0cc} {x}\"\n",
            expect![[r#"
                41..44 "acc"
                ```prose
                | reduce(acc, x):
                ```

                reduce variable: the accumulator (starts as the first element) · line 1
            "#]],
        );
        check(
            "try:\n  session \"a\"\ncatch as err:\n  session \"b\"\n    context: e$0rr\n",
            expect![[r#"
                60..63 "err"
                ```prose
                catch as err:
                ```

                error variable: the error being handled; visible only in the catch body · line 3
            "#]],
        );
        check(
            "parallel:\n  sec = session \"a\"\nsession \"b\"\n  context: { s$0ec }\n",
            expect![[r#"
                55..58 "sec"
                ```prose
                sec = session "a"
                ```

                variable: bound by assignment · line 2
            "#]],
        );
        check(
            "parallel:\n  s$0ec = session \"a\"\n",
            expect![[r#"
            12..15 "sec"
            ```prose
            sec = session "a"
            ```

            variable: bound by assignment
        "#]],
        );
        check(
            "output sum$0mary = session \"x\"\n",
            expect![[r#"
            7..14 "summary"
            ```prose
            output summary = session "x"
            ```

            output: bound like `let` and returned to a caller, who reads it as `result.summary`
        "#]],
        );
    }

    #[test]
    fn input_with_description() {
        check(
            "input topic: \"The subject to research\"\nsession \"Research {top$0ic}\"\n",
            expect![[r#"
                58..63 "topic"
                ```prose
                input topic
                ```

                input: supplied by the caller before the program runs · line 1

                The subject to research
            "#]],
        );
    }

    #[test]
    fn block_reference_and_parameter() {
        check(
            "do rev$0iew(\"x\", 2)\nblock review(topic, depth):\n  session \"{topic}\"\n",
            expect![[r#"
                3..9 "review"
                ```prose
                block review(topic, depth)
                ```

                block with 2 parameters; run it with `do review(...)` · line 2
            "#]],
        );
        check(
            "block review(topic):\n  session \"{top$0ic}\"\n",
            expect![[r#"
                33..38 "topic"
                ```prose
                block review(topic):
                ```

                block parameter: visible only in the body of `review`; read-only there · line 1
            "#]],
        );
    }

    #[test]
    fn imported_program() {
        check(
            r#"#- /ws/.prose/imports/alice--research/program.prose
input topic: "What to research"
input depth: "shallow, medium or deep"
output findings = session "Research {topic}"
output sources = session "List sources"
#- /ws/main.prose
use "@alice/research"
let r = resea$0rch(topic: "tides", depth: "deep")
"#,
            expect![[r#"
                30..38 "research"
                ```prose
                use "@alice/research"
                ```

                imported program `research`, from `.prose/imports/alice--research/program.prose` · line 1

                **Inputs**
                - `topic`: What to research
                - `depth`: shallow, medium or deep

                **Outputs**: `findings`, `sources`
            "#]],
        );
        check(
            r#"#- /ws/.prose/imports/alice--research/program.prose
input topic: "What to research"
output findings = session "Research {topic}"
#- /ws/main.prose
use "@alice/research" as r
let x = r(top$0ic: "tides")
"#,
            expect![[r#"
                37..42 "topic"
                ```prose
                input topic
                ```

                input of `r`

                What to research
            "#]],
        );
    }

    #[test]
    fn unavailable_program() {
        check(
            "use \"@bob/crit$0ique\" as critic\n",
            expect![[r#"
                4..19 "\"@bob/critique\""
                ```prose
                use "@bob/critique" as critic
                ```

                imported program `critic`

                The program is not available locally, so its inputs and outputs are unknown.

                ---

                **hint P204** `unresolved-import`: Program `@bob/critique` is not available locally; its inputs and outputs are not checked (looked for .prose/imports/bob--critique/program.prose)

                **Imported program not available locally.** A `use` names a program
                whose source is not on this machine, so the calls to it cannot be checked
                against its inputs and outputs (E026, E027, E028 stay silent for it).

                *More: `prose explain P204`*
            "#]],
        );
    }

    #[test]
    fn discretion() {
        check(
            "loop until **the tests p$0ass** (max: 3):\n  session \"fix\"\n",
            expect![[r#"
                11..29 "**the tests pass**"
                ```prose
                **condition**
                ***
                  a longer condition
                ***
                ```

                A discretion condition: plain language that the OpenProse VM judges at run time from everything that has happened so far, instead of a boolean expression. Used by `if`, `elif`, `loop until/while` and `choice`.

                *Example*
                ```prose
                if **the summary is missing key facts**:
                  session "Add them"
                ```

                Here: the loop stops as soon as the VM judges this condition met.
            "#]],
        );
    }

    #[test]
    fn nothing_to_say() {
        check(
            "$0",
            expect![[r#"
            no hover
        "#]],
        );
        check(
            "session \"Hel$0lo\"\n",
            expect![[r#"
            no hover
        "#]],
        );
        check(
            "# a comm$0ent\n",
            expect![[r#"
            no hover
        "#]],
        );
        check(
            "session \"x\"\n$0",
            expect![[r#"
            no hover
        "#]],
        );
    }

    #[test]
    fn never_panics_on_broken_input() {
        let inputs = [
            "agent a:\n  model: \nsession: \nresume: a\n  prompt: \"",
            "do b(\nlet r = prog(topic: x, \nblock b(p:\n",
            "let x = xs | \n  | reduce(:\n    session \"{",
            "if **\n  loop until *** x\nparallel (\"any\", count: ):\n",
            "use \"\" as\nimport from\ninput : \noutput = \n\"\"\"",
            "session \"a\" -> -> session\ntry:\ncatch as :\nchoice :\n  option :\n",
        ];
        for text in inputs {
            let mut host = crate::AnalysisHost::new();
            let file = host.set_file_text("/ws/main.prose", text);
            let analysis = host.analysis();
            for offset in 0..=text.len() {
                let pos = crate::FilePosition {
                    file,
                    offset: (offset as u32).into(),
                };
                let _ = analysis.hover(pos).unwrap();
            }
            let past_end = crate::FilePosition {
                file,
                offset: (text.len() as u32 + 5).into(),
            };
            assert_eq!(analysis.hover(past_end).unwrap(), None);
        }
    }
}
