//! How the host answers questions about files: this crate does no IO.

use std::collections::{BTreeMap, HashMap};

/// What the host knows about a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lookup<'a> {
    /// The host has not looked (or cannot tell): no check depends on it.
    Unknown,
    /// The file does not exist.
    Missing,
    /// The file exists; its text when the host read it (`None` for a file
    /// that exists but is not text, or was not read).
    Exists(Option<&'a str>),
}

/// Answers for the files a text names (`/read` targets, `_spawn_` files).
///
/// Paths are passed as the text writes them, after dropping a leading
/// `$PWD/` (the agent's working directory, which is the workspace root for
/// a prompt or instruction file in it): the host resolves them, normally
/// against the workspace root, and answers.
pub trait FileLookup {
    fn lookup(&self, path: &str) -> Lookup<'_>;
}

/// A host that knows nothing: every file is [`Lookup::Unknown`], so no
/// file check reports anything.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoFiles;

impl FileLookup for NoFiles {
    fn lookup(&self, _path: &str) -> Lookup<'_> {
        Lookup::Unknown
    }
}

fn from_map(entry: Option<&Option<String>>) -> Lookup<'_> {
    match entry {
        None => Lookup::Unknown,
        Some(None) => Lookup::Missing,
        Some(Some(text)) => Lookup::Exists(Some(text)),
    }
}

/// A map from path to `Some(text)` (exists) or `None` (missing); paths not
/// in the map are unknown.
impl FileLookup for HashMap<String, Option<String>> {
    fn lookup(&self, path: &str) -> Lookup<'_> {
        from_map(self.get(path))
    }
}

/// As for `HashMap`.
impl FileLookup for BTreeMap<String, Option<String>> {
    fn lookup(&self, path: &str) -> Lookup<'_> {
        from_map(self.get(path))
    }
}

/// A path as a command or keyword names it, ready for [`FileLookup`]:
/// surrounding blanks and a leading `$PWD/` or `./` dropped.
pub(crate) fn clean_path(raw: &str) -> String {
    let mut p = raw.trim();
    for prefix in ["$PWD/", "${PWD}/", "./"] {
        if let Some(rest) = p.strip_prefix(prefix) {
            p = rest;
        }
    }
    p.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_answer_known_paths_only() {
        let mut m = HashMap::new();
        m.insert("a.md".to_string(), Some("text".to_string()));
        m.insert("gone.md".to_string(), None);
        assert_eq!(m.lookup("a.md"), Lookup::Exists(Some("text")));
        assert_eq!(m.lookup("gone.md"), Lookup::Missing);
        assert_eq!(m.lookup("other.md"), Lookup::Unknown);
        assert_eq!(NoFiles.lookup("a.md"), Lookup::Unknown);
    }

    #[test]
    fn clean_path_drops_pwd() {
        assert_eq!(clean_path(" $PWD/agents/a.md "), "agents/a.md");
        assert_eq!(clean_path("./x.md"), "x.md");
        assert_eq!(clean_path("/abs/x.md"), "/abs/x.md");
    }
}
