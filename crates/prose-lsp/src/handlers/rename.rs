//! `textDocument/prepareRename` and `textDocument/rename`.
//!
//! A refused rename (a keyword, a collision, nothing to rename, ...) is
//! answered with a `RequestFailed` error carrying the reason, which
//! editors show to the user.

use std::sync::Arc;

use ls_types::{PrepareRenameResponse, RenameParams, TextDocumentPositionParams, WorkspaceEdit};
use tower_lsp_server::jsonrpc::Result;

use crate::{
    handlers::snapshot::{Lsp, on_document, request_failed},
    server::Inner,
};

pub async fn prepare_rename(
    inner: &Arc<Inner>,
    params: TextDocumentPositionParams,
) -> Result<Option<PrepareRenameResponse>> {
    on_document(inner, &params.text_document.uri, move |snap, file| {
        let pos = snap.position(file, params.position)?;
        match snap.analysis.prepare_rename(pos).lsp()? {
            Ok(range) => Ok(PrepareRenameResponse::Range(snap.range(file, range)?)),
            Err(refused) => Err(request_failed(refused.message)),
        }
    })
    .await
}

pub async fn rename(inner: &Arc<Inner>, params: RenameParams) -> Result<Option<WorkspaceEdit>> {
    let at = params.text_document_position;
    let new_name = params.new_name;
    on_document(inner, &at.text_document.uri, move |snap, file| {
        let pos = snap.position(file, at.position)?;
        match snap.analysis.rename(pos, &new_name).lsp()? {
            Ok(change) => snap.workspace_edit(&change),
            Err(refused) => Err(request_failed(refused.message)),
        }
    })
    .await
}
