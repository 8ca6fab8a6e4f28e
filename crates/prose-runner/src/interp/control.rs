//! `if`/`elif`/`else`, `choice`, `repeat`, `for`, `loop`, `try`/`catch`/
//! `finally`, `throw`.

use std::sync::Arc;

use super::{Cx, DEFAULT_LOOP_MAX, Exec, Fail, Flow, Interp, RunError};
use crate::{
    ir::{Catch, Choice, Expr, ForLoop, If, Loop, LoopCond, Repeat, Site, Stmt},
    value::Value,
};

/// What a loop body's flow means for the loop: go on (with the body's
/// value), stop, or leave the enclosing block.
enum Step {
    Go(Value),
    Stop,
    Leave(Flow),
}

fn step(flow: Flow) -> Step {
    match flow {
        Flow::Next(v) => Step::Go(v),
        Flow::Continue => Step::Go(Value::Null),
        Flow::Break => Step::Stop,
        ret @ Flow::Return(_) => Step::Leave(ret),
    }
}

impl Interp {
    pub(crate) async fn exec_if(&self, i: &If, cx: &Cx) -> Exec<Flow> {
        for (cond, body) in &i.arms {
            if self.condition(cond, cx).await? {
                return self.exec_body(body, cx).await;
            }
        }
        match &i.otherwise {
            Some(body) => self.exec_body(body, cx).await,
            None => Ok(Flow::Next(Value::Null)),
        }
    }

    pub(crate) async fn exec_choice(&self, c: &Choice, cx: &Cx) -> Exec<Flow> {
        if c.options.is_empty() {
            return Ok(Flow::Next(Value::Null));
        }
        let criteria = match &c.criteria {
            Expr::Discretion { text, .. } => self.interpolate(&crate::lower::braces(text), cx),
            other => self.eval(other, cx).await?.to_text(),
        };
        let labels: Vec<String> = c.options.iter().map(|(l, _)| l.clone()).collect();
        let i = self.choose(&criteria, &labels, c.site, cx).await?;
        self.exec_body(&c.options[i].1, cx).await
    }

    /// A loop count (`repeat N`, `max: N`) as a non-negative integer.
    async fn count(&self, e: &Expr, site: Site, what: &str, cx: &Cx) -> Exec<u64> {
        let v = self.eval(e, cx).await?;
        match v.as_number() {
            Some(n) if n >= 0.0 && n.fract() == 0.0 => Ok(n as u64),
            _ => {
                let e = RunError::new(
                    format!(
                        "{what} must be a whole number of 0 or more, not {}",
                        v.describe()
                    ),
                    site,
                );
                Err(self.raise(cx, e))
            }
        }
    }

    pub(crate) async fn exec_repeat(&self, r: &Repeat, cx: &Cx) -> Exec<Flow> {
        let n = self.count(&r.count, r.site, "the repeat count", cx).await?;
        let mut values = Vec::new();
        for i in 0..n {
            let mut here = cx.nested(format_args!("r{}#{i}", r.site.offset));
            if let Some(name) = &r.index {
                here = here.with_local(name, Value::Number(i as f64));
            }
            match step(self.exec_body(&r.body, &here).await?) {
                Step::Go(v) => values.push(v),
                Step::Stop => break,
                Step::Leave(f) => return Ok(f),
            }
        }
        Ok(Flow::Next(Value::List(values)))
    }

    pub(crate) async fn exec_for(&self, f: &ForLoop, cx: &Cx) -> Exec<Flow> {
        let items = self.eval(&f.collection, cx).await?.items();
        let mut values = Vec::new();
        for (i, item) in items.into_iter().enumerate() {
            let mut here = cx
                .nested(format_args!("f{}#{i}", f.site.offset))
                .with_local(&f.item, item);
            if let Some(index) = &f.index {
                here = here.with_local(index, Value::Number(i as f64));
            }
            match step(self.exec_body(&f.body, &here).await?) {
                Step::Go(v) => values.push(v),
                Step::Stop => break,
                Step::Leave(flow) => return Ok(flow),
            }
        }
        Ok(Flow::Next(Value::List(values)))
    }

    /// `loop`: the condition is checked before each iteration (prose.md and
    /// compiler.md's execution semantics), the loop stops at `max`
    /// iterations, and at [`DEFAULT_LOOP_MAX`] when it has no `max`.
    pub(crate) async fn exec_loop(&self, l: &Loop, cx: &Cx) -> Exec<Flow> {
        let max = match &l.max {
            Some(e) => self.count(e, l.site, "`max`", cx).await?,
            None => {
                self.warn(cx, &format!(
                    "line {}: this loop has no `(max: N)`; it stops after {DEFAULT_LOOP_MAX} iterations",
                    l.site.line
                ));
                DEFAULT_LOOP_MAX
            }
        };
        let mut values = Vec::new();
        for i in 0..max {
            let here = cx.nested(format_args!("l{}#{i}", l.site.offset));
            if let Some((kind, cond)) = &l.condition {
                let holds = self.condition(cond, &here).await?;
                let stop = match kind {
                    LoopCond::Until => holds,
                    LoopCond::While => !holds,
                };
                if stop {
                    break;
                }
            }
            let body_cx = match &l.index {
                Some(name) => here.with_local(name, Value::Number(i as f64)),
                None => here,
            };
            match step(self.exec_body(&l.body, &body_cx).await?) {
                Step::Go(v) => values.push(v),
                Step::Stop => break,
                Step::Leave(flow) => return Ok(flow),
            }
        }
        Ok(Flow::Next(Value::List(values)))
    }

    /// `try`: the body; on an error, the `catch` body (with the error bound
    /// to its name); then `finally` whatever happened — except when the
    /// run is cancelled, which nothing catches and which skips `finally`.
    pub(crate) async fn exec_try(
        &self,
        body: &[Stmt],
        catch: Option<&Catch>,
        finally: Option<&[Stmt]>,
        cx: &Cx,
    ) -> Exec<Flow> {
        let outcome = match self.exec_body(body, &cx.nested("try")).await {
            Err(Fail::Error(e)) if catch.is_some() => {
                let c = catch.expect("checked");
                let mut here = cx.nested("catch");
                here.error = Some(Arc::new(e.clone()));
                if let Some(name) = &c.name {
                    here = here.with_local(name, Value::text(e.to_string()));
                }
                self.exec_body(&c.body, &here).await
            }
            other => other,
        };
        if matches!(outcome, Err(Fail::Cancelled)) {
            return outcome;
        }
        match finally {
            Some(f) => match self.exec_body(f, &cx.nested("finally")).await? {
                Flow::Next(_) => outcome,
                // A `return` or `break` in `finally` wins.
                other => Ok(other),
            },
            None => outcome,
        }
    }

    /// `throw` (re-raises the error a `catch` handles) or `throw "message"`.
    pub(crate) async fn throw(&self, message: Option<&Expr>, cx: &Cx, site: Site) -> Fail {
        let e = match message {
            Some(m) => match self.eval(m, cx).await {
                Ok(v) => RunError::new(v.to_text(), site),
                Err(f) => return f,
            },
            None => match &cx.error {
                Some(e) => (**e).clone(),
                None => RunError::new("error thrown", site),
            },
        };
        self.raise(cx, e)
    }
}
