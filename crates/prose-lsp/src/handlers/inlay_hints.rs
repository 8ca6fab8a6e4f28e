//! `textDocument/inlayHint`: the agent's model after `session: name`, block
//! parameter names before positional arguments, `(item)` after `map` etc.

use std::sync::Arc;

use ls_types::{InlayHint, InlayHintKind, InlayHintLabel, InlayHintParams};
use prose_ide::features::inlay_hints::InlayKind;
use tower_lsp_server::jsonrpc::Result;

use crate::{
    handlers::snapshot::{Lsp, on_document},
    server::Inner,
};

pub async fn inlay_hints(
    inner: &Arc<Inner>,
    params: InlayHintParams,
) -> Result<Option<Vec<InlayHint>>> {
    let range = params.range;
    let result = on_document(inner, &params.text_document.uri, move |s, file| {
        let text = s.text(file)?;
        let range = s.range_clamped(file, range)?;
        let hints = s.analysis.inlay_hints(file, Some(range)).lsp()?;
        Ok(hints
            .into_iter()
            .map(|h| {
                let (kind, padding_right) = match h.kind {
                    InlayKind::Type => (InlayHintKind::TYPE, None),
                    InlayKind::Parameter => (InlayHintKind::PARAMETER, Some(true)),
                };
                InlayHint {
                    position: text.position(s.encoding, h.offset),
                    label: InlayHintLabel::String(h.label),
                    kind: Some(kind),
                    text_edits: None,
                    tooltip: None,
                    padding_left: None,
                    padding_right,
                    data: None,
                }
            })
            .collect())
    })
    .await?;
    Ok(Some(result.unwrap_or_default()))
}
