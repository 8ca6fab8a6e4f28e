//! `textDocument/references` (every occurrence of the name under the
//! cursor, in every workspace file) and `textDocument/documentHighlight`
//! (its occurrences in this file, as reads and writes).

use std::sync::Arc;

use ls_types::{
    DocumentHighlight, DocumentHighlightKind, DocumentHighlightParams, Location, ReferenceParams,
};
use prose_ide::features::highlight_related::Access;
use tower_lsp_server::jsonrpc::Result;

use crate::{
    handlers::snapshot::{Lsp, on_document},
    server::Inner,
};

pub async fn references(
    inner: &Arc<Inner>,
    params: ReferenceParams,
) -> Result<Option<Vec<Location>>> {
    let at = params.text_document_position;
    let include_declaration = params.context.include_declaration;
    let result = on_document(inner, &at.text_document.uri, move |snap, file| {
        let pos = snap.position(file, at.position)?;
        let refs = snap.analysis.references(pos, include_declaration).lsp()?;
        let mut out = Vec::with_capacity(refs.len());
        for r in refs {
            if let Some(location) = snap.location(r.file, r.range)? {
                out.push(location);
            }
        }
        Ok(out)
    })
    .await?;
    Ok(result.filter(|r| !r.is_empty()))
}

pub async fn document_highlight(
    inner: &Arc<Inner>,
    params: DocumentHighlightParams,
) -> Result<Option<Vec<DocumentHighlight>>> {
    let at = params.text_document_position_params;
    let result = on_document(inner, &at.text_document.uri, move |snap, file| {
        let pos = snap.position(file, at.position)?;
        let hits = snap.analysis.highlight_related(pos).lsp()?;
        let mut out = Vec::with_capacity(hits.len());
        for (range, access) in hits {
            out.push(DocumentHighlight {
                range: snap.range(file, range)?,
                kind: Some(match access {
                    Access::Read => DocumentHighlightKind::READ,
                    Access::Write => DocumentHighlightKind::WRITE,
                }),
            });
        }
        Ok(out)
    })
    .await?;
    Ok(result.filter(|r| !r.is_empty()))
}
