//! Block invocation (`do name(args)`), program invocation
//! (`name(input: value)` of a `use`d program) and arrows (`a -> b`).
//!
//! A block call gets a frame of its own with a new execution id (its
//! bindings are `bindings/{name}__{id}.md`), its parameters as read-only
//! names, and a depth limit of [`MAX_DEPTH`]. An invoked program runs in
//! its own namespace and state directory, `imports/{handle}--{slug}/`
//! (recursively the same layout), and its named outputs come back as an
//! object. Programs are found where `prose check` finds them (`[imports]`
//! of `prose.toml`, `.prose/imports/`, `~/.prose/imports/`); the runner
//! never downloads one.

use std::sync::{Arc, Mutex};

use super::{Cx, Exec, Flow, Frame, Interp, MAX_DEPTH, Module, RunError};
use crate::{
    backend::ContextItem,
    ir::{Expr, Import, Site},
    value::Value,
};

impl Interp {
    /// `name(args)`: an imported program, else a block.
    pub(crate) async fn call(
        &self,
        name: &str,
        args: Vec<(Option<String>, Value)>,
        site: Site,
        cx: &Cx,
    ) -> Exec<Value> {
        let program = &cx.frame.module.program;
        if let Some(import) = program.imports.get(name) {
            return self.call_program(name, import, args, site, cx).await;
        }
        if program.blocks.contains_key(name) {
            return self.call_block(name, args, site, cx).await;
        }
        let e = RunError::new(
            format!("`{name}` is neither an imported program nor a block"),
            site,
        );
        Err(self.raise(cx, e))
    }

    pub(crate) async fn call_block(
        &self,
        name: &str,
        args: Vec<(Option<String>, Value)>,
        site: Site,
        cx: &Cx,
    ) -> Exec<Value> {
        let Some(block) = cx.frame.module.program.blocks.get(name) else {
            let e = RunError::new(format!("block `{name}` is not defined"), site);
            return Err(self.raise(cx, e));
        };
        let depth = cx.frame.depth + 1;
        if depth > MAX_DEPTH {
            let e = RunError::new(
                format!("RecursionLimitExceeded: block '{name}' exceeded max_depth {MAX_DEPTH}"),
                site,
            );
            return Err(self.raise(cx, e));
        }
        if args.len() != block.params.len() {
            self.warn(cx, &format!(
                "line {}: block `{name}` expects {} argument(s) but got {}; missing ones are empty",
                site.line,
                block.params.len(),
                args.len()
            ));
        }
        let eid = self.next_execution();
        let frame = Frame::child(&cx.frame, eid, Some(name.to_string()), depth);
        let mut here = cx
            .nested(format_args!("d{}", site.offset))
            .with_frame(frame);
        here.locals = None;
        here.error = None;
        let mut positional = args.iter().filter(|(n, _)| n.is_none()).map(|(_, v)| v);
        for p in &block.params {
            let named = args.iter().find(|(n, _)| n.as_deref() == Some(p.as_str()));
            let v = match named {
                Some((_, v)) => v.clone(),
                None => positional.next().cloned().unwrap_or_default(),
            };
            here = here.with_local(p, v);
        }
        self.state.update(|m| {
            m.frames.insert(eid, (name.to_string(), depth));
        });
        let result = self.exec_body(&block.body, &here).await;
        self.state.update(|m| {
            m.frames.remove(&eid);
        });
        Ok(match result? {
            Flow::Next(v) | Flow::Return(v) => v,
            Flow::Break | Flow::Continue => Value::Null,
        })
    }

    async fn call_program(
        &self,
        name: &str,
        import: &Import,
        args: Vec<(Option<String>, Value)>,
        site: Site,
        cx: &Cx,
    ) -> Exec<Value> {
        let parent = &cx.frame.module;
        let root = self.root.to_string_lossy().replace('\\', "/");
        let home = self
            .home
            .as_ref()
            .map(|h| h.to_string_lossy().replace('\\', "/"));
        let candidates = prose_ide::imports::import_candidates(
            &self.prose_config,
            &root,
            home.as_deref(),
            &parent.file_dir,
            &import.path,
        );
        let Some((path, source)) = candidates
            .iter()
            .find_map(|c| std::fs::read_to_string(c).ok().map(|s| (c.clone(), s)))
        else {
            let e = RunError::new(
                format!(
                    "program `{}` (`{name}`) was not found; the runner does not download programs: put it at .prose/imports/{{handle}}--{{slug}}/program.prose or map it in the [imports] table of prose.toml",
                    import.path
                ),
                site,
            );
            return Err(self.raise(cx, e));
        };
        let lowered = crate::lower::lower(&source);
        // The invoked program's agents are held to the same permission check
        // as the program's own (they were not known before the run).
        let unenforced =
            crate::run::unenforced_permissions(&lowered.program, self.backend.as_ref());
        if !unenforced.is_empty() {
            let list: Vec<String> = unenforced.iter().map(|u| u.to_string()).collect();
            if !self.allow_unenforced {
                let e = RunError::new(
                    format!(
                        "program `{}` would not be held to its permissions: {}; pass --allow-unenforced-permissions to run it anyway",
                        import.path,
                        list.join("; ")
                    ),
                    site,
                );
                return Err(self.raise(cx, e));
            }
            for u in list {
                self.warn(
                    cx,
                    &format!("{u}; running anyway (--allow-unenforced-permissions)"),
                );
            }
        }
        let slug = match prose_ide::imports::registry_form(&import.path) {
            Some(r) => r.trim_start_matches('@').replace('/', "--"),
            None => {
                prose_ide::imports::implicit_name(&import.path).unwrap_or_else(|| name.to_string())
            }
        };
        let eid = self.next_execution();
        let rel = format!("{}imports/{slug}__{eid}/", parent.rel);
        let dir = self.store.dir.join(&rel);
        let _ = crate::state::write_atomic(
            &dir.join("program.prose"),
            source.as_bytes(),
            self.store.durable,
        );

        let mut given = std::collections::BTreeMap::new();
        for (n, v) in args {
            match n {
                Some(n) => {
                    given.insert(n, v);
                }
                None => self.warn(cx, &format!(
                    "line {}: arguments of a program are named (`{name}(input: value)`); a positional one is ignored",
                    site.line
                )),
            }
        }
        let missing: Vec<&str> = lowered
            .program
            .inputs
            .iter()
            .map(|i| i.name.as_str())
            .filter(|i| !given.contains_key(*i))
            .collect();
        if !missing.is_empty() {
            let e = RunError::new(
                format!(
                    "program `{}` needs input(s) {}",
                    import.path,
                    missing.join(", ")
                ),
                site,
            );
            return Err(self.raise(cx, e));
        }
        let file_dir = std::path::Path::new(&path)
            .parent()
            .map(|p| p.to_string_lossy().replace('\\', "/"))
            .unwrap_or_default();
        let module = Arc::new(Module {
            program: lowered.program,
            rel,
            file_dir,
            given: Mutex::new(given),
            outputs: Mutex::default(),
        });
        let here = Cx {
            frame: Frame::root(module.clone()),
            locals: None,
            path: format!("{}/u{}", cx.path, site.offset).into(),
            branch: cx.branch.clone(),
            error: None,
        };
        self.exec_body(&module.program.body, &here).await?;
        Ok(Value::Object(module.outputs()))
    }

    /// `a -> b -> c`: in order; each session after the first gets the
    /// previous step's result as context (`previous`) unless it names its
    /// own context. The value is the last step's.
    pub(crate) async fn arrow(
        &self,
        steps: &[Expr],
        cx: &Cx,
        binding: Option<&str>,
    ) -> Exec<Value> {
        let mut prev: Option<Value> = None;
        for (i, step) in steps.iter().enumerate() {
            let hint = if i + 1 == steps.len() { binding } else { None };
            let v = match (step, &prev) {
                (Expr::Session(s), Some(p)) if s.props.context.is_none() => {
                    let extra = ContextItem {
                        name: "previous".into(),
                        text: p.to_text(),
                        path: None,
                    };
                    Value::text(self.session(s, cx, hint, Some(extra)).await?)
                }
                _ => self.eval_bound(step, cx, hint).await?,
            };
            prev = Some(v);
        }
        Ok(prev.unwrap_or_default())
    }
}
