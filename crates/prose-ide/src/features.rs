//! Every IDE feature of the [`Analysis`] API, dispatched by file kind.
//!
//! Each method asks the file's kind ([`crate::db::file_kind`]) and calls
//! that language's implementation: OpenProse in `openprose/features/`,
//! prompt and markdown files in `markdown/`, Pattern Dialect in
//! `dialect/`, job entries in `jobs/`, one file per feature. A kind
//! without the feature answers nothing (an empty list, `None`). To give a
//! language a feature, add its arm here; the server and the CLI need no
//! change. The languages injected into a file (`crate::injection`: the
//! instruction language in OpenProse prompt strings, fenced programs in
//! markdown) answer through their host's arm.
//!
//! The result types live with the OpenProse implementations (re-exported
//! below under their module names) and are shared by every language.

pub use crate::openprose::features::{
    code_actions, completion, document_symbols, folding, formatting, highlight_related, hover,
    inlay_hints, navigation, references, rename, selection, semantic_tokens, signature_help,
    workspace_symbols,
};

pub use crate::{injection::features::DocumentLink, markdown::completion::PathCompletion};

use prose_syntax::{TextRange, TextSize};

use crate::{
    Analysis, Cancellable, FileId, FilePosition, FileRange,
    db::{Db, SourceFile, file_kind, parse},
    dialect, injection, jobs,
    kind::FileKind,
    markdown as md,
    openprose::{features as op, semantics::file_semantics},
};

use crate::code_lens::CodeLens;
use code_actions::CodeAction;
use completion::CompletionItem;
use document_symbols::DocumentSymbol;
use folding::Fold;
use highlight_related::Access;
use hover::HoverResult;
use inlay_hints::InlayHint;
use navigation::{Nav, NavigationTarget};
use rename::{RenameError, SourceChange};
use semantic_tokens::SemanticToken;
use signature_help::SignatureHelp;

impl Analysis {
    /// The language of a file.
    pub fn file_kind(&self, file: FileId) -> Cancellable<FileKind> {
        let f = self.source_file(file);
        let ws = self.workspace;
        self.with_db(move |db| file_kind(db, f, Some(ws)))
    }

    /// Runs `f` on the database with the file's kind.
    fn by_kind<T>(
        &self,
        file: FileId,
        f: impl FnOnce(&dyn Db, SourceFile, FileKind) -> T + std::panic::UnwindSafe,
    ) -> Cancellable<T> {
        let sf = self.source_file(file);
        let ws = self.workspace;
        self.with_db(move |db| f(db, sf, file_kind(db, sf, Some(ws))))
    }

    /// Runs `f` with the navigation index over the OpenProse files.
    fn with_nav<T>(
        &self,
        f: impl FnOnce(&Nav<'_>) -> T + std::panic::UnwindSafe,
    ) -> Cancellable<T> {
        let ws = self.workspace;
        let files = self.files.clone();
        self.with_db(move |db| f(&Nav::new(db, ws, &files)))
    }

    /// What is under the cursor, as Markdown; `None` where there is nothing to say.
    pub fn hover(&self, pos: FilePosition) -> Cancellable<Option<HoverResult>> {
        let ws = self.workspace;
        self.by_kind(pos.file, move |db, f, kind| match kind {
            FileKind::OpenProse => injection::features::hover(db, Some(ws), f, pos.offset)
                .and_then(|h| md::hover::with_problems(db, ws, f, pos.offset, Some(h)))
                .or_else(|| op::hover::hover(db, ws, f, pos.offset)),
            FileKind::PromptFile | FileKind::Markdown => {
                md::hover::hover(db, ws, f, kind, pos.offset)
            }
            FileKind::Dialect => dialect::hover::file_hover(db, ws, f, pos.offset),
            FileKind::JobEntry => injection::features::hover(db, Some(ws), f, pos.offset)
                .and_then(|h| md::hover::with_problems(db, ws, f, pos.offset, Some(h)))
                .or_else(|| jobs::hover::hover(db, ws, f, pos.offset)),
        })
    }

    /// Completions at a position.
    pub fn completions(&self, pos: FilePosition) -> Cancellable<Vec<CompletionItem>> {
        let ws = self.workspace;
        self.by_kind(pos.file, move |db, f, kind| match kind {
            FileKind::OpenProse => {
                let mut items = op::completion::completions(db, ws, f, pos.offset);
                items.extend(injection::features::completions(
                    db,
                    Some(ws),
                    f,
                    pos.offset,
                ));
                items
            }
            FileKind::PromptFile | FileKind::Markdown => {
                md::completion::completions(db, ws, f, kind, pos.offset)
            }
            FileKind::Dialect => dialect::completion::file_completions(db, ws, f, pos.offset),
            FileKind::JobEntry => {
                let mut items = jobs::completion::completions(db, f, pos.offset);
                items.extend(injection::features::completions(
                    db,
                    Some(ws),
                    f,
                    pos.offset,
                ));
                items
            }
        })
    }

    /// The file path being typed at a position (after a prompt file's
    /// `/read`): the host lists the directory (the analysis does no IO).
    pub fn path_completion(&self, pos: FilePosition) -> Cancellable<Option<PathCompletion>> {
        let ws = self.workspace;
        self.by_kind(pos.file, move |db, f, kind| match kind {
            FileKind::PromptFile => md::completion::path_completion(db, ws, f, pos.offset),
            _ => None,
        })
    }

    /// The signature of the call whose argument list holds the cursor.
    pub fn signature_help(&self, pos: FilePosition) -> Cancellable<Option<SignatureHelp>> {
        let ws = self.workspace;
        self.by_kind(pos.file, move |db, f, kind| match kind {
            FileKind::OpenProse => op::signature_help::signature_help(db, ws, f, pos.offset),
            _ => None,
        })
    }

    /// Quick fixes for the diagnostics touching `frange`.
    pub fn code_actions(&self, frange: FileRange) -> Cancellable<Vec<CodeAction>> {
        let ws = self.workspace;
        self.by_kind(frange.file, move |db, f, kind| match kind {
            FileKind::OpenProse => {
                let mut actions =
                    op::code_actions::code_actions(db, frange.file, f, ws, frange.range);
                actions.extend(injection::features::code_actions(
                    db,
                    Some(ws),
                    frange.file,
                    f,
                    frange.range,
                ));
                actions
            }
            FileKind::PromptFile | FileKind::Markdown => {
                md::code_actions::code_actions(db, ws, frange.file, f, kind, frange.range)
            }
            FileKind::Dialect => {
                dialect::code_actions::file_code_actions(db, ws, frange.file, f, frange.range)
            }
            FileKind::JobEntry => {
                let mut actions =
                    jobs::code_actions::code_actions(db, frange.file, f, ws, frange.range);
                actions.extend(injection::features::code_actions(
                    db,
                    Some(ws),
                    frange.file,
                    f,
                    frange.range,
                ));
                actions
            }
        })
    }

    /// The code lenses of a file ([`crate::code_lens`]), in document order.
    pub fn code_lenses(&self, file: FileId) -> Cancellable<Vec<CodeLens>> {
        let ws = self.workspace;
        self.by_kind(file, move |db, f, kind| match kind {
            // Run program, Dry run (or the errors that block the run).
            FileKind::OpenProse => op::code_lens::code_lenses(db, ws, f),
            // Run task, Dry run (or the errors that block the run), Show
            // expanded prompt, on each task.
            FileKind::JobEntry => jobs::code_lens::code_lenses(db, ws, f),
            // Show what the model receives.
            FileKind::PromptFile => md::model_view::code_lenses(db, f, kind),
            _ => Vec::new(),
        })
    }

    /// The fully expanded prompt of the task `task` of a job entry (what
    /// its "Show expanded prompt" lens shows); `None` for another kind of
    /// file, a task the file does not have, or a task without a prompt.
    pub fn expanded_prompt(
        &self,
        file: FileId,
        task: &str,
    ) -> Cancellable<Option<jobs::code_lens::ExpandedPrompt>> {
        let task = task.to_string();
        self.by_kind(file, move |db, f, kind| match kind {
            FileKind::JobEntry => jobs::code_lens::expanded_prompt(db, f, &task),
            _ => None,
        })
    }

    /// What the model receives from a prompt file (the "Show what the
    /// model receives" lens), as markdown; `None` for other files.
    pub fn model_view(&self, file: FileId) -> Cancellable<Option<String>> {
        let ws = self.workspace;
        self.by_kind(file, move |db, f, kind| {
            md::model_view::model_view(db, ws, f, kind)
        })
    }

    /// The links of a file to other files (a prompt file's `/read`
    /// targets, `_spawn_` files), sorted; targets are keys.
    pub fn document_links(&self, file: FileId) -> Cancellable<Vec<DocumentLink>> {
        let ws = self.workspace;
        self.by_kind(file, move |db, f, kind| match kind {
            FileKind::PromptFile | FileKind::Markdown => md::links::document_links(db, ws, f, kind),
            FileKind::OpenProse | FileKind::JobEntry => {
                injection::features::document_links(db, Some(ws), f)
            }
            _ => Vec::new(),
        })
    }

    /// The outline of a file.
    pub fn document_symbols(&self, file: FileId) -> Cancellable<Vec<DocumentSymbol>> {
        let ws = self.workspace;
        self.by_kind(file, move |db, f, kind| match kind {
            FileKind::OpenProse => op::document_symbols::document_symbols(db, f),
            FileKind::PromptFile | FileKind::Markdown => {
                md::document_symbols::document_symbols(db, f, kind)
            }
            FileKind::Dialect => dialect::document_symbols::file_document_symbols(db, ws, f),
            FileKind::JobEntry => jobs::document_symbols::document_symbols(db, f),
        })
    }

    /// The folding ranges of a file, sorted by start.
    pub fn folding_ranges(&self, file: FileId) -> Cancellable<Vec<Fold>> {
        let ws = self.workspace;
        self.by_kind(file, move |db, f, kind| match kind {
            FileKind::OpenProse => op::folding::folding_ranges(&parse(db, f).syntax_node()),
            FileKind::Dialect => dialect::folding::file_folding_ranges(db, ws, f),
            FileKind::JobEntry => jobs::folding::folding_ranges(db, f),
            _ => Vec::new(),
        })
    }

    /// The file in the canonical layout, or `None` when it has syntax
    /// errors (broken code is never formatted) or its language has no
    /// formatter.
    pub fn format(&self, file: FileId) -> Cancellable<Option<String>> {
        self.by_kind(file, |db, f, kind| match kind {
            FileKind::OpenProse => op::formatting::format_parse(parse(db, f), f.text(db)),
            _ => None,
        })
    }

    /// The hints of a file, or of the part of it within `range`.
    pub fn inlay_hints(
        &self,
        file: FileId,
        range: Option<TextRange>,
    ) -> Cancellable<Vec<InlayHint>> {
        self.by_kind(file, move |db, f, kind| match kind {
            FileKind::OpenProse => op::inlay_hints::inlay_hints(db, f, range),
            _ => Vec::new(),
        })
    }

    /// For each offset, its chain of growing ranges, innermost first.
    pub fn selection_ranges(
        &self,
        file: FileId,
        offsets: Vec<TextSize>,
    ) -> Cancellable<Vec<Vec<TextRange>>> {
        let ws = self.workspace;
        self.by_kind(file, move |db, f, kind| match kind {
            FileKind::OpenProse => {
                let root = parse(db, f).syntax_node();
                let mut selector = op::selection::Selector::new(&root);
                offsets
                    .iter()
                    .map(|&o| {
                        db.unwind_if_revision_cancelled();
                        selector.chain(o)
                    })
                    .collect()
            }
            FileKind::Dialect => dialect::selection::file_selection_ranges(db, ws, f, &offsets),
            _ => {
                // The whole text, for every offset: a chain that contains
                // the cursor is better than none.
                let all = TextRange::up_to(TextSize::of(f.text(db).as_str()));
                offsets.iter().map(|_| vec![all]).collect()
            }
        })
    }

    /// The semantic tokens of a file, or of the part of it that `range`
    /// touches; sorted, non-overlapping, each on one line.
    pub fn semantic_tokens(
        &self,
        file: FileId,
        range: Option<TextRange>,
    ) -> Cancellable<Vec<SemanticToken>> {
        let ws = self.workspace;
        self.by_kind(file, move |db, f, kind| match kind {
            FileKind::OpenProse => {
                let root = parse(db, f).syntax_node();
                let own = op::semantic_tokens::semantic_tokens(&root, file_semantics(db, f), range);
                let guests = injection::features::semantic_tokens(db, Some(ws), f, range);
                injection::tokens::overlay(own, guests)
            }
            FileKind::PromptFile | FileKind::Markdown => {
                md::semantic_tokens::semantic_tokens(db, ws, f, kind, range)
            }
            FileKind::Dialect => dialect::semantic_tokens::file_semantic_tokens(db, ws, f, range),
            FileKind::JobEntry => {
                let own = jobs::semantic_tokens::semantic_tokens(db, f, range);
                let guests = injection::features::semantic_tokens(db, Some(ws), f, range);
                injection::tokens::overlay(own, guests)
            }
        })
    }

    /// Where the name under the cursor is defined (empty when it is not a
    /// name, or resolves to nothing).
    ///
    /// On a link to another file (a `/read` path, a `_spawn_` file, see
    /// [`Analysis::document_links`]) the server opens the link's file.
    pub fn goto_definition(&self, pos: FilePosition) -> Cancellable<Vec<NavigationTarget>> {
        let ws = self.workspace;
        let bound = self.by_kind(pos.file, move |db, f, kind| match kind {
            FileKind::OpenProse
            | FileKind::PromptFile
            | FileKind::Markdown
            | FileKind::JobEntry => {
                md::links::definition(db, ws, f, pos.offset).map(|r| (r, f.text(db)[r].to_string()))
            }
            _ => None,
        })?;
        if let Some((range, name)) = bound {
            return Ok(vec![NavigationTarget {
                file: pos.file,
                full_range: range,
                focus_range: Some(range),
                name,
                kind: navigation::SymbolKind::Variable,
            }]);
        }
        let f = self.source_file(pos.file);
        match self.file_kind(pos.file)? {
            FileKind::OpenProse => {
                self.with_nav(move |nav| op::navigation::goto_definition(nav, f, pos.offset))
            }
            FileKind::JobEntry => self
                .with_db(move |db| jobs::navigation::goto_definition(db, pos.file, f, pos.offset)),
            _ => Ok(Vec::new()),
        }
    }

    /// Every reference to the name under the cursor, in every file
    /// (declarations too when `include_declaration`), sorted by file path
    /// and position.
    pub fn references(
        &self,
        pos: FilePosition,
        include_declaration: bool,
    ) -> Cancellable<Vec<FileRange>> {
        let f = self.source_file(pos.file);
        match self.file_kind(pos.file)? {
            FileKind::OpenProse => self.with_nav(move |nav| {
                op::references::references(nav, f, pos.offset, include_declaration)
            }),
            FileKind::JobEntry => self.with_db(move |db| {
                jobs::navigation::references(db, pos.file, f, pos.offset, include_declaration)
            }),
            _ => Ok(Vec::new()),
        }
    }

    /// The occurrences of the name under the cursor in its file, sorted.
    pub fn highlight_related(&self, pos: FilePosition) -> Cancellable<Vec<(TextRange, Access)>> {
        let f = self.source_file(pos.file);
        match self.file_kind(pos.file)? {
            FileKind::OpenProse => self
                .with_nav(move |nav| op::highlight_related::highlight_related(nav, f, pos.offset)),
            FileKind::JobEntry => {
                self.with_db(move |db| jobs::navigation::highlight_related(db, f, pos.offset))
            }
            _ => Ok(Vec::new()),
        }
    }

    /// The range of the name a rename at the cursor would change, or why
    /// there is nothing to rename there.
    pub fn prepare_rename(&self, pos: FilePosition) -> Cancellable<Result<TextRange, RenameError>> {
        let f = self.source_file(pos.file);
        match self.file_kind(pos.file)? {
            FileKind::OpenProse => {
                self.with_nav(move |nav| op::rename::plan(nav, f, pos.offset).map(|p| p.range))
            }
            FileKind::JobEntry => {
                self.with_db(move |db| jobs::rename::prepare_rename(db, f, pos.offset))
            }
            _ => Ok(Err(RenameError::nothing_here())),
        }
    }

    /// The edits that rename the name under the cursor to `new_name`.
    pub fn rename(
        &self,
        pos: FilePosition,
        new_name: &str,
    ) -> Cancellable<Result<SourceChange, RenameError>> {
        let f = self.source_file(pos.file);
        let new_name = new_name.to_string();
        match self.file_kind(pos.file)? {
            FileKind::OpenProse => {
                self.with_nav(move |nav| op::rename::rename(nav, f, pos.offset, &new_name))
            }
            FileKind::JobEntry => {
                self.with_db(move |db| jobs::rename::rename(db, pos.file, f, pos.offset, &new_name))
            }
            _ => Ok(Err(RenameError::nothing_here())),
        }
    }

    /// Symbols of every workspace file whose name matches `query`.
    pub fn workspace_symbols(&self, query: &str) -> Cancellable<Vec<NavigationTarget>> {
        let query = query.to_string();
        self.with_nav(move |nav| op::workspace_symbols::workspace_symbols(nav, &query))
    }
}
