//! Frames, scoped names and bindings.
//!
//! The model is the runtime's (and the checker's, `prose_ide::semantics`):
//! `let`, `const`, `output`, assignments and named results bind in the flat
//! namespace of their *frame* — the program, or one block invocation — so a
//! name bound in an `if` branch or a loop body is visible after it. Block
//! parameters, loop and index variables, the pipeline's `item`, `reduce`'s
//! variables and `catch as` names are *scoped*: visible in their body only,
//! and read-only. Lookups go from the scoped names through the frame to the
//! frames of the callers. Bodies that run at the same time as others
//! (parallel branches, `parallel for` iterations, `pmap` items) get a frame
//! of their own, so their `let`s do not collide.
//!
//! Every binding of a frame is written to `bindings/{name}.md` (root) or
//! `bindings/{name}__{execution_id}.md` (block frames) in the runtime's
//! format, when it is bound.

use std::{
    collections::{HashMap, VecDeque},
    sync::{Arc, Mutex},
};

use super::{Exec, Interp, RunError};
use crate::{
    events::{EventKind, excerpt},
    ir::{Program, Site, Stmt, Target},
    state::{state_md::BindingRow, write_atomic},
    value::Value,
};

/// How many recent outputs a frame remembers for conditions and choices.
pub const RECENT_OUTPUTS: usize = 3;

/// A program being run: the root program or an invoked one.
#[derive(Debug)]
pub(crate) struct Module {
    pub program: Program,
    /// `dir` relative to the run directory (`""` or `imports/a--b__3/`).
    pub rel: String,
    /// The directory of the program's file (`/`-separated), for `use` paths.
    pub file_dir: String,
    /// Input values given by the caller (the command line, or the invoking
    /// program's arguments).
    pub given: Mutex<std::collections::BTreeMap<String, Value>>,
    /// Named outputs, in the order they were first bound.
    pub outputs: Mutex<Vec<(String, Value)>>,
}

impl Module {
    pub fn set_output(&self, name: &str, v: Value) {
        let mut outs = self.outputs.lock().unwrap_or_else(|e| e.into_inner());
        match outs.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = v,
            None => outs.push((name.to_string(), v)),
        }
    }

    pub fn given(&self, name: &str) -> Option<Value> {
        self.given
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(name)
            .cloned()
    }

    pub fn outputs(&self) -> Vec<(String, Value)> {
        self.outputs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

/// A binding of a frame.
#[derive(Debug, Clone)]
pub(crate) struct Var {
    pub value: Value,
    pub is_const: bool,
    pub kind: &'static str,
    /// Its file, relative to the run directory.
    pub file: Option<String>,
}

/// The program's frame or a block invocation's.
#[derive(Debug)]
pub(crate) struct Frame {
    pub module: Arc<Module>,
    pub vars: Mutex<HashMap<String, Var>>,
    pub parent: Option<Arc<Frame>>,
    /// 0 for a module's root frame.
    pub eid: u64,
    /// The block this frame runs (`None` for a root frame or a parallel
    /// body's frame).
    pub block: Option<String>,
    pub depth: u32,
    /// The latest session outputs (name, text), newest last.
    pub recent: Mutex<VecDeque<(String, String)>>,
}

impl Frame {
    pub fn root(module: Arc<Module>) -> Arc<Frame> {
        Arc::new(Frame {
            module,
            vars: Mutex::default(),
            parent: None,
            eid: 0,
            block: None,
            depth: 0,
            recent: Mutex::default(),
        })
    }

    pub fn child(parent: &Arc<Frame>, eid: u64, block: Option<String>, depth: u32) -> Arc<Frame> {
        Arc::new(Frame {
            module: parent.module.clone(),
            vars: Mutex::default(),
            parent: Some(parent.clone()),
            eid,
            block,
            depth,
            recent: Mutex::new(parent.recent_outputs().into()),
        })
    }

    fn vars(&self) -> std::sync::MutexGuard<'_, HashMap<String, Var>> {
        self.vars.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn get(&self, name: &str) -> Option<Var> {
        self.vars().get(name).cloned()
    }

    pub fn remember_output(&self, name: &str, text: &str) {
        let mut r = self.recent.lock().unwrap_or_else(|e| e.into_inner());
        r.push_back((name.to_string(), text.to_string()));
        while r.len() > RECENT_OUTPUTS {
            r.pop_front();
        }
    }

    pub fn recent_outputs(&self) -> Vec<(String, String)> {
        self.recent
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .cloned()
            .collect()
    }
}

/// A scoped, read-only name.
#[derive(Debug)]
pub(crate) struct Local {
    pub name: String,
    pub value: Value,
    pub parent: Option<Arc<Local>>,
}

/// Where execution is.
#[derive(Debug, Clone)]
pub(crate) struct Cx {
    pub frame: Arc<Frame>,
    pub locals: Option<Arc<Local>>,
    /// The key path of this place in the execution.
    pub path: Arc<str>,
    /// The parallel branch path (`p12.b1/p15.b0`), for events.
    pub branch: Option<Arc<str>>,
    /// The error a `catch` body is handling (for a bare `throw`).
    pub error: Option<Arc<RunError>>,
}

impl Cx {
    pub fn new(frame: Arc<Frame>, path: &str) -> Cx {
        Cx {
            frame,
            locals: None,
            path: path.into(),
            branch: None,
            error: None,
        }
    }

    /// The key of a request made at `site` here; `what` tells requests at
    /// the same site apart (`s` session, `c` condition, `j` judgement).
    pub fn key(&self, what: &str, site: Site) -> String {
        format!("{}/{what}{}", self.path, site.offset)
    }

    /// A place nested in this one (`segment` names the construct and, for
    /// loops, the iteration).
    pub fn nested(&self, segment: impl std::fmt::Display) -> Cx {
        Cx {
            path: format!("{}/{segment}", self.path).into(),
            ..self.clone()
        }
    }

    pub fn with_local(&self, name: &str, value: Value) -> Cx {
        Cx {
            locals: Some(Arc::new(Local {
                name: name.to_string(),
                value,
                parent: self.locals.clone(),
            })),
            ..self.clone()
        }
    }

    pub fn with_frame(&self, frame: Arc<Frame>) -> Cx {
        Cx {
            frame,
            ..self.clone()
        }
    }

    fn local(&self, name: &str) -> Option<&Value> {
        let mut l = self.locals.as_deref();
        while let Some(local) = l {
            if local.name == name {
                return Some(&local.value);
            }
            l = local.parent.as_deref();
        }
        None
    }

    /// A variable's value: scoped names, then the frames up the call chain.
    pub fn lookup(&self, name: &str) -> Option<Value> {
        if let Some(v) = self.local(name) {
            return Some(v.clone());
        }
        self.lookup_var(name).map(|v| v.value)
    }

    /// A frame binding (with its file), up the call chain.
    pub fn lookup_var(&self, name: &str) -> Option<Var> {
        let mut f = Some(&self.frame);
        while let Some(frame) = f {
            if let Some(v) = frame.get(name) {
                return Some(v);
            }
            f = frame.parent.as_ref();
        }
        None
    }
}

impl Interp {
    /// Writes a binding's file in the runtime's format and reports it;
    /// returns its path relative to the run directory.
    pub(crate) fn write_binding(
        &self,
        cx: &Cx,
        name: &str,
        kind: &str,
        value: &Value,
        source: &str,
        line: u32,
    ) -> Result<String, RunError> {
        let frame = &cx.frame;
        let file = if frame.eid == 0 {
            format!("{name}.md")
        } else {
            format!("{name}__{}.md", frame.eid)
        };
        let rel = format!("{}bindings/{file}", frame.module.rel);
        let text = value.to_text();
        let mut doc = format!("# {name}\n\nkind: {kind}\n");
        if frame.eid != 0 {
            doc.push_str(&format!("execution_id: {}\n", frame.eid));
        }
        doc.push_str(&format!(
            "\nsource:\n```prose\n{source}\n```\n\n---\n\n{text}\n"
        ));
        write_atomic(
            &self.store.dir.join(&rel),
            doc.as_bytes(),
            self.store.durable,
        )
        .map_err(|e| RunError {
            message: format!("cannot write {rel}: {e}"),
            line: Some(line),
        })?;
        let eid = (frame.eid != 0).then_some(frame.eid);
        let is_root_module = frame.module.rel.is_empty();
        self.state.update(|m| {
            m.bindings.insert(
                rel.clone(),
                BindingRow {
                    name: name.to_string(),
                    kind: kind.to_string(),
                    path: rel.clone(),
                    execution_id: eid,
                },
            );
            if is_root_module && line > 0 {
                m.done.insert(line, format!("--> {rel}"));
            }
        });
        self.emit(
            cx,
            None,
            EventKind::BindingWritten {
                name: name.to_string(),
                path: rel.clone(),
                excerpt: excerpt(&text),
            },
        );
        Ok(rel)
    }

    /// Binds `name` in the current frame (a new binding replaces an old one
    /// of the same name) and writes its file.
    pub(crate) fn declare(
        &self,
        cx: &Cx,
        name: &str,
        value: Value,
        kind: &'static str,
        is_const: bool,
        stmt: &Stmt,
    ) {
        // A binding that cannot be written is still bound: the run goes on,
        // and the warning says its state is incomplete.
        let file = match self.write_binding(cx, name, kind, &value, &stmt.text, stmt.site.line) {
            Ok(f) => Some(f),
            Err(e) => {
                self.warn(cx, &e.to_string());
                None
            }
        };
        cx.frame
            .vars
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(
                name.to_string(),
                Var {
                    value,
                    is_const,
                    kind,
                    file,
                },
            );
    }

    pub(crate) fn warn(&self, cx: &Cx, message: &str) {
        self.emit(
            cx,
            None,
            EventKind::Warning {
                message: message.to_string(),
            },
        );
    }

    /// `name = value`: updates the nearest frame binding `name` (a `const`
    /// cannot change); binds it in the current frame when there is none.
    pub(crate) fn assign(&self, cx: &Cx, name: &str, value: Value, stmt: &Stmt) -> Exec<()> {
        if cx.local(name).is_some() {
            let e = RunError::new(
                format!(
                    "cannot assign to `{name}`: loop variables, parameters and error variables are read-only"
                ),
                stmt.site,
            );
            return Err(self.raise(cx, e));
        }
        let mut f = Some(cx.frame.clone());
        while let Some(frame) = f {
            if let Some(var) = frame.get(name) {
                if var.is_const {
                    let e = RunError::new(format!("cannot reassign const `{name}`"), stmt.site);
                    return Err(self.raise(cx, e));
                }
                let here = cx.with_frame(frame.clone());
                self.declare(&here, name, value, var.kind, false, stmt);
                if var.kind == "output" {
                    frame.module.set_output(name, self_value(&here, name));
                }
                return Ok(());
            }
            f = frame.parent.clone();
        }
        self.declare(cx, name, value, "let", false, stmt);
        Ok(())
    }

    /// Binds a `let` target: a name, or `{ a, b }` from an object's fields.
    pub(crate) fn bind_target(
        &self,
        cx: &Cx,
        target: &Target,
        value: Value,
        kind: &'static str,
        stmt: &Stmt,
    ) -> Exec<()> {
        let is_const = kind == "const";
        match target {
            Target::Name(n) => self.declare(cx, n, value, kind, is_const, stmt),
            Target::Destructure(names) => {
                for n in names {
                    let Some(v) = value.field(n) else {
                        let e = RunError::new(
                            format!(
                                "cannot destructure `{n}`: the value ({}) has no field `{n}`",
                                value.describe()
                            ),
                            stmt.site,
                        );
                        return Err(self.raise(cx, e));
                    };
                    self.declare(cx, n, v, kind, is_const, stmt);
                }
            }
        }
        Ok(())
    }
}

fn self_value(cx: &Cx, name: &str) -> Value {
    cx.frame.get(name).map(|v| v.value).unwrap_or_default()
}
