//! Running programs from the editor (docs/lsp.md, "Running programs"):
//! `workspace/executeCommand` for `prose.run`, `prose.dryRun`,
//! `prose.cancelRun` and `prose.revealErrors`,
//! `window/workDoneProgress/cancel`, and stopping every run on shutdown.
//!
//! `prose.run` checks the document with the server's own analysis (the
//! errors its lens counts), reads the runner configuration (the user's and
//! the repository's `prose.toml`, then the editor's settings), asks the
//! user's consent with `window/showMessageRequest` when the repository's
//! `prose.toml` chose what runs (docs/security.md), prepares the run on a
//! blocking thread, starts it on the runner's own thread and answers at
//! once with its id; its events reach the client through
//! `run_events.rs`. Nothing here holds the state lock across an `.await`
//! or waits for a run.
//!
//! A job task's run (`run_task.rs`) goes through the same steps, with the
//! pieces here: `run_settings` (trust), `document` (the analysis's
//! text and errors), `runner_config` (configuration and consent) and
//! `launch` (events, progress, inputs, cancel).

use std::{collections::BTreeMap, path::PathBuf, sync::Arc, time::Duration};

use ls_types::{ExecuteCommandParams, MessageActionItem, MessageType, ShowDocumentParams, Uri};
use prose_ide::{FileKind, Severity};
use prose_runner::{
    backend::select_backend,
    config::RunnerConfig,
    consent::{ConsentRequest, ConsentStore},
    events::EventSink,
    input::InputProvider,
    run::{RunHandle, RunOptions, StartError, prepare, start},
};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::{mpsc, watch};
use tower_lsp_server::jsonrpc::{Error, Result};

use crate::{
    handlers::{
        run_events::{EditorInput, forward},
        snapshot::{Lsp, on_document, request_failed},
    },
    run_settings::RunnerSettings,
    runs::RunCaps,
    server::{Inner, blocking},
    state::State,
    workspace,
};

pub const RUN: &str = "prose.run";
pub const DRY_RUN: &str = "prose.dryRun";
pub const CANCEL_RUN: &str = "prose.cancelRun";
pub const REVEAL_ERRORS: &str = "prose.revealErrors";

/// The commands the server advertises (`executeCommandProvider`).
pub const COMMANDS: [&str; 4] = [RUN, DRY_RUN, CANCEL_RUN, REVEAL_ERRORS];

/// The client notification that cancels a progress (and so its run).
pub const PROGRESS_CANCEL: &str = "window/workDoneProgress/cancel";

/// How long shutting down waits for cancelled runs to write their state.
pub const SHUTDOWN_WAIT: Duration = Duration::from_secs(10);

/// The consent dialog's buttons.
const ALLOW: &str = "Allow";
const CANCEL: &str = "Cancel";

/// What the client can do for runs, from its `initialize` capabilities.
pub fn client_caps(caps: &ls_types::ClientCapabilities) -> RunCaps {
    let window = caps.window.as_ref();
    RunCaps {
        progress: window.and_then(|w| w.work_done_progress).unwrap_or(false),
        input_request: caps
            .experimental
            .as_ref()
            .and_then(|e| e.get("proseInputRequest"))
            .and_then(Value::as_bool)
            .unwrap_or(false),
        show_document: window
            .and_then(|w| w.show_document.as_ref())
            .is_some_and(|s| s.support),
        lens_refresh: caps
            .workspace
            .as_ref()
            .and_then(|w| w.code_lens.as_ref())
            .and_then(|c| c.refresh_support)
            .unwrap_or(false),
    }
}

/// Whether the client trusts the workspace: its `trusted` setting (the
/// pulled settings over `initializationOptions`), yes when it says
/// nothing.
pub fn trusted(st: &State) -> bool {
    st.client_settings
        .trusted
        .or(st.init_settings.trusted)
        .unwrap_or(true)
}

/// `{"uri": ...}`, the argument of every command but `prose.cancelRun`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RunArgs {
    uri: Uri,
    #[serde(default)]
    inputs: BTreeMap<String, Value>,
    #[serde(default)]
    backend: Option<String>,
    #[serde(default)]
    resume: Option<String>,
}

/// `{"uri": ...}`, the argument of `prose.revealErrors` (a program or a
/// job entry).
#[derive(Debug, Deserialize)]
struct UriArg {
    uri: Uri,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct CancelArgs {
    run_id: String,
}

pub(crate) fn argument<T: for<'de> Deserialize<'de>>(params: &ExecuteCommandParams) -> Result<T> {
    let arg = params.arguments.first().cloned().unwrap_or(Value::Null);
    serde_json::from_value(arg).map_err(|e| {
        Error::invalid_params(format!(
            "{}: bad argument: {e} (see docs/lsp.md, \"Running programs\")",
            params.command
        ))
    })
}

pub async fn execute_command(
    inner: &Arc<Inner>,
    params: ExecuteCommandParams,
) -> Result<Option<Value>> {
    match params.command.as_str() {
        RUN => run(inner, argument(&params)?).await.map(Some),
        DRY_RUN => dry_run(inner, argument::<RunArgs>(&params)?.uri)
            .await
            .map(Some),
        CANCEL_RUN => {
            let args: CancelArgs = argument(&params)?;
            if inner.runs.cancel(&args.run_id, "cancelled from the editor") {
                Ok(None)
            } else {
                Err(request_failed(format!("no run {} is running", args.run_id)))
            }
        }
        REVEAL_ERRORS => reveal_errors(inner, argument::<UriArg>(&params)?.uri)
            .await
            .map(|()| None),
        other => Err(Error::invalid_params(format!(
            "unknown command `{other}`; the server's commands are {}",
            COMMANDS.join(", ")
        ))),
    }
}

/// `window/workDoneProgress/cancel`: the progress of a run was cancelled.
pub fn progress_cancel(inner: &Arc<Inner>, params: ls_types::WorkDoneProgressCancelParams) {
    if let ls_types::NumberOrString::String(token) = params.token {
        inner.runs.cancel_token(&token, "cancelled from the editor");
    }
}

/// Cancels every run and waits (at most [`SHUTDOWN_WAIT`]) until each has
/// written its state: they stay resumable.
pub async fn shutdown(inner: &Arc<Inner>) {
    inner
        .runs
        .cancel_all("the language server shut down", SHUTDOWN_WAIT)
        .await;
}

/// A program or job entry document as the analysis sees it.
pub(crate) struct Document {
    pub path: PathBuf,
    pub name: String,
    pub text: String,
    pub root: PathBuf,
    pub config: prose_ide::Config,
    /// Its errors, in order: range and message.
    pub errors: Vec<(ls_types::Range, String)>,
}

impl Document {
    /// The document's path as `prose run` from the root would name it.
    pub fn label(&self) -> String {
        self.path.strip_prefix(&self.root).map_or_else(
            |_| self.path.display().to_string(),
            |p| p.display().to_string(),
        )
    }
}

/// What a command runs: a program, a job entry's task, or either (to
/// reveal errors).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Runnable {
    Program,
    JobEntry,
    Either,
}

impl Runnable {
    fn accepts(self, kind: FileKind) -> bool {
        match self {
            Runnable::Program => kind == FileKind::OpenProse,
            Runnable::JobEntry => kind == FileKind::JobEntry,
            Runnable::Either => matches!(kind, FileKind::OpenProse | FileKind::JobEntry),
        }
    }

    fn noun(self) -> &'static str {
        match self {
            Runnable::Program => "an OpenProse program",
            Runnable::JobEntry => "a job entry",
            Runnable::Either => "an OpenProse program or a job entry",
        }
    }
}

/// The document at `uri`, which must be `what`, with its errors (the
/// severities of its configuration, as the lenses count them).
pub(crate) async fn document(inner: &Arc<Inner>, uri: &Uri, what: Runnable) -> Result<Document> {
    let Some(path) = workspace::uri_path(uri) else {
        return Err(request_failed(format!(
            "{} is not a file: save it to run it",
            uri.as_str()
        )));
    };
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let found = on_document(inner, uri, move |s, file| {
        if !what.accepts(s.analysis.file_kind(file).lsp()?) {
            return Err(request_failed(format!("{name} is not {}", what.noun())));
        }
        let text = s.text(file)?;
        let mut errors = Vec::new();
        for d in s.analysis.diagnostics(file).lsp()? {
            if d.severity == Severity::Error {
                errors.push((text.range(s.encoding, d.range), d.message.clone()));
            }
        }
        Ok(Document {
            text: text.text().to_string(),
            root: PathBuf::from(s.analysis.file_root_dir(file).lsp()?),
            config: s.analysis.file_config(file).lsp()?,
            errors,
            path,
            name,
        })
    })
    .await?;
    found.ok_or_else(|| request_failed("the document is too large to run"))
}

/// `hello.prose has 2 errors; {outcome} (line 3: ...)`.
pub(crate) fn errors_message(p: &Document, outcome: &str) -> String {
    let n = p.errors.len();
    format!(
        "{} has {n} error{}; {outcome} ({})",
        p.name,
        if n == 1 { "" } else { "s" },
        p.errors
            .first()
            .map(|(r, m)| format!("line {}: {m}", r.start.line + 1))
            .unwrap_or_default()
    )
}

/// The runner settings and the home of a run, once the client is known to
/// trust the workspace (`what`: what is disabled otherwise).
pub(crate) fn run_settings(
    inner: &Arc<Inner>,
    what: &str,
) -> Result<(RunnerSettings, Option<PathBuf>)> {
    if !trusted(&inner.state()) {
        return Err(request_failed(format!(
            "running {what} is disabled: the workspace is not trusted"
        )));
    }
    Ok(settings(inner))
}

/// The editor's runner settings (the pulled ones over
/// `initializationOptions`) and the home.
pub(crate) fn settings(inner: &Arc<Inner>) -> (RunnerSettings, Option<PathBuf>) {
    let st = inner.state();
    let settings = st.client_settings.runner.over(&st.init_settings.runner);
    (settings, st.home.clone().map(PathBuf::from))
}

/// The runner configuration of a run in `root`, as it is on disk now (the
/// user's and the repository's `prose.toml`, then the editor's settings,
/// then `backend`), once the user has allowed what the repository's
/// `prose.toml` chose (when `ask` and it chose anything).
pub(crate) async fn runner_config(
    inner: &Arc<Inner>,
    settings: RunnerSettings,
    root: PathBuf,
    home: Option<PathBuf>,
    backend: Option<String>,
    ask: bool,
) -> Result<RunnerConfig> {
    let home2 = home.clone();
    let (config, request) = blocking(move || -> std::result::Result<_, String> {
        let repo = workspace::load_config(&root)?;
        let config = settings.config(&root, home2.as_deref(), &repo, backend.as_deref())?;
        let request = select_backend(&config)
            .ok()
            .and_then(|kind| ConsentRequest::new(&root, &config, kind));
        Ok((config, request))
    })
    .await?
    .map_err(request_failed)?;
    if ask && let Some(request) = request {
        consent(inner, request, home).await?;
    }
    Ok(config)
}

/// Starts a prepared run with `start` (the program's or the task's): its
/// events go to the client (`prose/runEvent`, `$/progress` titled
/// `title`), its inputs are asked of the client when it can be asked, and
/// it can be cancelled until it ends. Answers `{runId, runDir}`.
pub(crate) fn launch(
    inner: &Arc<Inner>,
    run_id: String,
    run_dir: String,
    title: String,
    start: impl FnOnce(Arc<dyn EventSink>, Option<Arc<dyn InputProvider>>) -> RunHandle,
) -> Value {
    let caps = inner.runs.caps();
    let (events_tx, events_rx) = mpsc::unbounded_channel();
    let provider: Option<Arc<dyn InputProvider>> = caps.input_request.then(|| {
        Arc::new(EditorInput {
            client: inner.client.clone(),
            runtime: tokio::runtime::Handle::current(),
        }) as Arc<dyn InputProvider>
    });
    let handle = start(Arc::new(events_tx), provider);
    let (done_tx, done_rx) = watch::channel(false);
    inner.runs.insert(&run_id, handle.canceller(), done_rx);
    tokio::spawn(forward(
        inner.clone(),
        run_id.clone(),
        title,
        events_rx,
        caps.progress,
        done_tx,
    ));
    json!({ "runId": run_id, "runDir": run_dir })
}

/// A command's `inputs` as text: strings as they are, `null` empty, other
/// values as JSON.
pub(crate) fn input_texts(inputs: &BTreeMap<String, Value>) -> BTreeMap<String, String> {
    inputs
        .iter()
        .map(|(k, v)| {
            let v = match v {
                Value::String(s) => s.clone(),
                Value::Null => String::new(),
                other => other.to_string(),
            };
            (k.clone(), v)
        })
        .collect()
}

/// `prose.run`: starts a run and answers `{runId, runDir}` at once.
async fn run(inner: &Arc<Inner>, args: RunArgs) -> Result<Value> {
    let (settings, home) = run_settings(inner, "programs")?;
    let program = document(inner, &args.uri, Runnable::Program).await?;
    if args.resume.is_none() && !program.errors.is_empty() {
        return Err(request_failed(errors_message(&program, "it was not run")));
    }
    let caps = inner.runs.caps();
    let inputs = input_texts(&args.inputs);
    if !caps.input_request && args.resume.is_none() {
        missing_inputs(&program.text, &inputs)?;
    }
    let config = runner_config(
        inner,
        settings,
        program.root.clone(),
        home.clone(),
        args.backend.clone(),
        true,
    )
    .await?;

    // Named as `prose run` from the root would name it.
    let mut options = RunOptions::new(
        program.path.clone(),
        program.text.clone(),
        program.root.clone(),
    );
    options.program_label = Some(program.label());
    options.home = home;
    options.prose_config = program.config.clone();
    options.config = config;
    options.inputs = inputs;
    options.resume = args.resume;
    options.interactive = caps.input_request;
    options.skip_check = true;
    let prepared = blocking(move || prepare(options))
        .await?
        .map_err(|e| match e {
            StartError::ProgramErrors(d) => request_failed(format!(
                "the program has {} errors; it was not run",
                d.len()
            )),
            e => request_failed(e.to_string()),
        })?;
    let run_id = prepared.run_id().to_string();
    let run_dir = prepared.run_dir().display().to_string();
    Ok(launch(
        inner,
        run_id,
        run_dir,
        format!("Running {}", program.name),
        |sink, provider| start(prepared, sink, provider),
    ))
}

/// Refuses a run whose inputs are not all given when the client cannot be
/// asked for them.
fn missing_inputs(source: &str, given: &BTreeMap<String, String>) -> Result<()> {
    let program = prose_runner::lower::lower(source).program;
    let mut missing: Vec<&str> = program
        .inputs
        .iter()
        .map(|i| i.name.as_str())
        .filter(|n| !given.contains_key(*n))
        .collect();
    missing.dedup();
    if missing.is_empty() {
        return Ok(());
    }
    Err(request_failed(format!(
        "the program needs the input{} {}, and this editor cannot ask for {} (it does not declare experimental.proseInputRequest): give {} in the `inputs` of prose.run",
        if missing.len() == 1 { "" } else { "s" },
        missing.join(", "),
        if missing.len() == 1 { "it" } else { "them" },
        if missing.len() == 1 { "it" } else { "them" },
    )))
}

/// Asks the user (`window/showMessageRequest`) to allow what the
/// repository's `prose.toml` chose, unless allowed before; a yes is
/// remembered as `prose run` remembers it.
async fn consent(inner: &Arc<Inner>, request: ConsentRequest, home: Option<PathBuf>) -> Result<()> {
    let store = home.as_deref().map(ConsentStore::in_home);
    let (granted, request, store) = blocking(move || {
        (
            store.as_ref().is_some_and(|s| s.is_granted(&request)),
            request,
            store,
        )
    })
    .await?;
    if granted {
        return Ok(());
    }
    let message = format!(
        "{}Allow this for {}? The answer is remembered until these settings change.",
        request.describe(),
        request.root.display()
    );
    let actions = [ALLOW, CANCEL]
        .map(|title| MessageActionItem {
            title: title.to_string(),
            properties: Default::default(),
        })
        .to_vec();
    let answer = inner
        .client
        .show_message_request(MessageType::WARNING, message, Some(actions))
        .await;
    if !matches!(&answer, Ok(Some(item)) if item.title == ALLOW) {
        return Err(request_failed(format!(
            "not run: you did not allow {}; nothing was executed",
            request.summary()
        )));
    }
    if let Some(store) = store {
        let saved = blocking(move || store.grant(&request).map_err(|e| (store.path, e))).await?;
        if let Err((path, e)) = saved {
            inner
                .client
                .log_message(
                    MessageType::WARNING,
                    format!(
                        "prose: cannot remember the consent in {}: {e}",
                        path.display()
                    ),
                )
                .await;
        }
    }
    Ok(())
}

/// `prose.dryRun`: the plan, as `prose run --dry-run` prints it.
async fn dry_run(inner: &Arc<Inner>, uri: Uri) -> Result<Value> {
    let program = document(inner, &uri, Runnable::Program).await?;
    if !program.errors.is_empty() {
        return Err(request_failed(errors_message(&program, "it has no plan")));
    }
    let text = program.text;
    let plan = blocking(move || prose_runner::run::dry_run(&text)).await?;
    Ok(json!({ "plan": plan }))
}

/// `prose.revealErrors`: shows the first error of a program or job entry (`window/showDocument`),
/// or says where it is when the client cannot show documents.
async fn reveal_errors(inner: &Arc<Inner>, uri: Uri) -> Result<()> {
    let program = document(inner, &uri, Runnable::Either).await?;
    let Some((range, message)) = program.errors.first().cloned() else {
        inner
            .client
            .show_message(MessageType::INFO, format!("{} has no errors", program.name))
            .await;
        return Ok(());
    };
    if inner.runs.caps().show_document {
        let shown = inner
            .client
            .show_document(ShowDocumentParams {
                uri,
                external: Some(false),
                take_focus: Some(true),
                selection: Some(range),
            })
            .await;
        if shown.unwrap_or(false) {
            return Ok(());
        }
    }
    inner
        .client
        .show_message(
            MessageType::ERROR,
            format!(
                "{}:{}:{}: {message}",
                program.name,
                range.start.line + 1,
                range.start.character + 1
            ),
        )
        .await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_missing_without_an_input_request_are_named() {
        let source =
            "input topic: \"What about?\"\ninput depth: \"How deep?\"\nsession \"{topic}\"\n";
        let mut given = BTreeMap::new();
        let e = missing_inputs(source, &given).unwrap_err();
        assert_eq!(
            e.message,
            "the program needs the inputs topic, depth, and this editor cannot ask for them (it does not declare experimental.proseInputRequest): give them in the `inputs` of prose.run"
        );
        given.insert("topic".to_string(), "tides".to_string());
        given.insert("depth".to_string(), "1".to_string());
        assert!(missing_inputs(source, &given).is_ok());
    }

    #[test]
    fn capabilities_for_runs() {
        let caps: ls_types::ClientCapabilities = serde_json::from_value(json!({
            "window": { "workDoneProgress": true, "showDocument": { "support": true } },
            "workspace": { "codeLens": { "refreshSupport": true } },
            "experimental": { "proseInputRequest": true }
        }))
        .unwrap();
        assert_eq!(
            client_caps(&caps),
            RunCaps {
                progress: true,
                input_request: true,
                show_document: true,
                lens_refresh: true,
            }
        );
        assert_eq!(
            client_caps(&ls_types::ClientCapabilities::default()),
            RunCaps::default()
        );
    }
}
