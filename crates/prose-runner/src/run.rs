//! The runner's public API: prepare a run, start it in the background,
//! follow it through events, answer its input requests, cancel it, wait
//! for its outcome. `prose run` and the language server both use it.
//!
//! ```no_run
//! # async fn demo() -> Result<(), prose_runner::run::StartError> {
//! use std::sync::Arc;
//! use prose_runner::run::{RunOptions, prepare, start};
//!
//! let options = RunOptions::new("hello.prose", "session \"Say hi\"\n", ".");
//! let prepared = prepare(options)?;            // checks, backend, inputs, permissions
//! let handle = start(prepared, Arc::new(|e: &prose_runner::events::Event| {
//!     println!("{}", e.to_json());
//! }), None);
//! // handle.cancel("Ctrl-C") stops it; its state stays resumable.
//! let outcome = handle.wait().await;
//! # Ok(()) }
//! ```

use std::{
    collections::BTreeMap,
    fmt,
    path::{Path, PathBuf},
    sync::{Arc, Mutex, atomic::AtomicU64},
    time::{Duration, Instant},
};

use crate::{
    backend::{
        Backend, BackendKind, CancellationToken, UnenforcedPermission, create_backend,
        select_backend,
    },
    check,
    clock::{Clock, SystemClock},
    config::RunnerConfig,
    events::{EventKind, EventSink, RunStatus, excerpt, output_excerpts},
    input::InputProvider,
    interp::{Cx, Fail, Frame, Interp, Module},
    ir::Program,
    lower::lower,
    state::{
        RunMeta, RunStore,
        state_md::{FLUSH_EVERY, StateDoc, StateModel},
    },
    value::Value,
};

/// What to run and how.
#[derive(Clone)]
pub struct RunOptions {
    /// The program file as the user named it (shown in events and state),
    /// absolute or relative to the current directory.
    pub program_path: PathBuf,
    /// How events and state name the program, when not as `program_path`
    /// (the language server names it relative to the workspace root, as
    /// `prose run` from the root would).
    pub program_label: Option<String>,
    /// The program's text (on resume, the run's own copy is used instead).
    pub source: String,
    /// The workspace root: where `.prose/` lives.
    pub root: PathBuf,
    /// The home directory (`~/.prose/` holds user-scoped memory and imports).
    pub home: Option<PathBuf>,
    /// The workspace's `prose.toml` (profile and `[imports]`).
    pub prose_config: prose_ide::Config,
    pub config: RunnerConfig,
    /// The backend to use; `None` chooses and builds one from `config`.
    pub backend: Option<Arc<dyn Backend>>,
    /// Input values given up front.
    pub inputs: BTreeMap<String, String>,
    /// Resume this run instead of starting a new one.
    pub resume: Option<String>,
    pub allow_unenforced_permissions: bool,
    /// Whether missing inputs may be asked for during the run (the caller
    /// passes an input provider to [`start`]).
    pub interactive: bool,
    /// Whether state writes are fsynced (benchmarks turn it off).
    pub durable: bool,
    /// The first backoff delay of retries.
    pub retry_base: Duration,
    pub clock: Arc<dyn Clock>,
    /// Skip the check for errors (the caller did it).
    pub skip_check: bool,
}

impl RunOptions {
    pub fn new(
        program_path: impl Into<PathBuf>,
        source: impl Into<String>,
        root: impl Into<PathBuf>,
    ) -> Self {
        RunOptions {
            program_path: program_path.into(),
            program_label: None,
            source: source.into(),
            root: root.into(),
            home: None,
            prose_config: prose_ide::Config::default(),
            config: RunnerConfig::default(),
            backend: None,
            inputs: BTreeMap::new(),
            resume: None,
            allow_unenforced_permissions: false,
            interactive: false,
            durable: true,
            retry_base: Duration::from_secs(1),
            clock: Arc::new(SystemClock),
            skip_check: false,
        }
    }
}

/// Why a run could not start.
#[derive(Debug, Clone)]
pub enum StartError {
    /// The program has errors: these are its diagnostics (all of them, to
    /// print as `prose check` does).
    ProgramErrors(Vec<prose_ide::Diagnostic>),
    /// Bad usage: a missing or unknown input, no backend, an unknown run to
    /// resume, a permission the backend cannot enforce.
    Usage(String),
    /// The run directory could not be written.
    Io(String),
}

impl StartError {
    /// The exit status of `prose run` (docs/runner.md).
    pub fn exit_code(&self) -> u8 {
        match self {
            StartError::ProgramErrors(_) => 1,
            StartError::Usage(_) | StartError::Io(_) => 2,
        }
    }
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::ProgramErrors(d) => write!(
                f,
                "the program has {} error(s)",
                d.iter()
                    .filter(|d| d.severity == prose_ide::Severity::Error)
                    .count()
            ),
            StartError::Usage(m) | StartError::Io(m) => f.write_str(m),
        }
    }
}

/// A run ready to start: checked, its backend chosen, its directory made.
pub struct Prepared {
    options: RunOptions,
    program: Program,
    ignored: Vec<(String, crate::ir::Site)>,
    backend: Arc<dyn Backend>,
    backend_kind: Option<BackendKind>,
    store: RunStore,
    meta: RunMeta,
    resumed: bool,
    unenforced: Vec<UnenforcedPermission>,
}

impl Prepared {
    pub fn run_id(&self) -> &str {
        &self.store.run_id
    }
    pub fn run_dir(&self) -> &Path {
        &self.store.dir
    }
    pub fn backend_name(&self) -> &str {
        self.backend.name()
    }
}

/// The execution plan of a program, as text (what `--dry-run` prints).
pub fn dry_run(source: &str) -> String {
    crate::plan::plan(&lower(source).program)
}

/// Every restrictive permission of `program`'s agents and sessions that
/// `backend` cannot enforce.
pub fn unenforced_permissions(
    program: &Program,
    backend: &dyn Backend,
) -> Vec<UnenforcedPermission> {
    let mut out = Vec::new();
    let mut agents: Vec<_> = program.agents.values().collect();
    agents.sort_by_key(|a| a.site.offset);
    for a in agents {
        if let Some(p) = &a.props.permissions {
            out.extend(
                p.unenforced(|r| backend.enforces(r))
                    .map(|r| UnenforcedPermission {
                        agent: a.name.clone(),
                        rule: r.clone(),
                        backend: backend.name().to_string(),
                    }),
            );
        }
    }
    crate::plan::visit_sessions(program, &mut |s| {
        if let Some(p) = &s.props.permissions {
            out.extend(p.unenforced(|r| backend.enforces(r)).map(|r| {
                UnenforcedPermission {
                    agent: s
                        .agent
                        .clone()
                        .unwrap_or_else(|| format!("(session at line {})", s.site.line)),
                    rule: r.clone(),
                    backend: backend.name().to_string(),
                }
            }));
        }
    });
    out
}

/// The backend of a run: the one given, else the one the configuration
/// chooses, built; preflighted either way.
pub(crate) fn choose_backend(
    given: Option<Arc<dyn Backend>>,
    config: &RunnerConfig,
) -> Result<(Arc<dyn Backend>, Option<BackendKind>), StartError> {
    let (backend, backend_kind) = match given {
        Some(b) => {
            let kind = BackendKind::parse(b.name());
            (b, kind)
        }
        None => {
            let kind = select_backend(config).map_err(|e| StartError::Usage(e.message))?;
            let b = create_backend(kind, config).map_err(|e| StartError::Usage(e.message))?;
            (b, Some(kind))
        }
    };
    backend.preflight().map_err(|e| {
        StartError::Usage(format!(
            "the `{}` backend cannot run: {}",
            backend.name(),
            e.message
        ))
    })?;
    Ok((backend, backend_kind))
}

/// Checks and sets up a run: errors in the program, the backend, inputs,
/// permissions; then creates (or reopens, to resume) its directory.
pub fn prepare(mut options: RunOptions) -> Result<Prepared, StartError> {
    // Resume: the run's own copy of the program, its recorded inputs.
    let resumed_store = match &options.resume {
        Some(id) => {
            let (store, meta, program) = RunStore::open(&options.root, id, options.durable)
                .map_err(|e| StartError::Usage(format!("cannot resume: {e}")))?;
            options.source = program;
            for (k, v) in &meta.inputs {
                options.inputs.entry(k.clone()).or_insert_with(|| v.clone());
            }
            Some((store, meta))
        }
        None => None,
    };
    if !options.skip_check && resumed_store.is_none() {
        let diags = check::diagnostics(
            &options.program_path,
            &options.source,
            &options.root,
            options.home.as_deref(),
            &options.prose_config,
        );
        if check::has_errors(&diags) {
            return Err(StartError::ProgramErrors(diags));
        }
    }
    let lowered = lower(&options.source);
    let program = lowered.program;

    let declared: Vec<&str> = program.inputs.iter().map(|i| i.name.as_str()).collect();
    let unknown: Vec<&String> = options
        .inputs
        .keys()
        .filter(|k| !declared.contains(&k.as_str()))
        .collect();
    if !unknown.is_empty() {
        return Err(StartError::Usage(format!(
            "unknown input{} {}; the program declares {}",
            if unknown.len() == 1 { "" } else { "s" },
            unknown
                .iter()
                .map(|k| format!("`{k}`"))
                .collect::<Vec<_>>()
                .join(", "),
            if declared.is_empty() {
                "no inputs".to_string()
            } else {
                declared.join(", ")
            }
        )));
    }
    if !options.interactive {
        let answered = |name: &str| {
            resumed_store
                .as_ref()
                .is_some_and(|(s, _)| s.journal.get_input(name).is_some())
        };
        let mut missing: Vec<&str> = declared
            .iter()
            .copied()
            .filter(|n| !options.inputs.contains_key(*n) && !answered(n))
            .collect();
        missing.dedup();
        if !missing.is_empty() {
            return Err(StartError::Usage(format!(
                "missing input{}: {} (give {} with --input NAME=VALUE)",
                if missing.len() == 1 { "" } else { "s" },
                missing.join(", "),
                if missing.len() == 1 { "it" } else { "them" }
            )));
        }
    }

    let (backend, backend_kind) = choose_backend(options.backend.clone(), &options.config)?;

    let unenforced = unenforced_permissions(&program, backend.as_ref());
    if !unenforced.is_empty() && !options.allow_unenforced_permissions {
        let list: Vec<String> = unenforced.iter().map(|u| format!("  {u}")).collect();
        return Err(StartError::Usage(format!(
            "the run would not respect the program's permissions:\n{}\nchoose a backend that enforces them, or pass --allow-unenforced-permissions to run anyway (the run's state records it)",
            list.join("\n")
        )));
    }

    let (store, meta, resumed) = match resumed_store {
        Some((store, mut meta)) => {
            meta.resuming();
            meta.inputs = options.inputs.clone();
            (store, meta, true)
        }
        None => {
            let mut meta = RunMeta {
                allow_unenforced_permissions: options.allow_unenforced_permissions
                    && !unenforced.is_empty(),
                unenforced_permissions: unenforced.iter().map(|u| u.to_string()).collect(),
                ..RunMeta::starting(
                    options
                        .program_label
                        .clone()
                        .unwrap_or_else(|| options.program_path.display().to_string()),
                    &options.root,
                    backend.name(),
                    options.inputs.clone(),
                )
            };
            let store =
                RunStore::create(&options.root, &options.source, &mut meta, options.durable)
                    .map_err(|e| StartError::Io(format!("cannot create the run directory: {e}")))?;
            (store, meta, false)
        }
    };
    Ok(Prepared {
        options,
        program,
        ignored: lowered.ignored,
        backend,
        backend_kind,
        store,
        meta,
        resumed,
        unenforced,
    })
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq)]
pub struct RunOutcome {
    pub run_id: String,
    pub run_dir: PathBuf,
    pub status: RunStatus,
    /// The program's named outputs, in the order first bound.
    pub outputs: Vec<(String, Value)>,
    /// Why it failed, or was cancelled.
    pub error: Option<String>,
}

/// The stack of a run's thread. Blocks nest up to 100 deep and every level
/// of the program is a few nested futures; the reservation is virtual
/// memory, only the pages used are committed.
pub const RUN_STACK_SIZE: usize = 256 * 1024 * 1024;

/// A running run.
pub struct RunHandle {
    pub run_id: String,
    pub run_dir: PathBuf,
    cancel: CancellationToken,
    reason: Arc<Mutex<Option<String>>>,
    done: tokio::sync::oneshot::Receiver<RunOutcome>,
}

impl RunHandle {
    /// Stops the run (idempotent): backend processes are killed, the state
    /// stays resumable, and the run ends with `cancelled` then
    /// `run_finished`.
    pub fn cancel(&self, reason: &str) {
        cancel_with(&self.cancel, &self.reason, reason);
    }

    /// Something that cancels the run from elsewhere (a signal handler, a
    /// server command), cheap to clone.
    pub fn canceller(&self) -> Canceller {
        Canceller {
            token: self.cancel.clone(),
            reason: self.reason.clone(),
        }
    }

    /// Waits for the run to end.
    pub async fn wait(self) -> RunOutcome {
        let run_id = self.run_id.clone();
        let run_dir = self.run_dir.clone();
        self.done.await.unwrap_or_else(|_| RunOutcome {
            run_id,
            run_dir,
            status: RunStatus::Failed,
            outputs: Vec::new(),
            error: Some("the runner stopped unexpectedly".into()),
        })
    }

    /// Waits for the run to end, blocking the thread (for callers outside
    /// an async runtime).
    pub fn wait_blocking(self) -> RunOutcome {
        let run_id = self.run_id.clone();
        let run_dir = self.run_dir.clone();
        self.done.blocking_recv().unwrap_or_else(|_| RunOutcome {
            run_id,
            run_dir,
            status: RunStatus::Failed,
            outputs: Vec::new(),
            error: Some("the runner stopped unexpectedly".into()),
        })
    }
}

/// Cancels a run (see [`RunHandle::cancel`]).
#[derive(Clone)]
pub struct Canceller {
    token: CancellationToken,
    reason: Arc<Mutex<Option<String>>>,
}

impl Canceller {
    pub fn cancel(&self, reason: &str) {
        cancel_with(&self.token, &self.reason, reason);
    }
}

pub(crate) fn cancel_with(token: &CancellationToken, reason: &Mutex<Option<String>>, why: &str) {
    let mut r = reason.lock().unwrap_or_else(|e| e.into_inner());
    if r.is_none() {
        *r = Some(why.to_string());
    }
    token.cancel();
}

impl Interp {
    /// Cancels the run from inside (an input the user declined).
    pub(crate) fn cancel_with(&self, why: &str) {
        cancel_with(&self.cancel, &self.cancel_reason, why);
    }
}

/// Starts a prepared run in the background: on a thread of its own, with
/// its own single-threaded tokio runtime (branches of a parallel block are
/// concurrent futures on it; backend requests overlap). Needs no runtime
/// from the caller.
pub fn start(
    prepared: Prepared,
    sink: Arc<dyn EventSink>,
    input_provider: Option<Arc<dyn InputProvider>>,
) -> RunHandle {
    let run_id = prepared.store.run_id.clone();
    let run_dir = prepared.store.dir.clone();
    RunHandle::spawn(run_id, run_dir, move |cancel, reason| {
        execute(prepared, sink, input_provider, cancel, reason)
    })
}

impl RunHandle {
    /// Runs `body` on a thread of its own with a single-threaded tokio
    /// runtime, given the run's cancellation token and the slot of its
    /// cancel reason; the handle cancels it and waits for its outcome (a
    /// program's run, a job task's run).
    pub(crate) fn spawn<F, Fut>(run_id: String, run_dir: PathBuf, body: F) -> RunHandle
    where
        F: FnOnce(CancellationToken, Arc<Mutex<Option<String>>>) -> Fut + Send + 'static,
        Fut: std::future::Future<Output = RunOutcome>,
    {
        let cancel = CancellationToken::new();
        let reason: Arc<Mutex<Option<String>>> = Arc::default();
        let (tx, done) = tokio::sync::oneshot::channel();
        let (c, r) = (cancel.clone(), reason.clone());
        // If no thread or runtime can be made, `wait` reports the run failed.
        let _ = std::thread::Builder::new()
            .name(format!("prose-run-{run_id}"))
            .stack_size(RUN_STACK_SIZE)
            .spawn(move || {
                let Ok(rt) = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                else {
                    return;
                };
                let outcome = rt.block_on(body(c, r));
                let _ = tx.send(outcome);
            });
        RunHandle {
            run_id,
            run_dir,
            cancel,
            reason,
            done,
        }
    }
}

/// Why a run was cancelled: the first reason given.
pub(crate) fn cancel_reason(reason: &Mutex<Option<String>>) -> String {
    reason
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
        .unwrap_or_else(|| "cancelled".into())
}

async fn execute(
    p: Prepared,
    sink: Arc<dyn EventSink>,
    input_provider: Option<Arc<dyn InputProvider>>,
    cancel: CancellationToken,
    reason: Arc<Mutex<Option<String>>>,
) -> RunOutcome {
    let started = Instant::now();
    let Prepared {
        options,
        program,
        ignored,
        backend,
        backend_kind,
        store,
        mut meta,
        resumed,
        unenforced,
    } = p;
    let (events, first_session) = store.event_bus(sink);
    let state = Arc::new(StateDoc::new(StateModel {
        run_id: store.run_id.clone(),
        program: meta.program.clone(),
        started: meta.started.clone(),
        status: "running".into(),
        source: options.source.clone(),
        ..Default::default()
    }));
    let run_dir = store.dir.clone();
    let run_id = store.run_id.clone();
    let durable = options.durable;
    let file_dir = {
        let abs = std::path::absolute(&options.program_path)
            .unwrap_or_else(|_| options.program_path.clone());
        abs.parent()
            .map(|d| d.to_string_lossy().replace('\\', "/"))
            .unwrap_or_default()
    };
    let given: BTreeMap<String, Value> = options
        .inputs
        .iter()
        .map(|(k, v)| (k.clone(), Value::text(v.as_str())))
        .collect();
    let interp = Interp {
        backend,
        backend_kind,
        limiter: options
            .config
            .max_parallel
            .as_ref()
            .map(|m| tokio::sync::Semaphore::new(m.value)),
        config: options.config.clone(),
        events,
        store,
        state: state.clone(),
        clock: options.clock.clone(),
        cancel: cancel.clone(),
        cancel_reason: reason.clone(),
        input_provider,
        sessions: AtomicU64::new(first_session),
        executions: AtomicU64::new(0),
        root: std::path::absolute(&options.root).unwrap_or_else(|_| options.root.clone()),
        home: options.home.clone(),
        prose_config: options.prose_config.clone(),
        retry_base: options.retry_base,
        allow_unenforced: options.allow_unenforced_permissions,
        memory_locks: Mutex::default(),
    };

    let module = Arc::new(Module {
        program,
        rel: String::new(),
        file_dir,
        given: Mutex::new(given),
        outputs: Mutex::default(),
    });
    let cx = Cx::new(Frame::root(module.clone()), "");
    interp.emit(
        &cx,
        None,
        EventKind::RunStarted {
            program: meta.program.clone(),
            run_dir: run_dir.display().to_string(),
            backend: interp.backend.name().to_string(),
            resumed,
            dry_run: false,
            inputs: options
                .inputs
                .iter()
                .map(|(k, v)| (k.clone(), excerpt(v)))
                .collect(),
        },
    );
    for u in &unenforced {
        interp.warn(
            &cx,
            &format!("{u}; running anyway (--allow-unenforced-permissions)"),
        );
    }
    for (what, site) in &ignored {
        interp.warn(
            &cx,
            &format!("line {}: {what} has no effect in this runner", site.line),
        );
    }

    // state.md, refreshed in the background while the run changes.
    let flusher = {
        let state = state.clone();
        let dir = run_dir.clone();
        tokio::spawn(async move {
            loop {
                if let Some(text) = state.take_if_dirty() {
                    let _ =
                        crate::state::write_atomic(&dir.join("state.md"), text.as_bytes(), durable);
                }
                tokio::time::sleep(FLUSH_EVERY).await;
            }
        })
    };

    let result = tokio::select! {
        r = interp.exec_body(&module.program.body, &cx) => r.map(|_| ()),
        () = cancel.cancelled() => Err(Fail::Cancelled),
    };
    let (status, error) = match result {
        Ok(()) => (RunStatus::Succeeded, None),
        Err(Fail::Cancelled) => (RunStatus::Cancelled, None),
        Err(Fail::Error(e)) => (RunStatus::Failed, Some(e.to_string())),
    };
    let error = match status {
        RunStatus::Cancelled => {
            let why = cancel_reason(&reason);
            interp.emit(
                &cx,
                None,
                EventKind::Cancelled {
                    reason: why.clone(),
                },
            );
            Some(why)
        }
        _ => error,
    };
    let outputs = module.outputs();
    flusher.abort();
    state.update(|m| {
        m.status = status.as_str().into();
        m.running.clear();
    });
    if let Some(text) = state.take_if_dirty() {
        let _ = crate::state::write_atomic(&run_dir.join("state.md"), text.as_bytes(), durable);
    }
    meta.finish(status.as_str(), error.clone());
    let _ = interp.store.write_meta(&meta);
    interp.emit(
        &cx,
        None,
        EventKind::RunFinished {
            status,
            duration_ms: started.elapsed().as_millis() as u64,
            outputs: output_excerpts(&outputs),
            error: error.clone(),
        },
    );
    RunOutcome {
        run_id,
        run_dir,
        status,
        outputs,
        error,
    }
}
