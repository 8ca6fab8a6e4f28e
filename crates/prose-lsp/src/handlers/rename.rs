//! `textDocument/prepareRename` and `textDocument/rename`.
//!
//! `prepareRename` where there is no name at all (a keyword, a string, a
//! blank) answers `null`, the protocol's "nothing to rename here", which
//! editors take quietly. A name that cannot be renamed (a skill, an agent
//! whose memory is kept under its name, a name defined outside the
//! workspace, ...) and a refused `rename` (a collision, an invalid new
//! name) are answered with a `RequestFailed` error carrying the reason,
//! which editors show to the user.

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
    let answer = on_document(inner, &params.text_document.uri, move |snap, file| {
        let pos = snap.position(file, params.position)?;
        match snap.analysis.prepare_rename(pos).lsp()? {
            Ok(range) => Ok(Some(PrepareRenameResponse::Range(snap.range(file, range)?))),
            Err(refused) if refused.nothing_here => Ok(None),
            Err(refused) => Err(request_failed(refused.message)),
        }
    })
    .await?;
    Ok(answer.flatten())
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
