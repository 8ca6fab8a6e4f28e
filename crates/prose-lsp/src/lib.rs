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

pub mod convert;
pub mod handlers;
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

/// How long handlers may still run after `exit`.
const EXIT_GRACE: Duration = Duration::from_millis(500);

/// Serves LSP on stdin/stdout until `exit` (or the end of stdin). The exit
/// status is 0 when `shutdown` came before, 1 otherwise (as LSP says).
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
        let (service, socket) = LspService::build(move |client| {
            server::Server::new(client, flag.clone(), server_runs.clone())
        })
        .custom_method(transport::INVALID_MESSAGE, server::Server::invalid_message)
        .custom_method(handlers::syntax_tree::METHOD, server::Server::syntax_tree)
        .custom_method(handlers::explain::METHOD, server::Server::explain)
        .custom_method(
            handlers::run::PROGRESS_CANCEL,
            server::Server::work_done_progress_cancel,
        )
        .finish();
        let exit_seen = Arc::new(tokio::sync::Notify::new());
        let stdin = transport::guard(tokio::io::stdin(), exit_seen.clone());
        let serve = Server::new(stdin, tokio::io::stdout(), socket).serve(service);
        // After `exit`, handlers still waiting on the client get a moment
        // to finish, then the process ends anyway (see transport.rs).
        let exit_grace = async {
            exit_seen.notified().await;
            let _ = tokio::task::spawn_blocking(|| std::thread::sleep(EXIT_GRACE)).await;
        };
        tokio::select! {
            () = serve => {}
            () = exit_grace => {
                eprintln!("prose-lsp: exit: dropped requests still waiting for the client");
            }
        }
        // Runs outlive no server (stdin ended without `shutdown`): each is
        // cancelled, its processes killed, its state left resumable.
        runs.cancel_all("the language server stopped", handlers::run::SHUTDOWN_WAIT)
            .await;
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
