//! `textDocument/semanticTokens/full` and `.../range`: `prose_ide`'s
//! classification, delta-encoded with columns and lengths in the
//! negotiated position encoding. The legend is `prose_ide`'s
//! ([`TOKEN_KINDS`], [`TOKEN_MODIFIERS`]): token types and modifier bits
//! are its indices as they are.

use std::sync::Arc;

use ls_types::{
    SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokens, SemanticTokensLegend,
    SemanticTokensParams, SemanticTokensRangeParams, SemanticTokensRangeResult,
    SemanticTokensResult,
};
use prose_ide::features::semantic_tokens::{self as st, TOKEN_KINDS, TOKEN_MODIFIERS};
use tower_lsp_server::jsonrpc::Result;

use crate::{
    convert::{Encoding, LineText},
    handlers::snapshot::{Lsp, on_document},
    server::Inner,
};

/// The legend advertised in `initialize`.
pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: TOKEN_KINDS
            .iter()
            .map(|&k| SemanticTokenType::from(k))
            .collect(),
        token_modifiers: TOKEN_MODIFIERS
            .iter()
            .map(|&m| SemanticTokenModifier::from(m))
            .collect(),
    }
}

pub async fn full(
    inner: &Arc<Inner>,
    params: SemanticTokensParams,
) -> Result<Option<SemanticTokensResult>> {
    let tokens = compute(inner, &params.text_document.uri, None).await?;
    Ok(Some(SemanticTokensResult::Tokens(tokens)))
}

pub async fn range(
    inner: &Arc<Inner>,
    params: SemanticTokensRangeParams,
) -> Result<Option<SemanticTokensRangeResult>> {
    let tokens = compute(inner, &params.text_document.uri, Some(params.range)).await?;
    Ok(Some(SemanticTokensRangeResult::Tokens(tokens)))
}

async fn compute(
    inner: &Arc<Inner>,
    uri: &ls_types::Uri,
    range: Option<ls_types::Range>,
) -> Result<SemanticTokens> {
    let data = on_document(inner, uri, move |s, file| {
        let text = s.text(file)?;
        let range = range.map(|r| s.range_clamped(file, r)).transpose()?;
        let tokens = s.analysis.semantic_tokens(file, range).lsp()?;
        Ok(encode(s.encoding, &text, &tokens))
    })
    .await?;
    Ok(SemanticTokens {
        result_id: None,
        data: data.unwrap_or_default(),
    })
}

/// Delta-encodes tokens (sorted, one line each) of `text`.
pub fn encode(
    encoding: Encoding,
    text: &LineText,
    tokens: &[st::SemanticToken],
) -> Vec<SemanticToken> {
    let mut out = Vec::with_capacity(tokens.len());
    let (mut line, mut col) = (0, 0);
    for token in tokens {
        let start = text.position(encoding, token.range.start());
        let end = text.position(encoding, token.range.end());
        // Tokens never span lines; be safe if one did.
        if end.line != start.line || end.character <= start.character {
            continue;
        }
        let delta_line = start.line - line;
        let delta_start = if delta_line == 0 {
            start.character - col
        } else {
            start.character
        };
        out.push(SemanticToken {
            delta_line,
            delta_start,
            length: end.character - start.character,
            token_type: token.kind.index(),
            token_modifiers_bitset: token.modifiers.0,
        });
        (line, col) = (start.line, start.character);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use prose_ide::{TextRange, TextSize};
    use st::{SemanticTokenKind, TokenModifiers};

    fn tok(start: u32, end: u32, kind: SemanticTokenKind) -> st::SemanticToken {
        st::SemanticToken {
            range: TextRange::new(TextSize::from(start), TextSize::from(end)),
            kind,
            modifiers: TokenModifiers::NONE,
        }
    }

    #[test]
    fn encodes_deltas_in_the_encoding_units() {
        // `😀` is 4 bytes, 2 UTF-16 units.
        let text = LineText::new("a \"😀\" b\nc\n".into());
        let tokens = [
            tok(0, 1, SemanticTokenKind::Keyword),
            tok(2, 8, SemanticTokenKind::String),
            tok(9, 10, SemanticTokenKind::Variable),
            tok(11, 12, SemanticTokenKind::Variable),
        ];
        let flat = |enc| -> Vec<[u32; 4]> {
            encode(enc, &text, &tokens)
                .iter()
                .map(|t| [t.delta_line, t.delta_start, t.length, t.token_type])
                .collect()
        };
        assert_eq!(
            flat(Encoding::Utf16),
            vec![[0, 0, 1, 0], [0, 2, 4, 8], [0, 5, 1, 4], [1, 0, 1, 4]]
        );
        assert_eq!(
            flat(Encoding::Utf8),
            vec![[0, 0, 1, 0], [0, 2, 6, 8], [0, 7, 1, 4], [1, 0, 1, 4]]
        );
    }
}
