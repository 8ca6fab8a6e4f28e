//! The OpenProse language server.
//!
//! The only crate of the workspace that knows LSP types: it turns LSP
//! messages into `prose-ide` inputs and `prose-ide` results into LSP
//! messages. Layout:
//!
//! - `server.rs`: the `LanguageServer` impl, thin dispatch under `catch_unwind`;
//! - `state.rs`: the analysis host, open documents, configuration layers;
//! - `convert.rs`: byte offsets <-> LSP positions (UTF-16 or UTF-8);
//! - `handlers/`: one module per group of methods;
//! - `transport.rs`: keeps malformed input from stopping the server;
//! - `workspace.rs`: all IO (paths, file reading with limits, scans, `prose.toml`);
//! - `settings.rs`: the editor's `prose` settings (`run_settings.rs`: its
//!   `runner` part);
//! - `runs.rs`: the runs in progress (`handlers/run.rs` starts them).
//!
//! See docs/lsp.md for what the server does and docs/architecture.md for
//! how edits, snapshots and diagnostics runs fit together.

pub mod analyzer;
pub mod convert;
pub mod handlers;
pub mod line_text;
pub mod run_settings;
pub mod runs;
pub mod server;
pub mod settings;
pub mod state;
pub mod transport;
pub mod workspace;

use std::{
    process::ExitCode,
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::Duration,
};

use tower_lsp_server::{LspService, Server};

/// How many messages tower-lsp-server handles at once. Its default (4)
/// lets four slow requests hold back every notification behind them;
/// requests only wait for their analysis, so many can be in flight.
const CONCURRENCY: usize = 64;

/// How long handlers may still run after `exit`.
const EXIT_GRACE: Duration = Duration::from_millis(500);

/// How long handlers may still run (and answer) after stdin ended.
const EOF_GRACE: Duration = Duration::from_secs(1);

/// Serves LSP on stdin/stdout until `exit` or the end of stdin, whatever is
/// still running then: handlers get [`EXIT_GRACE`] after `exit` and
/// [`EOF_GRACE`] after the end of stdin to finish, then the process ends.
/// The exit status is 0 when `shutdown` came before, 1 otherwise (as LSP
/// says).
pub fn run_stdio() -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("prose-lsp")
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("prose-lsp: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let shutdown = Arc::new(AtomicBool::new(false));
    let flag = shutdown.clone();
    let runs = Arc::new(runs::Runs::default());
    let server_runs = runs.clone();
    runtime.block_on(async move {
        let (stdout, outbox) = transport::output::writer(transport::output::stdout());
        let flush = outbox.clone();
        let (service, socket) = LspService::build(move |client| {
            server::Server::new(client, flag.clone(), server_runs.clone(), outbox.clone())
        })
        .custom_method(transport::INVALID_MESSAGE, server::Server::invalid_message)
        .custom_method(
            handlers::debug::DOCUMENT_TEXT,
            server::Server::document_text,
        )
        .custom_method(handlers::debug::PANIC, server::Server::debug_panic)
        .custom_method(handlers::syntax_tree::METHOD, server::Server::syntax_tree)
        .custom_method(handlers::explain::METHOD, server::Server::explain)
        .custom_method(
            handlers::run::PROGRESS_CANCEL,
            server::Server::work_done_progress_cancel,
        )
        .finish();
        let signals = Arc::new(transport::Signals::default());
        let stdin = transport::guard(transport::input::stdin(), signals.clone());
        // A task on the runtime's workers, like the pump that feeds it:
        // tokio runs a task woken by another next on the same thread, so a
        // message the pump passes on is read there, not handed over to the
        // thread that waits in `block_on` (a wake-up of ~50 µs on two
        // cores, docs/performance/peer-2026-11-30.md).
        let mut serve = tokio::spawn(
            Server::new(stdin, stdout, socket)
                .concurrency_level(CONCURRENCY)
                .serve(service),
        );
        // After `exit` or the end of stdin, handlers still waiting (on the
        // client, on an analysis) get a moment to finish, then the process
        // ends anyway (see transport.rs).
        let grace = async {
            let why = tokio::select! {
                () = signals.exit_seen.notified() => {
                    tokio::time::sleep(EXIT_GRACE).await;
                    "exit"
                }
                () = signals.eof.notified() => {
                    tokio::time::sleep(EOF_GRACE).await;
                    "end of input"
                }
            };
            eprintln!("prose-lsp: {why}: dropped requests still running");
        };
        tokio::select! {
            _ = &mut serve => {}
            () = grace => serve.abort(),
        }
        // Runs outlive no server (stdin ended without `shutdown`): each is
        // cancelled, its processes killed, its state left resumable.
        runs.cancel_all("the language server stopped", handlers::run::SHUTDOWN_WAIT)
            .await;
        // What was answered so far reaches the client before the end.
        flush.flush(Duration::from_secs(1)).await;
    });
    // Stdin is read on a blocking thread that may still wait for input, and
    // an analysis may still run: do not wait for them.
    runtime.shutdown_timeout(Duration::from_millis(100));
    if shutdown.load(Ordering::SeqCst) {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The programs the tests of the server's caches run over: the examples,
/// the parser's test data and, when they are there, the corpora beside
/// the workspace (`../shared/corpus`).
#[cfg(test)]
pub(crate) fn test_programs() -> Vec<std::path::PathBuf> {
    let root = prose_test_support::workspace_root();
    let mut out = Vec::new();
    for dir in [
        root.join("docs/examples"),
        root.join("crates/prose-syntax/test_data"),
        root.join("../shared/corpus"),
    ] {
        if dir.is_dir() {
            out.extend(prose_test_support::prose_files(&dir));
        }
    }
    out
}
