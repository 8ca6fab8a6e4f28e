//! `textDocument/hover`: `prose_ide`'s hover, as Markdown.

use std::sync::Arc;

use ls_types::{Hover, HoverContents, HoverParams, MarkupContent, MarkupKind};
use prose_ide::FilePosition;
use tower_lsp_server::jsonrpc::Result;

use crate::{handlers::doc_request::with_doc, server::Inner};

pub async fn hover(inner: &Arc<Inner>, params: HoverParams) -> Result<Option<Hover>> {
    let pos = params.text_document_position_params;
    let result = with_doc(inner, &pos.text_document.uri, move |s| {
        let offset = s.offset(pos.position)?;
        Ok(s.analysis
            .hover(FilePosition {
                file: s.file,
                offset,
            })
            .map(|hover| {
                hover.map(|h| Hover {
                    contents: HoverContents::Markup(MarkupContent {
                        kind: MarkupKind::Markdown,
                        value: h.markdown,
                    }),
                    range: Some(s.text.range(s.encoding, h.range)),
                })
            }))
    })
    .await?;
    Ok(result.flatten())
}
