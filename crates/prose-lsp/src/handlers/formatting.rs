//! `textDocument/formatting`: the whole document in the canonical layout,
//! as one edit replacing all of it (none when it is already formatted, or
//! when it has syntax errors: broken code is never formatted).

use std::sync::Arc;

use ls_types::{DocumentFormattingParams, Position, Range, TextEdit};
use prose_ide::TextSize;
use tower_lsp_server::jsonrpc::Result;

use crate::{
    handlers::snapshot::{Lsp, on_document},
    server::Inner,
};

pub async fn formatting(
    inner: &Arc<Inner>,
    params: DocumentFormattingParams,
) -> Result<Option<Vec<TextEdit>>> {
    let result = on_document(inner, &params.text_document.uri, move |s, file| {
        let line_text = s.text(file)?;
        let formatted = s.analysis.format(file).lsp()?;
        let text = line_text.text();
        Ok(match formatted {
            Some(new_text) if new_text != text => {
                let end = line_text.position(s.encoding, TextSize::of(text));
                vec![TextEdit {
                    range: Range::new(Position::new(0, 0), end),
                    new_text,
                }]
            }
            _ => Vec::new(),
        })
    })
    .await?;
    Ok(Some(result.unwrap_or_default()))
}
