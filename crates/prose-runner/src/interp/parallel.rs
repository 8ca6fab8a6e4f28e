//! `parallel:` blocks, `parallel for` and `pmap`: branches run
//! concurrently (futures polled together, so backend requests overlap),
//! joined by strategy (`all`, `first`, `any` with `count`) and failure
//! policy (`fail-fast`, `continue`, `ignore`).
//!
//! Decisions where compiler.md leaves room (docs/runner.md, "Parallel"):
//! - `fail-fast`: the first failure stops the other branches and fails the
//!   block;
//! - `continue`: every branch runs to its end; a failed branch's result is
//!   its error message (an `error` event reports it) and the block
//!   succeeds, so later statements can look at the failures;
//! - `ignore`: like `continue`, but a failed branch's result is empty;
//! - `first` returns the first branch to finish (with `fail-fast` a failure
//!   finishing first fails the block; otherwise failures are passed over);
//!   `any` waits for `count` successes (default 1); the other branches are
//!   stopped and reported `skipped`;
//! - the value: with `all`, an object of the named results when every
//!   branch is named, otherwise the list of results in branch order; with
//!   `first` (or `any` with count 1) the winning result; with `any` and a
//!   larger count, the list of the successful results in branch order.

use futures::{StreamExt, future::BoxFuture, stream::FuturesUnordered};

use super::{Cx, Exec, Fail, Flow, Frame, Interp, RunError};
use crate::{
    events::{BranchStatus, EventKind},
    ir::{ForLoop, Join, OnFail, Parallel, Site, Stmt, StmtKind},
    value::Value,
};

/// How one branch ended.
#[derive(Debug, Clone)]
enum Outcome {
    Ok(Value),
    Failed(RunError),
    Skipped,
}

/// A fan-out to run.
struct Fan<'a> {
    join: Join,
    on_fail: OnFail,
    count: usize,
    site: Site,
    /// Result names (`None` for unnamed branches), one per branch.
    names: Vec<Option<String>>,
    /// Each branch's context.
    cxs: Vec<Cx>,
    /// The statement the names are bound by (for binding files).
    stmts: Vec<Option<&'a Stmt>>,
}

impl Interp {
    pub(crate) async fn parallel(&self, p: &Parallel, cx: &Cx) -> Exec<Value> {
        let count = match &p.count {
            Some(e) => {
                let v = self.eval(e, cx).await?;
                v.as_number().map_or(1, |n| n.max(1.0) as usize)
            }
            None => 1,
        };
        let cxs = (0..p.branches.len())
            .map(|i| self.branch_cx(cx, p.site, i, None))
            .collect();
        let fan = Fan {
            join: p.join,
            on_fail: p.on_fail,
            count,
            site: p.site,
            names: p.branches.iter().map(|b| b.name.clone()).collect(),
            cxs,
            stmts: p.branches.iter().map(|b| Some(&b.stmt)).collect(),
        };
        let branches: Vec<&Stmt> = p.branches.iter().map(|b| &b.stmt).collect();
        let all_named = !p.branches.is_empty() && p.branches.iter().all(|b| b.name.is_some());
        let outcomes = self
            .fan_out(&fan, cx, |i, bcx| {
                let stmt = branches[i];
                let name = fan.names[i].as_deref();
                Box::pin(async move {
                    match &stmt.kind {
                        StmtKind::Expr(e) => self.eval_bound(e, bcx, name).await,
                        _ => Ok(match self.exec_stmt(stmt, bcx).await? {
                            Flow::Next(v) | Flow::Return(v) => v,
                            Flow::Break | Flow::Continue => Value::Null,
                        }),
                    }
                })
            })
            .await?;
        Ok(self.fan_value(&fan, outcomes, all_named))
    }

    /// `parallel for`: every iteration at once, in a frame of its own.
    pub(crate) async fn parallel_for(&self, f: &ForLoop, cx: &Cx) -> Exec<Value> {
        let items = self.eval(&f.collection, cx).await?.items();
        let cxs: Vec<Cx> = items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                let mut c = self
                    .branch_cx(cx, f.site, i, Some(()))
                    .with_local(&f.item, item.clone());
                if let Some(index) = &f.index {
                    c = c.with_local(index, Value::Number(i as f64));
                }
                c
            })
            .collect();
        self.fan_body(&f.body, cxs, f.site, cx).await
    }

    /// Runs `body` once per context, all at once, `fail-fast`; the list of
    /// the bodies' values (`parallel for`, `pmap`).
    pub(crate) async fn fan_body(
        &self,
        body: &[Stmt],
        cxs: Vec<Cx>,
        site: Site,
        cx: &Cx,
    ) -> Exec<Value> {
        let n = cxs.len();
        let fan = Fan {
            join: Join::All,
            on_fail: OnFail::FailFast,
            count: 1,
            site,
            names: vec![None; n],
            cxs,
            stmts: vec![None; n],
        };
        let outcomes = self
            .fan_out(&fan, cx, |_, bcx| {
                Box::pin(async move {
                    Ok(match self.exec_body(body, bcx).await? {
                        Flow::Next(v) | Flow::Return(v) => v,
                        Flow::Break | Flow::Continue => Value::Null,
                    })
                })
            })
            .await?;
        Ok(self.fan_value(&fan, outcomes, false))
    }

    /// The context of branch `i` of the parallel at `site`: its key path,
    /// its branch path, and (with `own_frame`) a frame of its own.
    pub(crate) fn branch_cx(&self, cx: &Cx, site: Site, i: usize, own_frame: Option<()>) -> Cx {
        let id = format!("p{}.b{i}", site.line);
        let mut c = cx.nested(format_args!("p{}.b{i}", site.offset));
        c.branch = Some(match &cx.branch {
            Some(parent) => format!("{parent}/{id}").into(),
            None => id.into(),
        });
        if own_frame.is_some() {
            let eid = self.next_execution();
            c.frame = Frame::child(&cx.frame, eid, None, cx.frame.depth);
        }
        c
    }

    async fn fan_out<'a, F>(&'a self, fan: &'a Fan<'a>, cx: &'a Cx, run: F) -> Exec<Vec<Outcome>>
    where
        F: Fn(usize, &'a Cx) -> BoxFuture<'a, Exec<Value>>,
    {
        let n = fan.cxs.len();
        let mut outcomes: Vec<Option<Outcome>> = vec![None; n];
        let mut pending: FuturesUnordered<_> = FuturesUnordered::new();
        for (i, bcx) in fan.cxs.iter().enumerate() {
            self.emit(
                bcx,
                None,
                EventKind::BranchStarted {
                    name: name_of(fan, i),
                },
            );
            let fut = run(i, bcx);
            pending.push(async move { (i, fut.await) });
        }
        let mut successes = 0usize;
        let mut failure: Option<RunError> = None;
        while let Some((i, result)) = pending.next().await {
            let bcx = &fan.cxs[i];
            match result {
                Err(Fail::Cancelled) => return Err(Fail::Cancelled),
                Ok(v) => {
                    successes += 1;
                    self.bind_branch(fan, i, &v, cx);
                    self.emit(
                        bcx,
                        None,
                        EventKind::BranchFinished {
                            name: name_of(fan, i),
                            status: BranchStatus::Ok,
                        },
                    );
                    outcomes[i] = Some(Outcome::Ok(v));
                }
                Err(Fail::Error(e)) => {
                    self.emit(
                        bcx,
                        None,
                        EventKind::BranchFinished {
                            name: name_of(fan, i),
                            status: BranchStatus::Failed,
                        },
                    );
                    let kept = match fan.on_fail {
                        OnFail::FailFast => {
                            failure = Some(e.clone());
                            outcomes[i] = Some(Outcome::Failed(e));
                            break;
                        }
                        OnFail::Continue => Value::text(format!("error: {e}")),
                        OnFail::Ignore => Value::Null,
                    };
                    self.bind_branch(fan, i, &kept, cx);
                    outcomes[i] = Some(Outcome::Failed(e));
                }
            }
            let done = match fan.join {
                Join::All => false,
                Join::First => successes >= 1,
                Join::Any => successes >= fan.count,
            };
            let remaining = pending.len();
            if done || (fan.join == Join::Any && successes + remaining < fan.count) {
                break;
            }
        }
        // Branches still running are not needed any more: dropping them
        // stops their requests (and kills their processes).
        drop(pending);
        let outcomes: Vec<Outcome> = outcomes
            .into_iter()
            .enumerate()
            .map(|(i, o)| {
                o.unwrap_or_else(|| {
                    self.emit(
                        &fan.cxs[i],
                        None,
                        EventKind::BranchFinished {
                            name: name_of(fan, i),
                            status: BranchStatus::Skipped,
                        },
                    );
                    Outcome::Skipped
                })
            })
            .collect();
        if let Some(e) = failure {
            return Err(Fail::Error(e));
        }
        let needed = match fan.join {
            Join::All => 0,
            Join::First => 1,
            Join::Any => fan.count,
        };
        if successes < needed && fan.on_fail != OnFail::Ignore {
            let e = RunError::new(
                format!(
                    "the parallel block needed {needed} successful branch{} and got {successes}",
                    if needed == 1 { "" } else { "es" }
                ),
                fan.site,
            );
            return Err(self.raise(cx, e));
        }
        Ok(outcomes)
    }

    /// Binds a named branch's result in the enclosing frame.
    fn bind_branch(&self, fan: &Fan<'_>, i: usize, v: &Value, cx: &Cx) {
        if let (Some(name), Some(stmt)) = (&fan.names[i], fan.stmts[i]) {
            self.declare(cx, name, v.clone(), "let", false, stmt);
        }
    }

    fn fan_value(&self, fan: &Fan<'_>, outcomes: Vec<Outcome>, all_named: bool) -> Value {
        let value_of = |o: &Outcome| match o {
            Outcome::Ok(v) => v.clone(),
            Outcome::Failed(e) if fan.on_fail == OnFail::Continue => {
                Value::text(format!("error: {e}"))
            }
            _ => Value::Null,
        };
        match fan.join {
            Join::All if all_named => Value::Object(
                outcomes
                    .iter()
                    .enumerate()
                    .map(|(i, o)| (fan.names[i].clone().unwrap_or_default(), value_of(o)))
                    .collect(),
            ),
            Join::All => Value::List(outcomes.iter().map(value_of).collect()),
            Join::First | Join::Any => {
                let wins: Vec<Value> = outcomes
                    .iter()
                    .filter_map(|o| match o {
                        Outcome::Ok(v) => Some(v.clone()),
                        _ => None,
                    })
                    .collect();
                if fan.join == Join::First || fan.count <= 1 {
                    wins.into_iter().next().unwrap_or_default()
                } else {
                    Value::List(wins)
                }
            }
        }
    }
}

fn name_of(fan: &Fan<'_>, i: usize) -> String {
    fan.names[i].clone().unwrap_or_default()
}
