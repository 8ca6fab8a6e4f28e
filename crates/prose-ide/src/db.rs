//! The salsa database: inputs and the basic tracked queries.

use std::collections::{BTreeMap, BTreeSet};

use prose_syntax::Parse;

pub use crate::{
    openprose::prompt_edit::PromptEditCache, reparse::ParseCache, statement_memo::StatementMemos,
};

use crate::{
    config::Config,
    kind::{FileKind, kind_of_file},
};

/// The database trait every query takes (`&dyn Db`).
#[salsa::db]
pub trait Db: salsa::Database {
    /// The previous parse of each file, which [`parse`] starts from.
    fn parse_cache(&self) -> &ParseCache;
    /// Results kept per top-level statement ([`StatementMemos`]).
    fn statement_memos(&self) -> &StatementMemos;
    /// What typing in a prompt moves instead of computing again
    /// ([`PromptEditCache`]).
    fn prompt_edits(&self) -> &PromptEditCache;
}

/// One source file. `path` is the host's key for it (absolute and
/// normalised with `/` separators in the CLI and the server).
#[salsa::input(debug)]
pub struct SourceFile {
    #[returns(ref)]
    pub path: String,
    /// Shared with the host (the server keeps the same text for its
    /// positions): an `Arc`, read as a `&String`.
    #[returns(ref)]
    pub text: std::sync::Arc<String>,
}

/// A workspace root (an editor's workspace folder, the CLI's `--root`):
/// where the project state of the files under it lives (`.prose/agents/`,
/// `.prose/imports/`, the `[imports]` paths) and the configuration that
/// applies to them (its `prose.toml`, with the editor's settings laid over).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Root {
    /// Absolute and `/`-separated, like file paths.
    pub path: String,
    pub config: Config,
}

impl Root {
    /// Whether `path` is this root's directory or lies under it.
    pub fn contains(&self, path: &str) -> bool {
        path_contains(&self.path, path)
    }
}

/// Whether `path` is `dir` or lies under it (path segments, not prefixes:
/// `/ws` does not contain `/ws2/a.prose`).
pub fn path_contains(dir: &str, path: &str) -> bool {
    let dir = dir.trim_end_matches('/');
    path.strip_prefix(dir)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// Workspace-wide state some checks need. Each field is tracked on its
/// own, so e.g. a memory file appearing does not invalidate import lookups.
#[salsa::input(debug)]
pub struct Workspace {
    /// The roots, in any order: a file belongs to the innermost root that
    /// contains it (see [`file_root`]).
    #[returns(ref)]
    pub roots: Vec<Root>,
    /// The configuration of files outside every root.
    #[returns(ref)]
    pub default_config: Config,
    /// The user's home directory, for `~/.prose/...` lookups.
    #[returns(ref)]
    pub home: Option<String>,
    /// Every `.prose` file the host knows, by path (checked files and the
    /// programs that `use` statements may resolve to).
    #[returns(ref)]
    pub files: BTreeMap<String, SourceFile>,
    /// Paths of agent memory files that exist (`.../agents/{name}/memory.md`).
    #[returns(ref)]
    pub memory_files: BTreeSet<String>,
    /// Files the analysis reads but does not analyse (`/read` targets,
    /// `_spawn_` files), by path: see [`crate::auxiliary`].
    #[returns(ref)]
    pub aux_files: BTreeMap<String, crate::auxiliary::AuxFile>,
    /// The files the host made for injected languages that are analysed as
    /// files of their own (the ```` ```prose ```` fences of a markdown
    /// file), by the path of the file they are in: see
    /// [`crate::injection`].
    #[returns(ref)]
    pub guests: BTreeMap<String, Vec<SourceFile>>,
}

impl Workspace {
    /// The innermost root that contains `path`, if any.
    pub fn root_of<'db>(self, db: &'db dyn Db, path: &str) -> Option<&'db Root> {
        self.roots(db)
            .iter()
            .filter(|r| r.contains(path))
            .max_by_key(|r| r.path.trim_end_matches('/').len())
    }
}

/// Where a file's project state lives and which configuration applies to it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FileRoot {
    /// The directory project paths are relative to: the file's root, or
    /// the file's own directory when no root contains it.
    pub dir: String,
    /// Whether `dir` is a root (false: the file is outside every root).
    pub is_root: bool,
    pub config: Config,
}

impl FileRoot {
    /// The fallback of a file outside every root: its own directory.
    pub fn outside(path: &str, config: Config) -> FileRoot {
        FileRoot {
            dir: dir_of(path),
            is_root: false,
            config,
        }
    }
}

/// The root of a file (the innermost that contains it) and its
/// configuration. A key that is not an absolute path (an editor's
/// `untitled:` buffer) belongs to the first root. Its result changes only
/// when this file's root or that root's configuration does, so editing one
/// folder's `prose.toml` does not re-check the others.
#[salsa::tracked(returns(ref))]
pub fn file_root(db: &dyn Db, file: SourceFile, workspace: Workspace) -> FileRoot {
    let path = file.path(db);
    let root = if path.starts_with('/') {
        workspace.root_of(db, path)
    } else {
        workspace.roots(db).first()
    };
    match root {
        Some(root) => FileRoot {
            dir: root.path.clone(),
            is_root: true,
            config: root.config.clone(),
        },
        None => FileRoot::outside(path, workspace.default_config(db).clone()),
    }
}

/// The language of a file: from its path and its root's `[files]` globs
/// (see [`crate::kind`]); a path no rule matches is a program. Re-runs
/// only when the file's root or that root's configuration changes.
#[salsa::tracked(returns(copy))]
pub fn file_kind(db: &dyn Db, file: SourceFile, workspace: Option<Workspace>) -> FileKind {
    let path = file.path(db);
    match workspace {
        Some(ws) => {
            let root = file_root(db, file, ws);
            kind_of_file(
                path,
                root.is_root.then_some(root.dir.as_str()),
                &root.config,
            )
        }
        None => kind_of_file(path, None, &Config::default()),
    }
}

/// The directory of a path (`.` when it has none, as for `untitled:` keys).
pub fn dir_of(path: &str) -> String {
    path.rsplit_once('/')
        .map_or(String::from("."), |(d, _)| d.to_string())
}

/// The concrete database.
#[salsa::db]
#[derive(Clone, Default)]
pub struct RootDatabase {
    storage: salsa::Storage<Self>,
    /// Shared by the database and its snapshots.
    parses: std::sync::Arc<ParseCache>,
    /// Shared by the database and its snapshots.
    statements: std::sync::Arc<StatementMemos>,
    /// Shared by the database and its snapshots.
    prompt_edits: std::sync::Arc<PromptEditCache>,
    /// One count for the database and each of its snapshots (see
    /// [`RootDatabase::trim`]). The last field: a snapshot's salsa handle
    /// is dropped before its count.
    handles: std::sync::Arc<()>,
}

impl RootDatabase {
    /// A database for analysing each text once (`prose check`): its side
    /// caches keep nothing for later revisions (the statement memos, what
    /// typing in a prompt reuses), so nothing is copied for them and
    /// nothing held, and a long text is parsed on two threads. Answers are
    /// the same; a later revision computes what it needs from scratch.
    pub fn batch() -> Self {
        RootDatabase {
            parses: std::sync::Arc::new(ParseCache::batch()),
            statements: std::sync::Arc::new(StatementMemos::batch()),
            prompt_edits: std::sync::Arc::new(PromptEditCache::batch()),
            ..RootDatabase::default()
        }
    }

    /// A database whose salsa events go to `callback` (tests count
    /// `WillExecute` events with it to prove incrementality).
    pub fn with_event_callback(
        callback: Box<dyn Fn(salsa::Event) + Send + Sync + 'static>,
    ) -> Self {
        RootDatabase {
            storage: salsa::Storage::new(Some(callback)),
            parses: Default::default(),
            statements: Default::default(),
            prompt_edits: Default::default(),
            handles: Default::default(),
        }
    }

    /// Frees the results that newer ones replaced, if no snapshot of this
    /// database is alive; true if it did.
    ///
    /// salsa keeps a replaced result until the next revision starts (a
    /// snapshot may still be reading it), so the results an edit's run
    /// replaced (the old tree, names, rule parts, diagnostics of a long
    /// program) are freed by the next edit's write, before that edit's run
    /// can start: about 0.1 ms of a keystroke in the 5,600-line program
    /// (docs/performance/peer-2026-11-30.md, "A wider pipe, and the database
    /// trimmed between keystrokes"). Called after a run, when the database is
    /// idle, it frees them between keystrokes.
    /// With a snapshot alive it does nothing: it would wait for that
    /// snapshot and cancel its queries (a request being answered).
    pub fn trim(&mut self) -> bool {
        if std::sync::Arc::strong_count(&self.handles) != 1 {
            return false;
        }
        // No other handle exists (snapshots are made from `&self` on this
        // thread, so none can appear meanwhile): nothing is waited for or
        // cancelled.
        salsa::Database::trigger_lru_eviction(self);
        true
    }
}

#[salsa::db]
impl salsa::Database for RootDatabase {}

#[salsa::db]
impl Db for RootDatabase {
    fn parse_cache(&self) -> &ParseCache {
        &self.parses
    }

    fn statement_memos(&self) -> &StatementMemos {
        &self.statements
    }

    fn prompt_edits(&self) -> &PromptEditCache {
        &self.prompt_edits
    }
}

/// Parses a file. Re-runs on every text change, re-parsing only the
/// top-level statements an edit touches when it can (see `reparse.rs`);
/// the queries built on it return comparable summaries, so unchanged
/// results are backdated.
#[salsa::tracked(returns(ref), no_eq)]
pub fn parse(db: &dyn Db, file: SourceFile) -> Parse {
    // A parse of megabytes takes a while: stop when an edit arrives (or
    // the request is cancelled), as between queries.
    db.parse_cache()
        .parse(file, file.text(db), &|| db.unwind_if_revision_cancelled())
}

/// Joins `rel` onto `base` with `/`, normalising `.` and `..` segments.
pub fn join_path(base: &str, rel: &str) -> String {
    let mut parts: Vec<&str> = if rel.starts_with('/') {
        Vec::new()
    } else {
        base.split('/').filter(|s| !s.is_empty()).collect()
    };
    for seg in rel.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            s => parts.push(s),
        }
    }
    let joined = parts.join("/");
    if base.starts_with('/') && !joined.starts_with('/') || rel.starts_with('/') {
        format!("/{}", joined.trim_start_matches('/'))
    } else {
        joined
    }
}

#[cfg(test)]
mod tests {
    use super::{join_path, path_contains};

    #[test]
    fn joins() {
        assert_eq!(
            join_path("/ws", ".prose/agents/a/memory.md"),
            "/ws/.prose/agents/a/memory.md"
        );
        assert_eq!(join_path("/ws/", "./x/../y.prose"), "/ws/y.prose");
        assert_eq!(join_path("/ws", "/abs/p.prose"), "/abs/p.prose");
    }

    #[test]
    fn containment_is_by_segment() {
        assert!(path_contains("/ws", "/ws/a.prose"));
        assert!(path_contains("/ws/", "/ws/a.prose"));
        assert!(path_contains("/ws", "/ws"));
        assert!(!path_contains("/ws", "/ws2/a.prose"));
        assert!(path_contains("/", "/ws/a.prose"));
        assert!(!path_contains("/ws", "untitled:Untitled-1"));
    }
}
