//! `textDocument/signatureHelp`: the parameters of the call under the
//! cursor (`do block(...)`, `program(...)`).
//!
//! Parameter labels are sent as offsets into the signature's label, counted
//! in the negotiated position encoding (UTF-16 code units, or UTF-8 bytes),
//! as LSP counts them for positions.

use std::sync::Arc;

use ls_types::{
    Documentation, MarkupContent, MarkupKind, ParameterInformation, ParameterLabel, SignatureHelp,
    SignatureHelpParams, SignatureInformation,
};
use prose_ide::TextRange;
use tower_lsp_server::jsonrpc::Result;

use crate::{
    convert::Encoding,
    handlers::snapshot::{Lsp, on_document},
    server::Inner,
};

pub async fn signature_help(
    inner: &Arc<Inner>,
    params: SignatureHelpParams,
) -> Result<Option<SignatureHelp>> {
    let pos = params.text_document_position_params;
    let result = on_document(inner, &pos.text_document.uri, move |s, file| {
        let position = s.position(file, pos.position)?;
        let help = s.analysis.signature_help(position).lsp()?;
        Ok(help.map(|h| convert(s.encoding, h)))
    })
    .await?;
    Ok(result.flatten())
}

fn markdown(value: String) -> Documentation {
    Documentation::MarkupContent(MarkupContent {
        kind: MarkupKind::Markdown,
        value,
    })
}

/// The length of `s` in the encoding's units.
fn units(encoding: Encoding, s: &str) -> u32 {
    match encoding {
        Encoding::Utf8 => s.len() as u32,
        Encoding::Utf16 => s.encode_utf16().count() as u32,
    }
}

/// A byte range of `label` as `[start, end]` offsets in the encoding's
/// units (clamped to the label and to character boundaries).
pub fn label_offsets(encoding: Encoding, label: &str, range: TextRange) -> [u32; 2] {
    let floor = |at: usize| {
        let mut at = at.min(label.len());
        while !label.is_char_boundary(at) {
            at -= 1;
        }
        at
    };
    let start = floor(usize::from(range.start()));
    let end = floor(usize::from(range.end())).max(start);
    [
        units(encoding, &label[..start]),
        units(encoding, &label[..end]),
    ]
}

fn convert(
    encoding: Encoding,
    h: prose_ide::features::signature_help::SignatureHelp,
) -> SignatureHelp {
    let count = h.parameters.len();
    let parameters = h
        .parameters
        .into_iter()
        .map(|p| ParameterInformation {
            label: ParameterLabel::LabelOffsets(label_offsets(encoding, &h.label, p.range)),
            documentation: p.docs.map(markdown),
        })
        .collect();
    // Past the last parameter: an index out of range highlights none
    // (leaving it out would mean the first).
    let active = h.active_parameter.unwrap_or(count) as u32;
    SignatureHelp {
        signatures: vec![SignatureInformation {
            label: h.label,
            documentation: h.docs.map(markdown),
            parameters: Some(parameters),
            active_parameter: Some(active),
        }],
        active_signature: Some(0),
        active_parameter: Some(active),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use prose_ide::TextSize;

    #[test]
    fn label_offsets_count_the_encoding_units() {
        let label = "block é😀(topic, depth)";
        let topic = label.find("topic").unwrap() as u32;
        let range = TextRange::at(TextSize::from(topic), TextSize::from(5));
        assert_eq!(
            label_offsets(Encoding::Utf8, label, range),
            [topic, topic + 5]
        );
        // é is 2 bytes / 1 unit, 😀 4 bytes / 2 units.
        assert_eq!(
            label_offsets(Encoding::Utf16, label, range),
            [topic - 3, topic + 2]
        );
        let past = TextRange::new(TextSize::from(100), TextSize::from(200));
        let n = label.encode_utf16().count() as u32;
        assert_eq!(label_offsets(Encoding::Utf16, label, past), [n, n]);
    }
}
