//! Test fixtures: several files in one string.
//!
//! ```text
//! #- /ws/prose.toml
//! profile = "strict"
//! #- /ws/.prose/agents/captain/memory.md
//! #- /ws/main.prose
//! resume: captain
//! ```
//!
//! `#- path` starts a file (a prose comment, so fixtures also read well in
//! docs). Without headers the whole text is `/ws/main.prose` (with
//! [`Fixture::parse_as`], the example file of another kind, such as
//! `/ws/example.jobs.json`). Files named
//! `memory.md` become existing memory files. `/ws` is always a root; a
//! `{dir}/prose.toml` makes `{dir}` a root (another workspace folder, when
//! not `/ws`) with that configuration; the file its `[dialect] registry`
//! names is read for it (and not checked). The home is `/home/user`. The file
//! under test is `/ws/main.prose`, else the first `.prose` file.

use std::collections::BTreeSet;

use crate::{
    AnalysisHost, FileId,
    config::{CONFIG_FILE, Config},
    db::Root,
};

pub const ROOT: &str = "/ws";
pub const HOME: &str = "/home/user";

pub struct Fixture {
    pub files: Vec<(String, String)>,
    /// `$0` markers (removed from the text): the file and byte offsets. One
    /// marker is a cursor, two mark a selection.
    pub markers: Vec<(String, usize)>,
}

/// The marker of cursors and selections in fixtures.
pub const CURSOR: &str = "$0";

impl Fixture {
    pub fn parse(text: &str) -> Fixture {
        Self::parse_as(text, crate::FileKind::OpenProse)
    }

    /// Like [`Fixture::parse`]; a text without `#- ` headers is one file of
    /// `kind` (`/ws/main.prose` for programs, else the kind's example name).
    pub fn parse_as(text: &str, kind: crate::FileKind) -> Fixture {
        let mut f = Self::parse_files(text, kind);
        for (path, body) in &mut f.files {
            while let Some(at) = body.find(CURSOR) {
                body.replace_range(at..at + CURSOR.len(), "");
                f.markers.push((path.clone(), at));
            }
        }
        f
    }

    fn parse_files(text: &str, kind: crate::FileKind) -> Fixture {
        if !text.trim_start().starts_with("#- ") {
            let name = match kind {
                crate::FileKind::OpenProse => "main.prose",
                other => other.example_file_name(),
            };
            return Fixture {
                files: vec![(format!("{ROOT}/{name}"), text.to_string())],
                markers: Vec::new(),
            };
        }
        let mut files: Vec<(String, String)> = Vec::new();
        for line in text.split_inclusive('\n') {
            if let Some(path) = line.trim_start().strip_prefix("#- ") {
                files.push((path.trim().to_string(), String::new()));
            } else if let Some((_, body)) = files.last_mut() {
                body.push_str(line);
            }
        }
        Fixture {
            files,
            markers: Vec::new(),
        }
    }

    /// The host, and the position of the single `$0` cursor.
    pub fn position(&self) -> (AnalysisHost, crate::FilePosition) {
        let (host, _) = self.host(None);
        let (path, offset) = self
            .markers
            .first()
            .expect("fixture has a `$0` cursor")
            .clone();
        let file = host.file_id(&path).expect("cursor in a .prose file");
        (
            host,
            crate::FilePosition {
                file,
                offset: (offset as u32).into(),
            },
        )
    }

    /// The host, and the range between two `$0` markers.
    pub fn selection(&self) -> (AnalysisHost, crate::FileRange) {
        let (host, _) = self.host(None);
        assert_eq!(self.markers.len(), 2, "a selection needs two `$0` markers");
        let (path, start) = self.markers[0].clone();
        let end = self.markers[1].1;
        let file = host.file_id(&path).expect("selection in a .prose file");
        (
            host,
            crate::FileRange {
                file,
                range: crate::TextRange::new((start as u32).into(), (end as u32).into()),
            },
        )
    }

    /// A host holding the fixture, and the file under test.
    pub fn host(&self, profile: Option<crate::config::Profile>) -> (AnalysisHost, FileId) {
        let mut host = AnalysisHost::new();
        host.set_home(Some(HOME.to_string()));
        let mut roots = vec![Root {
            path: ROOT.to_string(),
            config: Config::default(),
        }];
        let mut memory = BTreeSet::new();
        let mut main = None;
        // Files a configuration names as its dialect registry: the host
        // reads those for the configuration, they are not checked.
        let mut registries = BTreeSet::new();
        for (path, text) in &self.files {
            if let Some(dir) = path.strip_suffix(&format!("/{CONFIG_FILE}")) {
                let config = Config::from_toml(text).expect("fixture config is valid");
                registries.extend(config.dialect_registry_path(dir));
            }
        }
        for (path, text) in &self.files {
            if path.ends_with("/memory.md") {
                memory.insert(path.clone());
            } else if registries.contains(path) {
                continue;
            } else if let Some(dir) = path.strip_suffix(&format!("/{CONFIG_FILE}")) {
                let mut config = Config::from_toml(text).expect("fixture config is valid");
                config
                    .load_dialect_registry(dir, |p| {
                        self.files
                            .iter()
                            .find(|(f, _)| f == p)
                            .map(|(_, t)| t.clone())
                            .ok_or_else(|| format!("no file {p} in the fixture"))
                    })
                    .expect("fixture registry is valid");
                match roots.iter_mut().find(|r| r.path == dir) {
                    Some(root) => root.config = config,
                    None => roots.push(Root {
                        path: dir.to_string(),
                        config,
                    }),
                }
            } else {
                let id = host.set_file_text(path, text.clone());
                if path == &format!("{ROOT}/main.prose") || main.is_none() {
                    main = Some(id);
                }
            }
        }
        let mut default_config = Config::default();
        if let Some(p) = profile {
            default_config.profile = p;
            for root in &mut roots {
                root.config.profile = p;
            }
        }
        host.set_roots(roots);
        host.set_default_config(default_config);
        host.set_memory_files(memory);
        (host, main.expect("fixture has a file to check"))
    }
}

/// The queries salsa executed, as `Debug` strings, in order.
pub type QueryLog = std::sync::Arc<std::sync::Mutex<Vec<String>>>;

/// A database that logs every query it executes (salsa's `WillExecute`
/// events): how tests prove what re-runs and what does not.
pub fn logging_db() -> (crate::db::RootDatabase, QueryLog) {
    let log = QueryLog::default();
    let sink = log.clone();
    let db = crate::db::RootDatabase::with_event_callback(Box::new(move |event| {
        if let salsa::EventKind::WillExecute { database_key } = event.kind {
            sink.lock().unwrap().push(format!("{database_key:?}"));
        }
    }));
    (db, log)
}
