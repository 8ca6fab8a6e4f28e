//! `textDocument/inlayHint`: the agent's model after `session: name`, block
//! parameter names before positional arguments, `(item)` after `map` etc.

use std::sync::Arc;

use ls_types::{InlayHint, InlayHintKind, InlayHintLabel, InlayHintParams};
use prose_ide::{TextRange, features::inlay_hints::InlayKind};
use tower_lsp_server::jsonrpc::Result;

use crate::{handlers::doc_request::with_doc, server::Inner};

pub async fn inlay_hints(
    inner: &Arc<Inner>,
    params: InlayHintParams,
) -> Result<Option<Vec<InlayHint>>> {
    let range = params.range;
    let result = with_doc(inner, &params.text_document.uri, move |s| {
        // The visible range may reach past the end: clamp it.
        let start = s.text.offset_clamped(s.encoding, range.start);
        let end = s.text.offset_clamped(s.encoding, range.end);
        let range = TextRange::new(start.min(end), start.max(end));
        Ok(s.analysis.inlay_hints(s.file, Some(range)).map(|hints| {
            hints
                .into_iter()
                .map(|h| {
                    let (kind, padding_right) = match h.kind {
                        InlayKind::Type => (InlayHintKind::TYPE, None),
                        InlayKind::Parameter => (InlayHintKind::PARAMETER, Some(true)),
                    };
                    InlayHint {
                        position: s.text.position(s.encoding, h.offset),
                        label: InlayHintLabel::String(h.label),
                        kind: Some(kind),
                        text_edits: None,
                        tooltip: None,
                        padding_left: None,
                        padding_right,
                        data: None,
                    }
                })
                .collect()
        }))
    })
    .await?;
    Ok(Some(result.unwrap_or_default()))
}
