//! The interpreter: runs a lowered program's statements.
//!
//! One [`Interp`] per run holds what every statement needs (backend,
//! events, state, options). Execution state travels in a [`Cx`]: the frame
//! (root program or block invocation) whose flat bindings are in scope, the
//! scoped names (loop variables, parameters, `item`, the caught error), the
//! *key path* that names the current place in the execution (resume finds
//! finished requests by it), and the parallel branch path for events.
//!
//! One module per construct group: [`scope`] (frames and bindings),
//! [`eval`] (expressions, conditions, interpolation), [`session`] (backend
//! requests, retries, the journal), [`prompt`] (the prompt layout),
//! [`control`] (if, choice, loops, try), [`parallel`], [`pipeline`],
//! [`call`] (blocks and program invocation), [`input`].

pub(crate) mod call;
pub(crate) mod control;
pub(crate) mod eval;
pub(crate) mod input;
pub(crate) mod parallel;
pub(crate) mod pipeline;
pub mod prompt;
pub(crate) mod scope;
pub(crate) mod session;

use std::{
    collections::HashMap,
    fmt,
    path::PathBuf,
    sync::{
        Arc, Mutex,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use futures::future::BoxFuture;

use crate::{
    backend::{Backend, BackendKind, CancellationToken},
    clock::Clock,
    config::RunnerConfig,
    events::{EventBus, EventKind},
    input::InputProvider,
    ir::{Site, Stmt, StmtKind},
    state::{RunStore, state_md::StateDoc},
    value::Value,
};

pub(crate) use scope::{Cx, Frame, Module};

/// Blocks may nest this deep (prose.md's default `max_depth`).
pub const MAX_DEPTH: u32 = 100;

/// Loops without `(max: N)` stop after this many iterations.
pub const DEFAULT_LOOP_MAX: u64 = 100;

/// An error the program can catch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunError {
    pub message: String,
    pub line: Option<u32>,
}

impl RunError {
    pub fn new(message: impl Into<String>, site: Site) -> Self {
        RunError {
            message: message.into(),
            line: (site.line > 0).then_some(site.line),
        }
    }
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "line {l}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// Why execution stopped early.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Fail {
    /// An error: `try` can catch it.
    Error(RunError),
    /// The run was cancelled: nothing catches it.
    Cancelled,
}

impl From<RunError> for Fail {
    fn from(e: RunError) -> Self {
        Fail::Error(e)
    }
}

pub(crate) type Exec<T> = Result<T, Fail>;

/// How a statement or body ended.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Flow {
    /// Went on; the value of the last statement.
    Next(Value),
    Break,
    Continue,
    /// `return` or a block's bare `output`: the block's value.
    Return(Value),
}

/// Everything a run shares.
pub(crate) struct Interp {
    pub backend: Arc<dyn Backend>,
    pub backend_kind: Option<BackendKind>,
    pub config: RunnerConfig,
    pub events: EventBus,
    pub store: RunStore,
    pub state: Arc<StateDoc>,
    pub clock: Arc<dyn Clock>,
    pub cancel: CancellationToken,
    /// Why the run was cancelled (the first reason given).
    pub cancel_reason: Arc<Mutex<Option<String>>>,
    pub input_provider: Option<Arc<dyn InputProvider>>,
    /// The last session number used.
    pub sessions: AtomicU64,
    /// The last execution id used (block invocations).
    pub executions: AtomicU64,
    pub limiter: Option<tokio::sync::Semaphore>,
    /// The workspace root (where `.prose/` lives).
    pub root: PathBuf,
    pub home: Option<PathBuf>,
    /// The workspace's `prose.toml` (for `[imports]`).
    pub prose_config: prose_ide::Config,
    /// The first backoff delay.
    pub retry_base: Duration,
    /// `--allow-unenforced-permissions` was given.
    pub allow_unenforced: bool,
    /// One lock per persistent agent memory directory.
    pub memory_locks: Mutex<HashMap<PathBuf, Arc<tokio::sync::Mutex<()>>>>,
}

impl Interp {
    pub fn next_session(&self) -> u64 {
        self.sessions.fetch_add(1, Ordering::Relaxed) + 1
    }

    pub fn next_execution(&self) -> u64 {
        self.executions.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// Emits an event in `cx`'s branch.
    pub fn emit(&self, cx: &Cx, session: Option<&str>, kind: EventKind) {
        self.events.emit(session, cx.branch.as_deref(), kind);
    }

    pub fn check_cancel(&self) -> Exec<()> {
        if self.cancel.is_cancelled() {
            Err(Fail::Cancelled)
        } else {
            Ok(())
        }
    }

    /// Raises an error: reports it (it may still be caught) and returns it.
    pub fn raise(&self, cx: &Cx, e: RunError) -> Fail {
        self.emit(
            cx,
            None,
            EventKind::Error {
                message: e.message.clone(),
                line: e.line,
            },
        );
        Fail::Error(e)
    }

    /// Runs a body in order. Its value is the last statement's.
    pub fn exec_body<'a>(&'a self, body: &'a [Stmt], cx: &'a Cx) -> BoxFuture<'a, Exec<Flow>> {
        Box::pin(async move {
            let mut last = Value::Null;
            for stmt in body {
                match self.exec_stmt(stmt, cx).await? {
                    Flow::Next(v) => {
                        if !matches!(stmt.kind, StmtKind::Nop) {
                            last = v;
                        }
                    }
                    other => return Ok(other),
                }
            }
            Ok(Flow::Next(last))
        })
    }

    /// Runs one statement.
    pub fn exec_stmt<'a>(&'a self, stmt: &'a Stmt, cx: &'a Cx) -> BoxFuture<'a, Exec<Flow>> {
        Box::pin(async move {
            self.check_cancel()?;
            let site = stmt.site;
            match &stmt.kind {
                StmtKind::Nop => Ok(Flow::Next(Value::Null)),
                StmtKind::Let {
                    target,
                    value,
                    is_const,
                } => {
                    let hint = match target {
                        crate::ir::Target::Name(n) => Some(n.as_str()),
                        crate::ir::Target::Destructure(_) => None,
                    };
                    let v = self.eval_bound(value, cx, hint).await?;
                    let kind = if *is_const { "const" } else { "let" };
                    self.bind_target(cx, target, v.clone(), kind, stmt)?;
                    Ok(Flow::Next(v))
                }
                StmtKind::Assign { name, value } => {
                    let v = self.eval_bound(value, cx, Some(name)).await?;
                    self.assign(cx, name, v.clone(), stmt)?;
                    Ok(Flow::Next(v))
                }
                StmtKind::Output {
                    name: Some(name),
                    value,
                } => {
                    let v = self.eval_bound(value, cx, Some(name)).await?;
                    self.declare(cx, name, v.clone(), "output", false, stmt);
                    cx.frame.module.set_output(name, v.clone());
                    Ok(Flow::Next(v))
                }
                StmtKind::Output { name: None, value } => {
                    let v = self.eval(value, cx).await?;
                    if cx.frame.block.is_some() {
                        Ok(Flow::Return(v))
                    } else {
                        Ok(Flow::Next(v))
                    }
                }
                StmtKind::Input(decl) => {
                    let v = self.input(decl, cx).await?;
                    Ok(Flow::Next(v))
                }
                StmtKind::Expr(e) => self.flow_expr(e, cx, None).await,
                StmtKind::Try {
                    body,
                    catch,
                    finally,
                } => {
                    self.exec_try(body, catch.as_ref(), finally.as_deref(), cx)
                        .await
                }
                StmtKind::Throw(message) => Err(self.throw(message.as_ref(), cx, site).await),
                StmtKind::Return(value) => {
                    let v = match value {
                        Some(e) => self.eval(e, cx).await?,
                        None => Value::Null,
                    };
                    Ok(Flow::Return(v))
                }
                StmtKind::Break => Ok(Flow::Break),
                StmtKind::Continue => Ok(Flow::Continue),
                StmtKind::Assert { condition, message } => {
                    if self.condition(condition, cx).await? {
                        return Ok(Flow::Next(Value::Null));
                    }
                    let detail = match message {
                        Some(m) => self.eval(m, cx).await?.to_text(),
                        None => stmt.text.clone(),
                    };
                    let e = RunError::new(format!("assertion failed: {}", detail.trim()), site);
                    Err(self.raise(cx, e))
                }
            }
        })
    }
}
