//! `textDocument/hover`: `prose_ide`'s hover, as Markdown.

use std::sync::Arc;

use ls_types::{Hover, HoverContents, HoverParams, MarkupContent, MarkupKind};
use tower_lsp_server::jsonrpc::Result;

use crate::{
    handlers::snapshot::{Lsp, on_document},
    server::Inner,
};

pub async fn hover(inner: &Arc<Inner>, params: HoverParams) -> Result<Option<Hover>> {
    let pos = params.text_document_position_params;
    let result = on_document(inner, &pos.text_document.uri, move |s, file| {
        let position = s.position(file, pos.position)?;
        let hover = s.analysis.hover(position).lsp()?;
        hover
            .map(|h| {
                Ok(Hover {
                    contents: HoverContents::Markup(MarkupContent {
                        kind: MarkupKind::Markdown,
                        value: h.markdown,
                    }),
                    range: Some(s.range(file, h.range)?),
                })
            })
            .transpose()
    })
    .await?;
    Ok(result.flatten())
}
