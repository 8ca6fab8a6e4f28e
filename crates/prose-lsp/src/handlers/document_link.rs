//! `textDocument/documentLink`: every `/read` path of a prompt file and
//! every `_spawn_` file links to its file (`prose_ide`'s
//! `Analysis::document_links`; targets are resolved against the file's
//! root, the agent's working directory).

use std::sync::Arc;

use ls_types::{DocumentLink, DocumentLinkParams};
use tower_lsp_server::jsonrpc::Result;

use crate::{
    handlers::snapshot::{Lsp, on_document},
    server::Inner,
    workspace,
};

pub async fn document_link(
    inner: &Arc<Inner>,
    params: DocumentLinkParams,
) -> Result<Option<Vec<DocumentLink>>> {
    let result = on_document(inner, &params.text_document.uri, move |s, file| {
        let links = s.analysis.document_links(file).lsp()?;
        links
            .into_iter()
            .filter_map(|l| Some((workspace::key_uri(&l.target)?, l)))
            .map(|(target, l)| {
                Ok(DocumentLink {
                    range: s.range(file, l.range)?,
                    target: Some(target),
                    tooltip: Some(l.target.clone()),
                    data: None,
                })
            })
            .collect::<Result<Vec<_>>>()
    })
    .await?;
    Ok(Some(result.unwrap_or_default()))
}
