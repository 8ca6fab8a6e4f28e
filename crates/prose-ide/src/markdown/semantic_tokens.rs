//! Semantic tokens of markdown files: a prompt file's processed commands
//! (names, paths, options, counts, quoted prompts), with the guests'
//! tokens laid over (the instruction language where the text carries it,
//! the programs of ```` ```prose ```` fences). Plain markdown gets none:
//! the editor's own markdown highlighting stays.

use prose_syntax::TextRange;

use crate::{
    db::{Db, SourceFile, Workspace},
    features::semantic_tokens::SemanticToken,
    injection,
    kind::FileKind,
    markdown::{convert, prompt_file},
};

pub(crate) fn semantic_tokens(
    db: &dyn Db,
    workspace: Workspace,
    file: SourceFile,
    kind: FileKind,
    range: Option<TextRange>,
) -> Vec<SemanticToken> {
    let mut own: Vec<SemanticToken> = Vec::new();
    if kind == FileKind::PromptFile {
        let text = file.text(db);
        own = prose_markdown::prompt::semantic_tokens(text, prompt_file(db, file))
            .iter()
            .map(|t| convert::token(t, &|r| r))
            .collect();
        if let Some(r) = range {
            own.retain(|t| r.intersect(t.range).is_some());
        }
    }
    let guests = injection::features::semantic_tokens(db, Some(workspace), file, range);
    injection::tokens::overlay(own, guests)
}
