//! Name resolution: every definition and every reference of a file.
//!
//! The model follows the runtime (prose.md): bindings live in one flat,
//! program-wide namespace (`bindings/{name}.md`), so a variable bound in an
//! `if` branch is visible after the `if`. Scoped names — block parameters,
//! loop and index variables, `catch as` variables, the pipeline's implicit
//! `item` and `reduce` variables — are visible only in their body.
//!
//! - agents, blocks and imports are hoisted (visible everywhere);
//! - inputs are visible everywhere (they are supplied before the run);
//! - let / const / output / assignment / `session name:` bindings are
//!   visible after their statement (in text order); inside a `block`
//!   definition (and in an agent's `context:`) every program-level binding
//!   is visible, even one written further down, because the body runs
//!   where the block is called.
//!
//! The result is plain data (ranges, names): comparable, so salsa can
//! backdate it, and `Send`, so it can leave the database.

use prose_syntax::{
    AstNode, SyntaxKind, SyntaxNode, TextRange, TextSize,
    ast::{self, Expr, Stmt},
};

use crate::db::{Db, SourceFile, parse};

/// Index of a definition in [`FileSemantics::defs`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DefId(pub u32);

/// What a definition defines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DefKind {
    Agent,
    Block,
    /// `use "@h/slug" [as alias]`: binds the alias, or the slug.
    Program,
    /// Legacy `import "name" from "source"` (a skill).
    Skill,
    Input,
    Output,
    Let,
    Const,
    /// `name = expr` where `name` was not bound before (named parallel results).
    Assigned,
    /// `session name: agent`.
    SessionName,
    /// A name in `let { a, b } = ...`.
    Destructured,
    Param,
    LoopVar,
    IndexVar,
    CatchVar,
    /// The implicit `item` of `map` / `filter` / `pmap`.
    PipelineItem,
    /// The accumulator and item of `reduce(acc, item)`.
    ReduceVar,
}

impl DefKind {
    /// Human name used in hovers and messages.
    pub fn describe(self) -> &'static str {
        match self {
            DefKind::Agent => "agent",
            DefKind::Block => "block",
            DefKind::Program => "imported program",
            DefKind::Skill => "imported skill",
            DefKind::Input => "input",
            DefKind::Output => "output",
            DefKind::Let => "let variable",
            DefKind::Const => "const variable",
            DefKind::Assigned => "variable",
            DefKind::SessionName => "named session",
            DefKind::Destructured => "destructured variable",
            DefKind::Param => "block parameter",
            DefKind::LoopVar => "loop variable",
            DefKind::IndexVar => "index variable",
            DefKind::CatchVar => "error variable",
            DefKind::PipelineItem => "pipeline item",
            DefKind::ReduceVar => "reduce variable",
        }
    }

    /// Whether this is a variable (something `context:` can name).
    pub fn is_variable(self) -> bool {
        !matches!(
            self,
            DefKind::Agent | DefKind::Block | DefKind::Program | DefKind::Skill
        )
    }

    /// Variables bound in the flat, program-wide namespace.
    pub fn is_flat_binding(self) -> bool {
        matches!(
            self,
            DefKind::Output
                | DefKind::Let
                | DefKind::Const
                | DefKind::Assigned
                | DefKind::SessionName
                | DefKind::Destructured
        )
    }

    /// Variables visible only in a body.
    pub fn is_scoped(self) -> bool {
        matches!(
            self,
            DefKind::Param
                | DefKind::LoopVar
                | DefKind::IndexVar
                | DefKind::CatchVar
                | DefKind::PipelineItem
                | DefKind::ReduceVar
        )
    }
}

/// One definition.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Def {
    pub name: String,
    pub kind: DefKind,
    /// The defining name (for an implicit `item`, the pipeline operator).
    pub name_range: TextRange,
    /// The whole defining statement or construct.
    pub range: TextRange,
    /// For scoped definitions: where the name is visible.
    pub scope: Option<TextRange>,
    /// Whether the definition sits inside a `block` definition's body.
    pub in_block_def: bool,
}

/// Where a variable reference appears (messages differ per site).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RefSite {
    Expr,
    /// `context: x`, `context: [x]`, `context: { x }`.
    Context,
    /// `{x}` inside a string.
    Interpolation,
    /// The collection of a `for` loop or a pipeline source.
    Collection,
    /// `{ a, b }` object shorthand outside `context:`.
    ObjectShorthand,
    /// The target of `name = value` when `name` is already bound.
    AssignTarget,
}

/// What a reference refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RefKind {
    Variable(RefSite),
    /// `session: x`, `resume: x`, `session n: x`.
    Agent,
    /// `do x`.
    Block,
    /// `x(...)` program invocation.
    Program,
}

/// One reference and what it resolved to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Reference {
    pub name: String,
    pub range: TextRange,
    pub kind: RefKind,
    pub target: Option<DefId>,
}

/// All definitions and references of one file.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct FileSemantics {
    pub defs: Vec<Def>,
    pub refs: Vec<Reference>,
    /// Definitions by name, in definition order: lookups by name do not
    /// scan every definition.
    by_name: std::collections::BTreeMap<String, Named>,
}

impl FileSemantics {
    /// The same names with every range mapped by `f` (for text that moved);
    /// `None` if `f` cannot map one.
    pub fn moved(&self, f: impl Fn(TextRange) -> Option<TextRange>) -> Option<FileSemantics> {
        let mut defs = Vec::with_capacity(self.defs.len());
        for d in &self.defs {
            defs.push(Def {
                name_range: f(d.name_range)?,
                range: f(d.range)?,
                scope: match d.scope {
                    Some(s) => Some(f(s)?),
                    None => None,
                },
                ..d.clone()
            });
        }
        let mut refs = Vec::with_capacity(self.refs.len());
        for r in &self.refs {
            refs.push(Reference {
                range: f(r.range)?,
                ..r.clone()
            });
        }
        Some(FileSemantics {
            defs,
            refs,
            by_name: self.by_name.clone(),
        })
    }
}

/// The definitions of one name.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
struct Named {
    /// In definition order.
    ids: Vec<DefId>,
    /// The first of each kind (a handful of kinds at most), so that
    /// [`FileSemantics::find`] does not scan thousands of definitions of
    /// one name.
    first_of_kind: Vec<(DefKind, DefId)>,
}

impl Named {
    fn push(&mut self, id: DefId, kind: DefKind) {
        self.ids.push(id);
        if !self.first_of_kind.iter().any(|(k, _)| *k == kind) {
            self.first_of_kind.push((kind, id));
        }
    }

    fn first(&self, kind: DefKind) -> Option<DefId> {
        self.first_of_kind
            .iter()
            .find_map(|&(k, id)| (k == kind).then_some(id))
    }
}

impl FileSemantics {
    pub fn def(&self, id: DefId) -> &Def {
        &self.defs[id.0 as usize]
    }

    pub fn defs_of(&self, kind: DefKind) -> impl Iterator<Item = (DefId, &Def)> {
        self.defs
            .iter()
            .enumerate()
            .filter(move |(_, d)| d.kind == kind)
            .map(|(i, d)| (DefId(i as u32), d))
    }

    /// The first definition of `kind` called `name`.
    pub fn find(&self, kind: DefKind, name: &str) -> Option<(DefId, &Def)> {
        let id = self.by_name.get(name)?.first(kind)?;
        Some((id, self.def(id)))
    }

    /// The definitions named `name`, in definition order.
    pub fn named(&self, name: &str) -> impl Iterator<Item = DefId> + '_ {
        self.by_name
            .get(name)
            .into_iter()
            .flat_map(|n| n.ids.iter().copied())
    }

    /// The definition whose name covers `offset`.
    pub fn def_at(&self, offset: TextSize) -> Option<DefId> {
        self.defs
            .iter()
            .position(|d| {
                d.name_range.contains_inclusive(offset) && d.kind != DefKind::PipelineItem
            })
            .map(|i| DefId(i as u32))
    }

    /// The reference covering `offset`.
    pub fn ref_at(&self, offset: TextSize) -> Option<&Reference> {
        self.refs
            .iter()
            .find(|r| r.range.contains_inclusive(offset))
    }

    /// Every reference that resolved to `def`.
    pub fn references_to(&self, def: DefId) -> impl Iterator<Item = &Reference> {
        self.refs.iter().filter(move |r| r.target == Some(def))
    }
}

/// Name resolution for a file (backdated when the result is unchanged).
pub fn file_semantics(db: &dyn Db, file: SourceFile) -> &FileSemantics {
    file_semantics_query(db, file)
}

/// The names of `file`; after typing in a prompt, the previous ones moved
/// (`prompt_edit.rs`).
#[salsa::tracked(returns(ref))]
fn file_semantics_query(db: &dyn Db, file: SourceFile) -> std::sync::Arc<FileSemantics> {
    crate::openprose::prompt_edit::semantics(db, file, || {
        let root = parse(db, file).tree();
        // A file of megabytes takes a while: stop when an edit arrives.
        resolve_interruptible(&root, &|| db.unwind_if_revision_cancelled())
    })
}

/// Resolves names in a parsed file (pure; also used directly in tests).
pub fn resolve(file: &ast::SourceFile) -> FileSemantics {
    resolve_interruptible(file, &|| {})
}

/// [`resolve`], calling `interrupt` every few thousand statements (see
/// `prose_syntax::parse_interruptible`).
pub fn resolve_interruptible(file: &ast::SourceFile, interrupt: &dyn Fn()) -> FileSemantics {
    let mut r = Resolver {
        out: FileSemantics::default(),
        scopes: Vec::new(),
        in_block_def: false,
        in_hoisted: false,
        deferred: Vec::new(),
        interrupt,
        ticks: 0,
    };
    // Hoisted: agents, blocks, imports, inputs (anywhere in the file).
    for node in file.syntax().descendants() {
        match node.kind() {
            SyntaxKind::AGENT_DEF => {
                let a = ast::AgentDef::cast(node.clone()).expect("kind checked");
                if let Some(n) = a.name() {
                    r.define(&n, DefKind::Agent, &node, None);
                }
            }
            SyntaxKind::BLOCK_DEF => {
                let b = ast::BlockDef::cast(node.clone()).expect("kind checked");
                if let Some(n) = b.name() {
                    r.define(&n, DefKind::Block, &node, None);
                }
            }
            SyntaxKind::USE_STMT => {
                let u = ast::UseStmt::cast(node.clone()).expect("kind checked");
                if let Some(alias) = u.alias() {
                    r.define(&alias, DefKind::Program, &node, None);
                } else if let Some(path) = u.path()
                    && let Some(name) = crate::imports::implicit_name(&path.value())
                {
                    r.push_def(
                        name,
                        DefKind::Program,
                        path.syntax().text_range(),
                        range(&node),
                        None,
                    );
                }
            }
            SyntaxKind::IMPORT_STMT => {
                let i = ast::ImportStmt::cast(node.clone()).expect("kind checked");
                if let Some(name) = i.name() {
                    r.push_def(
                        name.value(),
                        DefKind::Skill,
                        name.syntax().text_range(),
                        range(&node),
                        None,
                    );
                }
            }
            SyntaxKind::INPUT_DECL => {
                let i = ast::InputDecl::cast(node.clone()).expect("kind checked");
                if let Some(n) = i.name() {
                    r.define(&n, DefKind::Input, &node, None);
                }
            }
            _ => {}
        }
    }
    r.stmts(file.statements());
    r.finish()
}

fn range(node: &SyntaxNode) -> TextRange {
    node.text_range()
}

struct Resolver<'a> {
    out: FileSemantics,
    /// Called every [`INTERRUPT_EVERY`] statements.
    interrupt: &'a dyn Fn(),
    ticks: u32,
    /// Scoped definitions currently visible, innermost last.
    scopes: Vec<DefId>,
    in_block_def: bool,
    /// Inside a block body or an agent definition: code that runs later,
    /// where every program-level binding may exist.
    in_hoisted: bool,
    /// Unresolved variable references made while `in_hoisted`, retried
    /// against every program-level binding once the whole file is known.
    deferred: Vec<usize>,
}

/// Statements between two calls of the resolver's `interrupt`.
const INTERRUPT_EVERY: u32 = 4096;

impl Resolver<'_> {
    fn finish(mut self) -> FileSemantics {
        for i in std::mem::take(&mut self.deferred) {
            let name = &self.out.refs[i].name;
            let defs = &self.out.defs;
            let target = self.out.named(name).find(|id| {
                let d = &defs[id.0 as usize];
                d.kind.is_flat_binding() && !d.in_block_def
            });
            self.out.refs[i].target = target;
        }
        self.out
    }

    fn push_def(
        &mut self,
        name: String,
        kind: DefKind,
        name_range: TextRange,
        range: TextRange,
        scope: Option<TextRange>,
    ) -> DefId {
        let id = DefId(self.out.defs.len() as u32);
        self.out
            .by_name
            .entry(name.clone())
            .or_default()
            .push(id, kind);
        self.out.defs.push(Def {
            name,
            kind,
            name_range,
            range,
            scope,
            in_block_def: self.in_block_def,
        });
        id
    }

    fn define(
        &mut self,
        name: &ast::Name,
        kind: DefKind,
        stmt: &SyntaxNode,
        scope: Option<TextRange>,
    ) -> DefId {
        self.push_def(
            name.text(),
            kind,
            name.syntax().text_range(),
            range(stmt),
            scope,
        )
    }

    fn reference(&mut self, name: String, at: TextRange, kind: RefKind) {
        let target = match kind {
            RefKind::Agent => self.first_named(&name, DefKind::Agent),
            RefKind::Block => self.first_named(&name, DefKind::Block),
            RefKind::Program => self.first_named(&name, DefKind::Program),
            RefKind::Variable(_) => self.lookup_variable(&name, at.start()),
        };
        if target.is_none() && self.in_hoisted && matches!(kind, RefKind::Variable(_)) {
            self.deferred.push(self.out.refs.len());
        }
        self.out.refs.push(Reference {
            name,
            range: at,
            kind,
            target,
        });
    }

    fn name_ref(&mut self, n: &ast::NameRef, kind: RefKind) {
        self.reference(n.text(), n.syntax().text_range(), kind);
    }

    fn lookup_variable(&self, name: &str, at: TextSize) -> Option<DefId> {
        if let Some(&id) = self
            .scopes
            .iter()
            .rev()
            .find(|id| self.out.def(**id).name == name)
        {
            return Some(id);
        }
        let candidates = self
            .out
            .by_name
            .get(name)
            .map_or(&[][..], |n| n.ids.as_slice());
        let def = |id: &DefId| self.out.def(*id);
        let flat = |d: &Def| d.kind.is_flat_binding();
        let before = candidates
            .iter()
            .filter(|id| flat(def(id)) && def(id).range.start() < at)
            .max_by_key(|id| def(id).range.start());
        if let Some(&id) = before {
            return Some(id);
        }
        if let Some(&id) = candidates.iter().find(|id| def(id).kind == DefKind::Input) {
            return Some(id);
        }
        if self.in_block_def {
            // The body runs at the call site: any program binding may be in scope.
            if let Some(&id) = candidates
                .iter()
                .find(|id| flat(def(id)) && !def(id).in_block_def)
            {
                return Some(id);
            }
        }
        None
    }

    /// The first definition of `kind` called `name`.
    fn first_named(&self, name: &str, kind: DefKind) -> Option<DefId> {
        self.out.by_name.get(name)?.first(kind)
    }

    /// Runs `f` with scoped definitions visible.
    fn scoped(&mut self, defs: Vec<DefId>, f: impl FnOnce(&mut Self)) {
        let depth = self.scopes.len();
        self.scopes.extend(defs);
        f(self);
        self.scopes.truncate(depth);
    }

    fn stmts(&mut self, stmts: impl Iterator<Item = Stmt>) {
        for s in stmts {
            self.ticks = self.ticks.wrapping_add(1);
            if self.ticks.is_multiple_of(INTERRUPT_EVERY) {
                (self.interrupt)();
            }
            self.stmt(&s);
        }
    }

    fn block(&mut self, b: Option<ast::Block>) {
        if let Some(b) = b {
            self.stmts(b.statements());
        }
    }

    fn body_range(b: &Option<ast::Block>, fallback: &SyntaxNode) -> TextRange {
        b.as_ref()
            .map_or_else(|| range(fallback), |b| b.syntax().text_range())
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Use(_) | Stmt::Import(_) | Stmt::Break(_) | Stmt::Continue(_) => {}
            Stmt::Input(i) => self.opt_expr(i.description()),
            Stmt::Output(o) => {
                self.opt_expr(o.value());
                if let Some(n) = o.name() {
                    self.define(&n, DefKind::Output, o.syntax(), None);
                }
            }
            Stmt::Agent(a) => {
                let saved = self.in_hoisted;
                self.in_hoisted = true;
                self.properties(a.properties());
                self.in_hoisted = saved;
            }
            Stmt::BlockDef(b) => {
                let body = b.body();
                let scope = Self::body_range(&body, b.syntax());
                let saved = (self.in_block_def, self.in_hoisted);
                self.in_block_def = true;
                self.in_hoisted = true;
                let params: Vec<DefId> = b
                    .params()
                    .filter_map(|p| p.name())
                    .map(|n| self.define(&n, DefKind::Param, b.syntax(), Some(scope)))
                    .collect();
                self.scoped(params, |r| r.block(body));
                (self.in_block_def, self.in_hoisted) = saved;
            }
            Stmt::Let(l) => {
                self.opt_expr(l.value());
                let kind = if l.is_const() {
                    DefKind::Const
                } else {
                    DefKind::Let
                };
                if let Some(n) = l.name() {
                    self.define(&n, kind, l.syntax(), None);
                }
                if let Some(p) = l.pattern() {
                    for n in p.names() {
                        self.define(&n, DefKind::Destructured, l.syntax(), None);
                    }
                }
            }
            Stmt::Assign(a) => {
                self.opt_expr(a.value());
                if let Some(t) = a.target() {
                    let name = t.text();
                    let at = t.syntax().text_range();
                    if self.lookup_variable(&name, at.start()).is_some() {
                        self.reference(name, at, RefKind::Variable(RefSite::AssignTarget));
                    } else {
                        self.push_def(name, DefKind::Assigned, at, a.syntax().text_range(), None);
                    }
                }
            }
            Stmt::Expr(e) => self.opt_expr(e.expr()),
            Stmt::Try(t) => self.try_stmt(t),
            Stmt::Catch(c) => self.catch_clause(c),
            Stmt::Finally(f) => self.block(f.body()),
            Stmt::Throw(t) => self.opt_expr(t.message()),
            Stmt::Choice(c) => self.choice(c),
            Stmt::Option(o) => self.block(o.body()),
            Stmt::If(i) => self.if_stmt(i),
            Stmt::Elif(e) => {
                self.opt_expr(e.condition());
                self.block(e.body());
            }
            Stmt::Else(e) => self.block(e.body()),
            Stmt::Return(r) => self.opt_expr(r.value()),
            Stmt::Assert(a) => {
                self.opt_expr(a.condition());
                self.block(a.body());
            }
        }
    }

    fn try_stmt(&mut self, t: &ast::TryStmt) {
        self.block(t.body());
        if let Some(c) = t.catch_clause() {
            self.catch_clause(&c);
        }
        if let Some(f) = t.finally_clause() {
            self.block(f.body());
        }
    }

    fn catch_clause(&mut self, c: &ast::CatchClause) {
        let body = c.body();
        let scope = Self::body_range(&body, c.syntax());
        let defs: Vec<DefId> = c
            .error_name()
            .map(|n| self.define(&n, DefKind::CatchVar, c.syntax(), Some(scope)))
            .into_iter()
            .collect();
        self.scoped(defs, |r| r.block(body));
    }

    fn choice(&mut self, c: &ast::ChoiceStmt) {
        self.opt_expr(c.criteria());
        self.block(c.body());
    }

    fn if_stmt(&mut self, i: &ast::IfStmt) {
        self.opt_expr(i.condition());
        self.block(i.body());
        for e in i.elif_clauses() {
            self.opt_expr(e.condition());
            self.block(e.body());
        }
        for e in i.else_clauses() {
            self.block(e.body());
        }
    }

    fn opt_expr(&mut self, e: Option<Expr>) {
        if let Some(e) = e {
            self.expr(&e, RefSite::Expr);
        }
    }

    fn expr(&mut self, e: &Expr, site: RefSite) {
        match e {
            Expr::NameRef(n) => self.name_ref(n, RefKind::Variable(site)),
            Expr::String(s) => self.string(s),
            Expr::Literal(_) | Expr::Discretion(_) => {}
            Expr::Session(s) => {
                if let Some(a) = s.agent() {
                    self.name_ref(&a, RefKind::Agent);
                }
                if let Some(p) = s.prompt() {
                    self.string(&p);
                }
                self.modifiers(s.modifiers());
                self.properties(s.properties());
                if let Some(n) = s.name() {
                    self.define(&n, DefKind::SessionName, s.syntax(), None);
                }
            }
            Expr::Resume(r) => {
                if let Some(a) = r.agent() {
                    self.name_ref(&a, RefKind::Agent);
                }
                self.properties(r.properties());
            }
            Expr::Do(d) => self.block(d.body()),
            Expr::DoCall(d) => {
                if let Some(n) = d.name_ref() {
                    self.name_ref(&n, RefKind::Block);
                }
                for a in d.args() {
                    self.opt_expr(a.value());
                }
            }
            Expr::Arrow(a) => {
                for step in a.steps() {
                    self.expr(&step, RefSite::Expr);
                }
            }
            Expr::Parallel(p) => {
                self.modifiers(p.modifiers());
                self.block(p.body());
            }
            Expr::For(f) => {
                if let Some(c) = f.collection() {
                    self.expr(&c, RefSite::Collection);
                }
                self.modifiers(f.modifiers());
                let body = f.body();
                let scope = Self::body_range(&body, f.syntax());
                let mut defs = Vec::new();
                if let Some(n) = f.item() {
                    defs.push(self.define(&n, DefKind::LoopVar, f.syntax(), Some(scope)));
                }
                if let Some(n) = f.index() {
                    defs.push(self.define(&n, DefKind::IndexVar, f.syntax(), Some(scope)));
                }
                self.scoped(defs, |r| r.block(body));
            }
            Expr::Repeat(rp) => {
                self.opt_expr(rp.count());
                let body = rp.body();
                let scope = Self::body_range(&body, rp.syntax());
                let defs: Vec<DefId> = rp
                    .index()
                    .map(|n| self.define(&n, DefKind::IndexVar, rp.syntax(), Some(scope)))
                    .into_iter()
                    .collect();
                self.scoped(defs, |r| r.block(body));
            }
            Expr::Loop(l) => {
                self.opt_expr(l.condition());
                self.modifiers(l.modifiers());
                let body = l.body();
                let scope = Self::body_range(&body, l.syntax());
                let defs: Vec<DefId> = l
                    .index()
                    .map(|n| self.define(&n, DefKind::IndexVar, l.syntax(), Some(scope)))
                    .into_iter()
                    .collect();
                self.scoped(defs, |r| r.block(body));
            }
            Expr::Pipe(p) => {
                let (source, ops) = p.flatten();
                if let Some(s) = source {
                    self.expr(&s, RefSite::Collection);
                }
                for op in ops {
                    self.pipe_op(&op);
                }
            }
            Expr::Call(c) => {
                match c.callee() {
                    Some(Expr::NameRef(n)) if c.arg_list().is_some() => {
                        self.name_ref(&n, RefKind::Program)
                    }
                    // `xs[0]` (no argument list) reads `xs` where it stands.
                    Some(other) if c.arg_list().is_none() => self.expr(&other, site),
                    Some(other) => self.expr(&other, RefSite::Expr),
                    None => {}
                }
                for a in c.args() {
                    self.opt_expr(a.value());
                }
                // `xs[i]` indexing keeps the index as an array child.
                for e in c
                    .syntax()
                    .children()
                    .filter(|n| n.kind() == SyntaxKind::ARRAY_EXPR)
                {
                    if let Some(e) = Expr::cast(e) {
                        self.expr(&e, RefSite::Expr);
                    }
                }
            }
            Expr::Field(f) => {
                if let Some(r) = f.receiver() {
                    self.expr(&r, site);
                }
            }
            Expr::Array(a) => {
                for el in a.elements() {
                    self.expr(&el, site);
                }
            }
            Expr::Object(o) => self.object(
                o,
                if site == RefSite::Context {
                    site
                } else {
                    RefSite::ObjectShorthand
                },
            ),
            Expr::Binary(b) => {
                self.opt_expr(b.lhs());
                self.opt_expr(b.rhs());
            }
            Expr::Prefix(p) => self.opt_expr(p.operand()),
            Expr::Ternary(t) => {
                self.opt_expr(t.condition());
                self.opt_expr(t.then_branch());
                self.opt_expr(t.else_branch());
            }
            Expr::Paren(p) => {
                if let Some(e) = p.expr() {
                    self.expr(&e, site);
                }
            }
            Expr::Try(t) => self.try_stmt(t),
            Expr::If(i) => self.if_stmt(i),
            Expr::Choice(c) => self.choice(c),
        }
    }

    fn pipe_op(&mut self, op: &ast::PipeOp) {
        let body = op.body();
        let scope = Self::body_range(&body, op.syntax());
        let mut defs = Vec::new();
        if let Some(params) = op.params() {
            for n in params.params().filter_map(|p| p.name()) {
                defs.push(self.define(&n, DefKind::ReduceVar, op.syntax(), Some(scope)));
            }
        } else if matches!(op.op_name().as_str(), "map" | "filter" | "pmap") {
            let at = op
                .op_token()
                .map_or_else(|| op.syntax().text_range(), |t| t.text_range());
            defs.push(self.push_def(
                "item".into(),
                DefKind::PipelineItem,
                at,
                op.syntax().text_range(),
                Some(scope),
            ));
        }
        self.scoped(defs, |r| r.block(body));
    }

    fn object(&mut self, o: &ast::ObjectExpr, site: RefSite) {
        for f in o.fields() {
            if let Some(n) = f.shorthand() {
                self.name_ref(&n, RefKind::Variable(site));
            }
            if let Some(path) = f.shorthand_path() {
                self.expr(&ast::Expr::Field(path), site);
            }
            if let Some(v) = f.value() {
                self.expr(
                    &v,
                    if site == RefSite::Context {
                        RefSite::Context
                    } else {
                        RefSite::Expr
                    },
                );
            }
        }
    }

    fn string(&mut self, s: &ast::StringLit) {
        for i in s.interpolations() {
            if let Some(n) = i.name_ref() {
                self.name_ref(&n, RefKind::Variable(RefSite::Interpolation));
            }
        }
    }

    fn modifiers(&mut self, m: Option<ast::ModifierList>) {
        for m in m.into_iter().flat_map(|m| m.modifiers()) {
            if let Some(v) = m.value() {
                self.strings_in(v.syntax());
            }
        }
    }

    /// Only `context:` names variables; other property values are words
    /// (`model: opus`, `bash: deny`) whose strings may still interpolate.
    fn properties(&mut self, props: impl Iterator<Item = ast::Property>) {
        for p in props {
            if p.key() == "context" {
                if let Some(v) = p.any_value() {
                    self.expr(&v, RefSite::Context);
                }
                continue;
            }
            if let Some(nested) = p.nested() {
                self.properties(nested.properties());
            } else {
                self.strings_in(p.syntax());
            }
        }
    }

    fn strings_in(&mut self, node: &SyntaxNode) {
        for n in node
            .descendants()
            .filter(|n| n.kind() == SyntaxKind::STRING)
        {
            if let Some(s) = ast::StringLit::cast(n) {
                self.string(&s);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use expect_test::{Expect, expect};

    fn check(text: &str, expect: Expect) {
        let parse = prose_syntax::parse(text);
        let sema = resolve(&parse.tree());
        let mut out = String::new();
        for r in &sema.refs {
            let target = match r.target {
                Some(id) => {
                    let d = sema.def(id);
                    format!("{:?}@{:?}", d.kind, d.name_range)
                }
                None => "UNRESOLVED".into(),
            };
            out.push_str(&format!(
                "{} {:?} {:?} -> {}\n",
                r.name, r.range, r.kind, target
            ));
        }
        expect.assert_eq(&out);
    }

    #[test]
    fn resolves_agents_variables_and_scopes() {
        check(
            r#"input topic: "t"
agent a:
  model: opus
let x = session: a
  prompt: "about {topic}"
for item, i in xs:
  session "{item} {i} {x}"
    context: [x, nope]
let r = items | map:
  session "{item}"
do later(x)
block later(p):
  session "{p} {x}"
"#,
            expect![[r#"
                a 57..58 Agent -> Agent@23..24
                topic 77..82 Variable(Interpolation) -> Input@6..11
                xs 100..102 Variable(Collection) -> UNRESOLVED
                item 116..120 Variable(Interpolation) -> LoopVar@89..93
                i 123..124 Variable(Interpolation) -> IndexVar@95..96
                x 127..128 Variable(Interpolation) -> Let@44..45
                x 145..146 Variable(Context) -> Let@44..45
                nope 148..152 Variable(Context) -> UNRESOLVED
                items 162..167 Variable(Collection) -> UNRESOLVED
                item 187..191 Variable(Interpolation) -> PipelineItem@170..173
                later 197..202 Block -> Block@212..217
                x 203..204 Variable(Expr) -> Let@44..45
                p 234..235 Variable(Interpolation) -> Param@218..219
                x 238..239 Variable(Interpolation) -> Let@44..45
            "#]],
        );
    }

    #[test]
    fn block_bodies_and_agents_see_later_program_bindings() {
        check(
            r#"agent a:
  context: later
block b(p):
  session "x"
    context: [p, later, xs[0], nowhere]
let later = session "l"
let xs = [later]
"#,
            expect![[r#"
                later 20..25 Variable(Context) -> Let@96..101
                p 66..67 Variable(Context) -> Param@34..35
                later 69..74 Variable(Context) -> Let@96..101
                xs 76..78 Variable(Context) -> Let@120..122
                nowhere 83..90 Variable(Context) -> UNRESOLVED
                later 126..131 Variable(Expr) -> Let@96..101
            "#]],
        );
    }

    #[test]
    fn flat_namespace_across_branches_and_parallel_results() {
        check(
            r#"if **x**:
  let result = session "a"
else:
  let result = session "b"
session "{result}"
parallel:
  s = session "a"
  p = session "b"
session "c"
  context: { s, p }
s = session "again"
"#,
            expect![[r#"
                result 80..86 Variable(Interpolation) -> Let@49..55
                s 160..161 Variable(Context) -> Assigned@101..102
                p 163..164 Variable(Context) -> Assigned@119..120
                s 167..168 Variable(AssignTarget) -> Assigned@101..102
            "#]],
        );
    }
}
