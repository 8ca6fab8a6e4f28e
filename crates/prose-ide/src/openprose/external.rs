//! What a file needs from disk, so hosts know what to load.
//!
//! Project paths (`.prose/agents/`, `.prose/imports/`, `[imports]`) are
//! taken from the file's own root ([`crate::db::file_root`]), user paths
//! from the home directory.
//!
//! The analysis does no IO. A host asks [`external_paths`] which memory
//! files and imported programs a file may depend on, checks which exist,
//! and passes them in (`AnalysisHost::set_memory_files`,
//! `AnalysisHost::set_file_text`).

use prose_syntax::{AstNode, ast};

use crate::{
    contract::agent_persist,
    db::{Db, FileRoot, SourceFile, Workspace, dir_of, file_root, parse},
    imports::import_candidates,
    openprose::ctx::memory_file_path,
};

/// Paths a file's diagnostics may depend on.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct ExternalPaths {
    /// Agent memory files (`.../agents/{name}/memory.md`) whose existence matters.
    pub memory: Vec<String>,
    /// Candidate files for the programs this file `use`s, in lookup order.
    pub imports: Vec<String>,
    /// Auxiliary files the file reads (`/read` targets, `_spawn_` files):
    /// the host records whether each exists and its text
    /// ([`crate::AnalysisHost::set_aux_file`]).
    pub aux: Vec<String>,
}

#[salsa::tracked(returns(ref))]
pub fn external_paths(db: &dyn Db, file: SourceFile, workspace: Workspace) -> ExternalPaths {
    let root = parse(db, file).tree();
    let FileRoot {
        dir: root_dir,
        config,
        ..
    } = file_root(db, file, workspace);
    let home = workspace.home(db).clone();
    let file_dir = dir_of(file.path(db));
    let mut out = ExternalPaths::default();
    for node in root.syntax().descendants() {
        if let Some(agent) = ast::AgentDef::cast(node.clone()) {
            if let (Some(name), Some(persist)) = (agent.name(), agent_persist(&agent))
                && let Some(p) = memory_file_path(root_dir, home.as_deref(), &name.text(), &persist)
            {
                out.memory.push(p);
            }
        } else if let Some(u) = ast::UseStmt::cast(node)
            && let Some(path) = u.path()
        {
            out.imports.extend(import_candidates(
                config,
                root_dir,
                home.as_deref(),
                &file_dir,
                &path.value(),
            ));
        }
    }
    out
}
