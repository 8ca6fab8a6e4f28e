//! Lowering: the syntax tree of a program to the interpreter's [`ir`].
//!
//! Runs once before a run (and for the dry-run plan). It never fails: a
//! part the tree lacks (broken input the checker let through only as a
//! warning) becomes [`Expr::Unsupported`], an error if the run reaches it.
//! Properties the runner does not know are collected in
//! [`Lowered::ignored`], so the run can warn about them.

mod expr;
mod props;
mod template;

use prose_syntax::{
    AstNode, SyntaxKind, SyntaxNode,
    ast::{self, Stmt as AstStmt},
};

use crate::ir::{
    Agent, BlockDef, Catch, Expr, Import, InputDecl, Program, Site, Stmt, StmtKind, Target,
    Template,
};

pub use template::{braces, dedent};

/// A lowered program and what lowering noticed.
#[derive(Debug, Clone, Default)]
pub struct Lowered {
    pub program: Program,
    /// Properties with no effect in this runner: (name, site).
    pub ignored: Vec<(String, Site)>,
}

/// Parses and lowers `source`.
pub fn lower(source: &str) -> Lowered {
    let parse = prose_syntax::parse(source);
    let file = parse.tree();
    let mut cx = Cx::new(source);
    let body = cx.stmts(file.statements());
    let mut program = std::mem::take(&mut cx.program);
    program.source = source.to_string();
    program.body = body;
    Lowered {
        program,
        ignored: cx.ignored,
    }
}

/// Lowering state: the program's tables and the line index.
pub(crate) struct Cx {
    program: Program,
    ignored: Vec<(String, Site)>,
    line_starts: Vec<u32>,
    source_len: u32,
    source: String,
}

impl Cx {
    fn new(source: &str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(
            source
                .bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i as u32 + 1),
        );
        Cx {
            program: Program::default(),
            ignored: Vec::new(),
            line_starts,
            source_len: source.len() as u32,
            source: source.to_string(),
        }
    }

    /// The site of a node: its first token that is not trivia.
    pub(crate) fn site(&self, node: &SyntaxNode) -> Site {
        let offset = node
            .descendants_with_tokens()
            .filter_map(|e| e.into_token())
            .find(|t| {
                !t.kind().is_trivia()
                    && !matches!(
                        t.kind(),
                        SyntaxKind::NEWLINE | SyntaxKind::INDENT | SyntaxKind::DEDENT
                    )
            })
            .map_or(u32::from(node.text_range().start()), |t| {
                u32::from(t.text_range().start())
            })
            .min(self.source_len);
        let line = self.line_starts.partition_point(|&s| s <= offset) as u32;
        Site { offset, line }
    }

    /// The source text of a node, without surrounding blanks.
    pub(crate) fn text(&self, node: &SyntaxNode) -> String {
        let r = node.text_range();
        self.source[usize::from(r.start())..usize::from(r.end())]
            .trim()
            .to_string()
    }

    pub(crate) fn ignore(&mut self, name: String, site: Site) {
        self.ignored.push((name, site));
    }

    pub(crate) fn stmts(&mut self, stmts: impl Iterator<Item = AstStmt>) -> Vec<Stmt> {
        stmts.filter_map(|s| self.stmt(&s)).collect()
    }

    pub(crate) fn body(&mut self, block: Option<ast::Block>) -> Vec<Stmt> {
        match block {
            Some(b) => self.stmts(b.statements()),
            None => Vec::new(),
        }
    }

    fn stmt(&mut self, s: &AstStmt) -> Option<Stmt> {
        let node = s.syntax();
        let site = self.site(node);
        let unsupported = |what: &str| {
            StmtKind::Expr(Expr::Unsupported {
                what: what.to_string(),
                site,
            })
        };
        let kind = match s {
            AstStmt::Use(u) => {
                let path = u.path().map(|p| p.value()).unwrap_or_default();
                let name = u
                    .alias()
                    .map(|a| a.text())
                    .or_else(|| prose_ide::imports::implicit_name(&path));
                if let Some(name) = name {
                    self.program.imports.insert(name, Import { path, site });
                }
                StmtKind::Nop
            }
            AstStmt::Import(_) => StmtKind::Nop,
            AstStmt::Input(i) => {
                let decl = InputDecl {
                    name: i.name().map(|n| n.text()).unwrap_or_default(),
                    prompt: match i.description() {
                        Some(ast::Expr::String(s)) => self.template(&s),
                        Some(ast::Expr::Discretion(d)) => Template::text(d.text()),
                        Some(other) => Template::text(self.text(other.syntax())),
                        None => Template::default(),
                    },
                    site,
                };
                self.program.inputs.push(decl.clone());
                StmtKind::Input(decl)
            }
            AstStmt::Output(o) => {
                let value = self.opt_expr(o.value(), site, "an output without a value");
                if o.is_named() {
                    let name = o.name().map(|n| n.text()).unwrap_or_default();
                    if !self.program.outputs.contains(&name) {
                        self.program.outputs.push(name.clone());
                    }
                    StmtKind::Output {
                        name: Some(name),
                        value,
                    }
                } else {
                    StmtKind::Output { name: None, value }
                }
            }
            AstStmt::Agent(a) => {
                let name = a.name().map(|n| n.text()).unwrap_or_default();
                let props = self.props(a.properties(), None);
                self.program
                    .agents
                    .insert(name.clone(), Agent { name, props, site });
                StmtKind::Nop
            }
            AstStmt::BlockDef(b) => {
                let name = b.name().map(|n| n.text()).unwrap_or_default();
                let params = b
                    .params()
                    .filter_map(|p| p.name().map(|n| n.text()))
                    .collect();
                let body = self.body(b.body());
                self.program.blocks.insert(
                    name.clone(),
                    BlockDef {
                        name,
                        params,
                        body,
                        site,
                    },
                );
                StmtKind::Nop
            }
            AstStmt::Let(l) => {
                let target = match (l.name(), l.pattern()) {
                    (Some(n), _) => Target::Name(n.text()),
                    (None, Some(p)) => Target::Destructure(p.names().map(|n| n.text()).collect()),
                    (None, None) => {
                        return Some(self.at(unsupported("a `let` without a name"), site, node));
                    }
                };
                StmtKind::Let {
                    target,
                    value: self.opt_expr(l.value(), site, "a `let` without a value"),
                    is_const: l.is_const(),
                }
            }
            AstStmt::Assign(a) => StmtKind::Assign {
                name: a.target().map(|t| t.text()).unwrap_or_default(),
                value: self.opt_expr(a.value(), site, "an assignment without a value"),
            },
            AstStmt::Expr(e) => match e.expr() {
                Some(ast::Expr::Try(t)) => self.try_stmt(&t),
                Some(x) => StmtKind::Expr(self.expr(&x)),
                None => return None,
            },
            AstStmt::Try(t) => self.try_stmt(t),
            AstStmt::Throw(t) => StmtKind::Throw(t.message().map(|m| self.expr(&m))),
            AstStmt::Choice(c) => StmtKind::Expr(self.choice(c)),
            AstStmt::If(i) => StmtKind::Expr(self.if_expr(i)),
            AstStmt::Return(r) => StmtKind::Return(r.value().map(|v| self.expr(&v))),
            AstStmt::Break(_) => StmtKind::Break,
            AstStmt::Continue(_) => StmtKind::Continue,
            AstStmt::Assert(a) => StmtKind::Assert {
                condition: self.opt_expr(a.condition(), site, "an `assert` without a condition"),
                message: a.body().and_then(|b| {
                    b.statements().find_map(|s| match s {
                        AstStmt::Expr(e) => e.expr().map(|x| self.expr(&x)),
                        _ => None,
                    })
                }),
            },
            AstStmt::Catch(_) => unsupported("a `catch` without its `try`"),
            AstStmt::Finally(_) => unsupported("a `finally` without its `try`"),
            AstStmt::Option(_) => unsupported("an `option` outside a `choice`"),
            AstStmt::Elif(_) => unsupported("an `elif` without its `if`"),
            AstStmt::Else(_) => unsupported("an `else` without its `if`"),
        };
        Some(self.at(kind, site, node))
    }

    fn at(&self, kind: StmtKind, site: Site, node: &SyntaxNode) -> Stmt {
        Stmt {
            kind,
            site,
            text: self.text(node),
        }
    }

    pub(crate) fn opt_expr(&mut self, e: Option<ast::Expr>, site: Site, what: &str) -> Expr {
        match e {
            Some(e) => self.expr(&e),
            None => Expr::Unsupported {
                what: what.to_string(),
                site,
            },
        }
    }

    pub(crate) fn try_stmt(&mut self, t: &ast::TryStmt) -> StmtKind {
        StmtKind::Try {
            body: self.body(t.body()),
            catch: t.catch_clause().map(|c| Catch {
                name: c.error_name().map(|n| n.text()),
                body: self.body(c.body()),
            }),
            finally: t.finally_clause().map(|f| self.body(f.body())),
        }
    }
}

#[cfg(test)]
mod tests;
