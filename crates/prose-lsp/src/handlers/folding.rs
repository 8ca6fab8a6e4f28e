//! `textDocument/foldingRange`: indented bodies, multi-line strings and
//! comment runs. Each fold keeps its header line visible: it starts on the
//! header's line and ends on the line of its last token.

use std::sync::Arc;

use ls_types::{FoldingRange, FoldingRangeKind, FoldingRangeParams};
use prose_ide::features::folding::FoldKind;
use tower_lsp_server::jsonrpc::Result;

use crate::{
    handlers::snapshot::{Lsp, on_document},
    server::Inner,
};

pub async fn folding_ranges(
    inner: &Arc<Inner>,
    params: FoldingRangeParams,
) -> Result<Option<Vec<FoldingRange>>> {
    let result = on_document(inner, &params.text_document.uri, move |s, file| {
        let text = s.text(file)?;
        let folds = s.analysis.folding_ranges(file).lsp()?;
        let mut out: Vec<FoldingRange> = Vec::with_capacity(folds.len());
        for fold in folds {
            let range = text.range(s.encoding, fold.range);
            if range.end.line <= range.start.line {
                continue;
            }
            // At most one fold per start line (editors keep one).
            if out.last().is_some_and(|f| f.start_line == range.start.line) {
                continue;
            }
            out.push(FoldingRange {
                start_line: range.start.line,
                start_character: Some(range.start.character),
                end_line: range.end.line,
                end_character: Some(range.end.character),
                kind: Some(match fold.kind {
                    FoldKind::Region => FoldingRangeKind::Region,
                    FoldKind::Comment => FoldingRangeKind::Comment,
                    // LSP has no "string" kind: a region.
                    FoldKind::String => FoldingRangeKind::Region,
                }),
                collapsed_text: None,
            });
        }
        Ok(out)
    })
    .await?;
    Ok(Some(result.unwrap_or_default()))
}
