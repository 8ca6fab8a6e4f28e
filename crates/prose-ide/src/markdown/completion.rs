//! Completion in markdown files: a prompt file's command names and
//! `/push` options (where a command is processed), file paths after
//! `/read` (the host lists the directory: [`PathCompletion`]), and the
//! guests' completions (keywords after `_` and signals after `SGN` in
//! instruction text, OpenProse in ```` ```prose ```` fences).
//!
//! Keywords are offered in prompt content and in files that carry the
//! instruction language, not in every markdown file: typing `_` for
//! emphasis in a README pops nothing up.

use prose_syntax::{TextRange, TextSize};

use crate::{
    auxiliary::WorkspaceFiles,
    db::{Db, SourceFile, Workspace},
    features::completion::{CompletionItem, CompletionKind},
    injection,
    kind::FileKind,
    markdown::{convert, prompt_file},
};

/// A file path being typed after `/read`: the host lists `dir` and offers
/// the entries whose name starts with `typed`, each replacing `replace`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathCompletion {
    /// The directory to list (a key: absolute, `/`-separated).
    pub dir: String,
    /// What is typed of the entry's name (after the last `/`).
    pub typed: String,
    /// The range a chosen name replaces.
    pub replace: TextRange,
}

pub(crate) fn completions(
    db: &dyn Db,
    workspace: Workspace,
    file: SourceFile,
    kind: FileKind,
    offset: TextSize,
) -> Vec<CompletionItem> {
    let mut out = Vec::new();
    if kind == FileKind::PromptFile {
        let text = file.text(db);
        let found = prose_markdown::prompt::completions(text, prompt_file(db, file), offset.into());
        out.extend(found.items.iter().map(|c| {
            let kind = if c.label.starts_with('/') {
                CompletionKind::Keyword
            } else {
                CompletionKind::Property
            };
            convert::completion(c, kind, c.replace, &|s: &str| s.to_string())
        }));
    }
    out.extend(injection::features::completions(
        db,
        Some(workspace),
        file,
        offset,
    ));
    out
}

/// The path being typed at `offset` after a prompt file's `/read`.
pub(crate) fn path_completion(
    db: &dyn Db,
    workspace: Workspace,
    file: SourceFile,
    offset: TextSize,
) -> Option<PathCompletion> {
    let text = file.text(db);
    let found = prose_markdown::prompt::completions(text, prompt_file(db, file), offset.into());
    let path = found.path?;
    let mut typed = path.typed.as_str();
    for prefix in ["$PWD/", "${PWD}/", "./"] {
        typed = typed.strip_prefix(prefix).unwrap_or(typed);
    }
    let (dir, name) = match typed.rsplit_once('/') {
        Some((dir, name)) => (if dir.is_empty() { "/" } else { dir }, name),
        None => ("", typed),
    };
    let files = WorkspaceFiles::of(db, file, Some(workspace));
    let end = path.range.end();
    Some(PathCompletion {
        dir: files.key(dir),
        typed: name.to_string(),
        replace: TextRange::new(end - TextSize::of(name), end),
    })
}
