//! Auxiliary files: files the analysis reads but does not analyse.
//!
//! A prompt file's `/read` targets and the `.md` files that `_spawn_`
//! names can be of any type (a C file, a design document, a persona).
//! Their existence and text matter to the checks (M005, M006, K007), to
//! the hover on a `/read` path and to "what the model receives", but they
//! are not files of a language we check, so they are not [`SourceFile`]s
//! in the workspace's file map (where an unknown name would be taken for a
//! program). They are inputs of their own: one [`AuxFile`] per path, in
//! [`Workspace::aux_files`], so a changed file re-checks only the files
//! that read it.
//!
//! The host learns which paths to load from `Analysis::external_paths`
//! (`ExternalPaths::aux`), reads them (existence, and the text of text
//! files under its size limit) and hands them in with
//! [`AnalysisHost::set_aux_file`]. A path the host never looked up is
//! unknown: no check depends on it.
//!
//! Paths in the text are relative to the agent's working directory, the
//! file's root (see [`crate::db::file_root`]); [`resolve`] makes them keys.

use std::collections::BTreeMap;

use prose_markdown::{FileLookup, Lookup};

use crate::{
    AnalysisHost,
    db::{Db, SourceFile, Workspace, file_root, join_path},
};

/// One auxiliary file, by its key (absolute, `/`-separated, like file paths).
#[salsa::input(debug)]
pub struct AuxFile {
    #[returns(ref)]
    pub path: String,
    #[returns(ref)]
    pub state: AuxState,
}

/// What the host found at an auxiliary path.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum AuxState {
    /// Nothing there (or not a file).
    Missing,
    /// A text file and its contents.
    Text(String),
    /// A file that exists but is not text, or is too large to read.
    Exists,
}

impl AnalysisHost {
    /// Records what is at the auxiliary path `path` (a key).
    pub fn set_aux_file(&mut self, path: &str, state: AuxState) {
        use salsa::Setter;
        if let Some(file) = self.workspace.aux_files(&self.db).get(path).copied() {
            if file.state(&self.db) != &state {
                file.set_state(&mut self.db).to(state);
            }
            return;
        }
        let file = AuxFile::new(&self.db, path.to_string(), state);
        let mut map: BTreeMap<String, AuxFile> = self.workspace.aux_files(&self.db).clone();
        map.insert(path.to_string(), file);
        self.workspace.set_aux_files(&mut self.db).to(map);
    }

    /// Forgets an auxiliary path: it is unknown again.
    pub fn forget_aux_file(&mut self, path: &str) {
        use salsa::Setter;
        if !self.workspace.aux_files(&self.db).contains_key(path) {
            return;
        }
        let mut map = self.workspace.aux_files(&self.db).clone();
        map.remove(path);
        self.workspace.set_aux_files(&mut self.db).to(map);
    }

    /// What the host recorded at an auxiliary path.
    pub fn aux_state(&self, path: &str) -> Option<AuxState> {
        let file = self.workspace.aux_files(&self.db).get(path)?;
        Some(file.state(&self.db).clone())
    }

    /// The auxiliary paths the host has recorded.
    pub fn aux_paths(&self) -> Vec<String> {
        self.workspace.aux_files(&self.db).keys().cloned().collect()
    }
}

/// The key of a path a text names, relative to the directory `dir` (the
/// file's root) unless absolute.
pub fn resolve(dir: &str, path: &str) -> String {
    join_path(dir, path)
}

/// Answers the front ends' questions about files for a file of the
/// workspace: a path is looked up among the workspace's files first (an
/// open document's text is the editor's), then among the auxiliary files.
pub(crate) struct WorkspaceFiles<'db> {
    db: &'db dyn Db,
    workspace: Option<Workspace>,
    /// Where relative paths start: the file's root.
    pub dir: String,
}

impl<'db> WorkspaceFiles<'db> {
    /// The lookup for paths written in `file`.
    pub(crate) fn of(
        db: &'db dyn Db,
        file: SourceFile,
        workspace: Option<Workspace>,
    ) -> WorkspaceFiles<'db> {
        let dir = match workspace {
            Some(ws) => file_root(db, file, ws).dir.clone(),
            None => crate::db::dir_of(file.path(db)),
        };
        WorkspaceFiles { db, workspace, dir }
    }

    /// The key of a path as the text writes it.
    pub(crate) fn key(&self, path: &str) -> String {
        resolve(&self.dir, path)
    }
}

impl FileLookup for WorkspaceFiles<'_> {
    fn lookup(&self, path: &str) -> Lookup<'_> {
        let Some(ws) = self.workspace else {
            return Lookup::Unknown;
        };
        if path.is_empty() {
            return Lookup::Unknown;
        }
        let key = self.key(path);
        if let Some(file) = ws.files(self.db).get(&key) {
            return Lookup::Exists(Some(file.text(self.db).as_str()));
        }
        match ws.aux_files(self.db).get(&key).map(|f| f.state(self.db)) {
            None => Lookup::Unknown,
            Some(AuxState::Missing) => Lookup::Missing,
            Some(AuxState::Exists) => Lookup::Exists(None),
            Some(AuxState::Text(text)) => Lookup::Exists(Some(text.as_str())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookups_prefer_workspace_files_then_aux_files() {
        let mut host = AnalysisHost::new();
        host.set_workspace_root(Some("/ws".into()));
        let file = host.set_file_text("/ws/a.prompt.md", "/read x.md\nGo.\n");
        host.set_file_text("/ws/p.prose", "session \"x\"\n");
        host.set_aux_file("/ws/x.md", AuxState::Text("# X\n".into()));
        host.set_aux_file("/ws/gone.md", AuxState::Missing);
        host.set_aux_file("/ws/image.png", AuxState::Exists);
        let analysis = host.analysis();
        analysis
            .with_db(|db| {
                let sf = analysis.source_file(file);
                let files = WorkspaceFiles::of(db, sf, Some(analysis.workspace));
                assert_eq!(files.lookup("x.md"), Lookup::Exists(Some("# X\n")));
                assert_eq!(files.lookup("gone.md"), Lookup::Missing);
                assert_eq!(files.lookup("image.png"), Lookup::Exists(None));
                assert_eq!(
                    files.lookup("p.prose"),
                    Lookup::Exists(Some("session \"x\"\n"))
                );
                assert_eq!(files.lookup("other.md"), Lookup::Unknown);
                assert_eq!(files.lookup("/ws/x.md"), Lookup::Exists(Some("# X\n")));
            })
            .unwrap();
        drop(analysis);
        host.forget_aux_file("/ws/x.md");
        assert_eq!(host.aux_paths(), ["/ws/gone.md", "/ws/image.png"]);
    }
}
