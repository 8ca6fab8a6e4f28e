//! `prose/syntaxTree`: the syntax tree of a document as text (the same dump
//! as `prose dump-cst`), for the editors' "Show syntax tree" views. The
//! format is a debugging aid and not stable.
//!
//! Params `{"textDocument": {"uri": string}}`; result: a string.

use std::sync::Arc;

use ls_types::TextDocumentIdentifier;
use serde::Deserialize;
use tower_lsp_server::jsonrpc::Result;

use crate::{
    handlers::snapshot::{Lsp, on_document},
    server::Inner,
};

/// The method name.
pub const METHOD: &str = "prose/syntaxTree";

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SyntaxTreeParams {
    pub text_document: TextDocumentIdentifier,
}

pub async fn syntax_tree(inner: &Arc<Inner>, params: SyntaxTreeParams) -> Result<String> {
    let tree = on_document(inner, &params.text_document.uri, |s, file| {
        s.analysis.debug_syntax_tree(file).lsp()
    })
    .await?;
    Ok(tree.unwrap_or_default())
}
