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

use prose_syntax::{AstNode, SyntaxKind, SyntaxNode, ast};
use rustc_hash::FxHashMap;

use crate::{
    contract::{Persist, agent_persist},
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

/// What a statement asks of the disk, before the file's root and
/// configuration turn it into paths.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Need {
    /// An agent that keeps memory.
    Memory { agent: String, persist: Persist },
    /// A `use` of a program.
    Program(String),
}

/// What the statements of `file` need, in text order. An edit that
/// changes no statement's needs (nearly every edit) gives an equal list, so
/// salsa keeps the previous one and [`external_paths`], which turns it into
/// paths, is not run again.
#[salsa::tracked(returns(ref))]
pub(crate) fn file_needs(db: &dyn Db, file: SourceFile) -> Vec<Need> {
    let root = parse(db, file).syntax_node();
    // What each statement needs depends on that statement alone: kept per
    // statement while its tree is unchanged (`statement_memo.rs`).
    db.statement_memos()
        .needs
        .lend(file, &root, needs, |per_statement| {
            per_statement
                .iter()
                .flat_map(|(_, needs)| needs.iter().cloned())
                .collect()
        })
}

/// The memory files and the candidate files of imported programs that
/// the diagnostics of `file` may depend on, in text order: what a host
/// checks on disk and loads.
#[salsa::tracked(returns(ref))]
pub fn external_paths(db: &dyn Db, file: SourceFile, workspace: Workspace) -> ExternalPaths {
    let FileRoot { dir: root_dir, .. } = file_root(db, file, workspace);
    let home = workspace.home(db).clone();
    let candidates = use_candidates(db, file, workspace);
    let mut out = ExternalPaths::default();
    for need in file_needs(db, file) {
        match need {
            Need::Memory { agent, persist } => {
                if let Some(p) = memory_file_path(root_dir, home.as_deref(), agent, persist) {
                    out.memory.push(p);
                }
            }
            Need::Program(path) => out.imports.extend(candidates[path].iter().cloned()),
        }
    }
    out
}

/// The candidate files of each path the `use` statements of `file` name
/// ([`import_candidates`], in lookup order), by the path as written: what
/// the host loads ([`external_paths`]) and what the rules that resolve a
/// `use` look up (`Ctx::import_candidates`). A function of the file's
/// `use` paths ([`file_needs`]), its root's directory and configuration,
/// the home directory and the file's directory: an edit that changes none
/// of them (nearly every edit) keeps the map without building a path.
#[salsa::tracked(returns(ref))]
pub(crate) fn use_candidates(
    db: &dyn Db,
    file: SourceFile,
    workspace: Workspace,
) -> FxHashMap<String, Vec<String>> {
    let FileRoot {
        dir: root_dir,
        config,
        ..
    } = file_root(db, file, workspace);
    let home = workspace.home(db).as_deref();
    let file_dir = dir_of(file.path(db));
    let mut out = FxHashMap::default();
    for need in file_needs(db, file) {
        if let Need::Program(path) = need
            && !out.contains_key(path)
        {
            let candidates = import_candidates(config, root_dir, home, &file_dir, path);
            out.insert(path.clone(), candidates);
        }
    }
    out
}

/// What the agents and `use`s in `stmt` need, in text order.
fn needs(stmt: &SyntaxNode) -> Vec<Need> {
    let mut out = Vec::new();
    // Most statements hold neither: a look at the green tree spares
    // making a handle for each of their nodes.
    if !prose_syntax::walk::holds_kind(stmt, &[SyntaxKind::AGENT_DEF, SyntaxKind::USE_STMT]) {
        return out;
    }
    prose_syntax::walk::pre_order(stmt, |node| {
        if let Some(agent) = ast::AgentDef::cast(node.clone()) {
            if let (Some(name), Some(persist)) = (agent.name(), agent_persist(&agent)) {
                out.push(Need::Memory {
                    agent: name.text().to_string(),
                    persist,
                });
            }
        } else if let Some(u) = ast::UseStmt::cast(node.clone())
            && let Some(path) = u.path()
        {
            out.push(Need::Program(path.value()));
        }
    });
    out
}
