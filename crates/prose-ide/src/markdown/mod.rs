//! Markdown in the engine: prompt files (seed 004, `M` codes) and
//! `_keyword_` instruction files (seed 000, `K` codes), over the
//! `prose-markdown` front end, whose rule files hold each check and its
//! documentation.
//!
//! - [`rules`]: the registry of the `M` and `K` codes;
//! - [`prompt_file`]: a prompt file's phases (a tracked query);
//! - `injections.rs`: markdown as a host: a prompt file's content and an
//!   instruction file's text carry the instruction language, and
//!   ```` ```prose ```` and ```` ```dialect ```` fences their languages
//!   (see [`crate::injection`]);
//! - one file per feature: `diagnostics.rs`, `hover.rs`, `completion.rs`,
//!   `semantic_tokens.rs`, `links.rs` (document links and go to
//!   definition), `document_symbols.rs`, `code_actions.rs`,
//!   `model_view.rs` (the "Show what the model receives" lens and its
//!   text), and `convert.rs` (front-end data in the engine's types).
//!
//! Which markdown file carries which language: docs/languages.md and
//! docs/markdown.md ("Which files").

pub(crate) mod code_actions;
pub mod completion;
pub(crate) mod convert;
pub(crate) mod diagnostics;
pub(crate) mod document_symbols;
pub(crate) mod hover;
pub(crate) mod injections;
pub(crate) mod links;
pub(crate) mod model_view;
pub(crate) mod semantic_tokens;

use std::sync::{Arc, OnceLock};

use prose_markdown::prompt::PromptFile;

use crate::{
    auxiliary::WorkspaceFiles,
    config::Level,
    db::{Db, SourceFile, Workspace},
    diagnostics::{Rule, Severity, front_end_rule},
    kind::FileKind,
};

/// The rules of every `M` and `K` code, built once from the front end's
/// rule table. `M` codes check prompt files, `K` codes instruction text
/// (their docs examples are run as a file of that kind).
pub(crate) fn rules() -> &'static [&'static Rule] {
    static RULES: OnceLock<Vec<&'static Rule>> = OnceLock::new();
    RULES.get_or_init(|| {
        prose_markdown::rules()
            .iter()
            .map(|r| {
                let kind = if r.code.starts_with('M') {
                    FileKind::PromptFile
                } else {
                    FileKind::Markdown
                };
                let severity = severity(r.severity);
                front_end_rule(
                    kind,
                    r.code,
                    r.name,
                    r.summary,
                    severity,
                    Level::On(severity),
                    r.source,
                )
            })
            .collect()
    })
}

/// The engine's severity of a front-end severity.
pub(crate) fn severity(s: prose_markdown::Severity) -> Severity {
    match s {
        prose_markdown::Severity::Error => Severity::Error,
        prose_markdown::Severity::Warning => Severity::Warning,
        prose_markdown::Severity::Info => Severity::Info,
        prose_markdown::Severity::Hint => Severity::Hint,
    }
}

/// A prompt file split into its phases, its commands parsed.
#[salsa::tracked(returns(ref))]
pub(crate) fn prompt_file(db: &dyn Db, file: SourceFile) -> Arc<PromptFile> {
    Arc::new(prose_markdown::prompt::parse_prompt_file(file.text(db)))
}

/// The keys of the `/read` targets of a prompt file (nested prompts'
/// too), for the host to load.
pub(crate) fn read_paths(db: &dyn Db, file: SourceFile, workspace: Workspace) -> Vec<String> {
    let files = WorkspaceFiles::of(db, file, Some(workspace));
    prompt_file(db, file)
        .paths_to_check()
        .iter()
        .map(|p| files.key(p))
        .collect()
}

#[cfg(test)]
pub(crate) mod tests;
