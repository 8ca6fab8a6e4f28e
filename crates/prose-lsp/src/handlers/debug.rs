//! `prose/debug/documentText`: the server's text and version of an open
//! document, so that tests (and a client in doubt) can check that the
//! server's copy equals the editor's. `null` when the document is not open.

use std::sync::Arc;

use ls_types::TextDocumentIdentifier;
use serde::{Deserialize, Serialize};
use tower_lsp_server::jsonrpc::Result;

use crate::server::Inner;

/// The method name.
pub const DOCUMENT_TEXT: &str = "prose/debug/documentText";

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DocumentTextParams {
    pub text_document: TextDocumentIdentifier,
}

#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct DocumentText {
    pub version: i32,
    pub text: String,
}

pub fn document_text(
    inner: &Arc<Inner>,
    params: DocumentTextParams,
) -> Result<Option<DocumentText>> {
    let st = inner.state();
    Ok(st
        .docs
        .get(&params.text_document.uri)
        .map(|doc| DocumentText {
            version: doc.version,
            text: doc.text.text().to_string(),
        }))
}
