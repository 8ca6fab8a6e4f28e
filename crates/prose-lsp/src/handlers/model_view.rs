//! The command `prose.showModelView` ("Show what the model receives", the
//! code lens of a prompt file): renders the messages the prompt turns into
//! (`Analysis::model_view`), writes them to
//! `.prose/model-view/<file>.view.md` under the file's root, and asks the
//! client to open that file (`window/showDocument`) when it can. Returns
//! `{"markdown": string, "uri": string | null}` (`uri`: the file written,
//! `null` when it could not be written). See docs/lsp.md.

use std::{path::PathBuf, sync::Arc};

use ls_types::{ShowDocumentParams, Uri};
use serde_json::{Value, json};
use tower_lsp_server::jsonrpc::Result;

use crate::{
    handlers::{
        snapshot::{Lsp, on_document_retrying, request_failed},
        task_prompt::first_argument,
    },
    server::{Inner, blocking},
    workspace,
};

/// The command id.
pub const COMMAND: &str = "prose.showModelView";

/// The folder under a root where the views are written.
pub const VIEW_DIR: &str = ".prose/model-view";

/// The command's argument: the prompt file.
#[derive(serde::Deserialize)]
struct ModelViewArgs {
    uri: Uri,
}

pub async fn execute(inner: &Arc<Inner>, arguments: Vec<Value>) -> Result<Option<Value>> {
    let ModelViewArgs { uri } = first_argument(arguments)?;
    let found = on_document_retrying(inner, &uri, move |s, file| {
        let markdown = s.analysis.model_view(file).lsp()?;
        let path = s.analysis.file_path(file).lsp()?;
        let dir = s.analysis.file_root_dir(file).lsp()?;
        Ok(markdown.map(|m| (m, view_path(&dir, &path))))
    })
    .await?
    .flatten();
    let Some((markdown, target)) = found else {
        return Err(request_failed(format!(
            "{} is not a prompt file: there is nothing to show",
            uri.as_str()
        )));
    };
    let text = markdown.clone();
    let written = blocking(move || {
        let path = PathBuf::from(&target);
        std::fs::create_dir_all(path.parent()?).ok()?;
        std::fs::write(&path, text).ok()?;
        Some(target)
    })
    .await?;
    let view_uri: Option<Uri> = written.as_deref().and_then(workspace::key_uri);
    if let Some(view_uri) = &view_uri
        && inner.state().caps.show_document
    {
        let _ = inner
            .client
            .show_document(ShowDocumentParams {
                uri: view_uri.clone(),
                external: Some(false),
                take_focus: Some(true),
                selection: None,
            })
            .await;
    }
    Ok(Some(json!({
        "markdown": markdown,
        "uri": view_uri.map(|u| u.as_str().to_string()),
    })))
}

/// Where the view of the file at `path` (a key) is written: under its
/// root `dir`, named after its path relative to `dir` with `/` written
/// `__`, and `.view.md` added (so the view is neither a prompt file nor
/// under an `.agents` folder).
pub fn view_path(dir: &str, path: &str) -> String {
    let rel = path
        .strip_prefix(dir.trim_end_matches('/'))
        .and_then(|r| r.strip_prefix('/'))
        .unwrap_or_else(|| path.rsplit('/').next().unwrap_or(path));
    format!(
        "{}/{VIEW_DIR}/{}.view.md",
        dir.trim_end_matches('/'),
        rel.replace('/', "__")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn views_are_named_after_their_prompt() {
        assert_eq!(
            view_path("/ws", "/ws/.agents/review.md"),
            "/ws/.prose/model-view/.agents__review.md.view.md"
        );
        assert_eq!(
            view_path("/ws/", "/ws/fix.prompt.md"),
            "/ws/.prose/model-view/fix.prompt.md.view.md"
        );
        assert_eq!(
            view_path("/elsewhere", "untitled:Untitled-1"),
            "/elsewhere/.prose/model-view/untitled:Untitled-1.view.md"
        );
    }
}
