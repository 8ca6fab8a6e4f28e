//! The outline of a prompt file: "Leading commands", "Content" (with the
//! content's headings, nested by level) and "Trailing commands", each
//! with its commands. Other markdown files have none from us: editors
//! outline markdown headings themselves.

use prose_markdown::prompt::{OutlineItem, OutlineKind};

use crate::{
    db::{Db, SourceFile},
    features::{document_symbols::DocumentSymbol, navigation::SymbolKind},
    kind::FileKind,
    markdown::prompt_file,
};

pub(crate) fn document_symbols(
    db: &dyn Db,
    file: SourceFile,
    kind: FileKind,
) -> Vec<DocumentSymbol> {
    if kind != FileKind::PromptFile {
        return Vec::new();
    }
    prose_markdown::prompt::outline(file.text(db), prompt_file(db, file))
        .iter()
        .map(symbol)
        .collect()
}

fn symbol(item: &OutlineItem) -> DocumentSymbol {
    DocumentSymbol {
        name: item.label.clone(),
        detail: Some(item.detail.clone()).filter(|d| !d.is_empty()),
        kind: match item.kind {
            OutlineKind::Phase | OutlineKind::Heading => SymbolKind::Heading,
            OutlineKind::Command => SymbolKind::Command,
        },
        full_range: item.range,
        selection_range: item.selection_range,
        children: item.children.iter().map(symbol).collect(),
    }
}
