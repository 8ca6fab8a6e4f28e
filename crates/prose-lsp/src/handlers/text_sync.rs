//! `textDocument/didOpen`, `didChange`, `didClose`.
//!
//! Each applies its change synchronously, before any `.await`:
//! tower-lsp-server polls handlers concurrently, but starts them in arrival
//! order, so edits reach the state in the order the client sent them.
//! Versions guard the rest: a change whose version is not newer than the
//! document's is dropped (and logged), never applied on top.

use std::sync::Arc;

use ls_types::{
    DidChangeTextDocumentParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams, MessageType,
};

use crate::{handlers::diagnostics, server::Inner, state::ChangeError};

pub fn did_open(inner: &Arc<Inner>, params: DidOpenTextDocumentParams) {
    let doc = params.text_document;
    inner.state().open(doc.uri.clone(), doc.version, doc.text);
    diagnostics::schedule(inner, Some(doc.uri));
}

pub async fn did_change(inner: &Arc<Inner>, params: DidChangeTextDocumentParams) {
    let uri = params.text_document.uri;
    let version = params.text_document.version;
    let result = inner.state().change(&uri, version, params.content_changes);
    let problem = match result {
        Ok(()) => {
            diagnostics::schedule(inner, Some(uri));
            return;
        }
        Err(ChangeError::NotOpen) => {
            format!("prose: ignored a change to {}: not open", uri.as_str())
        }
        Err(ChangeError::Stale { current, got }) => format!(
            "prose: ignored version {got} of {}: already at version {current}",
            uri.as_str()
        ),
    };
    inner
        .client
        .log_message(MessageType::WARNING, problem)
        .await;
}

pub async fn did_close(inner: &Arc<Inner>, params: DidCloseTextDocumentParams) {
    let uri = params.text_document.uri;
    let closed = inner.state().close(&uri);
    if closed {
        diagnostics::clear(inner, uri).await;
        // Other documents may have imported the edited text.
        diagnostics::schedule(inner, None);
    }
}
