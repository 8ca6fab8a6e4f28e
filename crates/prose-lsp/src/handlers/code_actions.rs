//! `textDocument/codeAction`: the quick fixes of the diagnostics under the
//! range. Each action carries its edit (no resolve step), the diagnostic it
//! fixes when the client sent it in `context.diagnostics` (matched by code
//! and range), and `isPreferred` for the fix an editor may apply on its own.
//! `context.only` keeps the actions of those kinds (and their sub-kinds).

use std::sync::Arc;

use ls_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CodeActionResponse,
    NumberOrString,
};
use prose_ide::{FileRange, TextRange, features::code_actions};
use tower_lsp_server::jsonrpc::Result;

use crate::{
    handlers::snapshot::{Lsp, on_document},
    server::Inner,
};

/// The LSP kind of an action.
pub fn kind(kind: code_actions::CodeActionKind) -> CodeActionKind {
    match kind {
        code_actions::CodeActionKind::QuickFix => CodeActionKind::QUICKFIX,
        code_actions::CodeActionKind::Refactor => CodeActionKind::REFACTOR,
    }
}

/// Whether `kind` is one of `only` or a sub-kind of one (`refactor.extract`
/// is a `refactor`).
fn wanted(kind: &CodeActionKind, only: Option<&[CodeActionKind]>) -> bool {
    let Some(only) = only else {
        return true;
    };
    let kind = kind.as_str();
    only.iter().any(|o| {
        let o = o.as_str();
        kind == o
            || kind
                .strip_prefix(o)
                .is_some_and(|rest| rest.starts_with('.'))
    })
}

pub async fn code_action(
    inner: &Arc<Inner>,
    params: CodeActionParams,
) -> Result<Option<CodeActionResponse>> {
    let result = on_document(inner, &params.text_document.uri, move |snap, file| {
        let text = snap.text(file)?;
        let start = text.offset_clamped(snap.encoding, params.range.start);
        let end = text.offset_clamped(snap.encoding, params.range.end);
        let range = TextRange::new(start.min(end), start.max(end));
        let only = params.context.only.as_deref();
        let actions = snap
            .analysis
            .code_actions(FileRange { file, range })
            .lsp()?;
        let mut out = Vec::new();
        for a in actions {
            let kind = kind(a.kind);
            if !wanted(&kind, only) {
                continue;
            }
            let diagnostics: Vec<_> = match (a.diagnostic_code, a.diagnostic_range) {
                (Some(code), Some(range)) => {
                    let range = snap.range(file, range)?;
                    let code = NumberOrString::String(code.to_string());
                    params
                        .context
                        .diagnostics
                        .iter()
                        .filter(|d| d.range == range && d.code.as_ref() == Some(&code))
                        .cloned()
                        .collect()
                }
                _ => Vec::new(),
            };
            out.push(CodeActionOrCommand::CodeAction(CodeAction {
                title: a.title,
                kind: Some(kind),
                diagnostics: (!diagnostics.is_empty()).then_some(diagnostics),
                edit: Some(snap.workspace_edit(&a.edit)?),
                command: None,
                is_preferred: a.is_preferred.then_some(true),
                disabled: None,
                data: None,
            }));
        }
        Ok(out)
    })
    .await?;
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_keeps_kinds_and_sub_kinds() {
        let quickfix = CodeActionKind::QUICKFIX;
        assert!(wanted(&quickfix, None));
        assert!(wanted(&quickfix, Some(&[CodeActionKind::QUICKFIX])));
        assert!(!wanted(&quickfix, Some(&[CodeActionKind::REFACTOR])));
        let extract = CodeActionKind::REFACTOR_EXTRACT;
        assert!(wanted(&extract, Some(&[CodeActionKind::REFACTOR])));
        assert!(!wanted(&CodeActionKind::REFACTOR, Some(&[extract])));
        // A prefix that is not a whole segment does not match.
        let odd = CodeActionKind::from("quickfixes");
        assert!(!wanted(&odd, Some(&[CodeActionKind::QUICKFIX])));
    }
}
