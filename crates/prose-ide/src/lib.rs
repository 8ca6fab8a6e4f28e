//! OpenProse analysis: a salsa database and every IDE feature over it.
//!
//! The API is plain data in editor terms (byte offsets, labels): no LSP
//! types, no IO. [`AnalysisHost`] owns the database and applies changes;
//! [`Analysis`] is a snapshot that answers queries. A snapshot is cancelled
//! by the next change of the host (it must be dropped before the change can
//! apply), or on its own through its [`CancelToken`] (the server cancels the
//! snapshot of a request the client cancelled). Either way its queries
//! return `Err(Cancelled)`; long queries notice at their next salsa query
//! call or explicit check (`file_diagnostics` checks between rules).

pub mod auxiliary;
pub mod code_lens;
pub mod config;
pub mod db;
pub mod deferred;
pub mod diagnostics;
pub mod dialect;
pub mod features;
#[doc(hidden)]
pub mod fixture;
pub mod host;
pub mod injection;
pub mod jobs;
pub mod kind;
pub mod markdown;
mod needed_files;
pub mod openprose;
mod reparse;
mod sorted;
mod statement_memo;

// The OpenProse modules at the crate paths the rest of the crate uses.
pub use openprose::{contract, external, imports, semantics, vocabulary};

pub use config::{Config, Profile};
pub use db::Root;
pub use diagnostics::{
    Check, Diagnostic, DiagnosticCode, Related, Rule, Severity, Tag, all_rules, rule, rule_docs,
};
pub use kind::FileKind;
pub use prose_syntax::{TextRange, TextSize};

use std::{
    collections::{BTreeMap, BTreeSet, HashMap},
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
};

use db::{RootDatabase, SourceFile, Workspace};
use salsa::Setter;

/// How long a text must be, in bytes, for its analysis to be shared out
/// between two threads: an OpenProse file's rules in two parts
/// (`openprose/rule_parts.rs`), and in the language server a fork of the
/// run's snapshot. Below it the second thread costs more than it saves (a
/// thread woken for the other, twice): a keystroke in programs of 10, 200
/// and 400 lines took 12%, 5% and 4% less without the fork, one of 600
/// lines (16 KB) the same, and ones of 800 and 1,000 lines 4% and 8% more
/// (docs/performance/peer-2026-11-30b.md).
pub const PARALLEL_MIN_BYTES: usize = 16 * 1024;

/// Identifies a file known to the host.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FileId(pub u32);

/// A query was cancelled because the inputs changed; retry on the new state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cancelled;

pub type Cancellable<T> = Result<T, Cancelled>;

/// Cancels one [`Analysis`] snapshot, from any thread: the query running
/// on it stops at its next check, and every later call on it returns
/// `Err(Cancelled)` at once. The host and other snapshots are not affected
/// (each snapshot is its own salsa database handle with its own token), so
/// a new snapshot works as before.
///
/// It wraps salsa's per-handle `CancellationToken`, which alone is not
/// enough: salsa clears that flag when the outermost query call on the
/// handle returns (or unwinds), so it would stop one query, not the
/// snapshot. The flag kept here is never cleared.
///
/// A snapshot and its forks ([`Analysis::fork`]) share one token:
/// cancelling it stops the work on all of them.
#[derive(Debug, Clone)]
pub struct CancelToken {
    cancelled: Arc<AtomicBool>,
    /// The salsa token of the snapshot's handle and of each fork's.
    salsa: Arc<std::sync::Mutex<Vec<salsa::CancellationToken>>>,
}

impl CancelToken {
    /// Cancels the snapshot (idempotent).
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::SeqCst);
        let handles = self.salsa.lock().unwrap_or_else(|e| e.into_inner());
        handles.iter().for_each(salsa::CancellationToken::cancel);
    }

    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::SeqCst)
    }
}

/// Stops the analysis running on this thread when its snapshot was
/// cancelled (an edit arrived, or the request was cancelled): salsa unwinds
/// to the [`Analysis`] method, which answers `Err(Cancelled)`. For long
/// loops that call no query (queries check by themselves); does nothing
/// outside an analysis.
pub(crate) fn check_cancelled() {
    salsa::with_attached_database(|db| db.unwind_if_revision_cancelled());
}

/// Calls [`check_cancelled`] every few thousand steps of a loop.
#[derive(Default)]
pub(crate) struct CancelCheck(u32);

impl CancelCheck {
    #[inline]
    pub(crate) fn tick(&mut self) {
        self.0 = self.0.wrapping_add(1);
        if self.0.is_multiple_of(4096) {
            check_cancelled();
        }
    }
}

/// Owns the database and the file table; the only place inputs change.
pub struct AnalysisHost {
    db: RootDatabase,
    workspace: Workspace,
    files: Vec<SourceFile>,
    by_path: HashMap<String, FileId>,
    /// Slots of removed files, reused for new paths.
    free: Vec<FileId>,
}

impl Default for AnalysisHost {
    fn default() -> Self {
        Self::with_db(RootDatabase::default())
    }
}

impl AnalysisHost {
    pub fn new() -> Self {
        Self::default()
    }

    /// A host that analyses each text once (`prose check`): the same
    /// answers, without keeping per-statement results and copies for later
    /// edits ([`RootDatabase::batch`]).
    pub fn for_batch() -> Self {
        Self::with_db(RootDatabase::batch())
    }

    /// On a batch host, has the diagnostics of `file` run its statement
    /// rules in a rule context of their own, after the other rules, so
    /// that another thread can compute them meanwhile
    /// ([`Analysis::prepare_statement_rules`]); the same diagnostics.
    /// Nothing on other hosts.
    pub fn run_statement_rules_apart(&mut self, file: FileId) {
        let f = self.files[file.0 as usize];
        db::Db::statement_memos(&self.db).set_apart(f);
    }

    /// A host over a given database (tests pass one with an event callback).
    pub fn with_db(db: RootDatabase) -> Self {
        let workspace = Workspace::new(
            &db,
            Vec::new(),
            Config::default(),
            None,
            BTreeMap::new(),
            BTreeSet::new(),
            BTreeMap::new(),
            BTreeMap::new(),
        );
        AnalysisHost {
            db,
            workspace,
            files: Vec::new(),
            by_path: HashMap::new(),
            free: Vec::new(),
        }
    }

    /// Replaces the roots (workspace folders), each with its configuration.
    /// A file belongs to the innermost root that contains it.
    pub fn set_roots(&mut self, roots: Vec<Root>) {
        if self.workspace.roots(&self.db) != &roots {
            self.workspace.set_roots(&mut self.db).to(roots);
            self.sync_all_guests();
        }
    }

    pub fn roots(&self) -> Vec<Root> {
        self.workspace.roots(&self.db).clone()
    }

    /// The configuration of files outside every root.
    pub fn set_default_config(&mut self, config: Config) {
        if self.workspace.default_config(&self.db) != &config {
            self.workspace.set_default_config(&mut self.db).to(config);
            self.sync_all_guests();
        }
    }

    pub fn default_config(&self) -> Config {
        self.workspace.default_config(&self.db).clone()
    }

    /// Single-root convenience (the CLI's `--root`, tests): makes `root`
    /// the only root, with the configuration last given to [`Self::set_config`].
    pub fn set_workspace_root(&mut self, root: Option<String>) {
        let config = self.default_config();
        self.set_roots(
            root.into_iter()
                .map(|path| Root {
                    path,
                    config: config.clone(),
                })
                .collect(),
        );
    }

    pub fn set_home(&mut self, home: Option<String>) {
        if self.workspace.home(&self.db) != &home {
            self.workspace.set_home(&mut self.db).to(home);
        }
    }

    /// Single-configuration convenience: `config` for every root and for
    /// the files outside them.
    pub fn set_config(&mut self, config: Config) {
        let roots = self
            .roots()
            .into_iter()
            .map(|r| Root {
                path: r.path,
                config: config.clone(),
            })
            .collect();
        self.set_roots(roots);
        self.set_default_config(config);
    }

    /// Replaces the set of agent memory files that exist.
    pub fn set_memory_files(&mut self, files: BTreeSet<String>) {
        if self.workspace.memory_files(&self.db) != &files {
            self.workspace.set_memory_files(&mut self.db).to(files);
        }
    }

    /// Adds a file or replaces its text; returns its id.
    pub fn set_file_text(&mut self, path: &str, text: impl Into<String>) -> FileId {
        self.set_file_text_shared(path, Arc::new(text.into()))
    }

    /// [`Self::set_file_text`] with a text the caller keeps too (the
    /// server's copy of an open document): it is shared, not copied.
    pub fn set_file_text_shared(&mut self, path: &str, text: Arc<String>) -> FileId {
        if let Some(&id) = self.by_path.get(path) {
            let file = self.files[id.0 as usize];
            if file.text(&self.db).as_str() != text.as_str() {
                file.set_text(&mut self.db).to(text);
                self.sync_guests(path);
            }
            return id;
        }
        let (id, file) = self.new_file(path, text);
        let mut map = self.workspace.files(&self.db).clone();
        map.insert(path.to_string(), file);
        self.workspace.set_files(&mut self.db).to(map);
        self.sync_guests(path);
        id
    }

    /// A file for a path the host does not know: a slot a removed file
    /// left (see [`Self::remove_file`]), else a new one.
    fn new_file(&mut self, path: &str, text: Arc<String>) -> (FileId, SourceFile) {
        let id = match self.free.pop() {
            Some(id) => {
                let file = self.files[id.0 as usize];
                file.set_path(&mut self.db).to(path.to_string());
                file.set_text(&mut self.db).to(text);
                id
            }
            None => {
                let file = SourceFile::new(&self.db, path.to_string(), text);
                self.files.push(file);
                FileId(self.files.len() as u32 - 1)
            }
        };
        self.by_path.insert(path.to_string(), id);
        (id, self.files[id.0 as usize])
    }

    /// Adds or replaces many files with one change of the file map (adding
    /// files one by one copies the map each time).
    pub fn set_file_texts(&mut self, files: impl IntoIterator<Item = (String, String)>) {
        let mut map = None;
        let mut added = Vec::new();
        for (path, text) in files {
            if self.by_path.contains_key(&path) {
                self.set_file_text(&path, text);
                continue;
            }
            let (_, file) = self.new_file(&path, Arc::new(text));
            map.get_or_insert_with(|| self.workspace.files(&self.db).clone())
                .insert(path.clone(), file);
            added.push(path);
        }
        if let Some(map) = map {
            self.workspace.set_files(&mut self.db).to(map);
        }
        for path in added {
            self.sync_guests(&path);
        }
    }

    pub fn file_id(&self, path: &str) -> Option<FileId> {
        self.by_path.get(path).copied()
    }

    /// Frees what the database kept only for snapshots that are gone (the
    /// results newer ones replaced), unless a snapshot is alive; true if
    /// it did. For an idle moment, after a run (see [`RootDatabase::trim`]).
    pub fn trim(&mut self) -> bool {
        self.db.trim()
    }

    /// Forgets the file at `path` (deleted on disk, or a closed editor
    /// buffer): imports no longer resolve to it, and what the analysis
    /// kept about it is freed (its text emptied and its queries run again
    /// on the empty text, so their old results go at the next change). Its
    /// `FileId` must not be used again: the slot is reused for the next
    /// new path, so memory follows the files known now, not every file
    /// ever opened.
    pub fn remove_file(&mut self, path: &str) -> Option<FileId> {
        let id = self.by_path.remove(path)?;
        let mut map = self.workspace.files(&self.db).clone();
        map.remove(path);
        self.workspace.set_files(&mut self.db).to(map);
        let file = self.files[id.0 as usize];
        file.set_text(&mut self.db).to(Arc::default());
        file.set_path(&mut self.db).to(String::new());
        self.forget(file);
        self.free.push(id);
        self.sync_guests(path);
        Some(id)
    }

    /// Runs the per-file queries of an emptied file, replacing what they
    /// kept (salsa frees a replaced result at the next revision, and has
    /// no way to drop a result otherwise).
    fn forget(&self, file: SourceFile) {
        let db = &self.db;
        let ws = self.workspace;
        let _ = salsa::Cancelled::catch(|| {
            salsa::Database::attach(db, |db| {
                db::parse(db, file);
                semantics::file_semantics(db, file);
                contract::program_contract(db, file);
                external::external_paths(db, file, ws);
                diagnostics::file_diagnostics(db, file, Some(ws));
            })
        });
    }

    /// A snapshot for answering queries (cheap; cancelled by later
    /// changes, or by its [`Analysis::cancel_token`]).
    pub fn analysis(&self) -> Analysis {
        // A clone is a new salsa handle, with a cancellation token of its own.
        let db = self.db.clone();
        let cancel = CancelToken {
            cancelled: Arc::default(),
            salsa: Arc::new(std::sync::Mutex::new(vec![
                salsa::Database::cancellation_token(&db),
            ])),
        };
        Analysis {
            db,
            workspace: self.workspace,
            files: self.files.clone(),
            free: self.free.clone(),
            cancel,
        }
    }
}

/// A read-only snapshot of the database.
pub struct Analysis {
    pub(crate) db: RootDatabase,
    pub(crate) workspace: Workspace,
    pub(crate) files: Vec<SourceFile>,
    /// Slots of removed files (see [`AnalysisHost::remove_file`]).
    free: Vec<FileId>,
    cancel: CancelToken,
}

/// A position in a file: a byte offset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FilePosition {
    pub file: FileId,
    pub offset: TextSize,
}

/// A range in a file (byte offsets).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FileRange {
    pub file: FileId,
    pub range: TextRange,
}

impl Analysis {
    /// The salsa input of a file (for feature code in this crate).
    pub(crate) fn source_file(&self, file: FileId) -> SourceFile {
        self.files[file.0 as usize]
    }

    /// Every file of the snapshot.
    pub fn files(&self) -> impl Iterator<Item = FileId> + '_ {
        (0..self.files.len() as u32)
            .map(FileId)
            .filter(|id| !self.free.contains(id))
    }

    /// A token that cancels this snapshot (see [`CancelToken`]).
    pub fn cancel_token(&self) -> CancelToken {
        self.cancel.clone()
    }

    /// The same snapshot on a salsa handle of its own, for work on another
    /// thread at the same time: what either computes, the other finds
    /// computed (or waits for, if it is under way). It shares this
    /// snapshot's [`CancelToken`].
    pub fn fork(&self) -> Analysis {
        let db = self.db.clone();
        self.cancel
            .salsa
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(salsa::Database::cancellation_token(&db));
        Analysis {
            db,
            workspace: self.workspace,
            files: self.files.clone(),
            free: self.free.clone(),
            cancel: self.cancel.clone(),
        }
    }

    /// Runs `f` on the database, turning salsa cancellation into
    /// `Err(Cancelled)`; `Err(Cancelled)` at once, or instead of the result,
    /// when the snapshot's token was cancelled.
    pub(crate) fn with_db<T>(
        &self,
        f: impl FnOnce(&RootDatabase) -> T + std::panic::UnwindSafe,
    ) -> Cancellable<T> {
        if self.cancel.is_cancelled() {
            return Err(Cancelled);
        }
        // Attached for the whole of `f`, so salsa clears its local
        // cancellation flag only when `f` ends, not after each query `f`
        // calls: a cancel that lands between two of them stops the second.
        let result = salsa::Cancelled::catch(std::panic::AssertUnwindSafe(|| {
            salsa::Database::attach(&self.db, f)
        }));
        match result {
            Ok(value) if !self.cancel.is_cancelled() => Ok(value),
            _ => Err(Cancelled),
        }
    }

    pub fn file_text(&self, file: FileId) -> Cancellable<String> {
        let f = self.files[file.0 as usize];
        self.with_db(move |db| f.text(db).to_string())
    }

    pub fn file_path(&self, file: FileId) -> Cancellable<String> {
        let f = self.files[file.0 as usize];
        self.with_db(move |db| f.path(db).clone())
    }

    /// The text of the file the host knows at `path`, if any.
    pub fn file_text_at(&self, path: &str) -> Cancellable<Option<String>> {
        let ws = self.workspace;
        self.with_db(move |db| ws.files(db).get(path).map(|f| f.text(db).to_string()))
    }

    /// The configuration a file is checked with: its root's `prose.toml`
    /// with the host's layers over it (the server's editor settings).
    pub fn file_config(&self, file: FileId) -> Cancellable<Config> {
        let f = self.files[file.0 as usize];
        let ws = self.workspace;
        self.with_db(move |db| diagnostics::file_config(db, f, Some(ws)))
    }

    /// The directory a file's project state is under (its root, or its own
    /// directory outside every root): where a run of it keeps `.prose/`,
    /// and where relative paths in its prompts start from.
    pub fn file_root_dir(&self, file: FileId) -> Cancellable<String> {
        let f = self.files[file.0 as usize];
        let ws = self.workspace;
        self.with_db(move |db| db::file_root(db, f, ws).dir.clone())
    }

    /// All diagnostics of a file, sorted by position.
    pub fn diagnostics(&self, file: FileId) -> Cancellable<Vec<Diagnostic>> {
        let f = self.files[file.0 as usize];
        let ws = self.workspace;
        self.with_db(move |db| diagnostics::file_diagnostics(db, f, Some(ws)).clone())
    }

    /// Computes what the statement rules report on an OpenProse file set
    /// apart ([`AnalysisHost::run_statement_rules_apart`]), which its
    /// diagnostics read last: a thread with nothing else to do calls this
    /// while another computes the diagnostics (`prose check` of a long
    /// file). Does nothing for other files.
    pub fn prepare_statement_rules(&self, file: FileId) -> Cancellable<()> {
        let f = self.files[file.0 as usize];
        let ws = self.workspace;
        self.with_db(move |db| {
            if db::Db::statement_memos(db).apart(f)
                && db::file_kind(db, f, Some(ws)) == kind::FileKind::OpenProse
            {
                openprose::statement_rules::batch_statement_reports(db, f, Some(ws));
            }
        })
    }

    /// [`Analysis::diagnostics`] lent to `f` rather than copied (a server
    /// converts them to its own values and needs no copy of its own). Only
    /// a cancellation is caught: a panic in `f` goes on unwinding, so `f`
    /// need not be unwind safe.
    pub fn with_diagnostics<T>(
        &self,
        file: FileId,
        f: impl FnOnce(&[Diagnostic]) -> T,
    ) -> Cancellable<T> {
        let file = self.files[file.0 as usize];
        let ws = self.workspace;
        let f = std::panic::AssertUnwindSafe(f);
        self.with_db(move |db| {
            let f = f;
            (f.0)(diagnostics::file_diagnostics(db, file, Some(ws)))
        })
    }

    /// Memory files, imported programs and auxiliary files the file may
    /// depend on (those of the programs in its fences too); the host loads
    /// those that exist.
    pub fn external_paths(&self, file: FileId) -> Cancellable<external::ExternalPaths> {
        Ok((*self.needed_files(file)?).clone())
    }

    /// [`Self::external_paths`], shared: kept by the analysis until one of
    /// its sources changes (the server asks after every edit).
    pub fn needed_files(&self, file: FileId) -> Cancellable<Arc<external::ExternalPaths>> {
        let f = self.files[file.0 as usize];
        let ws = self.workspace;
        self.with_db(move |db| needed_files::needed_files(db, f, ws))
    }

    /// The parse tree of a file as text (for `prose dump-cst`).
    pub fn debug_syntax_tree(&self, file: FileId) -> Cancellable<String> {
        let f = self.files[file.0 as usize];
        self.with_db(move |db| db::parse(db, f).debug_dump())
    }

    /// Runs only the parse of a file (benchmarks time the phases).
    #[doc(hidden)]
    pub fn debug_phase_parse(&self, file: FileId) -> Cancellable<()> {
        let f = self.files[file.0 as usize];
        self.with_db(move |db| {
            db::parse(db, f);
        })
    }

    /// Computes the names of an OpenProse file, which its diagnostics read
    /// (nothing for other files): the language server's thread calls this
    /// after finding the files a program needs, while another thread
    /// builds the rules' index of nodes for the diagnostics (benchmarks
    /// time the phase with it too).
    pub fn prepare_names(&self, file: FileId) -> Cancellable<()> {
        let f = self.files[file.0 as usize];
        let ws = self.workspace;
        self.with_db(move |db| {
            if db::file_kind(db, f, Some(ws)) == kind::FileKind::OpenProse {
                semantics::file_semantics(db, f);
            }
        })
    }

    /// Computes the part of an OpenProse file's rules that its diagnostics
    /// take from a query of their own when the rules run in two parts
    /// (nothing otherwise, or for other files): the language server's
    /// thread calls this after [`Analysis::prepare_names`], while another
    /// thread computes the first part ([`Analysis::prepare_first_part`]);
    /// the diagnostics then find both done (`openprose/rule_parts.rs`).
    pub fn prepare_rules(&self, file: FileId) -> Cancellable<()> {
        let f = self.files[file.0 as usize];
        let ws = self.workspace;
        self.with_db(move |db| {
            if openprose::rule_parts::splits(db, f, Some(ws)) {
                openprose::rule_parts::second_part(db, f, Some(ws));
            }
        })
    }

    /// Computes the first part of a file's rules when they run in two
    /// ([`Analysis::splits_rules`]), else its diagnostics: the language
    /// server's fork calls this (after the files the program needs) while
    /// its job thread computes the names and the second part
    /// ([`Analysis::prepare_rules`]), then the diagnostics, which find both
    /// parts done or wait for the first.
    pub fn prepare_first_part(&self, file: FileId) -> Cancellable<()> {
        let f = self.files[file.0 as usize];
        let ws = self.workspace;
        self.with_db(move |db| {
            if openprose::rule_parts::splits(db, f, Some(ws)) {
                openprose::rule_parts::first_part(db, f, Some(ws));
            } else {
                diagnostics::file_diagnostics(db, f, Some(ws));
            }
        })
    }

    /// Whether the rules of a file run in two parts
    /// ([`Analysis::prepare_rules`]): an OpenProse file, on a host that
    /// splits them, unless the last edit only typed in a prompt.
    pub fn splits_rules(&self, file: FileId) -> Cancellable<bool> {
        let f = self.files[file.0 as usize];
        let ws = self.workspace;
        self.with_db(move |db| openprose::rule_parts::splits(db, f, Some(ws)))
    }

    /// How long each rule takes on a file (benchmarks find the slow ones).
    #[doc(hidden)]
    pub fn debug_rule_timings(
        &self,
        file: FileId,
    ) -> Cancellable<Vec<(&'static str, std::time::Duration)>> {
        let f = self.files[file.0 as usize];
        let ws = self.workspace;
        self.with_db(move |db| openprose::rules::rule_timings(db, f, Some(ws)))
    }
}
