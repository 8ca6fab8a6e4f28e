//! The common shape of a request about one document (hover, completion,
//! semantic tokens, ...): take an analysis snapshot with the document's
//! text under the state lock, compute on a blocking thread, convert.
//!
//! As for diagnostics (see `diagnostics.rs`), the snapshot is moved into
//! the blocking closure and dropped there, so it never waits on the lock.
//! A snapshot cancelled by a newer edit answers `ContentModified` (the
//! client asks again if it still cares); a panic in the analysis becomes an
//! `InternalError` (`server::blocking`).

use std::sync::Arc;

use ls_types::{Position, Uri};
use prose_ide::{Analysis, Cancellable, FileId, TextSize};
use tower_lsp_server::jsonrpc::{Error, Result};

use crate::{
    convert::{Encoding, LineText},
    server::{Inner, blocking},
    state::ClientCaps,
    workspace,
};

/// What a request handler computes with, on the blocking thread.
pub struct DocSnapshot {
    pub analysis: Analysis,
    pub file: FileId,
    /// The document's text (the editor's, for an open one).
    pub text: Arc<LineText>,
    pub encoding: Encoding,
    pub caps: ClientCaps,
}

impl DocSnapshot {
    /// The offset of a request's position; `InvalidParams` when it is not
    /// in the document.
    pub fn offset(&self, pos: Position) -> Result<TextSize> {
        self.text.offset(self.encoding, pos).ok_or_else(|| {
            Error::invalid_params(format!(
                "position {}:{} is not in the document",
                pos.line, pos.character
            ))
        })
    }
}

/// Runs `f` over a snapshot of the document `uri` on a blocking thread.
///
/// `Ok(None)` when the document is known but not analysed (over the size
/// limit); `InvalidParams` when it is neither open nor a program of the
/// workspace; `ContentModified` when an edit cancelled the snapshot.
pub async fn with_doc<T: Send + 'static>(
    inner: &Arc<Inner>,
    uri: &Uri,
    f: impl FnOnce(&DocSnapshot) -> Result<Cancellable<T>> + Send + 'static,
) -> Result<Option<T>> {
    let (analysis, file, text, encoding, caps) = {
        let st = inner.state();
        let (file, text) = match st.docs.get(uri) {
            Some(doc) => (doc.file, Some(doc.text.clone())),
            None => match st.host.file_id(&workspace::uri_key(uri)) {
                Some(file) => (Some(file), None),
                None => {
                    return Err(Error::invalid_params(format!(
                        "unknown document {}: not open and not a program of the workspace",
                        uri.as_str()
                    )));
                }
            },
        };
        let Some(file) = file else {
            return Ok(None);
        };
        (st.host.analysis(), file, text, st.encoding, st.caps)
    };
    let outcome = blocking(move || -> Result<Cancellable<T>> {
        let text = match text {
            Some(text) => text,
            None => match analysis.file_text(file) {
                Ok(text) => Arc::new(LineText::new(text)),
                Err(cancelled) => return Ok(Err(cancelled)),
            },
        };
        let snapshot = DocSnapshot {
            analysis,
            file,
            text,
            encoding,
            caps,
        };
        f(&snapshot)
    })
    .await??;
    match outcome {
        Ok(value) => Ok(Some(value)),
        Err(_cancelled) => Err(Error::content_modified()),
    }
}
