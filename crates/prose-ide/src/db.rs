//! The salsa database: inputs and the basic tracked queries.

use std::collections::{BTreeMap, BTreeSet};

use prose_syntax::Parse;

use crate::config::Config;

/// The database trait every query takes (`&dyn Db`).
#[salsa::db]
pub trait Db: salsa::Database {}

/// One source file. `path` is the host's key for it (absolute and
/// normalised with `/` separators in the CLI and the server).
#[salsa::input(debug)]
pub struct SourceFile {
    #[returns(ref)]
    pub path: String,
    #[returns(ref)]
    pub text: String,
}

/// Workspace-wide state some checks need. Each field is tracked on its
/// own, so e.g. a memory file appearing does not invalidate import lookups.
#[salsa::input(debug)]
pub struct Workspace {
    /// The workspace root (absolute, `/`-separated), if any.
    #[returns(ref)]
    pub root: Option<String>,
    /// The user's home directory, for `~/.prose/...` lookups.
    #[returns(ref)]
    pub home: Option<String>,
    #[returns(ref)]
    pub config: Config,
    /// Every `.prose` file the host knows, by path (checked files and the
    /// programs that `use` statements may resolve to).
    #[returns(ref)]
    pub files: BTreeMap<String, SourceFile>,
    /// Paths of agent memory files that exist (`.../agents/{name}/memory.md`).
    #[returns(ref)]
    pub memory_files: BTreeSet<String>,
}

/// The concrete database.
#[salsa::db]
#[derive(Clone, Default)]
pub struct RootDatabase {
    storage: salsa::Storage<Self>,
}

impl RootDatabase {
    /// A database whose salsa events go to `callback` (tests count
    /// `WillExecute` events with it to prove incrementality).
    pub fn with_event_callback(
        callback: Box<dyn Fn(salsa::Event) + Send + Sync + 'static>,
    ) -> Self {
        RootDatabase {
            storage: salsa::Storage::new(Some(callback)),
        }
    }
}

#[salsa::db]
impl salsa::Database for RootDatabase {}

#[salsa::db]
impl Db for RootDatabase {}

/// Parses a file. Re-runs on every text change; the queries built on it
/// return comparable summaries, so unchanged results are backdated.
#[salsa::tracked(returns(ref), no_eq)]
pub fn parse(db: &dyn Db, file: SourceFile) -> Parse {
    prose_syntax::parse(file.text(db))
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
    use super::join_path;

    #[test]
    fn joins() {
        assert_eq!(
            join_path("/ws", ".prose/agents/a/memory.md"),
            "/ws/.prose/agents/a/memory.md"
        );
        assert_eq!(join_path("/ws/", "./x/../y.prose"), "/ws/y.prose");
        assert_eq!(join_path("/ws", "/abs/p.prose"), "/abs/p.prose");
    }
}
