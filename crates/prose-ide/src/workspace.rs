//! What a file needs from disk, so hosts know what to load.
//!
//! The analysis does no IO. A host asks [`external_paths`] which memory
//! files and imported programs a file may depend on, checks which exist,
//! and passes them in (`AnalysisHost::set_memory_files`,
//! `AnalysisHost::set_file_text`).

use prose_syntax::{AstNode, ast};

use crate::{
    contract::agent_persist,
    db::{Db, SourceFile, Workspace, parse},
    diagnostics::memory_file_path,
    imports::import_candidates,
};

/// Paths a file's diagnostics may depend on.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct ExternalPaths {
    /// Agent memory files (`.../agents/{name}/memory.md`) whose existence matters.
    pub memory: Vec<String>,
    /// Candidate files for the programs this file `use`s, in lookup order.
    pub imports: Vec<String>,
}

#[salsa::tracked(returns(ref))]
pub fn external_paths(db: &dyn Db, file: SourceFile, workspace: Workspace) -> ExternalPaths {
    let root = parse(db, file).tree();
    let config = workspace.config(db);
    let root_dir = workspace.root(db).clone().unwrap_or_else(|| {
        let path = file.path(db);
        path.rsplit_once('/')
            .map_or(String::from("."), |(d, _)| d.to_string())
    });
    let home = workspace.home(db).clone();
    let file_dir = file
        .path(db)
        .rsplit_once('/')
        .map_or(String::from("."), |(d, _)| d.to_string());
    let mut out = ExternalPaths::default();
    for node in root.syntax().descendants() {
        if let Some(agent) = ast::AgentDef::cast(node.clone()) {
            if let (Some(name), Some(persist)) = (agent.name(), agent_persist(&agent))
                && let Some(p) =
                    memory_file_path(&root_dir, home.as_deref(), &name.text(), &persist)
            {
                out.memory.push(p);
            }
        } else if let Some(u) = ast::UseStmt::cast(node)
            && let Some(path) = u.path()
        {
            out.imports.extend(import_candidates(
                config,
                &root_dir,
                home.as_deref(),
                &file_dir,
                &path.value(),
            ));
        }
    }
    out
}
