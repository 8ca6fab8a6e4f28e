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
//!
//! The classification is in `navigation/cursor.rs`, the tests in
//! `navigation/tests.rs`.

use std::collections::HashMap;

use prose_syntax::{
    AstNode, NodeOrToken, SyntaxKind, SyntaxNode, SyntaxToken, TextRange, TextSize,
    ast::{self, Expr},
};

use crate::{
    FileId,
    db::{Db, SourceFile, Workspace, file_root, parse},
    semantics::{Def, DefId, DefKind, FileSemantics, RefKind, file_semantics},
};

mod cursor;

pub(crate) use cursor::{Hit, What, classify, implicit_name_range};

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
            name: d.name.to_string(),
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
mod tests;
