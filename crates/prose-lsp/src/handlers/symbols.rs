//! `textDocument/documentSymbol` (the outline, nested when the client
//! supports it) and `workspace/symbol`.
//!
//! prose-ide's symbol kinds map to LSP kinds by what editors show for them:
//! agents are classes, blocks functions, `use` imports modules, skills
//! packages, inputs properties and outputs fields, sessions objects,
//! control flow holding names namespaces, choice options enum members;
//! in job entries, tasks are functions, model keys properties, grid rows
//! structs and their jobs objects, the top-level parts namespaces.

use std::sync::Arc;

use ls_types::{
    DocumentSymbolParams, DocumentSymbolResponse, SymbolInformation, WorkspaceSymbolParams,
    WorkspaceSymbolResponse,
};
use prose_ide::{FileId, features::document_symbols::DocumentSymbol, features::navigation};
use tower_lsp_server::jsonrpc::Result;

use crate::{
    handlers::snapshot::{Lsp, Snapshot, on_document, on_workspace},
    server::Inner,
};

/// The LSP kind of a symbol.
pub fn kind(kind: navigation::SymbolKind) -> ls_types::SymbolKind {
    use ls_types::SymbolKind as L;
    use navigation::SymbolKind as K;
    match kind {
        K::File => L::FILE,
        K::Program => L::MODULE,
        K::Skill => L::PACKAGE,
        K::Agent => L::CLASS,
        K::Block => L::FUNCTION,
        K::Input => L::PROPERTY,
        K::Output => L::FIELD,
        K::Variable | K::Parameter => L::VARIABLE,
        K::Constant => L::CONSTANT,
        K::Session => L::OBJECT,
        K::Control => L::NAMESPACE,
        K::ChoiceOption => L::ENUM_MEMBER,
        K::Action => L::FUNCTION,
        K::Task => L::FUNCTION,
        K::ModelKey => L::PROPERTY,
        K::GridRow => L::STRUCT,
        K::GridJob => L::OBJECT,
        K::Section => L::NAMESPACE,
        // As editors' own markdown outlines show headings.
        K::Heading => L::STRING,
        K::Command => L::EVENT,
    }
}

#[allow(deprecated)] // `deprecated` is a required field
fn nested(
    snap: &mut Snapshot,
    file: FileId,
    s: &DocumentSymbol,
) -> Result<ls_types::DocumentSymbol> {
    let children = s
        .children
        .iter()
        .map(|c| nested(snap, file, c))
        .collect::<Result<Vec<_>>>()?;
    Ok(ls_types::DocumentSymbol {
        name: s.name.clone(),
        detail: s.detail.clone(),
        kind: kind(s.kind),
        tags: None,
        deprecated: None,
        range: snap.range(file, s.full_range)?,
        selection_range: snap.range(file, s.selection_range)?,
        children: (!children.is_empty()).then_some(children),
    })
}

/// The outline flattened, for clients without hierarchical support; each
/// symbol names its parent as container.
#[allow(deprecated)]
fn flatten(
    snap: &mut Snapshot,
    file: FileId,
    symbols: &[DocumentSymbol],
    container: Option<&str>,
    out: &mut Vec<SymbolInformation>,
) -> Result<()> {
    for s in symbols {
        let Some(location) = snap.location(file, s.full_range)? else {
            continue;
        };
        out.push(SymbolInformation {
            name: s.name.clone(),
            kind: kind(s.kind),
            tags: None,
            deprecated: None,
            location,
            container_name: container.map(str::to_string),
        });
        flatten(snap, file, &s.children, Some(&s.name), out)?;
    }
    Ok(())
}

pub async fn document_symbol(
    inner: &Arc<Inner>,
    params: DocumentSymbolParams,
) -> Result<Option<DocumentSymbolResponse>> {
    on_document(inner, &params.text_document.uri, move |snap, file| {
        let symbols = snap.analysis.document_symbols(file).lsp()?;
        if snap.caps.hierarchical_symbols {
            let nested = symbols
                .iter()
                .map(|s| nested(snap, file, s))
                .collect::<Result<Vec<_>>>()?;
            Ok(DocumentSymbolResponse::Nested(nested))
        } else {
            let mut flat = Vec::new();
            flatten(snap, file, &symbols, None, &mut flat)?;
            Ok(DocumentSymbolResponse::Flat(flat))
        }
    })
    .await
}

pub async fn workspace_symbol(
    inner: &Arc<Inner>,
    params: WorkspaceSymbolParams,
) -> Result<Option<WorkspaceSymbolResponse>> {
    on_workspace(inner, move |snap| {
        let targets = snap.analysis.workspace_symbols(&params.query).lsp()?;
        let mut out = Vec::with_capacity(targets.len());
        for t in targets {
            let range = t.focus_range.unwrap_or(t.full_range);
            let Some(location) = snap.location(t.file, range)? else {
                continue;
            };
            #[allow(deprecated)]
            out.push(SymbolInformation {
                name: t.name,
                kind: kind(t.kind),
                tags: None,
                deprecated: None,
                location,
                container_name: None,
            });
        }
        Ok(Some(WorkspaceSymbolResponse::Flat(out)))
    })
    .await
}
