//! What `prose run` and `prose jobs run` share while a run is live: where
//! its events go (the progress display on stderr, or JSON lines on stdout
//! with `--events jsonl`, and `--events-file`), Ctrl-C, and the report at
//! its end (the outputs on stdout, where the state is or how to resume on
//! stderr, the exit status).

use std::{
    io::{BufRead, IsTerminal, Write},
    path::Path,
    sync::{Arc, Mutex},
};

use prose_runner::{
    events::{EventSink, JsonLinesSink, RunStatus},
    input::{InputProvider, InputRequest},
    run::{RunHandle, RunOutcome},
};

use crate::{
    progress::{Progress, Tee},
    run::{EXIT_FAILED, EXIT_OK},
};

/// Runs a command's future on a single-threaded runtime (a run has a
/// thread of its own); its result is the exit status.
pub fn block_on(command: impl std::future::Future<Output = u8>) -> std::process::ExitCode {
    match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => std::process::ExitCode::from(rt.block_on(command)),
        Err(e) => {
            eprintln!("error: cannot start: {e}");
            std::process::ExitCode::from(crate::run::EXIT_USAGE)
        }
    }
}

/// How a run is shown while it runs.
pub struct Live {
    /// The display on stderr (off with `--events jsonl` or off a terminal).
    pub progress: Arc<Progress>,
    /// Where events go.
    pub sink: Arc<dyn EventSink>,
    /// Inputs asked on the terminal, when the run is interactive.
    pub provider: Option<Arc<dyn InputProvider>>,
    events_jsonl: bool,
}

impl Live {
    pub fn new(
        events_jsonl: bool,
        events_file: Option<&Path>,
        interactive: bool,
    ) -> Result<Live, String> {
        let progress = Arc::new(Progress::new(
            !events_jsonl && std::io::stderr().is_terminal(),
        ));
        let sink = sinks(&progress, events_jsonl, events_file)?;
        let provider = interactive
            .then(|| Arc::new(TerminalInput(progress.clone())) as Arc<dyn InputProvider>);
        Ok(Live {
            progress,
            sink,
            provider,
            events_jsonl,
        })
    }

    /// Waits for the run (Ctrl-C cancels it), then reports its end (see
    /// [`report`]); returns the exit status.
    pub async fn end(self, handle: RunHandle, root: &Path, resume: &str) -> u8 {
        let outcome = wait(handle).await;
        self.progress.finish();
        report(&outcome, root, self.events_jsonl, resume)
    }
}

/// Asks for inputs on the terminal.
struct TerminalInput(Arc<Progress>);

impl InputProvider for TerminalInput {
    fn ask(&self, request: InputRequest) -> futures::future::BoxFuture<'static, Option<String>> {
        let progress = self.0.clone();
        Box::pin(async move {
            tokio::task::spawn_blocking(move || {
                progress.suspend(|| {
                    let mut err = std::io::stderr();
                    let _ = if request.description.is_empty() {
                        write!(err, "{}: ", request.name)
                    } else {
                        write!(err, "{} ({}): ", request.name, request.description.trim())
                    };
                    let _ = err.flush();
                    let mut line = String::new();
                    match std::io::stdin().lock().read_line(&mut line) {
                        Ok(0) | Err(_) => None,
                        Ok(_) => Some(line.trim_end_matches(['\n', '\r']).to_string()),
                    }
                })
            })
            .await
            .ok()
            .flatten()
        })
    }
}

/// Where a run's events go: `progress` (or stdout as JSON lines when
/// `events_jsonl`), and `events_file` when given.
pub fn sinks(
    progress: &Arc<Progress>,
    events_jsonl: bool,
    events_file: Option<&Path>,
) -> Result<Arc<dyn EventSink>, String> {
    let mut sinks: Vec<Arc<dyn EventSink>> = Vec::new();
    if events_jsonl {
        sinks.push(Arc::new(JsonLinesSink(Mutex::new(std::io::stdout()))));
    } else {
        sinks.push(progress.clone());
    }
    if let Some(path) = events_file {
        let f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
        sinks.push(Arc::new(JsonLinesSink(Mutex::new(f))));
    }
    Ok(Arc::new(Tee(sinks)))
}

/// Waits for the run's end; Ctrl-C cancels it (its state stays
/// resumable), a second Ctrl-C exits at once.
pub async fn wait(handle: RunHandle) -> RunOutcome {
    let canceller = handle.canceller();
    let ctrl_c = tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            canceller.cancel("Ctrl-C");
            if tokio::signal::ctrl_c().await.is_ok() {
                std::process::exit(130);
            }
        }
    });
    let outcome = handle.wait().await;
    ctrl_c.abort();
    outcome
}

/// Prints the end of a run: its outputs on stdout (not with `--events
/// jsonl`), then where its state is, or why it failed and how to resume it
/// (`resume` is the command without the run id); returns the exit status.
pub fn report(outcome: &RunOutcome, root: &Path, events_jsonl: bool, resume: &str) -> u8 {
    if !events_jsonl {
        let mut out = anstream::stdout().lock();
        for (name, value) in &outcome.outputs {
            let _ = writeln!(out, "{name}:\n{}\n", value.to_text().trim_end());
        }
    }
    let dir = outcome
        .run_dir
        .strip_prefix(root)
        .map(Path::to_path_buf)
        .unwrap_or_else(|_| outcome.run_dir.clone());
    match outcome.status {
        RunStatus::Succeeded => {
            if !events_jsonl {
                anstream::eprintln!(
                    "run {} finished; its state is in {}",
                    outcome.run_id,
                    dir.display()
                );
            }
            EXIT_OK
        }
        RunStatus::Failed | RunStatus::Cancelled => {
            let what = if outcome.status == RunStatus::Failed {
                "failed"
            } else {
                "was cancelled"
            };
            anstream::eprintln!(
                "error: run {} {what}: {}\n  state: {}\n  resume: {resume} --resume {}",
                outcome.run_id,
                outcome.error.as_deref().unwrap_or("unknown error"),
                dir.display(),
                outcome.run_id
            );
            EXIT_FAILED
        }
    }
}
