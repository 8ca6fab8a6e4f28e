//! Lowering expressions and the constructs that are expressions
//! (sessions, blocks, parallel, loops, pipelines, conditionals).

use prose_syntax::{
    AstNode, SyntaxKind,
    ast::{self, LoopKind, Stmt as AstStmt},
};

use super::Cx;
use crate::{
    ir::{
        BinOp, Branch, Choice, Expr, ForLoop, If, Join, Loop, LoopCond, OnFail, Parallel, Pipe,
        PipeKind, PipeOp, Repeat, SessionSpec, Site, Stmt, StmtKind,
    },
    value::Value,
};

impl Cx {
    pub(crate) fn expr(&mut self, e: &ast::Expr) -> Expr {
        let site = self.site(e.syntax());
        match e {
            ast::Expr::Session(s) => Expr::Session(Box::new(self.session(s))),
            ast::Expr::Resume(r) => {
                let props = self.props(r.properties(), None);
                Expr::Session(Box::new(SessionSpec {
                    resume: true,
                    name: None,
                    agent: r.agent().map(|a| a.text()),
                    inline_prompt: None,
                    props,
                    site,
                    text: self.text(r.syntax()),
                }))
            }
            ast::Expr::Do(d) => Expr::Do(self.body(d.body())),
            ast::Expr::DoCall(c) => Expr::CallBlock {
                name: c.name_ref().map(|n| n.text()).unwrap_or_default(),
                args: c
                    .args()
                    .filter_map(|a| a.value())
                    .map(|v| self.expr(&v))
                    .collect(),
                site,
            },
            ast::Expr::Arrow(a) => Expr::Arrow(a.steps().map(|s| self.expr(&s)).collect()),
            ast::Expr::Parallel(p) => Expr::Parallel(Box::new(self.parallel(p, site))),
            ast::Expr::For(f) => Expr::For(Box::new(ForLoop {
                parallel: f.is_parallel(),
                item: f.item().map(|n| n.text()).unwrap_or_default(),
                index: f.index().map(|n| n.text()),
                collection: self.opt_expr(f.collection(), site, "a `for` without a collection"),
                body: self.body(f.body()),
                site,
            })),
            ast::Expr::Repeat(r) => Expr::Repeat(Box::new(Repeat {
                count: self.opt_expr(r.count(), site, "a `repeat` without a count"),
                index: r.index().map(|n| n.text()),
                body: self.body(r.body()),
                site,
            })),
            ast::Expr::Loop(l) => Expr::Loop(Box::new(self.loop_expr(l, site))),
            ast::Expr::Pipe(p) => {
                let (source, ops) = p.flatten();
                let source = self.opt_expr(source, site, "a pipeline without a collection");
                let ops = ops.iter().map(|op| self.pipe_op(op)).collect();
                Expr::Pipe(Box::new(Pipe { source, ops, site }))
            }
            ast::Expr::Call(c) => self.call(c, site),
            ast::Expr::Field(f) => match (f.receiver(), f.field()) {
                (Some(r), Some(field)) => Expr::Field(Box::new(self.expr(&r)), field.text()),
                _ => unsupported("an incomplete field access", site),
            },
            ast::Expr::Array(a) => Expr::Array(a.elements().map(|x| self.expr(&x)).collect()),
            ast::Expr::Object(o) => Expr::Object(
                o.fields()
                    .map(|f| {
                        if let Some(n) = f.shorthand() {
                            let name = n.text();
                            (name.clone(), Expr::Name(name))
                        } else {
                            let name = f.name().map(|n| n.text()).unwrap_or_default();
                            let value = self.opt_expr(f.value(), site, "a field without a value");
                            (name, value)
                        }
                    })
                    .collect(),
            ),
            ast::Expr::Binary(b) => self.binary(b, site),
            ast::Expr::Prefix(p) => {
                let operand = self.opt_expr(p.operand(), site, "an operator without an operand");
                match p.op_token().map(|t| t.kind()) {
                    Some(SyntaxKind::MINUS) => Expr::Neg(Box::new(operand)),
                    _ => Expr::Not(Box::new(operand)),
                }
            }
            ast::Expr::Ternary(t) => Expr::Ternary(
                Box::new(self.opt_expr(t.condition(), site, "a condition")),
                Box::new(self.opt_expr(t.then_branch(), site, "a value")),
                Box::new(self.opt_expr(t.else_branch(), site, "a value")),
            ),
            ast::Expr::Paren(p) => self.opt_expr(p.expr(), site, "an empty parenthesis"),
            ast::Expr::Literal(l) => literal(l),
            ast::Expr::String(s) => Expr::String(self.template(s)),
            ast::Expr::Discretion(d) => Expr::Discretion {
                text: d.text(),
                site,
            },
            ast::Expr::NameRef(n) => Expr::Name(n.text()),
            ast::Expr::Try(t) => {
                let kind = self.try_stmt(t);
                Expr::Try(Box::new(Stmt {
                    kind,
                    site,
                    text: self.text(t.syntax()),
                }))
            }
            ast::Expr::If(i) => self.if_expr(i),
            ast::Expr::Choice(c) => self.choice(c),
        }
    }

    fn session(&mut self, s: &ast::SessionExpr) -> SessionSpec {
        let site = self.site(s.syntax());
        let props = self.props(s.properties(), s.modifiers());
        SessionSpec {
            resume: false,
            name: s.name().map(|n| n.text()),
            agent: s.agent().map(|a| a.text()),
            inline_prompt: s.prompt().map(|p| self.template(&p)),
            props,
            site,
            text: self.text(s.syntax()),
        }
    }

    fn parallel(&mut self, p: &ast::ParallelExpr, site: Site) -> Parallel {
        let mut out = Parallel {
            join: Join::All,
            on_fail: OnFail::FailFast,
            count: None,
            branches: Vec::new(),
            site,
        };
        for m in p.modifiers().into_iter().flat_map(|l| l.modifiers()) {
            let value = m.value();
            let word = value.as_ref().map(word_of).unwrap_or_default();
            match m.key().as_deref() {
                None | Some("strategy") | Some("join") => match word.as_str() {
                    "first" => out.join = Join::First,
                    "any" => out.join = Join::Any,
                    _ => out.join = Join::All,
                },
                Some("on-fail") | Some("on_fail") => {
                    out.on_fail = match word.as_str() {
                        "continue" => OnFail::Continue,
                        "ignore" => OnFail::Ignore,
                        _ => OnFail::FailFast,
                    }
                }
                Some("count") => out.count = value.map(|v| self.expr(&v)),
                Some(other) => self.ignore(format!("parallel modifier `{other}`"), site),
            }
        }
        for s in p.body().into_iter().flat_map(|b| b.statements()) {
            let name = match &s {
                AstStmt::Assign(a) => a.target().map(|t| t.text()),
                AstStmt::Let(l) => l.name().map(|n| n.text()),
                _ => None,
            };
            let Some(stmt) = self.stmts(std::iter::once(s)).pop() else {
                continue;
            };
            // A named branch runs its value; the runner binds the name.
            let stmt = match (name.is_some(), stmt.kind) {
                (true, StmtKind::Assign { value, .. } | StmtKind::Let { value, .. }) => Stmt {
                    kind: StmtKind::Expr(value),
                    ..stmt
                },
                (_, kind) => Stmt { kind, ..stmt },
            };
            out.branches.push(Branch { name, stmt });
        }
        out
    }

    fn loop_expr(&mut self, l: &ast::LoopExpr, site: Site) -> Loop {
        let condition = match l.loop_kind() {
            LoopKind::Plain => None,
            kind => {
                let cond = if kind == LoopKind::Until {
                    LoopCond::Until
                } else {
                    LoopCond::While
                };
                Some((cond, self.opt_expr(l.condition(), site, "a loop condition")))
            }
        };
        let mut max = None;
        for m in l.modifiers().into_iter().flat_map(|l| l.modifiers()) {
            match m.key().as_deref() {
                Some("max") => max = m.value().map(|v| self.expr(&v)),
                Some(other) => self.ignore(format!("loop modifier `{other}`"), site),
                None => {}
            }
        }
        Loop {
            condition,
            max,
            index: l.index().map(|n| n.text()),
            body: self.body(l.body()),
            site,
        }
    }

    fn pipe_op(&mut self, op: &ast::PipeOp) -> PipeOp {
        let site = self.site(op.syntax());
        let params: Vec<String> = op
            .params()
            .into_iter()
            .flat_map(|p| p.params())
            .filter_map(|p| p.name().map(|n| n.text()))
            .collect();
        let kind = match op.op_name().as_str() {
            "filter" => PipeKind::Filter,
            "pmap" => PipeKind::Pmap,
            "reduce" => PipeKind::Reduce {
                acc: params.first().cloned().unwrap_or_else(|| "acc".into()),
                item: params.get(1).cloned().unwrap_or_else(|| "item".into()),
            },
            _ => PipeKind::Map,
        };
        PipeOp {
            kind,
            body: self.body(op.body()),
            site,
        }
    }

    fn call(&mut self, c: &ast::CallExpr, site: Site) -> Expr {
        let callee = c.callee();
        // `xs[i]` parses as a call whose "arguments" are an array.
        let index = c
            .syntax()
            .children()
            .find_map(ast::ArrayExpr::cast)
            .and_then(|a| a.elements().next());
        if c.arg_list().is_none()
            && let (Some(base), Some(i)) = (callee.as_ref(), index)
        {
            return Expr::Index(Box::new(self.expr(base)), Box::new(self.expr(&i)));
        }
        let Some(ast::Expr::NameRef(name)) = callee else {
            return unsupported("a call of something that is not a name", site);
        };
        let args = c
            .args()
            .map(|a| {
                let value = self.opt_expr(a.value(), site, "an argument without a value");
                (a.name().map(|n| n.text()), value)
            })
            .collect();
        Expr::Call {
            name: name.text(),
            args,
            site,
        }
    }

    fn binary(&mut self, b: &ast::BinaryExpr, site: Site) -> Expr {
        let lhs = self.opt_expr(b.lhs(), site, "an operand");
        let rhs = self.opt_expr(b.rhs(), site, "an operand");
        let op = match b.op_token().map(|t| t.kind()) {
            Some(SyntaxKind::PLUS) => BinOp::Add,
            Some(SyntaxKind::MINUS) => BinOp::Sub,
            Some(SyntaxKind::STAR) => BinOp::Mul,
            Some(SyntaxKind::SLASH) => BinOp::Div,
            Some(SyntaxKind::PERCENT) => BinOp::Rem,
            Some(SyntaxKind::EQ2) => BinOp::Eq,
            Some(SyntaxKind::NEQ) => BinOp::Ne,
            Some(SyntaxKind::LT) => BinOp::Lt,
            Some(SyntaxKind::LTEQ) => BinOp::Le,
            Some(SyntaxKind::GT) => BinOp::Gt,
            Some(SyntaxKind::GTEQ) => BinOp::Ge,
            Some(SyntaxKind::AND_KW | SyntaxKind::AMP2) => BinOp::And,
            Some(SyntaxKind::OR_KW | SyntaxKind::PIPE2) => BinOp::Or,
            _ => return unsupported("an unknown operator", site),
        };
        Expr::Binary(op, Box::new(lhs), Box::new(rhs))
    }

    pub(crate) fn if_expr(&mut self, i: &ast::IfStmt) -> Expr {
        let site = self.site(i.syntax());
        let mut arms = vec![(
            self.opt_expr(i.condition(), site, "an `if` without a condition"),
            self.body(i.body()),
        )];
        for e in i.elif_clauses() {
            let s = self.site(e.syntax());
            arms.push((
                self.opt_expr(e.condition(), s, "an `elif` without a condition"),
                self.body(e.body()),
            ));
        }
        let otherwise = i.else_clauses().next().map(|e| self.body(e.body()));
        Expr::If(Box::new(If {
            arms,
            otherwise,
            site,
        }))
    }

    pub(crate) fn choice(&mut self, c: &ast::ChoiceStmt) -> Expr {
        let site = self.site(c.syntax());
        let criteria = self.opt_expr(c.criteria(), site, "a `choice` without criteria");
        let options = c
            .options()
            .map(|o| {
                let label = o.label().map(|l| l.value()).unwrap_or_default();
                (label, self.body(o.body()))
            })
            .collect();
        Expr::Choice(Box::new(Choice {
            criteria,
            options,
            site,
        }))
    }
}

fn unsupported(what: &str, site: Site) -> Expr {
    Expr::Unsupported {
        what: what.to_string(),
        site,
    }
}

/// The word a modifier or property value spells (`"first"`, `first`).
pub(crate) fn word_of(e: &ast::Expr) -> String {
    match e {
        ast::Expr::String(s) => s.value().trim().to_string(),
        other => other.syntax().text().to_string().trim().to_string(),
    }
}

fn literal(l: &ast::Literal) -> Expr {
    let Some(t) = l.token() else {
        return Expr::Literal(Value::Null);
    };
    Expr::Literal(match t.kind() {
        SyntaxKind::TRUE_KW => Value::Bool(true),
        SyntaxKind::FALSE_KW => Value::Bool(false),
        SyntaxKind::NUMBER => match l.as_number() {
            Some(n) => Value::Number(n),
            // `120s`: a number with a unit stays text.
            None => Value::text(t.text()),
        },
        _ => Value::Null,
    })
}
