//! `input name: "description"`, at the top or in the middle of a program.
//!
//! A value given by the caller (`--input name=value`, the editor, the
//! invoking program) binds at once. Otherwise the user is asked through the
//! run's input provider (`input_requested`, then `input_received`), and the
//! answer is journaled so a resumed run does not ask again. Without a
//! provider the run is non-interactive and was refused before it started
//! if an input was missing.

use super::{Cx, Exec, Fail, Interp, RunError};
use crate::{
    events::{EventKind, excerpt},
    input::InputRequest,
    ir::{InputDecl, Stmt, StmtKind},
    state::JournalEntry,
    value::Value,
};

impl Interp {
    pub(crate) async fn input(&self, decl: &InputDecl, cx: &Cx) -> Exec<Value> {
        let module = &cx.frame.module;
        let key = format!("input:{}", cx.key("i", decl.site));
        let value = if let Some(v) = module.given(&decl.name) {
            v
        } else if let Some(entry) = self.store.journal.get(&key) {
            Value::text(entry.output)
        } else if let (Some(provider), true) = (&self.input_provider, module.rel.is_empty()) {
            let description = self.interpolate(&decl.prompt, cx);
            self.emit(
                cx,
                None,
                EventKind::InputRequested {
                    name: decl.name.clone(),
                    description: description.clone(),
                },
            );
            let request = InputRequest {
                run_id: self.store.run_id.clone(),
                name: decl.name.clone(),
                description,
            };
            let answer = tokio::select! {
                a = provider.ask(request) => a,
                () = self.cancel.cancelled() => return Err(Fail::Cancelled),
            };
            let Some(answer) = answer else {
                self.cancel_with(&format!("input `{}` was not given", decl.name));
                return Err(Fail::Cancelled);
            };
            let entry = JournalEntry::input(
                key,
                &decl.name,
                Some(decl.name.clone()),
                decl.prompt.raw(),
                &answer,
            );
            if let Err(e) = self.store.journal.put(entry) {
                self.warn(cx, &format!("cannot record input `{}`: {e}", decl.name));
            }
            self.emit(
                cx,
                None,
                EventKind::InputReceived {
                    name: decl.name.clone(),
                    excerpt: excerpt(&answer),
                },
            );
            Value::text(answer)
        } else {
            let e = RunError::new(format!("input `{}` was not given", decl.name), decl.site);
            return Err(self.raise(cx, e));
        };
        let stmt = Stmt {
            kind: StmtKind::Nop,
            site: decl.site,
            text: format!("input {}: {:?}", decl.name, decl.prompt.raw()),
        };
        self.declare(cx, &decl.name, value.clone(), "input", true, &stmt);
        Ok(value)
    }
}
