//! Hover in markdown files: a prompt file's commands (what each does; a
//! `/read` target's first lines; `name=`), then the guests' hovers
//! (keywords, signals and variables of the instruction language, the
//! programs of ```` ```prose ```` fences), then the problems at the
//! cursor with the first paragraph of their docs, as in programs.

use prose_syntax::TextSize;

use crate::{
    auxiliary::WorkspaceFiles,
    db::{Db, SourceFile, Workspace},
    diagnostics::{file_config, file_diagnostics},
    features::hover::HoverResult,
    injection,
    kind::FileKind,
    markdown::prompt_file,
    openprose::features::hover::explain_diagnostic,
};

/// More problems than this at one spot are left to the problems list.
const MAX_PROBLEMS: usize = 3;

pub(crate) fn hover(
    db: &dyn Db,
    workspace: Workspace,
    file: SourceFile,
    kind: FileKind,
    offset: TextSize,
) -> Option<HoverResult> {
    let own = (kind == FileKind::PromptFile)
        .then(|| {
            let files = WorkspaceFiles::of(db, file, Some(workspace));
            prose_markdown::prompt::hover(prompt_file(db, file), offset.into(), &files)
        })
        .flatten()
        .map(|h| HoverResult {
            range: h.range,
            markdown: h.markdown,
        });
    let found = own.or_else(|| injection::features::hover(db, Some(workspace), file, offset));
    with_problems(db, workspace, file, offset, found)
}

/// `hover` followed by the problems at `offset` that it does not explain
/// already (or the problems alone, on the first one's range).
pub(crate) fn with_problems(
    db: &dyn Db,
    workspace: Workspace,
    file: SourceFile,
    offset: TextSize,
    hover: Option<HoverResult>,
) -> Option<HoverResult> {
    let diags: Vec<_> = file_diagnostics(db, file, Some(workspace))
        .iter()
        .filter(|d| d.range.contains(offset) || (d.range.is_empty() && d.range.start() == offset))
        .take(MAX_PROBLEMS)
        .collect();
    let mut result = match (hover, diags.first()) {
        (Some(h), _) => h,
        (None, Some(d)) => HoverResult {
            range: d.range,
            markdown: String::new(),
        },
        (None, None) => return None,
    };
    let config = file_config(db, file, Some(workspace));
    for d in diags {
        let page = config.docs_url_for(d.code.as_str());
        let explained = explain_diagnostic(d, page.as_deref());
        if result.markdown.contains(&explained) {
            continue;
        }
        if !result.markdown.is_empty() {
            result.markdown.push_str("\n\n---\n\n");
        }
        result.markdown.push_str(&explained);
    }
    Some(result)
}
