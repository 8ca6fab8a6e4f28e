//! Preparing and starting a task's run, and its dry run: the same shape
//! as a program's ([`crate::run`]), so the CLI and the language server
//! drive both the same way.

use std::{
    path::{Path, PathBuf},
    sync::Arc,
};

use super::{
    check,
    exec::{self, Context},
    plan::{PlanOptions, TaskPlan},
    session::TaskRun,
    state::TaskState,
    tools,
};
use crate::{
    backend::{Backend, BackendKind, tools::write_definitions},
    config::RunnerConfig,
    events::EventSink,
    input::InputProvider,
    run::{RunHandle, StartError},
    state::{RunMeta, RunStore, TaskMeta},
};

/// A task run's copy of its entry.
pub const ENTRY_FILE: &str = "entry.jobs.json";

/// What task to run and how.
#[derive(Clone)]
pub struct TaskRunOptions {
    /// The entry file as the user named it (shown in events and state).
    pub entry_path: PathBuf,
    /// The entry's text (on resume, the run's own copy is used instead).
    pub entry_text: String,
    /// The task's name (on resume, empty takes the run's; otherwise empty
    /// is an error that lists the entry's tasks).
    pub task: String,
    /// The workspace root: where `.prose/` lives and sessions work.
    pub root: PathBuf,
    /// The backend's configuration; its `model` is the model of a task
    /// that names none (a model key of the entry, or a model id).
    pub config: RunnerConfig,
    /// The backend to use; `None` chooses and builds one from `config`.
    pub backend: Option<Arc<dyn Backend>>,
    /// `$user-input`.
    pub user_input: Option<String>,
    /// The keyword of the previous job (`availability.previousJobKeywords`).
    pub previous_job: Option<String>,
    /// The name of the previous task (`availability.previousTasks`).
    pub previous_task: Option<String>,
    /// Ask for the single-model option.
    pub single_model: bool,
    /// Resume this run instead of starting a new one.
    pub resume: Option<String>,
    /// Whether a missing `$user-input` may be asked for (the caller passes
    /// an input provider to [`start_task`]).
    pub interactive: bool,
    /// Whether state writes are fsynced.
    pub durable: bool,
    /// The command that starts the runner's MCP server (`prose jobs
    /// mcp`), to which `--tools FILE --calls FILE` are added: how the
    /// `claude` and `codex` backends offer the job tools. Required for
    /// them.
    pub tool_server: Option<Vec<String>>,
}

impl TaskRunOptions {
    pub fn new(
        entry_path: impl Into<PathBuf>,
        entry_text: impl Into<String>,
        task: impl Into<String>,
        root: impl Into<PathBuf>,
    ) -> Self {
        TaskRunOptions {
            entry_path: entry_path.into(),
            entry_text: entry_text.into(),
            task: task.into(),
            root: root.into(),
            config: RunnerConfig::default(),
            backend: None,
            user_input: None,
            previous_job: None,
            previous_task: None,
            single_model: false,
            resume: None,
            interactive: false,
            durable: true,
            tool_server: None,
        }
    }
}

/// A task run ready to start: its entry checked, its plan made, its
/// backend chosen, its directory made.
pub struct PreparedTask {
    options: TaskRunOptions,
    plan: TaskPlan,
    backend: Arc<dyn Backend>,
    backend_kind: Option<BackendKind>,
    store: RunStore,
    meta: RunMeta,
    resumed: bool,
}

impl PreparedTask {
    pub fn run_id(&self) -> &str {
        &self.store.run_id
    }
    pub fn run_dir(&self) -> &Path {
        &self.store.dir
    }
    pub fn backend_name(&self) -> &str {
        self.backend.name()
    }
    /// What the run will do.
    pub fn plan(&self) -> &TaskPlan {
        &self.plan
    }
}

fn usage(message: impl Into<String>) -> StartError {
    StartError::Usage(message.into())
}

/// `name`, and the nearest of `candidates` when one is near.
fn not_found(what: &str, name: &str, candidates: &[&str]) -> String {
    let near = prose_jobs::nearest(name, candidates.iter().copied())
        .map(|n| format!("; did you mean `{n}`?"))
        .unwrap_or_default();
    let list = if candidates.is_empty() {
        "none".to_string()
    } else {
        candidates.join(", ")
    };
    format!("{what} `{name}`{near} (the entry's: {list})")
}

/// The entry read and checked; its errors refuse the run.
fn checked(
    path: &Path,
    text: &str,
    check_errors: bool,
) -> Result<prose_jobs::ParsedEntry, StartError> {
    let (parsed, diags) = check::check(path, text);
    if check_errors && crate::check::has_errors(&diags) {
        return Err(StartError::ProgramErrors(diags));
    }
    Ok(parsed)
}

/// Checks and sets up a task's run: errors in the entry, the task, its
/// user input, the previous job and task, the backend; then creates (or
/// reopens, to resume) the run's directory.
pub fn prepare_task(mut options: TaskRunOptions) -> Result<PreparedTask, StartError> {
    let mut model = options.config.model.as_ref().map(|m| m.value.clone());
    let resumed = match &options.resume {
        Some(id) => {
            let (store, meta, text) =
                RunStore::open_with(&options.root, id, ENTRY_FILE, options.durable)
                    .map_err(|e| usage(format!("cannot resume: {e}")))?;
            let task = meta
                .task
                .clone()
                .ok_or_else(|| usage(format!("run `{id}` is not a job task's run")))?;
            if !options.task.is_empty() && options.task != task.name {
                return Err(usage(format!(
                    "run `{id}` ran task `{}`, not `{}`",
                    task.name, options.task
                )));
            }
            options.entry_text = text;
            options.task = task.name;
            options.previous_job = task.previous_job;
            options.previous_task = task.previous_task;
            options.single_model = task.single_model;
            model = task.model;
            if options.user_input.is_none() {
                options.user_input = meta.inputs.get(tools::USER_INPUT).cloned();
            }
            Some((store, meta))
        }
        None => None,
    };
    let parsed = checked(&options.entry_path, &options.entry_text, resumed.is_none())?;
    let entry = &parsed.entry;
    let names: Vec<&str> = entry.tasks.iter().map(|t| t.name.as_str()).collect();
    if options.task.is_empty() {
        return Err(usage(format!(
            "which task? name one of the entry's: {}",
            if names.is_empty() {
                "(it has none)".to_string()
            } else {
                names.join(", ")
            }
        )));
    }
    if entry.task(&options.task).is_none() {
        return Err(usage(not_found("there is no task", &options.task, &names)));
    }
    let plan_options = PlanOptions {
        model: model.clone(),
        single_model: options.single_model,
    };
    let plan =
        TaskPlan::new(&parsed, &options.entry_text, &options.task, &plan_options).map_err(usage)?;

    let answered = resumed
        .as_ref()
        .is_some_and(|(s, _)| s.journal.get_input(tools::USER_INPUT).is_some());
    if plan.user_input {
        if options.user_input.is_none() && !options.interactive && !answered {
            return Err(usage(format!(
                "task `{}` takes the user's input ($user-input): give it with --input user-input=TEXT",
                plan.task
            )));
        }
    } else if options.user_input.is_some() {
        return Err(usage(format!(
            "task `{}` takes no user input (its requireUserInput is false)",
            plan.task
        )));
    }
    if let Some(k) = &options.previous_job {
        let mut keywords: Vec<&str> = entry.grid_keywords().map(|k| k.as_str()).collect();
        keywords.dedup();
        if !keywords.contains(&k.as_str()) {
            return Err(usage(not_found(
                "the previous job's keyword is not a keyword of the grid:",
                k,
                &keywords,
            )));
        }
    }
    if let Some(t) = &options.previous_task
        && entry.task(t).is_none()
    {
        return Err(usage(not_found(
            "the previous task is not a task of the entry:",
            t,
            &names,
        )));
    }

    let (backend, backend_kind) =
        crate::run::choose_backend(options.backend.clone(), &options.config)?;
    if matches!(backend_kind, Some(BackendKind::Claude | BackendKind::Codex))
        && options.tool_server.is_none()
    {
        return Err(usage(format!(
            "the `{}` backend offers the job tools through the runner's MCP server, and this host has none to give it",
            backend.name()
        )));
    }

    let (store, meta, resumed) = match resumed {
        Some((store, mut meta)) => {
            meta.resuming();
            (store, meta, true)
        }
        None => {
            let inputs = options
                .user_input
                .iter()
                .map(|v| (tools::USER_INPUT.to_string(), v.clone()))
                .collect();
            let mut meta = RunMeta {
                task: Some(TaskMeta {
                    name: options.task.clone(),
                    previous_job: options.previous_job.clone(),
                    previous_task: options.previous_task.clone(),
                    single_model: options.single_model,
                    model,
                }),
                ..RunMeta::starting(
                    options.entry_path.display().to_string(),
                    &options.root,
                    backend.name(),
                    inputs,
                )
            };
            let store = RunStore::create_with(
                &options.root,
                ENTRY_FILE,
                &options.entry_text,
                &mut meta,
                options.durable,
            )
            .map_err(|e| StartError::Io(format!("cannot create the run directory: {e}")))?;
            (store, meta, false)
        }
    };
    Ok(PreparedTask {
        options,
        plan,
        backend,
        backend_kind,
        store,
        meta,
        resumed,
    })
}

/// Starts a prepared task's run in the background (on a thread of its
/// own, as [`crate::run::start`] does): events go to `sink` in `seq`
/// order; a missing `$user-input` is asked through `input_provider`
/// (`None` declines: the run is cancelled). The handle cancels the run and
/// waits for its outcome, whose outputs are the runtime variables the
/// sessions set.
pub fn start_task(
    prepared: PreparedTask,
    sink: Arc<dyn EventSink>,
    input_provider: Option<Arc<dyn InputProvider>>,
) -> RunHandle {
    let run_id = prepared.store.run_id.clone();
    let run_dir = prepared.store.dir.clone();
    RunHandle::spawn(run_id, run_dir, move |cancel, reason| async move {
        let PreparedTask {
            options,
            plan,
            backend,
            backend_kind,
            store,
            meta,
            resumed,
        } = prepared;
        let (events, sessions) = store.event_bus(sink);
        let definitions = tools::definitions();
        let tools_file = store.dir.join("tools").join("tools.json");
        let written = write_definitions(&tools_file, &definitions);
        let entry = options.entry_path.display().to_string();
        let run = TaskRun {
            backend,
            backend_kind,
            config: options.config.clone(),
            events,
            state: TaskState::new(&store.run_id, &entry, &plan.task, plan.mode.as_str()),
            store,
            cancel,
            root: std::path::absolute(&options.root).unwrap_or_else(|_| options.root.clone()),
            task: plan.task.clone(),
            tools: definitions,
            tools_file,
            tool_server: options.tool_server.clone(),
            vars: tools::Variables::with_user_input(options.user_input.as_deref()),
            requests: 0,
            sessions,
        };
        if let Err(e) = written {
            run.warn(format!(
                "cannot write the tool definitions for the MCP server: {e}"
            ));
        }
        let cx = Context {
            entry,
            previous_job: options.previous_job,
            previous_task: options.previous_task,
            resumed,
            meta,
            input_provider,
            cancel_reason: reason,
        };
        exec::execute(run, plan, cx).await
    })
}

/// The dry run of task `task` of the entry (every task when `None`): its
/// sessions, models, prompts after static expansion, availability and
/// criteria steps. An entry with errors gives its diagnostics.
pub fn dry_run_task(
    entry_path: &Path,
    entry_text: &str,
    task: Option<&str>,
    options: &PlanOptions,
) -> Result<String, StartError> {
    let parsed = checked(entry_path, entry_text, true)?;
    let names: Vec<&str> = parsed.entry.tasks.iter().map(|t| t.name.as_str()).collect();
    let shown = entry_path.display().to_string();
    let one = |name: &str| {
        TaskPlan::new(&parsed, entry_text, name, options)
            .map(|plan| super::dry_run::render(&plan, &shown))
            .map_err(usage)
    };
    match task {
        Some(name) if parsed.entry.task(name).is_some() => one(name),
        Some(name) => Err(usage(not_found("there is no task", name, &names))),
        None => {
            let mut seen: Vec<&str> = Vec::new();
            let mut parts = Vec::new();
            for name in &names {
                if !seen.contains(name) {
                    seen.push(name);
                    parts.push(one(name)?);
                }
            }
            Ok(parts.join("\n"))
        }
    }
}
