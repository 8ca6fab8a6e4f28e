//! Expressions: values, operators, interpolation, conditions.

use futures::future::BoxFuture;

use super::{Cx, Exec, Flow, Interp, RunError};
use crate::{
    ir::{BinOp, Expr, Piece, Site, Template},
    value::Value,
};

impl Interp {
    /// An expression's value.
    pub(crate) fn eval<'a>(&'a self, e: &'a Expr, cx: &'a Cx) -> BoxFuture<'a, Exec<Value>> {
        self.eval_bound(e, cx, None)
    }

    /// An expression's value, where `binding` names the variable it is
    /// bound to (a session's output then goes to that binding rather than
    /// an `anon_NNN` one).
    pub(crate) fn eval_bound<'a>(
        &'a self,
        e: &'a Expr,
        cx: &'a Cx,
        binding: Option<&'a str>,
    ) -> BoxFuture<'a, Exec<Value>> {
        Box::pin(async move {
            Ok(match self.flow_expr(e, cx, binding).await? {
                Flow::Next(v) | Flow::Return(v) => v,
                Flow::Break | Flow::Continue => Value::Null,
            })
        })
    }

    /// Runs an expression that may also end a block or a loop (`if` with a
    /// `return` inside, a `do:` body with `break`).
    pub(crate) fn flow_expr<'a>(
        &'a self,
        e: &'a Expr,
        cx: &'a Cx,
        binding: Option<&'a str>,
    ) -> BoxFuture<'a, Exec<Flow>> {
        Box::pin(async move {
            let value = match e {
                Expr::Session(s) => Value::text(self.session(s, cx, binding, None).await?),
                Expr::Do(body) => return self.exec_body(body, cx).await,
                Expr::If(i) => return self.exec_if(i, cx).await,
                Expr::Choice(c) => return self.exec_choice(c, cx).await,
                Expr::Try(stmt) => return self.exec_stmt(stmt, cx).await,
                Expr::Repeat(r) => return self.exec_repeat(r, cx).await,
                Expr::For(f) if !f.parallel => return self.exec_for(f, cx).await,
                Expr::For(f) => self.parallel_for(f, cx).await?,
                Expr::Loop(l) => return self.exec_loop(l, cx).await,
                Expr::CallBlock { name, args, site } => {
                    let mut values = Vec::with_capacity(args.len());
                    for a in args {
                        values.push((None, self.eval(a, cx).await?));
                    }
                    self.call_block(name, values, *site, cx).await?
                }
                Expr::Call { name, args, site } => {
                    let mut values = Vec::with_capacity(args.len());
                    for (n, a) in args {
                        values.push((n.clone(), self.eval(a, cx).await?));
                    }
                    self.call(name, values, *site, cx).await?
                }
                Expr::Arrow(steps) => self.arrow(steps, cx, binding).await?,
                Expr::Parallel(p) => self.parallel(p, cx).await?,
                Expr::Pipe(p) => self.pipe(p, cx).await?,
                Expr::Field(base, field) => {
                    let v = self.eval(base, cx).await?;
                    match v.field(field) {
                        Some(f) => f,
                        None => {
                            let what = base_name(base);
                            let e = RunError::new(
                                format!(
                                    "`{what}` ({}) has no field `{field}`{}",
                                    v.describe(),
                                    if matches!(v, Value::Text(_)) {
                                        "; a text has fields only when it is a JSON object"
                                    } else {
                                        ""
                                    }
                                ),
                                site_of(e),
                            );
                            return Err(self.raise(cx, e));
                        }
                    }
                }
                Expr::Index(base, index) => {
                    let v = self.eval(base, cx).await?;
                    let i = self.eval(index, cx).await?;
                    v.index(&i).unwrap_or(Value::Null)
                }
                Expr::Array(items) => {
                    let mut out = Vec::with_capacity(items.len());
                    for i in items {
                        out.push(self.eval(i, cx).await?);
                    }
                    Value::List(out)
                }
                Expr::Object(fields) => {
                    let mut out = Vec::with_capacity(fields.len());
                    for (k, v) in fields {
                        out.push((k.clone(), self.eval(v, cx).await?));
                    }
                    Value::Object(out)
                }
                Expr::Binary(BinOp::And | BinOp::Or, ..)
                | Expr::Not(_)
                | Expr::Discretion { .. } => Value::Bool(self.condition(e, cx).await?),
                Expr::Binary(op, l, r) => {
                    let l = self.eval(l, cx).await?;
                    let r = self.eval(r, cx).await?;
                    binary(*op, &l, &r).map_err(|m| self.raise(cx, RunError::new(m, site_of(e))))?
                }
                Expr::Neg(x) => {
                    let v = self.eval(x, cx).await?;
                    match v.as_number() {
                        Some(n) => Value::Number(-n),
                        None => {
                            let e = RunError::new(
                                format!("cannot negate {}", v.describe()),
                                site_of(e),
                            );
                            return Err(self.raise(cx, e));
                        }
                    }
                }
                Expr::Ternary(c, a, b) => {
                    if self.condition(c, cx).await? {
                        self.eval(a, cx).await?
                    } else {
                        self.eval(b, cx).await?
                    }
                }
                Expr::Literal(v) => v.clone(),
                Expr::String(t) => Value::text(self.interpolate(t, cx)),
                Expr::Name(n) => match cx.lookup(n) {
                    Some(v) => v,
                    None => {
                        let e = RunError::new(self.unbound_message(n, cx), Site::default());
                        return Err(self.raise(cx, e));
                    }
                },
                Expr::Unsupported { what, site } => {
                    let e = RunError::new(format!("cannot run {what}"), *site);
                    return Err(self.raise(cx, e));
                }
            };
            Ok(Flow::Next(value))
        })
    }

    fn unbound_message(&self, name: &str, cx: &Cx) -> String {
        let program = &cx.frame.module.program;
        if program.agents.contains_key(name) {
            format!("`{name}` is an agent, not a value")
        } else if program.blocks.contains_key(name) || program.imports.contains_key(name) {
            format!("`{name}` must be called: `do {name}(...)` or `{name}(...)`")
        } else {
            format!(
                "`{name}` is not bound here (the statement that binds it has not run, for example in a branch that was not taken)"
            )
        }
    }

    /// A condition: discretions are asked of the backend, `and`/`or`/`not`
    /// short-circuit, anything else is the truth of its value.
    pub(crate) fn condition<'a>(&'a self, e: &'a Expr, cx: &'a Cx) -> BoxFuture<'a, Exec<bool>> {
        Box::pin(async move {
            match e {
                Expr::Discretion { text, site } => {
                    // Discretions embed values too: `** ... {plan} ... **`.
                    let text = self.interpolate(&crate::lower::braces(text), cx);
                    self.discretion(&text, *site, cx).await
                }
                Expr::Binary(BinOp::And, l, r) => {
                    Ok(self.condition(l, cx).await? && self.condition(r, cx).await?)
                }
                Expr::Binary(BinOp::Or, l, r) => {
                    Ok(self.condition(l, cx).await? || self.condition(r, cx).await?)
                }
                Expr::Not(x) => Ok(!self.condition(x, cx).await?),
                other => Ok(self.eval(other, cx).await?.truthy()),
            }
        })
    }

    /// A template's text: `{name.field}` replaced by the value's text; an
    /// interpolation of a name that is not bound stays as written (real
    /// programs write `{placeholder}` for the agent to fill in).
    pub(crate) fn interpolate(&self, t: &Template, cx: &Cx) -> String {
        let mut out = String::new();
        for p in &t.pieces {
            match p {
                Piece::Text(s) => out.push_str(s),
                Piece::Var { name, fields, raw } => {
                    let mut v = cx.lookup(name);
                    for f in fields {
                        v = v.and_then(|v| v.field(f));
                    }
                    match v {
                        Some(v) => out.push_str(&v.to_text()),
                        None => out.push_str(raw),
                    }
                }
            }
        }
        out
    }
}

fn base_name(e: &Expr) -> String {
    match e {
        Expr::Name(n) => n.clone(),
        Expr::Field(b, f) => format!("{}.{f}", base_name(b)),
        _ => "the value".to_string(),
    }
}

fn site_of(e: &Expr) -> Site {
    match e {
        Expr::CallBlock { site, .. }
        | Expr::Call { site, .. }
        | Expr::Discretion { site, .. }
        | Expr::Unsupported { site, .. } => *site,
        Expr::Session(s) => s.site,
        Expr::Field(b, _) | Expr::Index(b, _) | Expr::Neg(b) | Expr::Not(b) => site_of(b),
        Expr::Binary(_, l, _) => site_of(l),
        _ => Site::default(),
    }
}

/// Arithmetic and comparisons.
fn binary(op: BinOp, l: &Value, r: &Value) -> Result<Value, String> {
    let nums = || Some((l.as_number()?, r.as_number()?));
    let both_numbers = matches!((l, r), (Value::Number(_), Value::Number(_)));
    Ok(match op {
        BinOp::Add => match (l, r) {
            (Value::Number(a), Value::Number(b)) => Value::Number(a + b),
            (Value::List(a), Value::List(b)) => Value::List(a.iter().chain(b).cloned().collect()),
            (Value::List(a), other) => {
                let mut a = a.clone();
                a.push(other.clone());
                Value::List(a)
            }
            _ => Value::text(format!("{}{}", l.to_text(), r.to_text())),
        },
        BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem => {
            let (a, b) = nums().ok_or_else(|| {
                format!("cannot compute with {} and {}", l.describe(), r.describe())
            })?;
            match op {
                BinOp::Sub => Value::Number(a - b),
                BinOp::Mul => Value::Number(a * b),
                _ if b == 0.0 => return Err("division by zero".into()),
                BinOp::Div => Value::Number(a / b),
                _ => Value::Number(a % b),
            }
        }
        BinOp::Eq | BinOp::Ne => {
            let equal = if both_numbers {
                nums().is_some_and(|(a, b)| a == b)
            } else {
                l.to_text().trim() == r.to_text().trim()
            };
            Value::Bool(equal == (op == BinOp::Eq))
        }
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
            let ord = match nums() {
                Some((a, b)) => a.partial_cmp(&b),
                None => Some(l.to_text().trim().cmp(r.to_text().trim())),
            }
            .ok_or("cannot compare these values")?;
            use std::cmp::Ordering::*;
            Value::Bool(match op {
                BinOp::Lt => ord == Less,
                BinOp::Le => ord != Greater,
                BinOp::Gt => ord == Greater,
                _ => ord != Less,
            })
        }
        BinOp::And | BinOp::Or => Value::Bool(match op {
            BinOp::And => l.truthy() && r.truthy(),
            _ => l.truthy() || r.truthy(),
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operators() {
        let n = Value::Number;
        let t = |s: &str| Value::text(s);
        assert_eq!(binary(BinOp::Sub, &n(5.0), &n(1.0)), Ok(n(4.0)));
        assert_eq!(binary(BinOp::Sub, &t("5"), &n(1.0)), Ok(n(4.0)));
        assert_eq!(binary(BinOp::Add, &t("a"), &n(1.0)), Ok(t("a1")));
        assert_eq!(
            binary(
                BinOp::Add,
                &Value::List(vec![n(1.0)]),
                &Value::List(vec![n(2.0)])
            ),
            Ok(Value::List(vec![n(1.0), n(2.0)]))
        );
        assert_eq!(
            binary(BinOp::Ne, &t("approve "), &t("approve")),
            Ok(Value::Bool(false))
        );
        assert_eq!(binary(BinOp::Le, &n(0.0), &n(0.0)), Ok(Value::Bool(true)));
        assert_eq!(
            binary(BinOp::Ge, &t("85"), &n(90.0)),
            Ok(Value::Bool(false))
        );
        assert!(binary(BinOp::Div, &n(1.0), &n(0.0)).is_err());
        assert!(binary(BinOp::Mul, &t("x"), &n(2.0)).is_err());
    }
}
