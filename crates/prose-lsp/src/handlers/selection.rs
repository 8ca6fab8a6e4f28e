//! `textDocument/selectionRange`: for each position, the chain of ever
//! larger ranges around it ("expand selection").

use std::sync::Arc;

use ls_types::{Range, SelectionRange, SelectionRangeParams};
use tower_lsp_server::jsonrpc::Result;

use crate::{
    handlers::snapshot::{Lsp, on_document},
    server::Inner,
};

pub async fn selection_ranges(
    inner: &Arc<Inner>,
    params: SelectionRangeParams,
) -> Result<Option<Vec<SelectionRange>>> {
    let positions = params.positions;
    let result = on_document(inner, &params.text_document.uri, move |s, file| {
        let text = s.text(file)?;
        let offsets = positions
            .iter()
            .map(|&p| s.offset(file, p))
            .collect::<Result<Vec<_>>>()?;
        let chains = s.analysis.selection_ranges(file, offsets).lsp()?;
        Ok(chains
            .into_iter()
            .zip(&positions)
            .map(|(chain, &pos)| {
                let ranges: Vec<Range> = chain
                    .into_iter()
                    .map(|r| text.range(s.encoding, r))
                    .collect();
                nest(ranges).unwrap_or(SelectionRange {
                    range: Range::new(pos, pos),
                    parent: None,
                })
            })
            .collect())
    })
    .await?;
    Ok(Some(result.unwrap_or_default()))
}

/// Innermost-first ranges as a linked chain (equal neighbours once).
fn nest(mut ranges: Vec<Range>) -> Option<SelectionRange> {
    ranges.dedup();
    let mut out: Option<SelectionRange> = None;
    for range in ranges.into_iter().rev() {
        out = Some(SelectionRange {
            range,
            parent: out.map(Box::new),
        });
    }
    out
}
