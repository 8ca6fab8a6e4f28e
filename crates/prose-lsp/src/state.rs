//! The server state: the analysis host, the open documents with their
//! versions, the workspace folders (every one an analysis root) with their
//! configuration layers, and the diagnostics generation.
//!
//! It lives in one `std::sync::Mutex` (see `server.rs`), locked only for
//! short synchronous stretches and never across an `.await`: handlers apply
//! their changes while holding it, then release it before doing anything
//! asynchronous. Everything here is synchronous and plain, and nothing here
//! waits for the analysis: changes of its inputs are queued to the thread
//! that owns the database ([`Analyzer`]), in the order they happen.
//!
//! Every change of an analysis input bumps [`State::generation`]. A
//! diagnostics run is tagged with the generation of its snapshot, and its
//! results are dropped when the generation moved on (a newer run follows).

use std::{
    collections::{BTreeSet, HashMap, HashSet},
    path::PathBuf,
    sync::Arc,
};

use ls_types::{TextDocumentContentChangeEvent, Uri};
use prose_ide::{Analysis, Config, FileId, Root, db::path_contains};

use crate::{
    analyzer::{self, Analyzer},
    convert::{Encoding, LineText},
    settings::ClientSettings,
    workspace::{self, DiskText, MAX_FILE_SIZE},
};

/// What the client can do, as far as the server cares.
#[derive(Debug, Clone, Copy, Default)]
pub struct ClientCaps {
    /// The client pulls diagnostics (`textDocument/diagnostic`): no pushing.
    pub pull_diagnostics: bool,
    /// `workspace/diagnostic/refresh` is supported.
    pub diagnostic_refresh: bool,
    /// `workspace/configuration` is supported.
    pub configuration: bool,
    /// `workspace/didChangeWatchedFiles` can be registered dynamically.
    pub watch_files: bool,
    /// File watchers may be `RelativePattern`s (`relativePatternSupport`).
    pub relative_patterns: bool,
    /// Go to definition may answer `LocationLink`s (`definition.linkSupport`).
    pub definition_links: bool,
    /// `WorkspaceEdit`s may use versioned `documentChanges`.
    pub document_changes: bool,
    /// Document symbols may be nested (`hierarchicalDocumentSymbolSupport`).
    pub hierarchical_symbols: bool,
    /// Completion items may be snippets (`completionItem.snippetSupport`).
    pub snippet_support: bool,
    /// `window/showDocument` is supported.
    pub show_document: bool,
}

/// A document the editor has open.
#[derive(Debug, Clone)]
pub struct OpenDoc {
    /// The analysis key (see [`workspace::uri_key`]).
    pub path: String,
    pub version: i32,
    /// Shared with running diagnostics jobs; copied on write.
    pub text: Arc<LineText>,
    /// False when the text is over [`MAX_FILE_SIZE`] and not analysed.
    pub analysed: bool,
}

/// Why a `didChange` was not applied.
#[derive(Debug, PartialEq, Eq)]
pub enum ChangeError {
    NotOpen,
    /// The change's version is not newer than the document's.
    Stale {
        current: i32,
        got: i32,
    },
}

#[derive(Default)]
pub struct State {
    /// The thread that owns the analysis database.
    pub analyzer: Analyzer,
    /// The roots and the configuration of files outside them, as last
    /// handed to the analysis.
    applied: (Vec<Root>, Config),
    pub encoding: Encoding,
    pub caps: ClientCaps,
    /// Workspace folders: every one is an analysis root (a file belongs to
    /// the innermost one that contains it).
    pub roots: Vec<PathBuf>,
    /// The home directory (analysis key), for `~/.prose`.
    pub home: Option<String>,
    pub docs: HashMap<Uri, OpenDoc>,
    /// Bumped on every input change.
    pub generation: u64,
    /// `prose.toml` of each root, by the root's key (absent: the defaults).
    pub file_configs: HashMap<String, Config>,
    /// The `[dialect] registry` files the roots' `prose.toml` name, with
    /// the root naming each (keys), as watched
    /// (`handlers::registry_watch`).
    pub registry_files: Vec<(String, String)>,
    /// `initializationOptions`.
    pub init_settings: ClientSettings,
    /// `workspace/configuration` or `didChangeConfiguration`.
    pub client_settings: ClientSettings,
    /// Memory files known to exist.
    pub memory_files: BTreeSet<String>,
    /// Auxiliary files (`/read` targets, `_spawn_` files) looked up on disk;
    /// watched-file events keep them current.
    pub aux_files: BTreeSet<String>,
    /// A hash of what the analysis was given for each auxiliary file (to
    /// tell whether a new look changes anything without asking the
    /// analysis thread).
    aux_states: HashMap<String, u64>,
    /// How many watcher registrations for auxiliary files were made (each
    /// has an id of its own).
    pub aux_registrations: u64,
    /// External paths (memory files, import candidates) already looked up
    /// on disk; watched-file events keep them current.
    pub checked_external: Arc<HashSet<String>>,
    /// The version and diagnostics last pushed per document.
    /// (A hash of the list, not the list: a copy of every document's
    /// diagnostics would double what they cost. Made once the list is on
    /// its way to the client, `None` until then.)
    pub published: HashMap<Uri, (Option<i32>, Option<u64>)>,
    /// Programs loaded from disk (not open), by analysis key, with a hash
    /// of their text (to tell whether a reload changes anything).
    pub disk_files: HashMap<String, u64>,
    /// Messages to show once the client is initialized.
    pub pending_messages: Vec<String>,
}

/// One document of a diagnostics job.
#[derive(Debug, Clone)]
pub struct DocJob {
    pub uri: Uri,
    pub path: String,
    /// `None` for a file the host knows from disk but the editor has not open.
    pub version: Option<i32>,
    /// `None` for a file not open: the job reads it from the snapshot.
    pub text: Option<Arc<LineText>>,
    pub file: Option<FileId>,
}

impl DocJob {
    /// Whether the document's text is known and too short for a run to
    /// share out between two threads (the fork's wake-ups cost more than
    /// it saves: `prose_ide::PARALLEL_MIN_BYTES`).
    pub fn is_short(&self) -> bool {
        self.text
            .as_ref()
            .is_some_and(|t| t.len() < prose_ide::PARALLEL_MIN_BYTES)
    }
}

/// Everything a diagnostics run needs, taken under the lock in one go so
/// the snapshot, the texts and the versions agree (the snapshot is queued
/// then: [`PendingJob::ready`] waits for it).
pub struct Job {
    pub analysis: Analysis,
    pub generation: u64,
    pub encoding: Encoding,
    pub docs: Vec<DocJob>,
    /// Open documents by analysis key, for related locations.
    pub open: HashMap<String, (Uri, Arc<LineText>)>,
    pub checked_external: Arc<HashSet<String>>,
}

impl State {
    /// Marks an input change.
    pub fn touch(&mut self) {
        self.generation += 1;
    }

    /// The configuration in force under a root whose `prose.toml` says
    /// `file` (`None`: outside every root, the defaults), then the
    /// initialization options, then the client's settings.
    pub fn effective_config(&self, file: Option<&Config>) -> Config {
        let mut config = file.cloned().unwrap_or_default();
        self.init_settings.apply(&mut config);
        self.client_settings.apply(&mut config);
        config
    }

    /// The analysis keys of the roots.
    pub fn root_keys(&self) -> Vec<String> {
        self.roots.iter().map(|r| workspace::key(r)).collect()
    }

    /// Hands the roots and their configurations to the host; true if
    /// anything changed.
    pub fn apply_config(&mut self) -> bool {
        let mut roots: Vec<Root> = Vec::new();
        for path in self.root_keys() {
            if roots.iter().any(|r| r.path == path) {
                continue;
            }
            let config = self.effective_config(self.file_configs.get(&path));
            roots.push(Root { path, config });
        }
        let default_config = self.effective_config(None);
        if self.applied == (roots.clone(), default_config.clone()) {
            return false;
        }
        self.applied = (roots.clone(), default_config.clone());
        self.analyzer.write(move |host| {
            host.set_roots(roots);
            host.set_default_config(default_config);
        });
        self.touch();
        true
    }

    /// Records the `prose.toml` of a root (`Err`: unreadable or invalid,
    /// the defaults apply); returns the message to show, if any.
    pub fn set_file_config(
        &mut self,
        root: String,
        config: Result<Config, String>,
    ) -> Option<String> {
        let (config, message) = match config {
            Ok(config) => (config, None),
            Err(message) => (
                Config::default(),
                Some(format!("{message}; using the default configuration")),
            ),
        };
        self.file_configs.insert(root, config);
        message
    }

    /// Sets the home directory and hands the roots to the host.
    pub fn apply_roots(&mut self, home: Option<String>) {
        let set = home.clone();
        self.analyzer.write(move |host| host.set_home(set));
        self.home = home;
        self.apply_config();
        self.touch();
    }

    /// Gives the analysis a document's current text (shared, not copied),
    /// or takes it away when too large to analyse.
    fn sync_doc(analyzer: &Analyzer, doc: &mut OpenDoc) {
        let path = doc.path.clone();
        doc.analysed = doc.text.len() <= MAX_FILE_SIZE;
        if doc.analysed {
            let text = doc.text.shared_text().clone();
            analyzer.write(move |host| {
                host.set_file_text_shared(&path, text);
            });
        } else {
            analyzer.write(move |host| {
                host.remove_file(&path);
            });
        }
    }

    pub fn open(&mut self, uri: Uri, version: i32, text: String) {
        let mut doc = OpenDoc {
            path: workspace::uri_key(&uri),
            version,
            text: Arc::new(LineText::new(text)),
            analysed: false,
        };
        Self::sync_doc(&self.analyzer, &mut doc);
        // The editor owns the path now; closing loads the disk's text again.
        self.disk_files.remove(&doc.path);
        // A re-open (without close) starts over.
        self.published.remove(&uri);
        self.docs.insert(uri, doc);
        self.touch();
    }

    /// Applies a `didChange`: all its content changes in order, if its
    /// version is newer than the document's.
    pub fn change(
        &mut self,
        uri: &Uri,
        version: i32,
        changes: Vec<TextDocumentContentChangeEvent>,
    ) -> Result<(), ChangeError> {
        let encoding = self.encoding;
        let doc = self.docs.get_mut(uri).ok_or(ChangeError::NotOpen)?;
        if version <= doc.version {
            return Err(ChangeError::Stale {
                current: doc.version,
                got: version,
            });
        }
        let text = Arc::make_mut(&mut doc.text);
        for change in changes {
            text.apply_change(encoding, change.range, &change.text);
        }
        doc.version = version;
        Self::sync_doc(&self.analyzer, doc);
        self.touch();
        Ok(())
    }

    /// Closes a document: the analysis falls back to the file on disk, or
    /// forgets it. Returns false if it was not open.
    pub fn close(&mut self, uri: &Uri) -> bool {
        let Some(doc) = self.docs.remove(uri) else {
            return false;
        };
        self.published.remove(uri);
        let disk = match workspace::uri_path(uri) {
            Some(path) if workspace::is_program(&doc.path) => workspace::read_text(&path),
            _ => DiskText::Missing,
        };
        if !self.load_disk_program(&doc.path, disk) && self.doc_at(&doc.path).is_none() {
            // Not on disk: the analysis forgets it (and frees what it kept).
            let path = doc.path;
            self.analyzer.write(move |host| {
                host.remove_file(&path);
            });
        }
        self.touch();
        true
    }

    /// The open document at an analysis key.
    pub fn doc_at(&self, path: &str) -> Option<&Uri> {
        self.docs
            .iter()
            .find_map(|(uri, doc)| (doc.path == path).then_some(uri))
    }

    /// Loads a program from disk unless the editor owns it (open), or
    /// forgets it when it is gone or unreadable. True if anything changed.
    pub fn load_disk_program(&mut self, path: &str, text: DiskText) -> bool {
        if self.doc_at(path).is_some() {
            return false;
        }
        match text {
            DiskText::Text(text) => {
                let hash = text_hash(&text);
                if self.disk_files.insert(path.to_string(), hash) == Some(hash) {
                    return false;
                }
                let path = path.to_string();
                self.analyzer.write(move |host| {
                    host.set_file_text(&path, text);
                });
                self.touch();
                true
            }
            _ => {
                if self.disk_files.remove(path).is_none() {
                    return false;
                }
                let path = path.to_string();
                self.analyzer.write(move |host| {
                    host.remove_file(&path);
                });
                self.touch();
                true
            }
        }
    }

    /// Adds what a scan of workspace folders found (skipping open documents).
    pub fn load_scan(&mut self, scan: workspace::Scan) {
        let open: HashSet<&str> = self.docs.values().map(|d| d.path.as_str()).collect();
        let programs: Vec<(String, String)> = scan
            .programs
            .into_iter()
            .filter(|(path, _)| !open.contains(path.as_str()))
            .collect();
        self.disk_files.extend(
            programs
                .iter()
                .map(|(path, text)| (path.clone(), text_hash(text))),
        );
        self.analyzer
            .write(move |host| host.set_file_texts(programs));
        let checked = Arc::make_mut(&mut self.checked_external);
        for path in &scan.memory {
            checked.insert(path.clone());
        }
        let before = self.memory_files.len();
        self.memory_files.extend(scan.memory);
        if self.memory_files.len() != before {
            self.send_memory_files();
        }
        self.touch();
    }

    /// Forgets what was loaded from under `dir` (a removed workspace
    /// folder) and is not under another folder: its programs and
    /// `prose.toml`; its memory files are forgotten and will be looked up
    /// again if a document still names them.
    pub fn unload_folder(&mut self, dir: &str) {
        let roots = self.root_keys();
        if !roots.iter().any(|r| r == dir) {
            self.file_configs.remove(dir);
        }
        let gone = |p: &String| path_contains(dir, p) && !roots.iter().any(|r| path_contains(r, p));
        let programs: Vec<String> = self
            .disk_files
            .keys()
            .filter(|p| gone(p))
            .cloned()
            .collect();
        for path in programs {
            self.load_disk_program(&path, DiskText::Missing);
        }
        let memory: Vec<String> = self
            .memory_files
            .iter()
            .filter(|p| gone(p))
            .cloned()
            .collect();
        if !memory.is_empty() {
            let checked = Arc::make_mut(&mut self.checked_external);
            for path in &memory {
                self.memory_files.remove(path);
                checked.remove(path);
            }
            self.send_memory_files();
        }
        let aux: Vec<String> = self.aux_files.iter().filter(|p| gone(p)).cloned().collect();
        let checked = Arc::make_mut(&mut self.checked_external);
        for path in &aux {
            self.aux_files.remove(path);
            self.aux_states.remove(path);
            checked.remove(path);
            let path = path.clone();
            self.analyzer.write(move |host| host.forget_aux_file(&path));
        }
        self.touch();
    }

    /// Records whether a memory file exists. True if that changed.
    pub fn set_memory_file(&mut self, path: &str, exists: bool) -> bool {
        Arc::make_mut(&mut self.checked_external).insert(path.to_string());
        let changed = if exists {
            self.memory_files.insert(path.to_string())
        } else {
            self.memory_files.remove(path)
        };
        if changed {
            self.send_memory_files();
            self.touch();
        }
        changed
    }

    fn send_memory_files(&self) {
        let files = self.memory_files.clone();
        self.analyzer
            .write(move |host| host.set_memory_files(files));
    }

    /// Records what is at an auxiliary path. True if that changed.
    pub fn set_aux_file(&mut self, path: &str, state: prose_ide::auxiliary::AuxState) -> bool {
        Arc::make_mut(&mut self.checked_external).insert(path.to_string());
        self.aux_files.insert(path.to_string());
        let hash = hash_of(&state);
        let changed = self.aux_states.insert(path.to_string(), hash) != Some(hash);
        if changed {
            let path = path.to_string();
            self.analyzer
                .write(move |host| host.set_aux_file(&path, state));
            self.touch();
        }
        changed
    }

    /// A diagnostics job over the given documents (all open ones when
    /// `uris` is `None`; unknown URIs are left out). Its snapshot is queued
    /// now, after every change so far: [`PendingJob::ready`] waits for it.
    pub fn job(&self, uris: Option<&[Uri]>) -> PendingJob {
        let docs: Vec<DocJob> = match uris {
            None => self
                .docs
                .iter()
                .map(|(uri, doc)| Self::open_job(uri, doc))
                .collect(),
            Some(uris) => uris
                .iter()
                .filter_map(|uri| match self.docs.get(uri) {
                    Some(doc) => Some(Self::open_job(uri, doc)),
                    None => {
                        let path = workspace::uri_key(uri);
                        self.disk_files.contains_key(&path).then(|| DocJob {
                            uri: uri.clone(),
                            path,
                            version: None,
                            text: None,
                            file: None,
                        })
                    }
                })
                .collect(),
        };
        // The analysed documents' files, looked up in the snapshot.
        let paths = docs
            .iter()
            .filter(|d| d.text.as_ref().is_none_or(|t| t.len() <= MAX_FILE_SIZE))
            .map(|d| d.path.clone())
            .collect();
        PendingJob {
            snapshot: self.analyzer.snapshot(paths),
            generation: self.generation,
            encoding: self.encoding,
            docs,
            open: self
                .docs
                .iter()
                .map(|(uri, doc)| (doc.path.clone(), (uri.clone(), doc.text.clone())))
                .collect(),
            checked_external: self.checked_external.clone(),
        }
    }

    fn open_job(uri: &Uri, doc: &OpenDoc) -> DocJob {
        DocJob {
            uri: uri.clone(),
            path: doc.path.clone(),
            version: Some(doc.version),
            text: Some(doc.text.clone()),
            file: None,
        }
    }

    /// Whether the analysis knows the document at `uri` (open, or a
    /// program loaded from the workspace).
    pub fn knows(&self, uri: &Uri) -> bool {
        self.docs.contains_key(uri) || self.disk_files.contains_key(&workspace::uri_key(uri))
    }
}

/// A [`Job`] whose snapshot is on its way from the analysis thread.
pub struct PendingJob {
    snapshot: tokio::sync::oneshot::Receiver<analyzer::Snapshot>,
    generation: u64,
    encoding: Encoding,
    docs: Vec<DocJob>,
    open: HashMap<String, (Uri, Arc<LineText>)>,
    checked_external: Arc<HashSet<String>>,
}

impl PendingJob {
    /// The job, once its snapshot came; `None` if the analysis is gone.
    pub async fn ready(mut self) -> Option<Job> {
        let snapshot = (&mut self.snapshot).await.ok()?;
        Some(self.with(snapshot))
    }

    /// [`PendingJob::ready`] on a blocking thread, which the analysis
    /// thread wakes itself when the snapshot is made (no hop through the
    /// async side first).
    pub fn ready_blocking(mut self) -> Option<Job> {
        let snapshot = futures::executor::block_on(&mut self.snapshot).ok()?;
        Some(self.with(snapshot))
    }

    /// The generation of the state this job was made from.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The job, with its snapshot come: each document's file in it.
    fn with(self, snapshot: analyzer::Snapshot) -> Job {
        let mut docs = self.docs;
        let mut files = snapshot.files.into_iter();
        for doc in &mut docs {
            if doc.text.as_ref().is_none_or(|t| t.len() <= MAX_FILE_SIZE) {
                doc.file = files.next().flatten();
            }
        }
        Job {
            analysis: snapshot.analysis,
            generation: self.generation,
            encoding: self.encoding,
            docs,
            open: self.open,
            checked_external: self.checked_external,
        }
    }
}

/// A hash of a text, to tell whether a file read again changed.
fn text_hash(text: &str) -> u64 {
    hash_of(text)
}

/// A hash of a value, to tell whether something read again changed.
fn hash_of<T: std::hash::Hash + ?Sized>(value: &T) -> u64 {
    use std::hash::Hasher;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    value.hash(&mut h);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ls_types::{Position, Range};

    /// The analysis's file at `path`, once the queued changes are applied.
    fn file_id(st: &State, path: &str) -> Option<FileId> {
        let path = path.to_string();
        st.analyzer
            .read_blocking(move |host| host.file_id(&path))
            .unwrap()
    }

    /// The analysis's text at `path`.
    fn text_at(st: &State, path: &str) -> Option<String> {
        let path = path.to_string();
        st.analyzer
            .read_blocking(move |host| host.analysis().file_text_at(&path).unwrap())
            .unwrap()
    }

    fn change(
        range: Option<((u32, u32), (u32, u32))>,
        text: &str,
    ) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range: range
                .map(|((a, b), (c, d))| Range::new(Position::new(a, b), Position::new(c, d))),
            range_length: None,
            text: text.into(),
        }
    }

    /// A job made ready on a blocking thread (which the analysis thread
    /// wakes when the snapshot is made) holds that snapshot, made after
    /// every change so far, and the documents' files in it.
    #[test]
    fn a_job_is_ready_on_a_blocking_thread() {
        let mut st = State::default();
        let uri: Uri = "file:///w/a.prose".parse().unwrap();
        st.open(uri.clone(), 1, "let a = 1\n".into());
        st.change(&uri, 2, vec![change(None, "let a = 1\nlet a = 2\n")])
            .unwrap();
        let pending = st.job(Some(std::slice::from_ref(&uri)));
        assert_eq!(pending.generation(), st.generation);
        let job = std::thread::spawn(move || pending.ready_blocking())
            .join()
            .unwrap()
            .expect("the analysis is there");
        assert_eq!(job.generation, st.generation);
        let file = job.docs[0].file.expect("the document's file");
        let codes: Vec<String> = (job.analysis.diagnostics(file).unwrap().iter())
            .map(|d| d.code.as_str().to_string())
            .collect();
        assert_eq!(codes, ["E019"]);
    }

    #[test]
    fn applies_changes_in_order_and_drops_stale_versions() {
        let mut st = State::default();
        let uri: Uri = "file:///w/a.prose".parse().unwrap();
        st.open(uri.clone(), 1, "abc\n".into());
        let g = st.generation;
        st.change(
            &uri,
            2,
            vec![
                change(Some(((0, 3), (0, 3))), "d"),
                change(Some(((0, 0), (0, 1))), ""),
            ],
        )
        .unwrap();
        assert_eq!(st.docs[&uri].text.text(), "bcd\n");
        assert!(st.generation > g);
        assert_eq!(
            st.change(&uri, 2, vec![change(None, "x")]),
            Err(ChangeError::Stale { current: 2, got: 2 })
        );
        assert_eq!(st.docs[&uri].text.text(), "bcd\n");
        // Versions may skip.
        st.change(&uri, 7, vec![change(None, "x")]).unwrap();
        assert_eq!(text_at(&st, "/w/a.prose").as_deref(), Some("x"));
        let other: Uri = "file:///w/b.prose".parse().unwrap();
        assert_eq!(st.change(&other, 1, vec![]), Err(ChangeError::NotOpen));
    }

    #[test]
    fn every_folder_is_a_root_with_its_file_config_under_the_settings() {
        use prose_ide::{Profile, config::Level};
        let mut st = State {
            roots: vec![
                PathBuf::from("/a"),
                PathBuf::from("/b"),
                PathBuf::from("/a"),
            ],
            ..State::default()
        };
        let strict = Config {
            profile: Profile::Strict,
            ..Config::default()
        };
        assert_eq!(st.set_file_config("/a".into(), Ok(strict)), None);
        let message = st.set_file_config("/b".into(), Err("/b/prose.toml: bad".into()));
        assert!(message.unwrap().contains("default configuration"));
        st.client_settings
            .severity
            .insert("E006".into(), Level::Off);
        st.apply_roots(Some("/home/u".into()));
        let (roots, default_config) = st
            .analyzer
            .read_blocking(|host| (host.roots(), host.default_config()))
            .unwrap();
        let paths: Vec<&str> = roots.iter().map(|r| r.path.as_str()).collect();
        assert_eq!(paths, ["/a", "/b"], "each folder once");
        assert_eq!(roots[0].config.profile, Profile::Strict);
        assert_eq!(roots[1].config.profile, Profile::Default);
        for config in [&roots[0].config, &roots[1].config, &default_config] {
            assert_eq!(
                config.severity["E006"],
                Level::Off,
                "settings apply everywhere"
            );
        }
        let g = st.generation;
        assert!(!st.apply_config(), "nothing changed");
        assert_eq!(st.generation, g);
    }

    #[test]
    fn unloading_a_folder_forgets_what_came_from_it() {
        let mut st = State {
            roots: vec![PathBuf::from("/a"), PathBuf::from("/a/inner")],
            ..State::default()
        };
        st.load_disk_program("/a/x.prose", DiskText::Text("session \"x\"".into()));
        st.load_disk_program("/a/inner/y.prose", DiskText::Text("session \"y\"".into()));
        st.set_memory_file("/a/.prose/agents/c/memory.md", true);
        st.file_configs.insert("/a".into(), Config::default());
        st.roots.remove(0);
        st.unload_folder("/a");
        assert_eq!(file_id(&st, "/a/x.prose"), None);
        assert!(
            file_id(&st, "/a/inner/y.prose").is_some(),
            "still under a folder"
        );
        assert!(st.memory_files.is_empty());
        assert!(!st.checked_external.contains("/a/.prose/agents/c/memory.md"));
        assert!(!st.file_configs.contains_key("/a"));
    }

    #[test]
    fn too_large_documents_are_not_analysed() {
        let mut st = State::default();
        let uri: Uri = "file:///w/big.prose".parse().unwrap();
        st.open(uri.clone(), 1, "a".repeat(MAX_FILE_SIZE + 1));
        assert!(!st.docs[&uri].analysed);
        assert_eq!(file_id(&st, "/w/big.prose"), None);
        st.change(&uri, 2, vec![change(None, "small")]).unwrap();
        assert!(st.docs[&uri].analysed);
        assert!(file_id(&st, "/w/big.prose").is_some());
    }

    #[test]
    fn closing_falls_back_to_disk_or_forgets() {
        let mut st = State::default();
        let uri: Uri = "file:///nonexistent-dir-for-prose-tests/a.prose"
            .parse()
            .unwrap();
        st.open(uri.clone(), 1, "x".into());
        assert!(file_id(&st, "/nonexistent-dir-for-prose-tests/a.prose").is_some());
        assert!(st.close(&uri));
        assert!(file_id(&st, "/nonexistent-dir-for-prose-tests/a.prose").is_none());
        assert!(!st.close(&uri));
    }
}
