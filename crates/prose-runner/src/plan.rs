//! The execution plan (`prose run --dry-run`, the editor's `prose.dryRun`):
//! what a run would do, in program order, without calling a backend —
//! sessions with their agents and models, parallel groups and their join
//! and failure policy, loops with their bounds, decisions, calls.

use std::fmt::Write;

use crate::{
    ir::{Expr, Join, LoopCond, OnFail, PipeKind, Program, SessionSpec, Stmt, StmtKind, Target},
    value::Value,
};

/// The plan of `program`, as text.
pub fn plan(program: &Program) -> String {
    let mut p = Planner {
        program,
        out: String::new(),
        sessions: 0,
    };
    let mut inputs: Vec<String> = Vec::new();
    for i in &program.inputs {
        inputs.push(format!("{} ({:?})", i.name, i.prompt.raw()));
    }
    if !inputs.is_empty() {
        let _ = writeln!(p.out, "inputs: {}", inputs.join(", "));
    }
    let mut agents: Vec<_> = program.agents.values().collect();
    agents.sort_by_key(|a| a.site.offset);
    if !agents.is_empty() {
        let _ = writeln!(p.out, "agents:");
        for a in agents {
            let mut line = format!(
                "  {}: model {}",
                a.name,
                a.props.model.as_deref().unwrap_or("(default)")
            );
            if let Some(persist) = &a.props.persist {
                let _ = write!(line, ", persistent ({persist:?})");
            }
            if let Some(perms) = &a.props.permissions
                && !perms.is_empty()
            {
                let rules: Vec<String> = perms.rules.iter().map(|r| r.to_string()).collect();
                let _ = write!(line, ", permissions {}", rules.join("; "));
            }
            let _ = writeln!(p.out, "{line}");
        }
    }
    let _ = writeln!(p.out, "steps:");
    p.body(&program.body, 1);
    let blocks_called: Vec<_> = {
        let mut b: Vec<_> = program.blocks.values().collect();
        b.sort_by_key(|b| b.site.offset);
        b
    };
    for b in blocks_called {
        let _ = writeln!(p.out, "block {}({}):", b.name, b.params.join(", "));
        p.body(&b.body, 1);
    }
    let _ = writeln!(
        p.out,
        "{} session{} written in the program; nothing was run.",
        p.sessions,
        if p.sessions == 1 { "" } else { "s" }
    );
    p.out
}

struct Planner<'a> {
    program: &'a Program,
    out: String,
    sessions: usize,
}

impl Planner<'_> {
    fn line(&mut self, line: u32, depth: usize, text: &str) {
        let _ = writeln!(self.out, "{line:>5}  {}{text}", "  ".repeat(depth));
    }

    fn body(&mut self, body: &[Stmt], depth: usize) {
        for s in body {
            self.stmt(s, depth);
        }
    }

    fn stmt(&mut self, s: &Stmt, depth: usize) {
        let line = s.site.line;
        match &s.kind {
            StmtKind::Nop => {}
            StmtKind::Let { target, value, .. } => {
                let name = match target {
                    Target::Name(n) => n.clone(),
                    Target::Destructure(ns) => format!("{{ {} }}", ns.join(", ")),
                };
                self.expr(value, line, depth, &format!("{name} = "));
            }
            StmtKind::Assign { name, value } => {
                self.expr(value, line, depth, &format!("{name} = "))
            }
            StmtKind::Output {
                name: Some(n),
                value,
            } => self.expr(value, line, depth, &format!("output {n} = ")),
            StmtKind::Output { name: None, value } => self.expr(value, line, depth, "return "),
            StmtKind::Input(i) => self.line(
                line,
                depth,
                &format!("input {} (asked if not given)", i.name),
            ),
            StmtKind::Expr(e) => self.expr(e, line, depth, ""),
            StmtKind::Try {
                body,
                catch,
                finally,
            } => {
                self.line(line, depth, "try:");
                self.body(body, depth + 1);
                if let Some(c) = catch {
                    self.line(line, depth, "on error:");
                    self.body(&c.body, depth + 1);
                }
                if let Some(f) = finally {
                    self.line(line, depth, "finally:");
                    self.body(f, depth + 1);
                }
            }
            StmtKind::Throw(_) => self.line(line, depth, "throw"),
            StmtKind::Return(_) => self.line(line, depth, "return"),
            StmtKind::Break => self.line(line, depth, "break"),
            StmtKind::Continue => self.line(line, depth, "continue"),
            StmtKind::Assert { .. } => self.line(
                line,
                depth,
                &format!("check: {}", s.text.lines().next().unwrap_or("")),
            ),
        }
    }

    fn session(&mut self, s: &SessionSpec, line: u32, depth: usize, prefix: &str) {
        self.sessions += 1;
        let agent = s.agent.as_ref().and_then(|a| self.program.agents.get(a));
        let model = s
            .props
            .model
            .clone()
            .or_else(|| agent.and_then(|a| a.props.model.clone()))
            .unwrap_or_else(|| "default model".into());
        let what = if s.resume { "resume" } else { "session" };
        let mut text = match &s.agent {
            Some(a) => format!("{prefix}{what} {a} ({model})"),
            None => format!("{prefix}{what} ({model})"),
        };
        let prompt = s
            .inline_prompt
            .as_ref()
            .or(s.props.prompt.as_ref())
            .or_else(|| agent.and_then(|a| a.props.prompt.as_ref()));
        if let Some(p) = prompt {
            let raw = p.raw();
            let first = raw.lines().next().unwrap_or("");
            let _ = write!(text, ": {}", crate::events::excerpt(&format!("{first:?}")));
        }
        if let Some(Expr::Name(c)) = &s.props.context {
            let _ = write!(text, "; context: {c}");
        } else if let Some(c) = &s.props.context {
            let names = match c {
                Expr::Array(items) => items.iter().map(Expr::context_name).collect::<Vec<_>>(),
                Expr::Object(fields) => fields.iter().map(|(k, _)| k.clone()).collect(),
                other => vec![other.context_name()],
            };
            let _ = write!(text, "; context: {}", names.join(", "));
        }
        if let Some(Expr::Literal(Value::Number(n))) = &s.props.retry {
            let _ = write!(text, "; retry {n}");
        }
        self.line(line, depth, &text);
    }

    fn expr(&mut self, e: &Expr, line: u32, depth: usize, prefix: &str) {
        match e {
            Expr::Session(s) => self.session(s, s.site.line, depth, prefix),
            Expr::Do(body) => {
                self.line(line, depth, &format!("{prefix}do:"));
                self.body(body, depth + 1);
            }
            Expr::CallBlock { name, site, .. } => {
                self.line(site.line, depth, &format!("{prefix}do {name}(...)"))
            }
            Expr::Call { name, site, .. } => {
                let what = if self.program.imports.contains_key(name) {
                    "run program"
                } else {
                    "do"
                };
                self.line(site.line, depth, &format!("{prefix}{what} {name}(...)"));
            }
            Expr::Arrow(steps) => {
                self.line(line, depth, &format!("{prefix}in sequence:"));
                for s in steps {
                    self.expr(s, line, depth + 1, "");
                }
            }
            Expr::Parallel(p) => {
                let join = match p.join {
                    Join::All => "all",
                    Join::First => "first",
                    Join::Any => "any",
                };
                let on_fail = match p.on_fail {
                    OnFail::FailFast => "fail-fast",
                    OnFail::Continue => "continue",
                    OnFail::Ignore => "ignore",
                };
                self.line(
                    p.site.line,
                    depth,
                    &format!(
                        "{prefix}parallel ({join}, on-fail: {on_fail}): {} branches at once",
                        p.branches.len()
                    ),
                );
                for b in &p.branches {
                    let pre = b
                        .name
                        .as_ref()
                        .map(|n| format!("{n} = "))
                        .unwrap_or_default();
                    match &b.stmt.kind {
                        StmtKind::Expr(e) => self.expr(e, b.stmt.site.line, depth + 1, &pre),
                        _ => self.stmt(&b.stmt, depth + 1),
                    }
                }
            }
            Expr::For(f) => {
                let how = if f.parallel { "parallel for" } else { "for" };
                self.line(
                    f.site.line,
                    depth,
                    &format!(
                        "{prefix}{how} {} in {}: once per item{}",
                        f.item,
                        f.collection.context_name(),
                        if f.parallel { ", all at once" } else { "" }
                    ),
                );
                self.body(&f.body, depth + 1);
            }
            Expr::Repeat(r) => {
                let n = match &r.count {
                    Expr::Literal(Value::Number(n)) => format!("{n} times"),
                    _ => "a computed number of times".into(),
                };
                self.line(r.site.line, depth, &format!("{prefix}repeat {n}"));
                self.body(&r.body, depth + 1);
            }
            Expr::Loop(l) => {
                let bound = match &l.max {
                    Some(Expr::Literal(Value::Number(n))) => format!("at most {n} iterations"),
                    Some(_) => "a computed maximum".into(),
                    None => format!(
                        "no max: stops after {} iterations",
                        crate::interp::DEFAULT_LOOP_MAX
                    ),
                };
                let cond = match &l.condition {
                    Some((LoopCond::Until, Expr::Discretion { text, .. })) => {
                        format!(" until **{text}** (asked before each iteration)")
                    }
                    Some((LoopCond::While, Expr::Discretion { text, .. })) => {
                        format!(" while **{text}** (asked before each iteration)")
                    }
                    Some((LoopCond::Until, _)) => " until a condition".into(),
                    Some((LoopCond::While, _)) => " while a condition".into(),
                    None => String::new(),
                };
                self.line(l.site.line, depth, &format!("{prefix}loop{cond}, {bound}"));
                self.body(&l.body, depth + 1);
            }
            Expr::Pipe(p) => {
                self.line(
                    p.site.line,
                    depth,
                    &format!("{prefix}pipeline over {}:", p.source.context_name()),
                );
                for op in &p.ops {
                    let name = match &op.kind {
                        PipeKind::Map => "map (one item after another)".to_string(),
                        PipeKind::Pmap => "pmap (all items at once)".to_string(),
                        PipeKind::Filter => "filter (keep items answered yes)".to_string(),
                        PipeKind::Reduce { acc, item } => format!("reduce({acc}, {item})"),
                    };
                    self.line(op.site.line, depth + 1, &format!("| {name}"));
                    self.body(&op.body, depth + 2);
                }
            }
            Expr::If(i) => {
                for (n, (cond, body)) in i.arms.iter().enumerate() {
                    let kw = if n == 0 { "if" } else { "elif" };
                    self.line(
                        i.site.line,
                        depth,
                        &format!("{prefix}{kw} {}:", describe_cond(cond)),
                    );
                    self.body(body, depth + 1);
                }
                if let Some(body) = &i.otherwise {
                    self.line(i.site.line, depth, "else:");
                    self.body(body, depth + 1);
                }
            }
            Expr::Choice(c) => {
                self.line(
                    c.site.line,
                    depth,
                    &format!(
                        "{prefix}choice {} (the backend picks one option):",
                        describe_cond(&c.criteria)
                    ),
                );
                for (label, body) in &c.options {
                    self.line(c.site.line, depth + 1, &format!("option {label:?}:"));
                    self.body(body, depth + 2);
                }
            }
            Expr::Try(stmt) => self.stmt(stmt, depth),
            Expr::Name(_) | Expr::Field(..) if !prefix.is_empty() => {
                self.line(line, depth, &format!("{prefix}{}", e.context_name()));
            }
            _ if !prefix.is_empty() => self.line(line, depth, &format!("{prefix}(a value)")),
            _ => {}
        }
    }
}

fn describe_cond(e: &Expr) -> String {
    match e {
        Expr::Discretion { text, .. } => format!("**{text}** (asked of the backend)"),
        _ => "a condition".into(),
    }
}

/// Calls `f` on every session written in the program (agents' defaults
/// aside), in blocks too.
pub fn visit_sessions(program: &Program, f: &mut dyn FnMut(&SessionSpec)) {
    fn body(b: &[Stmt], f: &mut dyn FnMut(&SessionSpec)) {
        for s in b {
            stmt(s, f);
        }
    }
    fn stmt(s: &Stmt, f: &mut dyn FnMut(&SessionSpec)) {
        match &s.kind {
            StmtKind::Let { value, .. }
            | StmtKind::Assign { value, .. }
            | StmtKind::Output { value, .. }
            | StmtKind::Expr(value) => expr(value, f),
            StmtKind::Try {
                body: b,
                catch,
                finally,
            } => {
                body(b, f);
                if let Some(c) = catch {
                    body(&c.body, f);
                }
                if let Some(fin) = finally {
                    body(fin, f);
                }
            }
            _ => {}
        }
    }
    fn expr(e: &Expr, f: &mut dyn FnMut(&SessionSpec)) {
        match e {
            Expr::Session(s) => f(s),
            Expr::Do(b) => body(b, f),
            Expr::Arrow(steps) => steps.iter().for_each(|s| expr(s, f)),
            Expr::Parallel(p) => p.branches.iter().for_each(|b| stmt(&b.stmt, f)),
            Expr::For(l) => body(&l.body, f),
            Expr::Repeat(r) => body(&r.body, f),
            Expr::Loop(l) => body(&l.body, f),
            Expr::Pipe(p) => p.ops.iter().for_each(|o| body(&o.body, f)),
            Expr::If(i) => {
                i.arms.iter().for_each(|(_, b)| body(b, f));
                if let Some(b) = &i.otherwise {
                    body(b, f);
                }
            }
            Expr::Choice(c) => c.options.iter().for_each(|(_, b)| body(b, f)),
            Expr::Try(s) => stmt(s, f),
            _ => {}
        }
    }
    body(&program.body, f);
    let mut blocks: Vec<_> = program.blocks.values().collect();
    blocks.sort_by_key(|b| b.site.offset);
    for b in blocks {
        body(&b.body, f);
    }
}
