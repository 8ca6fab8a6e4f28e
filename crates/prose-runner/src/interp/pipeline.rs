//! Pipelines: `items | filter: ... | map: ... | reduce(acc, x): ...`,
//! left to right. `map` and `filter` run item by item, `pmap` all items at
//! once (each in a frame of its own), `reduce` folds from the first item.
//!
//! A `filter` keeps an item when its body's value reads as yes: a boolean,
//! or a text whose first word is yes/true (no/false drop it); any other
//! text is judged by the backend (a `judgement` request).

use super::{Cx, Exec, Flow, Interp};
use crate::{
    answer::read_condition,
    ir::{Pipe, PipeKind},
    value::Value,
};

fn value_of(flow: Flow) -> Value {
    match flow {
        Flow::Next(v) | Flow::Return(v) => v,
        Flow::Break | Flow::Continue => Value::Null,
    }
}

impl Interp {
    pub(crate) async fn pipe(&self, p: &Pipe, cx: &Cx) -> Exec<Value> {
        let mut current = self.eval(&p.source, cx).await?;
        for (n, op) in p.ops.iter().enumerate() {
            let items = current.items();
            let at = |i: usize| cx.nested(format_args!("|{}.{n}#{i}", p.site.offset));
            current = match &op.kind {
                PipeKind::Map => {
                    let mut out = Vec::with_capacity(items.len());
                    for (i, item) in items.into_iter().enumerate() {
                        let here = at(i).with_local("item", item);
                        out.push(value_of(self.exec_body(&op.body, &here).await?));
                    }
                    Value::List(out)
                }
                PipeKind::Pmap => {
                    let cxs = items
                        .into_iter()
                        .enumerate()
                        .map(|(i, item)| {
                            self.branch_cx(cx, op.site, i, Some(()))
                                .nested(format_args!("|{}.{n}", p.site.offset))
                                .with_local("item", item)
                        })
                        .collect();
                    self.fan_body(&op.body, cxs, op.site, cx).await?
                }
                PipeKind::Filter => {
                    let mut out = Vec::new();
                    for (i, item) in items.into_iter().enumerate() {
                        let here = at(i).with_local("item", item.clone());
                        let answer = value_of(self.exec_body(&op.body, &here).await?);
                        let keep = match &answer {
                            Value::Bool(b) => *b,
                            Value::Text(t) => match read_condition(t) {
                                Some(b) => b,
                                None => self.judge(&item.to_text(), t, op.site, &here).await?,
                            },
                            other => other.truthy(),
                        };
                        if keep {
                            out.push(item);
                        }
                    }
                    Value::List(out)
                }
                PipeKind::Reduce { acc, item } => {
                    let mut it = items.into_iter().enumerate();
                    let mut total = it.next().map(|(_, v)| v).unwrap_or_default();
                    for (i, x) in it {
                        let here = at(i).with_local(acc, total).with_local(item, x);
                        total = value_of(self.exec_body(&op.body, &here).await?);
                    }
                    total
                }
            };
        }
        Ok(current)
    }
}
