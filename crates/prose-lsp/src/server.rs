//! The `LanguageServer` implementation: thin dispatch to `handlers`, each
//! call under `catch_unwind` so a panic becomes an error response (or a
//! logged failure, for a notification) and the server lives on.
//!
//! Analysis runs on blocking threads ([`blocking`]). A request's run goes
//! through [`blocking_cancellable`], which ties it to the request: when
//! tower-lsp-server drops the request's future (the client sent
//! `$/cancelRequest`, and got `RequestCancelled`), the snapshot's
//! [`CancelToken`] is cancelled and the analysis stops at its next check
//! instead of computing an answer nobody waits for.

use std::{
    any::Any,
    future::Future,
    panic::AssertUnwindSafe,
    sync::{Arc, Mutex, MutexGuard, PoisonError, atomic::AtomicBool},
};

use futures::FutureExt;
use ls_types::{
    DidChangeConfigurationParams, DidChangeTextDocumentParams, DidChangeWatchedFilesParams,
    DidChangeWorkspaceFoldersParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams,
    DocumentDiagnosticParams, DocumentDiagnosticReportResult, InitializeParams, InitializeResult,
    InitializedParams,
};
use tower_lsp_server::{
    Client, LanguageServer,
    jsonrpc::{Error, Result},
};

use prose_ide::CancelToken;

use crate::{handlers, state::State};

/// What every handler shares.
pub struct Inner {
    pub client: Client,
    /// Notifications serialised by the server itself (large diagnostics
    /// lists; see `transport/output.rs`).
    pub outbox: crate::transport::output::Outbox,
    state: Mutex<State>,
    /// Held while pushing diagnostics, so pushes go out in generation order.
    pub publish_lock: tokio::sync::Mutex<()>,
    /// Set by `shutdown`: the exit status is 0 only after it.
    pub shutdown: Arc<AtomicBool>,
    /// Work for the diagnostics worker, and its wake-up call.
    pending: Mutex<handlers::diagnostics::Pending>,
    pub wake: tokio::sync::Notify,
    /// The runs in progress (`handlers/run.rs`).
    pub runs: Arc<crate::runs::Runs>,
}

impl Inner {
    /// Locks the state. Never hold the guard across an `.await` (it is not
    /// `Send`, so the compiler enforces it) nor while waiting on an
    /// analysis snapshot. A panic while it was held leaves it usable.
    pub fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub fn pending(&self) -> MutexGuard<'_, handlers::diagnostics::Pending> {
        self.pending.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

pub struct Server {
    inner: Arc<Inner>,
}

impl Server {
    /// A server; starts its diagnostics worker (so it must be called
    /// inside the tokio runtime).
    pub fn new(
        client: Client,
        shutdown: Arc<AtomicBool>,
        runs: Arc<crate::runs::Runs>,
        outbox: crate::transport::output::Outbox,
    ) -> Server {
        let inner = Arc::new(Inner {
            client,
            outbox,
            state: Mutex::new(State::default()),
            publish_lock: tokio::sync::Mutex::new(()),
            shutdown,
            pending: Mutex::default(),
            wake: tokio::sync::Notify::new(),
            runs,
        });
        tokio::spawn(handlers::diagnostics::worker(inner.clone()));
        Server { inner }
    }
}

impl Server {
    /// Answers a malformed message with its error (see `transport.rs`).
    pub async fn invalid_message(&self, params: serde_json::Value) -> Result<()> {
        crate::transport::invalid_message(params)
    }

    /// `prose/debug/documentText` (see `handlers/debug.rs`).
    pub async fn document_text(
        &self,
        params: handlers::debug::DocumentTextParams,
    ) -> Result<Option<handlers::debug::DocumentText>> {
        guard(handlers::debug::DOCUMENT_TEXT, async {
            handlers::debug::document_text(&self.inner, params)
        })
        .await
    }

    /// `prose/debug/panic` (see `handlers/debug.rs`).
    pub async fn debug_panic(&self, params: handlers::debug::PanicParams) -> Result<()> {
        guard(handlers::debug::PANIC, handlers::debug::panic(params)).await
    }

    /// `prose/syntaxTree` (the editors' "Show syntax tree").
    pub async fn syntax_tree(
        &self,
        params: handlers::syntax_tree::SyntaxTreeParams,
    ) -> Result<String> {
        guard(
            handlers::syntax_tree::METHOD,
            handlers::syntax_tree::syntax_tree(&self.inner, params),
        )
        .await
    }

    /// `window/workDoneProgress/cancel` (tower-lsp-server has no method
    /// for it): cancels the run of that progress.
    pub async fn work_done_progress_cancel(&self, params: ls_types::WorkDoneProgressCancelParams) {
        guard_notification(handlers::run::PROGRESS_CANCEL, async {
            handlers::run::progress_cancel(&self.inner, params)
        })
        .await
    }

    /// `prose/explain` (the editors' "Explain diagnostic").
    pub async fn explain(
        &self,
        params: handlers::explain::ExplainParams,
    ) -> Result<Option<handlers::explain::Explanation>> {
        guard(handlers::explain::METHOD, async {
            handlers::explain::explain(params)
        })
        .await
    }
}

/// The message of a panic payload.
pub fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(no message)".to_string()
    }
}

fn panic_error(method: &str, payload: &(dyn Any + Send)) -> Error {
    let mut error = Error::internal_error();
    error.message = format!("prose-lsp: {method} failed: {}", panic_message(payload)).into();
    error
}

/// Runs a request handler; a panic becomes an `InternalError` response.
pub async fn guard<T>(method: &str, fut: impl Future<Output = Result<T>>) -> Result<T> {
    match AssertUnwindSafe(fut).catch_unwind().await {
        Ok(result) => result,
        Err(payload) => Err(panic_error(method, &*payload)),
    }
}

/// Runs a notification handler; a panic is logged on stderr.
pub async fn guard_notification(method: &str, fut: impl Future<Output = ()>) {
    if let Err(payload) = AssertUnwindSafe(fut).catch_unwind().await {
        eprintln!("prose-lsp: {method} failed: {}", panic_message(&*payload));
    }
}

/// Runs `f` on a blocking thread; a panic there becomes an error.
pub async fn blocking<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Result<T> {
    tokio::task::spawn_blocking(f).await.map_err(|e| {
        if e.is_panic() {
            panic_error("analysis", &*e.into_panic())
        } else {
            Error::internal_error()
        }
    })
}

/// Runs a request's analysis `f` on a blocking thread, as [`blocking`],
/// and cancels `token` (the token of the snapshot `f` works on) when the
/// request is dropped before `f` ends: `f`'s queries then return
/// `Err(Cancelled)` at their next check and the thread is freed. Nothing
/// is cancelled when `f` ends first.
pub async fn blocking_cancellable<T: Send + 'static>(
    token: CancelToken,
    f: impl FnOnce() -> T + Send + 'static,
) -> Result<T> {
    let on_drop = CancelOnDrop(Some(token));
    let result = blocking(f).await;
    on_drop.disarm();
    result
}

/// Cancels its token when dropped, unless disarmed.
struct CancelOnDrop(Option<CancelToken>);

impl CancelOnDrop {
    fn disarm(mut self) {
        self.0 = None;
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        if let Some(token) = self.0.take() {
            token.cancel();
        }
    }
}

impl LanguageServer for Server {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        guard(
            "initialize",
            handlers::lifecycle::initialize(&self.inner, params),
        )
        .await
    }

    async fn initialized(&self, params: InitializedParams) {
        guard_notification(
            "initialized",
            handlers::lifecycle::initialized(&self.inner, params),
        )
        .await
    }

    async fn shutdown(&self) -> Result<()> {
        guard("shutdown", async {
            handlers::run::shutdown(&self.inner).await;
            handlers::lifecycle::shutdown(&self.inner)
        })
        .await
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        guard_notification("textDocument/didOpen", async {
            handlers::text_sync::did_open(&self.inner, params)
        })
        .await
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        guard_notification(
            "textDocument/didChange",
            handlers::text_sync::did_change(&self.inner, params),
        )
        .await
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        guard_notification(
            "textDocument/didClose",
            handlers::text_sync::did_close(&self.inner, params),
        )
        .await
    }

    async fn diagnostic(
        &self,
        params: DocumentDiagnosticParams,
    ) -> Result<DocumentDiagnosticReportResult> {
        guard(
            "textDocument/diagnostic",
            handlers::diagnostics_pull::pull(&self.inner, params),
        )
        .await
    }

    async fn goto_definition(
        &self,
        params: ls_types::GotoDefinitionParams,
    ) -> Result<Option<ls_types::GotoDefinitionResponse>> {
        guard(
            "textDocument/definition",
            handlers::navigation::goto_definition(&self.inner, params),
        )
        .await
    }

    async fn references(
        &self,
        params: ls_types::ReferenceParams,
    ) -> Result<Option<Vec<ls_types::Location>>> {
        guard(
            "textDocument/references",
            handlers::references::references(&self.inner, params),
        )
        .await
    }

    async fn document_highlight(
        &self,
        params: ls_types::DocumentHighlightParams,
    ) -> Result<Option<Vec<ls_types::DocumentHighlight>>> {
        guard(
            "textDocument/documentHighlight",
            handlers::references::document_highlight(&self.inner, params),
        )
        .await
    }

    async fn prepare_rename(
        &self,
        params: ls_types::TextDocumentPositionParams,
    ) -> Result<Option<ls_types::PrepareRenameResponse>> {
        guard(
            "textDocument/prepareRename",
            handlers::rename::prepare_rename(&self.inner, params),
        )
        .await
    }

    async fn rename(
        &self,
        params: ls_types::RenameParams,
    ) -> Result<Option<ls_types::WorkspaceEdit>> {
        guard(
            "textDocument/rename",
            handlers::rename::rename(&self.inner, params),
        )
        .await
    }

    async fn document_symbol(
        &self,
        params: ls_types::DocumentSymbolParams,
    ) -> Result<Option<ls_types::DocumentSymbolResponse>> {
        guard(
            "textDocument/documentSymbol",
            handlers::symbols::document_symbol(&self.inner, params),
        )
        .await
    }

    async fn symbol(
        &self,
        params: ls_types::WorkspaceSymbolParams,
    ) -> Result<Option<ls_types::WorkspaceSymbolResponse>> {
        guard(
            "workspace/symbol",
            handlers::symbols::workspace_symbol(&self.inner, params),
        )
        .await
    }

    async fn code_action(
        &self,
        params: ls_types::CodeActionParams,
    ) -> Result<Option<ls_types::CodeActionResponse>> {
        guard(
            "textDocument/codeAction",
            handlers::code_actions::code_action(&self.inner, params),
        )
        .await
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        guard_notification(
            "workspace/didChangeWatchedFiles",
            handlers::workspace::did_change_watched_files(&self.inner, params),
        )
        .await
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        guard_notification(
            "workspace/didChangeConfiguration",
            handlers::workspace::did_change_configuration(&self.inner, params),
        )
        .await
    }

    async fn did_change_workspace_folders(&self, params: DidChangeWorkspaceFoldersParams) {
        guard_notification(
            "workspace/didChangeWorkspaceFolders",
            handlers::workspace::did_change_workspace_folders(&self.inner, params),
        )
        .await
    }

    async fn hover(&self, params: ls_types::HoverParams) -> Result<Option<ls_types::Hover>> {
        guard(
            "textDocument/hover",
            handlers::hover::hover(&self.inner, params),
        )
        .await
    }

    async fn completion(
        &self,
        params: ls_types::CompletionParams,
    ) -> Result<Option<ls_types::CompletionResponse>> {
        guard(
            "textDocument/completion",
            handlers::completion::completion(&self.inner, params),
        )
        .await
    }

    async fn signature_help(
        &self,
        params: ls_types::SignatureHelpParams,
    ) -> Result<Option<ls_types::SignatureHelp>> {
        guard(
            "textDocument/signatureHelp",
            handlers::signature_help::signature_help(&self.inner, params),
        )
        .await
    }

    async fn inlay_hint(
        &self,
        params: ls_types::InlayHintParams,
    ) -> Result<Option<Vec<ls_types::InlayHint>>> {
        guard(
            "textDocument/inlayHint",
            handlers::inlay_hints::inlay_hints(&self.inner, params),
        )
        .await
    }

    async fn semantic_tokens_full(
        &self,
        params: ls_types::SemanticTokensParams,
    ) -> Result<Option<ls_types::SemanticTokensResult>> {
        guard(
            "textDocument/semanticTokens/full",
            handlers::semantic_tokens::full(&self.inner, params),
        )
        .await
    }

    async fn semantic_tokens_range(
        &self,
        params: ls_types::SemanticTokensRangeParams,
    ) -> Result<Option<ls_types::SemanticTokensRangeResult>> {
        guard(
            "textDocument/semanticTokens/range",
            handlers::semantic_tokens::range(&self.inner, params),
        )
        .await
    }

    async fn code_lens(
        &self,
        params: ls_types::CodeLensParams,
    ) -> Result<Option<Vec<ls_types::CodeLens>>> {
        guard(
            "textDocument/codeLens",
            handlers::code_lens::code_lens(&self.inner, params),
        )
        .await
    }

    async fn document_link(
        &self,
        params: ls_types::DocumentLinkParams,
    ) -> Result<Option<Vec<ls_types::DocumentLink>>> {
        guard(
            "textDocument/documentLink",
            handlers::document_link::document_link(&self.inner, params),
        )
        .await
    }

    async fn execute_command(
        &self,
        params: ls_types::ExecuteCommandParams,
    ) -> Result<Option<serde_json::Value>> {
        guard(
            "workspace/executeCommand",
            handlers::commands::execute(&self.inner, params),
        )
        .await
    }

    async fn folding_range(
        &self,
        params: ls_types::FoldingRangeParams,
    ) -> Result<Option<Vec<ls_types::FoldingRange>>> {
        guard(
            "textDocument/foldingRange",
            handlers::folding::folding_ranges(&self.inner, params),
        )
        .await
    }

    async fn selection_range(
        &self,
        params: ls_types::SelectionRangeParams,
    ) -> Result<Option<Vec<ls_types::SelectionRange>>> {
        guard(
            "textDocument/selectionRange",
            handlers::selection::selection_ranges(&self.inner, params),
        )
        .await
    }

    async fn formatting(
        &self,
        params: ls_types::DocumentFormattingParams,
    ) -> Result<Option<Vec<ls_types::TextEdit>>> {
        guard(
            "textDocument/formatting",
            handlers::formatting::formatting(&self.inner, params),
        )
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panics_become_errors() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let result: Result<()> = rt.block_on(guard("test/method", async {
            panic!("boom");
        }));
        let error = result.unwrap_err();
        assert_eq!(
            error.code,
            tower_lsp_server::jsonrpc::ErrorCode::InternalError
        );
        assert!(error.message.contains("test/method"), "{}", error.message);
        assert!(error.message.contains("boom"), "{}", error.message);
        rt.block_on(guard_notification("test/notification", async {
            panic!("boom");
        }));
        let ok: Result<i32> = rt.block_on(guard("test/ok", async { Ok(1) }));
        assert_eq!(ok.unwrap(), 1);
    }

    #[test]
    fn dropping_a_request_cancels_its_analysis() {
        use std::{
            sync::mpsc,
            time::{Duration, Instant},
        };
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let mut host = prose_ide::AnalysisHost::new();
        let file = host.set_file_text("/w/a.prose", "agent a:\n  model: opus\nsession: a\n");

        // A job that asks the snapshot again and again until it answers
        // `Cancelled` (or 30 s pass, so a broken guard fails, not hangs).
        let analysis = host.analysis();
        let token = analysis.cancel_token();
        let (started_tx, started) = mpsc::channel();
        let (done_tx, done) = mpsc::channel();
        let job = move || {
            let deadline = Instant::now() + Duration::from_secs(30);
            let _ = started_tx.send(());
            let outcome = loop {
                match analysis.diagnostics(file) {
                    Err(prose_ide::Cancelled) => break "cancelled",
                    Ok(_) if Instant::now() > deadline => break "timed out",
                    Ok(_) => std::thread::sleep(Duration::from_millis(1)),
                }
            };
            let _ = done_tx.send(outcome);
        };
        rt.block_on(async {
            let mut request = Box::pin(blocking_cancellable(token.clone(), job));
            assert!(futures::poll!(&mut request).is_pending());
            started.recv_timeout(Duration::from_secs(30)).unwrap();
            assert!(!token.is_cancelled(), "running, not cancelled yet");
            drop(request); // what `$/cancelRequest` does to the handler
        });
        assert_eq!(done.recv_timeout(Duration::from_secs(30)), Ok("cancelled"));
        assert!(token.is_cancelled());

        // A request that completes leaves its snapshot's token alone.
        let analysis = host.analysis();
        let token = analysis.cancel_token();
        let answer = rt.block_on(blocking_cancellable(token.clone(), move || {
            analysis.diagnostics(file).map(|d| d.len())
        }));
        assert!(answer.unwrap().is_ok());
        assert!(!token.is_cancelled());
    }
}
