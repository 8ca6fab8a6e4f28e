//! What name resolution finds in one top-level statement before it looks
//! anything up outside it: the statement's [`StatementNames`].
//!
//! Resolution reads a file in two passes (see the parent module): the
//! hoisted definitions of the whole file first, then every statement in
//! text order, each reference looked up among the definitions made so
//! far. Most of that work is walking the tree; the lookups are cheap. So
//! the walk of each top-level statement is recorded on its own, with its
//! ranges relative to the statement's start, as the hoisted definitions it
//! holds and the steps of the second pass (definitions, references, and
//! `name = value` assignments, whose meaning depends on what is bound
//! before them); `replay.rs` plays the steps of every statement in order
//! against the growing set of definitions. A reference to a scoped name
//! (a block parameter, a loop variable, ...) is resolved here: scopes
//! never reach past the top-level statement that opens them.
//!
//! The record depends on the statement's tree alone, so it is kept per
//! statement (`statement_memo.rs`) and an edit walks only the statements
//! it touched.

use prose_syntax::{
    AstNode, SyntaxKind, SyntaxNode, TextRange, TextSize,
    ast::{self, Expr, Stmt},
};

use super::{Def, DefKind, Name, RefKind, RefSite};

/// The names of one top-level statement, relative to its start: its
/// [`Step::Hoisted`] definitions first, then the steps of the second pass.
/// (Kept for every statement of every open file: compact, one allocation
/// for the steps and one per name.)
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct StatementNames {
    pub(super) steps: Box<[Step]>,
}

/// A definition as the walk records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct NameDef {
    pub(super) name: Name,
    pub(super) kind: DefKind,
    pub(super) name_range: TextRange,
    pub(super) range: TextRange,
    pub(super) scope: Option<TextRange>,
    pub(super) in_block_def: bool,
}

impl NameDef {
    /// The definition, moved to a statement starting at `at`.
    pub(super) fn at(&self, at: TextSize) -> Def {
        Def {
            name: self.name.clone(),
            kind: self.kind,
            name_range: self.name_range + at,
            range: self.range + at,
            scope: self.scope.map(|s| s + at),
            in_block_def: self.in_block_def,
        }
    }
}

/// One step of the walk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Step {
    /// A hoisted definition (agent, block, import, input), in tree order.
    Hoisted(NameDef),
    /// A definition of the second pass.
    Def(NameDef),
    /// A reference. For a variable, `scoped` is the ordinal (among this
    /// statement's [`Step::Def`]s) of the scoped definition it names, if
    /// one is visible.
    Ref {
        name: Name,
        range: TextRange,
        kind: RefKind,
        scoped: Option<u32>,
        /// Inside a block body or an agent definition (code that runs
        /// later): an unresolved variable is looked up again at the end.
        in_hoisted: bool,
        in_block_def: bool,
    },
    /// `name = value`: a reference to `name` if it is bound by then, else
    /// a definition of it (ranges: the name, the statement).
    Assign {
        name: Name,
        at: TextRange,
        stmt: TextRange,
        scoped: Option<u32>,
        in_block_def: bool,
    },
}

/// Walks one top-level statement (any child node of the file: a node that
/// is not a statement only contributes hoisted definitions). `ticks`
/// counts statements across calls; `interrupt` is called every few
/// thousand.
pub(crate) fn statement_names(
    node: &SyntaxNode,
    ticks: &mut u32,
    interrupt: &dyn Fn(),
) -> StatementNames {
    let mut w = Walker {
        base: node.text_range().start(),
        steps: Vec::new(),
        defs: Vec::new(),
        scopes: Vec::new(),
        in_block_def: false,
        in_hoisted: false,
        ticks,
        interrupt,
    };
    w.hoisted(node);
    if let Some(s) = Stmt::cast(node.clone()) {
        w.tick();
        w.stmt(&s);
    }
    StatementNames {
        steps: w.steps.into_boxed_slice(),
    }
}

/// Statements between two calls of the walk's `interrupt`.
const INTERRUPT_EVERY: u32 = 4096;

fn range(node: &SyntaxNode) -> TextRange {
    node.text_range()
}

struct Walker<'a> {
    /// The statement's start: every range is kept relative to it.
    base: TextSize,
    steps: Vec<Step>,
    /// The index in `steps` of each [`Step::Def`], by ordinal.
    defs: Vec<usize>,
    /// Ordinals of the scoped definitions currently visible, innermost last.
    scopes: Vec<u32>,
    in_block_def: bool,
    /// Inside a block body or an agent definition: code that runs later,
    /// where every program-level binding may exist.
    in_hoisted: bool,
    ticks: &'a mut u32,
    interrupt: &'a dyn Fn(),
}

/// The kinds of the nodes [`Walker::hoisted`] takes definitions from.
const HOISTED: &[SyntaxKind] = &[
    SyntaxKind::AGENT_DEF,
    SyntaxKind::BLOCK_DEF,
    SyntaxKind::USE_STMT,
    SyntaxKind::IMPORT_STMT,
    SyntaxKind::INPUT_DECL,
];

impl Walker<'_> {
    fn tick(&mut self) {
        *self.ticks = self.ticks.wrapping_add(1);
        if self.ticks.is_multiple_of(INTERRUPT_EVERY) {
            (self.interrupt)();
        }
    }

    fn rel(&self, r: TextRange) -> TextRange {
        r - self.base
    }

    /// The hoisted definitions: agents, blocks, imports, inputs, anywhere.
    fn hoisted(&mut self, node: &SyntaxNode) {
        // Most statements hold none: a look at the green tree spares
        // making a handle for each of their nodes.
        if !prose_syntax::walk::holds_kind(node, HOISTED) {
            return;
        }
        let base = self.base;
        let steps = &mut self.steps;
        prose_syntax::walk::pre_order(node, |node| {
            let def = |name: String, kind, name_range: TextRange| NameDef {
                name: name.into(),
                kind,
                name_range: name_range - base,
                range: range(node) - base,
                scope: None,
                in_block_def: false,
            };
            let found = match node.kind() {
                SyntaxKind::AGENT_DEF => ast::AgentDef::cast(node.clone())
                    .and_then(|a| a.name())
                    .map(|n| def(n.text(), DefKind::Agent, n.syntax().text_range())),
                SyntaxKind::BLOCK_DEF => ast::BlockDef::cast(node.clone())
                    .and_then(|b| b.name())
                    .map(|n| def(n.text(), DefKind::Block, n.syntax().text_range())),
                SyntaxKind::USE_STMT => {
                    let u = ast::UseStmt::cast(node.clone()).expect("kind checked");
                    if let Some(alias) = u.alias() {
                        Some(def(
                            alias.text(),
                            DefKind::Program,
                            alias.syntax().text_range(),
                        ))
                    } else if let Some(path) = u.path()
                        && let Some(name) = crate::imports::implicit_name(&path.value())
                    {
                        Some(def(name, DefKind::Program, path.syntax().text_range()))
                    } else {
                        None
                    }
                }
                SyntaxKind::IMPORT_STMT => ast::ImportStmt::cast(node.clone())
                    .and_then(|i| i.name())
                    .map(|n| def(n.value(), DefKind::Skill, n.syntax().text_range())),
                SyntaxKind::INPUT_DECL => ast::InputDecl::cast(node.clone())
                    .and_then(|i| i.name())
                    .map(|n| def(n.text(), DefKind::Input, n.syntax().text_range())),
                _ => None,
            };
            if let Some(d) = found {
                steps.push(Step::Hoisted(d));
            }
        });
    }

    /// Records a definition; its ordinal.
    fn push_def(
        &mut self,
        name: String,
        kind: DefKind,
        name_range: TextRange,
        range: TextRange,
        scope: Option<TextRange>,
    ) -> u32 {
        let ordinal = self.defs.len() as u32;
        self.defs.push(self.steps.len());
        let def = NameDef {
            name: name.into(),
            kind,
            name_range: self.rel(name_range),
            range: self.rel(range),
            scope: scope.map(|s| self.rel(s)),
            in_block_def: self.in_block_def,
        };
        self.steps.push(Step::Def(def));
        ordinal
    }

    fn define(
        &mut self,
        name: &ast::Name,
        kind: DefKind,
        stmt: &SyntaxNode,
        scope: Option<TextRange>,
    ) -> u32 {
        self.push_def(
            name.text(),
            kind,
            name.syntax().text_range(),
            range(stmt),
            scope,
        )
    }

    /// The visible scoped definition called `name`, innermost first.
    fn scoped_named(&self, name: &str) -> Option<u32> {
        self.scopes.iter().rev().copied().find(
            |&o| matches!(&self.steps[self.defs[o as usize]], Step::Def(d) if &*d.name == name),
        )
    }

    fn reference(&mut self, name: String, at: TextRange, kind: RefKind) {
        let scoped = match kind {
            RefKind::Variable(_) => self.scoped_named(&name),
            _ => None,
        };
        self.steps.push(Step::Ref {
            name: name.into(),
            range: self.rel(at),
            kind,
            scoped,
            in_hoisted: self.in_hoisted,
            in_block_def: self.in_block_def,
        });
    }

    fn name_ref(&mut self, n: &ast::NameRef, kind: RefKind) {
        self.reference(n.text(), n.syntax().text_range(), kind);
    }

    /// Runs `f` with scoped definitions visible.
    fn scoped(&mut self, defs: Vec<u32>, f: impl FnOnce(&mut Self)) {
        let depth = self.scopes.len();
        self.scopes.extend(defs);
        f(self);
        self.scopes.truncate(depth);
    }

    fn stmts(&mut self, stmts: impl Iterator<Item = Stmt>) {
        for s in stmts {
            self.tick();
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
                let params: Vec<u32> = b
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
                    let scoped = self.scoped_named(&name);
                    self.steps.push(Step::Assign {
                        name: name.into(),
                        at: self.rel(at),
                        stmt: self.rel(a.syntax().text_range()),
                        scoped,
                        in_block_def: self.in_block_def,
                    });
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
        let defs: Vec<u32> = c
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
                let defs: Vec<u32> = rp
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
                let defs: Vec<u32> = l
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
        prose_syntax::walk::pre_order(node, |n| {
            if n.kind() == SyntaxKind::STRING
                && let Some(s) = ast::StringLit::cast(n.clone())
            {
                self.string(&s);
            }
        });
    }
}
