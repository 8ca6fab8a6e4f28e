//! The `M` diagnostics of a prompt file. (The `K` diagnostics of
//! instruction text, and those of fenced programs, come from its guests:
//! `crate::injection::features::diagnostics`.)

use crate::{
    auxiliary::WorkspaceFiles,
    config::Config,
    db::{Db, SourceFile, Workspace},
    diagnostics::{Acc, front_end_accs},
    markdown::{convert, prompt_file, rules},
};

/// What the front end reports on a prompt file, asking the workspace's
/// files about every `/read` target, grouped by rule.
pub(crate) fn prompt_diagnostics(
    db: &dyn Db,
    file: SourceFile,
    workspace: Option<Workspace>,
    config: &Config,
) -> Vec<Acc> {
    let files = WorkspaceFiles::of(db, file, workspace);
    let found = prose_markdown::prompt::check(file.text(db), prompt_file(db, file), &files);
    let path = file.path(db);
    front_end_accs(
        config,
        rules(),
        found.iter().map(|d| convert::finding(d, path, &|r| r)),
    )
}
