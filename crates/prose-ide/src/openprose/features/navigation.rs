//! Go to definition, and the name classification that references,
//! document highlight and rename share.
//!
//! [`classify`] decides what the name under the cursor stands for:
//!
//! - a definition or a reference that name resolution resolved (agents,
//!   blocks, variables of every kind, block parameters, loop, index, catch
//!   and reduce variables, the implicit pipeline `item`, `use` aliases and
//!   the implicit name of a `use` without `as`), including references in
//!   interpolations (`{x}`, `{x.y}`), `context:`, `session: agent`,
//!   `do block` and program calls `prog(...)`;
//! - a named argument of a program call `prog(topic: ...)`: the imported
//!   program's `input topic`, found through the workspace's files and the
//!   `use` lookup order ([`crate::imports::import_candidates`]); of a block
//!   call `do b(p: ...)`: the block's parameter `p`;
//! - a property read on a program's result (`r.findings`, `{r.findings}`),
//!   or a name destructured from it (`let { findings } = prog(...)`): the
//!   imported program's `output findings`;
//! - the path of a `use`: the imported file;
//! - a string in a `skills:` list: the `import` of that skill.
//!
//! Go to definition then answers: from a reference, its definition; from a
//! definition, itself. Two exceptions follow what the name stands for
//! rather than where it is bound: a `use` alias, a program call and a `use`
//! path go to the imported file (to the `use` itself when the program is
//! not available locally), and a name destructured from a program's result
//! goes to the program's output. Unresolved names go nowhere.

use std::collections::HashMap;

use prose_syntax::{
    AstNode, NodeOrToken, SyntaxKind, SyntaxNode, SyntaxToken, TextRange, TextSize,
    ast::{self, Expr},
};

use crate::{
    FileId,
    db::{Db, SourceFile, Workspace, file_root, parse},
    imports::implicit_name,
    semantics::{Def, DefId, DefKind, FileSemantics, RefKind, file_semantics},
};

/// Where a name is defined (or a whole file, for an imported program).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NavigationTarget {
    pub file: FileId,
    /// The whole construct (the statement of a `let`, the agent definition);
    /// the whole text for a file.
    pub full_range: TextRange,
    /// The defining name inside `full_range`; `None` for a file.
    pub focus_range: Option<TextRange>,
    pub name: String,
    pub kind: SymbolKind,
}

/// What a symbol is, for icons in outlines and lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SymbolKind {
    /// A whole program file.
    File,
    /// A `use` import (its alias or implicit name).
    Program,
    /// A legacy `import "skill" from "..."`.
    Skill,
    Agent,
    Block,
    Input,
    Output,
    /// `let`, an assignment that creates a name, a destructured name, and
    /// loop, index, catch, reduce and pipeline variables.
    Variable,
    Constant,
    /// `session name: agent`.
    Session,
    /// A block parameter.
    Parameter,
    /// A loop, `parallel`, `try`, `if` or `choice` holding named things.
    Control,
    /// An `option "label":` of a `choice`.
    ChoiceOption,
    /// A Pattern Dialect action (`/recall notes`); a batch holds its actions.
    Action,
    // Job entries (docs/jobs.md).
    /// A task of a job entry.
    Task,
    /// A model key of a job entry's `models`.
    ModelKey,
    /// A grid row of a job entry, named by its keyword.
    GridRow,
    /// A job of a grid row.
    GridJob,
    /// A top-level part of a job entry: `models`, `promptVariables`,
    /// `grid`, `tasks`.
    Section,
    // Markdown and prompt files (docs/markdown.md).
    /// A heading of a markdown text, or a part of a prompt file (its
    /// leading commands, content, trailing commands).
    Heading,
    /// A slash command of a prompt file (`/read`, `/push`).
    Command,
}

impl SymbolKind {
    pub fn of(kind: DefKind) -> SymbolKind {
        match kind {
            DefKind::Agent => SymbolKind::Agent,
            DefKind::Block => SymbolKind::Block,
            DefKind::Program => SymbolKind::Program,
            DefKind::Skill => SymbolKind::Skill,
            DefKind::Input => SymbolKind::Input,
            DefKind::Output => SymbolKind::Output,
            DefKind::Const => SymbolKind::Constant,
            DefKind::SessionName => SymbolKind::Session,
            DefKind::Param => SymbolKind::Parameter,
            DefKind::Let
            | DefKind::Assigned
            | DefKind::Destructured
            | DefKind::LoopVar
            | DefKind::IndexVar
            | DefKind::CatchVar
            | DefKind::ReduceVar
            | DefKind::PipelineItem => SymbolKind::Variable,
        }
    }
}

pub(crate) fn goto_definition(
    nav: &Nav<'_>,
    file: SourceFile,
    offset: TextSize,
) -> Vec<NavigationTarget> {
    let Some(hit) = classify(nav, file, offset) else {
        return Vec::new();
    };
    let target = match hit.what {
        What::UsePath {
            imported: Some(p), ..
        } => nav.file_target(p),
        What::UsePath { imported: None, .. } | What::Unresolved { .. } => None,
        What::Def { file: f, def } => {
            let d = nav.sema(f).def(def);
            let imported = (d.kind == DefKind::Program)
                .then(|| nav.imported_file(f, d))
                .flatten();
            let output = (d.kind == DefKind::Destructured)
                .then(|| destructured_output(nav, f, def))
                .flatten();
            match (imported, output) {
                (Some(p), _) => nav.file_target(p),
                (None, Some((p, out))) => nav.def_target(p, out),
                (None, None) => nav.def_target(f, def),
            }
        }
    };
    target.into_iter().collect()
}

// ---- the workspace seen from one query --------------------------------------------

/// The database, the workspace and the snapshot's file ids, for features
/// that may look into other files.
pub(crate) struct Nav<'a> {
    pub(crate) db: &'a dyn Db,
    pub(crate) ws: Workspace,
    ids: HashMap<SourceFile, FileId>,
}

impl<'a> Nav<'a> {
    pub(crate) fn new(db: &'a dyn Db, ws: Workspace, files: &[SourceFile]) -> Nav<'a> {
        // Only programs: other kinds (job entries, markdown) hold no
        // OpenProse names, and parsing them as programs would invent some.
        let ids = files
            .iter()
            .enumerate()
            .filter(|(_, f)| {
                crate::db::file_kind(db, **f, Some(ws)) == crate::kind::FileKind::OpenProse
            })
            .map(|(i, f)| (*f, FileId(i as u32)))
            .collect();
        Nav { db, ws, ids }
    }

    pub(crate) fn file_id(&self, f: SourceFile) -> Option<FileId> {
        self.ids.get(&f).copied()
    }

    pub(crate) fn sema(&self, f: SourceFile) -> &'a FileSemantics {
        file_semantics(self.db, f)
    }

    pub(crate) fn root(&self, f: SourceFile) -> SyntaxNode {
        parse(self.db, f).syntax_node()
    }

    pub(crate) fn text(&self, f: SourceFile) -> &'a str {
        f.text(self.db)
    }

    pub(crate) fn path(&self, f: SourceFile) -> &'a str {
        f.path(self.db)
    }

    /// Every file of the workspace (files the host removed are not in it).
    /// Checks for cancellation before each, so loops over the workspace
    /// stop soon after an edit or a cancelled request.
    pub(crate) fn workspace_files(&self) -> impl Iterator<Item = SourceFile> + 'a {
        let db = self.db;
        self.ws
            .files(db)
            .values()
            .copied()
            .inspect(move |_| db.unwind_if_revision_cancelled())
    }

    /// The file a `use` path in `from` resolves to, if the host loaded it.
    pub(crate) fn resolve_use(&self, from: SourceFile, use_path: &str) -> Option<SourceFile> {
        crate::features::hover::resolve_use_path(self.db, self.ws, from, use_path)
    }

    /// The program a `use` definition (`DefKind::Program`) imports.
    pub(crate) fn imported_file(&self, f: SourceFile, def: &Def) -> Option<SourceFile> {
        let stmt = node_at(&self.root(f), def.range, |k| k == SyntaxKind::USE_STMT)?;
        let path = ast::UseStmt::cast(stmt)?.path()?.value();
        self.resolve_use(f, &path)
    }

    /// Every file with a `use` that resolves to `target`, with the
    /// `DefKind::Program` definition that `use` makes there; with `only`,
    /// just that file if it imports `target`.
    pub(crate) fn importers(
        &self,
        target: SourceFile,
        only: Option<SourceFile>,
    ) -> Vec<(SourceFile, DefId)> {
        let mut out = Vec::new();
        let candidates: Vec<SourceFile> = match only {
            Some(f) => vec![f],
            None => self.workspace_files().collect(),
        };
        for q in candidates {
            if q == target || !self.text(q).contains("use") {
                continue;
            }
            let sema = self.sema(q);
            for (id, d) in sema.defs_of(DefKind::Program) {
                if self.imported_file(q, d) == Some(target) {
                    out.push((q, id));
                }
            }
        }
        out
    }

    /// Whether a rename may edit `f`: it is under a workspace root and not
    /// a fetched copy under that root's `.prose/` (with no root, every file
    /// is editable).
    pub(crate) fn foreign_reason(&self, f: SourceFile) -> Option<&'static str> {
        if self.ws.roots(self.db).is_empty() {
            return None;
        }
        let root = file_root(self.db, f, self.ws);
        if !root.is_root {
            return Some("which is outside the workspace");
        }
        let rest = self.path(f).strip_prefix(root.dir.trim_end_matches('/'));
        match rest.and_then(|r| r.strip_prefix('/')) {
            Some(rel) if rel.starts_with(".prose/") => {
                Some("a fetched copy of an imported program (under `.prose/`)")
            }
            _ => None,
        }
    }

    pub(crate) fn file_target(&self, f: SourceFile) -> Option<NavigationTarget> {
        Some(NavigationTarget {
            file: self.file_id(f)?,
            full_range: TextRange::up_to(TextSize::of(self.text(f))),
            focus_range: None,
            name: self.path(f).to_string(),
            kind: SymbolKind::File,
        })
    }

    pub(crate) fn def_target(&self, f: SourceFile, def: DefId) -> Option<NavigationTarget> {
        let d = self.sema(f).def(def);
        Some(NavigationTarget {
            file: self.file_id(f)?,
            full_range: full_range(d),
            focus_range: Some(d.name_range),
            name: d.name.clone(),
            kind: SymbolKind::of(d.kind),
        })
    }
}

/// The range a definition's target spans: its statement, but only the name
/// for scoped variables (whose statement is the whole loop or block).
pub(crate) fn full_range(d: &Def) -> TextRange {
    if d.kind.is_scoped() {
        d.name_range
    } else {
        d.range.cover(d.name_range)
    }
}

// ---- syntax helpers ------------------------------------------------------------------

/// The innermost node of a kind accepted by `kind` that covers `range`.
pub(crate) fn node_at(
    root: &SyntaxNode,
    range: TextRange,
    kind: impl Fn(SyntaxKind) -> bool,
) -> Option<SyntaxNode> {
    if !root.text_range().contains_range(range) {
        return None;
    }
    let start = match root.covering_element(range) {
        NodeOrToken::Node(n) => n,
        NodeOrToken::Token(t) => t.parent()?,
    };
    start.ancestors().find(|n| kind(n.kind()))
}

/// The token the cursor is on: names over string pieces over other tokens
/// over whitespace; between two equal tokens, the right one.
pub(crate) fn token_at(root: &SyntaxNode, offset: TextSize) -> Option<SyntaxToken> {
    if offset > root.text_range().end() {
        return None;
    }
    root.token_at_offset(offset).max_by_key(|t| match t.kind() {
        SyntaxKind::IDENT => 3,
        SyntaxKind::STRING_TEXT
        | SyntaxKind::STRING_ESCAPE
        | SyntaxKind::STRING_OPEN
        | SyntaxKind::STRING_CLOSE => 2,
        k if k.is_trivia() || k == SyntaxKind::NEWLINE => 0,
        _ => 1,
    })
}

/// The 1-based line of `offset` in `text`.
pub(crate) fn line_number(text: &str, offset: TextSize) -> usize {
    let end = usize::from(offset).min(text.len());
    prose_syntax::lines::count_breaks(&text[..end]) + 1
}

/// The statement that binds a variable definition (`let`, `const`,
/// `output`, an assignment).
pub(crate) fn binding_stmt(root: &SyntaxNode, d: &Def) -> Option<SyntaxNode> {
    node_at(root, d.name_range, |k| {
        matches!(
            k,
            SyntaxKind::LET_STMT
                | SyntaxKind::CONST_STMT
                | SyntaxKind::OUTPUT_DECL
                | SyntaxKind::ASSIGN_STMT
        )
    })
}

/// The value a binding statement binds.
fn binding_value(stmt: &SyntaxNode) -> Option<Expr> {
    if let Some(l) = ast::LetStmt::cast(stmt.clone()) {
        l.value()
    } else if let Some(o) = ast::OutputDecl::cast(stmt.clone()) {
        o.value()
    } else {
        ast::AssignStmt::cast(stmt.clone())?.value()
    }
}

/// `prog(...)`: the call's callee when it names something (not `xs[0]`).
pub(crate) fn program_callee(call: &ast::CallExpr) -> Option<ast::NameRef> {
    call.arg_list()?;
    match call.callee()? {
        Expr::NameRef(n) => Some(n),
        _ => None,
    }
}

/// The `use` definition a program call's callee resolved to.
pub(crate) fn call_program(sema: &FileSemantics, call: &ast::CallExpr) -> Option<DefId> {
    let callee = program_callee(call)?.syntax().text_range();
    sema.refs
        .iter()
        .find(|r| r.range == callee && r.kind == RefKind::Program)?
        .target
}

/// The `use` definition whose program a variable's value comes from:
/// `let r = prog(...)`, `let { a } = prog(...)`.
pub(crate) fn bound_program(root: &SyntaxNode, sema: &FileSemantics, d: &Def) -> Option<DefId> {
    let stmt = binding_stmt(root, d)?;
    match binding_value(&stmt)? {
        Expr::Call(c) => call_program(sema, &c),
        _ => None,
    }
}

/// The output of the imported program a destructured name is taken from.
pub(crate) fn destructured_output(
    nav: &Nav<'_>,
    f: SourceFile,
    def: DefId,
) -> Option<(SourceFile, DefId)> {
    let sema = nav.sema(f);
    let d = sema.def(def);
    if d.kind != DefKind::Destructured {
        return None;
    }
    let program = bound_program(&nav.root(f), sema, d)?;
    let p = nav.imported_file(f, sema.def(program))?;
    let (out, _) = nav.sema(p).find(DefKind::Output, &d.name)?;
    Some((p, out))
}

// ---- what is under the cursor -----------------------------------------------------------

/// A name under the cursor and what it stands for.
#[derive(Debug, Clone)]
pub(crate) struct Hit {
    /// The name itself (what a rename replaces at the cursor).
    pub(crate) range: TextRange,
    pub(crate) what: What,
}

#[derive(Debug, Clone)]
pub(crate) enum What {
    /// A definition (maybe in another file), from its name or a reference.
    Def { file: SourceFile, def: DefId },
    /// The path of a `use`: the definition it makes and the file it names.
    UsePath {
        program: Option<DefId>,
        imported: Option<SourceFile>,
    },
    /// A name that resolves to nothing, and why.
    Unresolved {
        name: String,
        reason: String,
        kind: Option<RefKind>,
    },
}

/// What the name at `offset` stands for (`None` off names).
pub(crate) fn classify(nav: &Nav<'_>, file: SourceFile, offset: TextSize) -> Option<Hit> {
    let root = nav.root(file);
    let sema = nav.sema(file);
    let token = token_at(&root, offset)?;
    if let Some(hit) = classify_syntax(nav, file, &token) {
        return hit;
    }
    if let Some(id) = sema.def_at(offset) {
        return Some(Hit {
            range: sema.def(id).name_range,
            what: What::Def { file, def: id },
        });
    }
    let r = sema.ref_at(offset)?;
    let what = match r.target {
        Some(def) => What::Def { file, def },
        None => What::Unresolved {
            name: r.name.clone(),
            reason: unresolved_reason(r.kind, &r.name),
            kind: Some(r.kind),
        },
    };
    Some(Hit {
        range: r.range,
        what,
    })
}

fn unresolved_reason(kind: RefKind, name: &str) -> String {
    let what = match kind {
        RefKind::Agent => "agent",
        RefKind::Block => "block",
        RefKind::Program => "imported program",
        RefKind::Variable(_) => "variable",
    };
    format!("no {what} named `{name}` is defined")
}

/// Names that name resolution does not record: `use` paths, `skills:`
/// entries, named arguments, program result properties. `Some(None)` when
/// the cursor is on such a thing that leads nowhere.
fn classify_syntax(nav: &Nav<'_>, file: SourceFile, token: &SyntaxToken) -> Option<Option<Hit>> {
    let parent = token.parent()?;
    let in_string = matches!(
        token.kind(),
        SyntaxKind::STRING_OPEN
            | SyntaxKind::STRING_TEXT
            | SyntaxKind::STRING_ESCAPE
            | SyntaxKind::STRING_CLOSE
    ) && parent.kind() == SyntaxKind::STRING;
    if in_string {
        let string = parent;
        let context = string.parent()?;
        if context.kind() == SyntaxKind::USE_STMT {
            return Some(use_path_hit(nav, file, &context));
        }
        if let Some(hit) = skill_hit(nav, file, &string) {
            return Some(hit);
        }
        return None;
    }
    if token.kind() != SyntaxKind::IDENT {
        return None;
    }
    match parent.kind() {
        SyntaxKind::NAME if parent.parent()?.kind() == SyntaxKind::ARG => {
            Some(named_argument_hit(nav, file, token, &parent.parent()?))
        }
        SyntaxKind::NAME_REF => {
            let field = ast::FieldExpr::cast(parent.parent()?)?;
            if field.field()?.syntax() != &parent {
                return None;
            }
            let Some(Expr::NameRef(receiver)) = field.receiver() else {
                return Some(None);
            };
            Some(output_read_hit(nav, file, &receiver, token))
        }
        SyntaxKind::INTERPOLATION => {
            let interp = ast::Interpolation::cast(parent)?;
            if interp.fields().first() != Some(token) {
                return Some(None);
            }
            let receiver = interp.name_ref()?;
            Some(output_read_hit(nav, file, &receiver, token))
        }
        _ => None,
    }
}

fn use_path_hit(nav: &Nav<'_>, file: SourceFile, stmt: &SyntaxNode) -> Option<Hit> {
    let u = ast::UseStmt::cast(stmt.clone())?;
    let lit = u.path()?;
    let sema = nav.sema(file);
    let program = sema
        .defs_of(DefKind::Program)
        .find(|(_, d)| d.range == stmt.text_range())
        .map(|(id, _)| id);
    let imported = nav.resolve_use(file, &lit.value());
    let range = match &u.alias() {
        Some(alias) => alias.syntax().text_range(),
        None => implicit_name_range(nav.text(file), &lit),
    };
    Some(Hit {
        range,
        what: What::UsePath { program, imported },
    })
}

/// Where the implicit name sits in a `use` path: `research` in
/// `"@alice/research"` (else the whole content).
pub(crate) fn implicit_name_range(text: &str, lit: &ast::StringLit) -> TextRange {
    let content = lit.content_range();
    let Some(body) = text.get(content.start().into()..content.end().into()) else {
        return content;
    };
    let Some(name) = implicit_name(body) else {
        return content;
    };
    let trimmed = body.trim_end().trim_end_matches('/');
    let trimmed = trimmed.strip_suffix(".prose").unwrap_or(trimmed);
    match trimmed.strip_suffix(name.as_str()) {
        Some(before) => {
            let start = content.start() + TextSize::of(before);
            TextRange::at(start, TextSize::of(name.as_str()))
        }
        None => content,
    }
}

/// A string in a `skills:` list: the `import` of that skill.
fn skill_hit(nav: &Nav<'_>, file: SourceFile, string: &SyntaxNode) -> Option<Option<Hit>> {
    let prop = string
        .ancestors()
        .skip(1)
        .take_while(|n| matches!(n.kind(), SyntaxKind::ARRAY_EXPR | SyntaxKind::PROPERTY))
        .find_map(ast::Property::cast)?;
    if prop.key() != "skills" {
        return None;
    }
    let lit = ast::StringLit::cast(string.clone())?;
    let name = lit.value();
    let range = lit.content_range();
    let what = match nav.sema(file).find(DefKind::Skill, &name) {
        Some((def, _)) => What::Def { file, def },
        None => What::Unresolved {
            reason: format!("no `import` statement names the skill `{name}`"),
            name,
            kind: None,
        },
    };
    Some(Some(Hit { range, what }))
}

/// `prog(topic: ...)`: the program's input; `do b(p: ...)`: the block's parameter.
fn named_argument_hit(
    nav: &Nav<'_>,
    file: SourceFile,
    token: &SyntaxToken,
    arg: &SyntaxNode,
) -> Option<Hit> {
    let name = token.text().to_string();
    let range = token.text_range();
    let call = arg.parent()?.parent()?;
    let sema = nav.sema(file);
    let unresolved = |reason: String| {
        Some(Hit {
            range,
            what: What::Unresolved {
                name: name.clone(),
                reason,
                kind: None,
            },
        })
    };
    if let Some(d) = ast::DoCall::cast(call.clone()) {
        let callee = d.name_ref()?;
        let block = sema
            .refs
            .iter()
            .find(|r| r.range == callee.syntax().text_range() && r.kind == RefKind::Block)?;
        let Some(block) = block.target else {
            return unresolved(format!("no block named `{}` is defined", callee.text()));
        };
        let block_range = sema.def(block).range;
        let param = sema
            .defs_of(DefKind::Param)
            .find(|(_, p)| p.range == block_range && p.name == name);
        return match param {
            Some((def, _)) => Some(Hit {
                range,
                what: What::Def { file, def },
            }),
            None => unresolved(format!(
                "block `{}` has no parameter `{name}`",
                callee.text()
            )),
        };
    }
    let call = ast::CallExpr::cast(call)?;
    let callee = program_callee(&call)?.text();
    let Some(program) = call_program(sema, &call) else {
        return unresolved(format!("no imported program named `{callee}`"));
    };
    let Some(p) = nav.imported_file(file, sema.def(program)) else {
        return unresolved(format!(
            "it names an input of `{callee}`, whose program is not available locally"
        ));
    };
    match nav.sema(p).find(DefKind::Input, &name) {
        Some((def, _)) => Some(Hit {
            range,
            what: What::Def { file: p, def },
        }),
        None => unresolved(format!("`{callee}` declares no input `{name}`")),
    }
}

/// `r.findings` / `{r.findings}` where `r` holds a program's result: the
/// program's output.
fn output_read_hit(
    nav: &Nav<'_>,
    file: SourceFile,
    receiver: &ast::NameRef,
    token: &SyntaxToken,
) -> Option<Hit> {
    let sema = nav.sema(file);
    let at = receiver.syntax().text_range();
    let var = sema.refs.iter().find(|r| r.range == at)?.target?;
    let program = bound_program(&nav.root(file), sema, sema.def(var))?;
    let name = token.text().to_string();
    let range = token.text_range();
    let program_name = &sema.def(program).name;
    let what = match nav.imported_file(file, sema.def(program)) {
        None => What::Unresolved {
            reason: format!(
                "it names an output of `{program_name}`, whose program is not available locally"
            ),
            name,
            kind: None,
        },
        Some(p) => match nav.sema(p).find(DefKind::Output, &name) {
            Some((def, _)) => What::Def { file: p, def },
            None => What::Unresolved {
                reason: format!("`{program_name}` declares no output `{name}`"),
                name,
                kind: None,
            },
        },
    };
    Some(Hit { range, what })
}

// ---- test helpers ---------------------------------------------------------------------

/// `path:line: text` with `range` wrapped in `<...>` (ranges spanning lines
/// are cut at the first line's end).
#[cfg(test)]
pub(crate) fn mark(path: &str, text: &str, range: TextRange) -> String {
    let start = usize::from(range.start()).min(text.len());
    let end = usize::from(range.end()).min(text.len());
    let line_start = prose_syntax::lines::line_start(text, start);
    let line_end = prose_syntax::lines::line_end(text, start);
    let end = end.min(line_end);
    format!(
        "{path}:{} {}<{}>{}",
        line_number(text, range.start()),
        &text[line_start..start],
        &text[start..end],
        &text[end..line_end]
    )
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};

    use super::mark;
    use crate::fixture::Fixture;

    fn check(fixture: &str, expect: Expect) {
        let (host, pos) = Fixture::parse(fixture).position();
        let analysis = host.analysis();
        let mut out = String::new();
        for t in analysis.goto_definition(pos).unwrap() {
            let path = analysis.file_path(t.file).unwrap();
            let text = analysis.file_text(t.file).unwrap();
            assert!(t.full_range.end() <= crate::TextSize::of(text.as_str()));
            match t.focus_range {
                Some(r) => {
                    assert!(t.full_range.contains_range(r), "{t:?}");
                    out.push_str(&format!("{:?} {}\n", t.kind, mark(&path, &text, r)));
                }
                None => out.push_str(&format!("{:?} {path} (whole file)\n", t.kind)),
            }
        }
        expect.assert_eq(&out);
    }

    const RESEARCH: &str = r#"#- /ws/.prose/imports/alice--research/program.prose
input topic: "What to research"
input depth: "How deep"
output findings = session "Research {topic}"
output sources = session "List sources"
"#;

    #[test]
    fn agents_blocks_and_variables() {
        check(
            "agent writer:\n  model: opus\nsession: wri$0ter\n",
            expect![[r#"
                Agent /ws/main.prose:1 agent <writer>:
            "#]],
        );
        check(
            "do rev$0iew\nblock review:\n  session \"r\"\n",
            expect![[r#"
                Block /ws/main.prose:2 block <review>:
            "#]],
        );
        check(
            "let draft = session \"d\"\nsession \"x\"\n  context: [dr$0aft]\n",
            expect![[r#"
                Variable /ws/main.prose:1 let <draft> = session "d"
            "#]],
        );
        check(
            "const plan = session \"p\"\nsession \"Use {plan$0}\"\n",
            expect![[r#"
                Constant /ws/main.prose:1 const <plan> = session "p"
            "#]],
        );
        check(
            "session review: critic\nagent critic:\n  model: opus\nsession \"{re$0view}\"\n",
            expect![[r#"
                Session /ws/main.prose:1 session <review>: critic
            "#]],
        );
        check(
            "let { a, b } = x\nsession \"{$0b}\"\n",
            expect![[r#"
                Variable /ws/main.prose:1 let { a, <b> } = x
            "#]],
        );
        check(
            "parallel:\n  s = session \"a\"\nsession \"c\"\n  context: { $0s }\n",
            expect![[r#"
                Variable /ws/main.prose:2   <s> = session "a"
            "#]],
        );
    }

    #[test]
    fn scoped_variables() {
        check(
            "block review(topic):\n  session \"{to$0pic}\"\n",
            expect![[r#"
                Parameter /ws/main.prose:1 block review(<topic>):
            "#]],
        );
        check(
            "for f, i in xs:\n  session \"{f} {i$0}\"\n",
            expect![[r#"
                Variable /ws/main.prose:1 for f, <i> in xs:
            "#]],
        );
        check(
            "try:\n  session \"a\"\ncatch as err:\n  session \"b\"\n    context: e$0rr\n",
            expect![[r#"
                Variable /ws/main.prose:3 catch as <err>:
            "#]],
        );
        check(
            "let r = xs | reduce(acc, x):\n  session \"{acc} {$0x}\"\n",
            expect![[r#"
                Variable /ws/main.prose:1 let r = xs | reduce(acc, <x>):
            "#]],
        );
        check(
            "let r = xs | map:\n  session \"{it$0em}\"\n",
            expect![[r#"
                Variable /ws/main.prose:1 let r = xs | <map>:
            "#]],
        );
    }

    #[test]
    fn definition_goes_to_itself() {
        check(
            "agent wri$0ter:\n  model: opus\n",
            expect![[r#"
                Agent /ws/main.prose:1 agent <writer>:
            "#]],
        );
        check(
            "let x$0 = 1\n",
            expect![[r#"
                Variable /ws/main.prose:1 let <x> = 1
            "#]],
        );
    }

    #[test]
    fn block_named_argument_goes_to_parameter() {
        check(
            "block review(topic, depth):\n  session \"{topic}\"\ndo review(de$0pth: 2)\n",
            expect![[r#"
                Parameter /ws/main.prose:1 block review(topic, <depth>):
            "#]],
        );
    }

    #[test]
    fn skill_string_goes_to_import() {
        check(
            "import \"web-search\" from \"github:x/skills\"\nagent a:\n  skills: [\"web-se$0arch\"]\n",
            expect![[r#"
                Skill /ws/main.prose:1 import <"web-search"> from "github:x/skills"
            "#]],
        );
    }

    #[test]
    fn imported_program_input_output_and_file() {
        let main = |body: &str| format!("{RESEARCH}#- /ws/main.prose\n{body}");
        check(
            &main("use \"@alice/research\"\nlet r = research(to$0pic: \"x\")\n"),
            expect![[r#"
                Input /ws/.prose/imports/alice--research/program.prose:1 input <topic>: "What to research"
            "#]],
        );
        check(
            &main(
                "use \"@alice/research\" as r\nlet x = r(topic: \"x\")\nsession \"{x.sour$0ces}\"\n",
            ),
            expect![[r#"
                Output /ws/.prose/imports/alice--research/program.prose:4 output <sources> = session "List sources"
            "#]],
        );
        check(
            &main(
                "use \"@alice/research\" as r\nlet x = r(topic: \"x\")\nsession \"s\"\n  context: x.fin$0dings\n",
            ),
            expect![[r#"
                Output /ws/.prose/imports/alice--research/program.prose:3 output <findings> = session "Research {topic}"
            "#]],
        );
        check(
            &main("use \"@alice/research\"\nlet { fin$0dings } = research(topic: \"x\")\n"),
            expect![[r#"
                Output /ws/.prose/imports/alice--research/program.prose:3 output <findings> = session "Research {topic}"
            "#]],
        );
        check(
            &main("use \"@alice/research\" as r\nlet x = $0r(topic: \"x\")\n"),
            expect![[r#"
                File /ws/.prose/imports/alice--research/program.prose (whole file)
            "#]],
        );
        check(
            &main("use \"@alice/re$0search\"\n"),
            expect![[r#"
                File /ws/.prose/imports/alice--research/program.prose (whole file)
            "#]],
        );
        check(
            &main("use \"@alice/research\" as r$0\n"),
            expect![[r#"
                File /ws/.prose/imports/alice--research/program.prose (whole file)
            "#]],
        );
    }

    #[test]
    fn unavailable_program_goes_to_its_use() {
        check(
            "use \"@bob/critique\" as c\nc$0(topic: 1)\n",
            expect![[r#"
                Program /ws/main.prose:1 use "@bob/critique" as <c>
            "#]],
        );
    }

    #[test]
    fn local_path_import() {
        check(
            "#- /ws/lib/helper.prose\ninput x: \"an x\"\n#- /ws/main.prose\nuse \"./lib/helper.prose\"\nhelper($0x: 1)\n",
            expect![[r#"
                Input /ws/lib/helper.prose:1 input <x>: "an x"
            "#]],
        );
    }

    #[test]
    fn unavailable_and_unresolved_go_nowhere() {
        check("use \"@bob/crit$0ique\"\n", expect![[""]]);
        check(
            "use \"@bob/critique\"\ncritique(to$0pic: 1)\n",
            expect![[""]],
        );
        check("session: nob$0ody\n", expect![[""]]);
        check("session \"{miss$0ing}\"\n", expect![[""]]);
        check(
            &format!(
                "{RESEARCH}#- /ws/main.prose\nuse \"@alice/research\"\nlet x = research(nope$0: 1)\n"
            ),
            expect![[""]],
        );
        check(
            "let s = session \"a\"\nsession \"{s.fie$0ld}\"\n",
            expect![[""]],
        );
    }

    #[test]
    fn off_names_and_broken_input() {
        check("$0", expect![[""]]);
        check("session \"Hel$0lo\"\n", expect![[""]]);
        check("# comm$0ent\n", expect![[""]]);
        check("session \"x\"\n$0", expect![[""]]);
        check("let x = \nsession \"{x$0", expect![""]);
        let inputs = [
            "agent a:\n  model: \nsession: \nresume: a\n  prompt: \"",
            "do b(\nlet r = prog(topic: x, \nblock b(p:\n",
            "let x = xs | \n  | reduce(:\n    session \"{",
            "use \"\" as\nimport from\ninput : \noutput = \n\"\"\"",
            "use \"@a/b\nx = b(y: 1).z\nsession \"{x.z.w}\" ",
        ];
        for text in inputs {
            let mut host = crate::AnalysisHost::new();
            let file = host.set_file_text("/ws/main.prose", text);
            let analysis = host.analysis();
            for offset in 0..=text.len() + 2 {
                let pos = crate::FilePosition {
                    file,
                    offset: (offset as u32).into(),
                };
                let _ = analysis.goto_definition(pos).unwrap();
            }
        }
    }
}
