//! Requests for tests and for a client in doubt:
//!
//! - `prose/debug/documentText`: the server's text and version of an open
//!   document, so that a client can check that the server's copy equals the
//!   editor's. `null` when the document is not open.
//! - `prose/debug/panic`: panics, in the handler itself (`"where":
//!   "handler"`) or on the analysis thread pool (`"analysis"`), so that the
//!   tests can check that a panic in any handler becomes an error answer
//!   (`InternalError`, the panic's message) and the server stays up.

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

/// The method name of the deliberate panic.
pub const PANIC: &str = "prose/debug/panic";

#[derive(Debug, Deserialize)]
pub struct PanicParams {
    /// `"handler"` (the default) or `"analysis"`.
    #[serde(default, rename = "where")]
    pub place: Option<String>,
}

/// Never answers with a result: it panics where it is asked to.
pub async fn panic(params: PanicParams) -> Result<()> {
    match params.place.as_deref() {
        Some("analysis") => {
            crate::server::blocking(|| -> () {
                panic!("a deliberate panic on the analysis thread ({PANIC})")
            })
            .await
        }
        _ => panic!("a deliberate panic in the handler ({PANIC})"),
    }
}
