//! Document links and go to definition in markdown files: every processed
//! `/read` path of a prompt file (nested `/push` prompts included) and
//! every `_spawn_` file links to its file; go to definition on a
//! `{variable}` of an instruction jumps to where its condition binds it
//! (on a link, the server opens the link's file).
//!
//! Paths are resolved against the file's root, the agent's working
//! directory. A file the host found missing is not linked (M005 and K007
//! report it); a file the host has not looked up is.

use prose_markdown::{FileLookup, Lookup};
use prose_syntax::{TextRange, TextSize};

use crate::{
    auxiliary::WorkspaceFiles,
    db::{Db, SourceFile, Workspace},
    injection::{self, features::DocumentLink},
    kind::FileKind,
    markdown::prompt_file,
};

pub(crate) fn document_links(
    db: &dyn Db,
    workspace: Workspace,
    file: SourceFile,
    kind: FileKind,
) -> Vec<DocumentLink> {
    let mut out = Vec::new();
    if kind == FileKind::PromptFile {
        let files = WorkspaceFiles::of(db, file, Some(workspace));
        for link in prose_markdown::prompt::document_links(prompt_file(db, file)) {
            if files.lookup(&link.path) == Lookup::Missing {
                continue;
            }
            out.push(DocumentLink {
                range: link.range,
                target: files.key(&link.path),
            });
        }
    }
    out.extend(injection::features::document_links(
        db,
        Some(workspace),
        file,
    ));
    out.sort_by_key(|l| (l.range.start(), l.range.end()));
    out
}

/// Where the `{variable}` at `offset` is bound.
pub(crate) fn definition(
    db: &dyn Db,
    workspace: Workspace,
    file: SourceFile,
    offset: TextSize,
) -> Option<TextRange> {
    injection::features::definition(db, Some(workspace), file, offset)
}
