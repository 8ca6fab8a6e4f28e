//! Quick fixes in markdown files and instruction text: the front end's
//! fixes (a misspelled command or keyword, a message to quote, a command
//! to put in backticks), for the diagnostics the file reports.
//!
//! Every fix is preferred (it is the one the diagnostic suggests). Only
//! fixes with one obvious outcome are safe for `prose check --fix`:
//! quoting a `_terminate_` message (K004) and putting a `_run_` command in
//! backticks (K005). Spelling corrections are a judgement and are left to
//! the writer.

use prose_syntax::TextRange;

use crate::{
    FileId,
    auxiliary::WorkspaceFiles,
    db::{Db, SourceFile, Workspace},
    diagnostics::{Diagnostic, file_diagnostics},
    features::{
        code_actions::{CodeAction, CodeActionKind},
        rename::{SourceChange, TextEdit},
    },
    injection,
    kind::FileKind,
    markdown::prompt_file,
};

/// The codes whose fix `prose check --fix` applies.
const SAFE: &[&str] = &["K004", "K005"];

pub(crate) fn code_actions(
    db: &dyn Db,
    workspace: Workspace,
    file_id: FileId,
    file: SourceFile,
    kind: FileKind,
    range: TextRange,
) -> Vec<CodeAction> {
    let mut out = Vec::new();
    if kind == FileKind::PromptFile {
        let files = WorkspaceFiles::of(db, file, Some(workspace));
        let found = prose_markdown::prompt::check(file.text(db), prompt_file(db, file), &files);
        let reported = file_diagnostics(db, file, Some(workspace));
        out.extend(fixes(file_id, &found, reported, range, &Some, &|s| {
            s.to_string()
        }));
    }
    out.extend(injection::features::code_actions(
        db,
        Some(workspace),
        file_id,
        file,
        range,
    ));
    out
}

/// The fixes of the front-end diagnostics `found` that the file reports
/// (`reported`: same code, same range in the host) and that touch `range`.
/// `map` takes a range of the front end's text to the host's (`None`
/// where the host does not write it as it is), `escape` writes new text
/// as the host writes it.
pub(crate) fn fixes(
    file_id: FileId,
    found: &[prose_markdown::Diagnostic],
    reported: &[Diagnostic],
    range: TextRange,
    map: &dyn Fn(TextRange) -> Option<TextRange>,
    escape: &dyn Fn(&str) -> String,
) -> Vec<CodeAction> {
    let mut out = Vec::new();
    for d in found {
        let (Some(fix), Some(at)) = (&d.fix, map(d.range)) else {
            continue;
        };
        if at.intersect(range).is_none()
            || !reported
                .iter()
                .any(|r| r.code.as_str() == d.code && r.range == at)
        {
            continue;
        }
        let edits: Option<Vec<TextEdit>> = fix
            .edits
            .iter()
            .map(|e| {
                Some(TextEdit {
                    range: map(e.range)?,
                    new_text: escape(&e.new_text),
                })
            })
            .collect();
        let Some(mut edits) = edits else { continue };
        edits.sort_by_key(|e| e.range.start());
        out.push(CodeAction {
            title: fix.label.clone(),
            kind: CodeActionKind::QuickFix,
            diagnostic_code: Some(d.code),
            diagnostic_range: Some(at),
            is_preferred: true,
            is_safe: SAFE.contains(&d.code),
            edit: SourceChange {
                edits: vec![(file_id, edits)],
            },
        });
    }
    out
}
