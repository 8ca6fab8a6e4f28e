//! "Show what the model receives": a prompt file's code lens, and the
//! text it shows (the front end's rendering of the conversation the prompt
//! turns into: each `/read` as a fake `read` tool round-trip with the
//! file's text, then the content as the user message, with the `/push`
//! and `/run` steps around it). The server runs the lens's command and
//! shows the text (docs/lsp.md, "What the model receives").

use crate::{
    auxiliary::WorkspaceFiles,
    code_lens::{CodeLens, LensCommand},
    db::{Db, SourceFile, Workspace},
    kind::FileKind,
    markdown::prompt_file,
};

/// The lens's title.
pub const TITLE: &str = "Show what the model receives";

/// One lens on a prompt file, at its first leading command (or the start
/// of its content).
pub(crate) fn code_lenses(db: &dyn Db, file: SourceFile, kind: FileKind) -> Vec<CodeLens> {
    if kind != FileKind::PromptFile {
        return Vec::new();
    }
    vec![CodeLens {
        range: prompt_file(db, file).model_view_anchor(),
        title: TITLE.to_string(),
        command: LensCommand::ShowModelView,
    }]
}

/// The messages the model receives, as markdown; `None` for a file that
/// is not a prompt file.
pub(crate) fn model_view(
    db: &dyn Db,
    workspace: Workspace,
    file: SourceFile,
    kind: FileKind,
) -> Option<String> {
    if kind != FileKind::PromptFile {
        return None;
    }
    let files = WorkspaceFiles::of(db, file, Some(workspace));
    Some(prose_markdown::prompt::render_model_view(
        file.text(db),
        prompt_file(db, file),
        &files,
    ))
}
