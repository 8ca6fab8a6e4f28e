//! `textDocument/definition`: where the name under the cursor is defined,
//! in this file or another (an imported program, its `input`/`output`).
//!
//! `LocationLink`s when the client supports them (`linkSupport`): the
//! target range is the whole definition, the selection its name; else
//! `Location`s of the name (the whole file for an imported program).
//!
//! Where the analysis finds no definition but the cursor is on a link to
//! a file (a prompt's `/read` path, a `_spawn_` file), the answer is that
//! file, at its start.

use std::sync::Arc;

use ls_types::{GotoDefinitionParams, GotoDefinitionResponse, Location, LocationLink};
use tower_lsp_server::jsonrpc::Result;

use crate::{
    handlers::snapshot::{Lsp, on_document},
    server::Inner,
};

pub async fn goto_definition(
    inner: &Arc<Inner>,
    params: GotoDefinitionParams,
) -> Result<Option<GotoDefinitionResponse>> {
    let at = params.text_document_position_params;
    let result = on_document(inner, &at.text_document.uri, move |snap, file| {
        let pos = snap.position(file, at.position)?;
        let targets = snap.analysis.goto_definition(pos).lsp()?;
        let links = snap.caps.definition_links;
        let mut out_links = Vec::new();
        let mut out_locations = Vec::new();
        if targets.is_empty()
            && let Some((origin, uri)) = linked_file(snap, file, pos.offset)?
        {
            let start = ls_types::Range::default();
            let origin = snap.range(file, origin)?;
            return Ok(Some(if links {
                GotoDefinitionResponse::Link(vec![LocationLink {
                    origin_selection_range: Some(origin),
                    target_uri: uri,
                    target_range: start,
                    target_selection_range: start,
                }])
            } else {
                GotoDefinitionResponse::Array(vec![Location { uri, range: start }])
            }));
        }
        for t in targets {
            let Some((uri, _)) = snap.uri(t.file)? else {
                continue;
            };
            let focus = t.focus_range.unwrap_or(t.full_range);
            let selection = snap.range(t.file, focus)?;
            if links {
                out_links.push(LocationLink {
                    origin_selection_range: None,
                    target_uri: uri,
                    target_range: snap.range(t.file, t.full_range)?,
                    target_selection_range: selection,
                });
            } else {
                out_locations.push(Location {
                    uri,
                    range: selection,
                });
            }
        }
        Ok(if links {
            (!out_links.is_empty()).then_some(GotoDefinitionResponse::Link(out_links))
        } else {
            (!out_locations.is_empty()).then_some(GotoDefinitionResponse::Array(out_locations))
        })
    })
    .await?;
    Ok(result.flatten())
}

/// The link under `offset` and the URI of its file.
fn linked_file(
    snap: &mut crate::handlers::snapshot::Snapshot,
    file: prose_ide::FileId,
    offset: prose_ide::TextSize,
) -> Result<Option<(prose_ide::TextRange, ls_types::Uri)>> {
    let links = snap.analysis.document_links(file).lsp()?;
    Ok(links
        .into_iter()
        .find(|l| l.range.contains_inclusive(offset))
        .and_then(|l| Some((l.range, crate::workspace::key_uri(&l.target)?))))
}
