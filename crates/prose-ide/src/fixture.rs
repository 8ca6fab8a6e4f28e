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
//! docs). Without headers the whole text is `/ws/main.prose`. Files named
//! `memory.md` become existing memory files, `/ws/prose.toml` the
//! configuration; the workspace root is `/ws` and the home `/home/user`.
//! The file under test is `/ws/main.prose`, else the first `.prose` file.

use std::collections::BTreeSet;

use crate::{AnalysisHost, FileId, config::Config};

pub const ROOT: &str = "/ws";
pub const HOME: &str = "/home/user";

pub struct Fixture {
    pub files: Vec<(String, String)>,
}

impl Fixture {
    pub fn parse(text: &str) -> Fixture {
        if !text.trim_start().starts_with("#- ") {
            return Fixture {
                files: vec![(format!("{ROOT}/main.prose"), text.to_string())],
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
        Fixture { files }
    }

    /// A host holding the fixture, and the file under test.
    pub fn host(&self, profile: Option<crate::config::Profile>) -> (AnalysisHost, FileId) {
        let mut host = AnalysisHost::new();
        host.set_workspace_root(Some(ROOT.to_string()));
        host.set_home(Some(HOME.to_string()));
        let mut config = Config::default();
        let mut memory = BTreeSet::new();
        let mut main = None;
        for (path, text) in &self.files {
            if path.ends_with("/memory.md") {
                memory.insert(path.clone());
            } else if path == &format!("{ROOT}/prose.toml") {
                config = Config::from_toml(text).expect("fixture config is valid");
            } else {
                let id = host.set_file_text(path, text.clone());
                if path == &format!("{ROOT}/main.prose") || main.is_none() {
                    main = Some(id);
                }
            }
        }
        if let Some(p) = profile {
            config.profile = p;
        }
        host.set_config(config);
        host.set_memory_files(memory);
        (host, main.expect("fixture has a .prose file"))
    }
}
