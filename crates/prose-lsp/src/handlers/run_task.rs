//! Running job tasks from the editor (docs/lsp.md, "Running job tasks"):
//! `prose.runTask` and `prose.dryRunTask`, the commands of a task's
//! "▶ Run task" and "Dry run" lenses.
//!
//! A task runs through the machinery of a program's run (`run.rs`): the
//! workspace's trust, the entry's errors (the analysis's, as the lenses
//! count them) refusing it, the runner configuration with the user's
//! consent to what the repository's `prose.toml` chose, then the runner's
//! own [`prepare_task`] on a blocking thread and [`start_task`] on its own
//! thread. Its events (the job events included) reach the client as
//! `prose/runEvent`s and `$/progress`, `$user-input` is asked with
//! `prose/inputRequest`, and `prose.cancelRun` or the progress's cancel
//! stops it, as a program's run. The `claude` and `codex` backends get
//! the job tools from this very executable (`jobs mcp`, which both `prose`
//! and `prose-lsp` answer).

use std::{collections::BTreeMap, path::Path, sync::Arc};

use ls_types::{ExecuteCommandParams, Uri};
use prose_runner::{
    jobs::{PlanOptions, TaskRunOptions, dry_run_task, prepare_task, start_task},
    run::StartError,
};
use serde::Deserialize;
use serde_json::{Value, json};
use tower_lsp_server::jsonrpc::{Error, Result};

use crate::{
    handlers::{
        run::{
            Document, Runnable, argument, document, errors_message, input_texts, launch,
            run_settings, runner_config, settings,
        },
        snapshot::request_failed,
    },
    server::{Inner, blocking},
};

pub const RUN_TASK: &str = "prose.runTask";
pub const DRY_RUN_TASK: &str = "prose.dryRunTask";

/// The commands of job tasks the server advertises.
pub const COMMANDS: [&str; 2] = [RUN_TASK, DRY_RUN_TASK];

/// The only input a task takes (`$user-input`).
const USER_INPUT: &str = "user-input";

/// `{"uri": ..., "task": ...}` and the options of `prose jobs run`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct TaskArgs {
    uri: Uri,
    /// Empty: on resume, the run's task; for a dry run, every task.
    #[serde(default)]
    task: String,
    #[serde(default)]
    inputs: BTreeMap<String, Value>,
    #[serde(default)]
    backend: Option<String>,
    #[serde(default)]
    resume: Option<String>,
    #[serde(default)]
    previous_job: Option<String>,
    #[serde(default)]
    previous_task: Option<String>,
    #[serde(default)]
    single_model: bool,
}

pub async fn execute_command(
    inner: &Arc<Inner>,
    params: ExecuteCommandParams,
) -> Result<Option<Value>> {
    match params.command.as_str() {
        RUN_TASK => run_task(inner, argument(&params)?).await.map(Some),
        DRY_RUN_TASK => dry_run(inner, argument(&params)?).await.map(Some),
        other => Err(Error::invalid_params(format!(
            "`{other}` is not a command of job tasks"
        ))),
    }
}

/// The command that starts the runner's MCP server for the `claude` and
/// `codex` backends: this executable, `jobs mcp`.
fn tool_server() -> Option<Vec<String>> {
    let exe = std::env::current_exe().ok()?;
    Some(vec![exe.display().to_string(), "jobs".into(), "mcp".into()])
}

/// `$user-input` from the `inputs` of the arguments; any other name is an
/// error.
fn user_input(inputs: &BTreeMap<String, Value>) -> Result<Option<String>> {
    let mut texts = input_texts(inputs);
    if let Some(other) = texts.keys().find(|k| *k != USER_INPUT) {
        return Err(request_failed(format!(
            "unknown input `{other}`: a task takes one input, `{USER_INPUT}` ($user-input)"
        )));
    }
    Ok(texts.remove(USER_INPUT))
}

/// Refuses a task that needs `$user-input` when it is not given and the
/// client cannot be asked for it.
fn missing_user_input(entry: &Document, task: &str) -> Result<()> {
    let (parsed, _) = prose_runner::jobs::check::check(&entry.path, &entry.text);
    let needs = parsed
        .entry
        .task(task)
        .and_then(|t| t.require_user_input.as_ref())
        .is_some_and(|f| f.value);
    if !needs {
        return Ok(());
    }
    Err(request_failed(format!(
        "task `{task}` takes the user's input ($user-input), and this editor cannot ask for it (it does not declare experimental.proseInputRequest): give it in the `inputs` of prose.runTask, as `user-input`"
    )))
}

/// How a run (or plan) that could not be made is told: the entry's
/// errors as the runner found them, or the runner's reason.
fn refused(name: &str, e: StartError, outcome: &str) -> Error {
    match e {
        StartError::ProgramErrors(d) => {
            request_failed(format!("{name} has {} errors; {outcome}", d.len()))
        }
        e => request_failed(e.to_string()),
    }
}

/// `prose.runTask`: starts the task's run and answers `{runId, runDir}`
/// at once.
async fn run_task(inner: &Arc<Inner>, args: TaskArgs) -> Result<Value> {
    let (settings, home) = run_settings(inner, "tasks")?;
    let entry = document(inner, &args.uri, Runnable::JobEntry).await?;
    if args.resume.is_none() && !entry.errors.is_empty() {
        return Err(request_failed(errors_message(&entry, "it was not run")));
    }
    if args.resume.is_none() && !args.task.is_empty() {
        // An unknown task, a prompt that cannot be expanded: told before
        // anything is asked.
        let (path, text, task) = (entry.path.clone(), entry.text.clone(), args.task.clone());
        let options = PlanOptions {
            model: None,
            single_model: args.single_model,
        };
        blocking(move || dry_run_task(&path, &text, Some(&task), &options))
            .await?
            .map_err(|e| refused(&entry.name, e, "it was not run"))?;
    }
    let caps = inner.runs.caps();
    let input = user_input(&args.inputs)?;
    if input.is_none() && !caps.input_request && args.resume.is_none() {
        missing_user_input(&entry, &args.task)?;
    }
    let config = runner_config(
        inner,
        settings,
        entry.root.clone(),
        home,
        args.backend.clone(),
        true,
    )
    .await?;

    // Named as `prose jobs run` from the root would name it.
    let mut options = TaskRunOptions::new(
        entry.label(),
        entry.text.clone(),
        args.task,
        entry.root.clone(),
    );
    options.config = config;
    options.user_input = input;
    options.previous_job = args.previous_job;
    options.previous_task = args.previous_task;
    options.single_model = args.single_model;
    options.resume = args.resume;
    options.interactive = caps.input_request;
    options.tool_server = tool_server();
    let name = entry.name.clone();
    let prepared = blocking(move || prepare_task(options))
        .await?
        .map_err(|e| refused(&name, e, "it was not run"))?;
    let run_id = prepared.run_id().to_string();
    let run_dir = prepared.run_dir().display().to_string();
    let title = format!("Running task {} of {}", prepared.plan().task, entry.name);
    Ok(launch(inner, run_id, run_dir, title, |sink, provider| {
        start_task(prepared, sink, provider)
    }))
}

/// `prose.dryRunTask`: the task's plan (every task's when `task` is
/// empty), as `prose jobs run ENTRY TASK --dry-run` prints it. Nothing
/// runs, so nothing needs the workspace's trust or the user's consent.
async fn dry_run(inner: &Arc<Inner>, args: TaskArgs) -> Result<Value> {
    let entry = document(inner, &args.uri, Runnable::JobEntry).await?;
    if !entry.errors.is_empty() {
        return Err(request_failed(errors_message(&entry, "it has no plan")));
    }
    let (settings, home) = settings(inner);
    // The configuration's model is the model of a task that names none.
    let config = runner_config(
        inner,
        settings,
        entry.root.clone(),
        home,
        args.backend.clone(),
        false,
    )
    .await?;
    let options = PlanOptions {
        model: config.model.as_ref().map(|m| m.value.clone()),
        single_model: args.single_model,
    };
    let (label, text, name) = (entry.label(), entry.text, entry.name);
    let task = (!args.task.is_empty()).then_some(args.task);
    let plan = blocking(move || dry_run_task(Path::new(&label), &text, task.as_deref(), &options))
        .await?
        .map_err(|e| refused(&name, e, "it has no plan"))?;
    Ok(json!({ "plan": plan }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_task_takes_only_the_user_input() {
        let inputs = |v: Value| serde_json::from_value::<BTreeMap<String, Value>>(v).unwrap();
        assert_eq!(user_input(&inputs(json!({}))).unwrap(), None);
        assert_eq!(
            user_input(&inputs(json!({ "user-input": "the login page" }))).unwrap(),
            Some("the login page".into())
        );
        assert_eq!(
            user_input(&inputs(json!({ "topic": "x" })))
                .unwrap_err()
                .message,
            "unknown input `topic`: a task takes one input, `user-input` ($user-input)"
        );
    }

    #[test]
    fn the_tool_server_is_this_executable() {
        let server = tool_server().unwrap();
        assert_eq!(server[1..], ["jobs", "mcp"]);
        assert_eq!(
            server[0],
            std::env::current_exe().unwrap().display().to_string()
        );
    }
}
