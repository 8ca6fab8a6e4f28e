//! Watching the Pattern Dialect block registries: the file a root's
//! `prose.toml` names in `[dialect] registry` can be anywhere, so it gets
//! a watcher of its own, in a second registration of
//! `workspace/didChangeWatchedFiles` ([`REGISTRATION`]) that is replaced
//! whenever the set of registry files changes (a `prose.toml` edited, a
//! folder added or removed). An event for one of them reloads the
//! configuration of the root that names it
//! (`handlers::workspace::did_change_watched_files`).

use std::{path::Path, sync::Arc};

use ls_types::{FileSystemWatcher, GlobPattern, OneOf, RelativePattern, Unregistration};

use crate::{
    handlers::lifecycle::{WATCH_METHOD, register_watchers},
    server::{Inner, blocking},
    workspace,
};

/// The id of the registration of the registry files' watchers.
pub const REGISTRATION: &str = "prose-dialect-registries";

/// The root whose configuration names `key` as its registry, if any.
pub fn root_of_registry(registry_files: &[(String, String)], key: &str) -> Option<String> {
    registry_files
        .iter()
        .find(|(file, _)| file == key)
        .map(|(_, root)| root.clone())
}

/// Reads which registry files the roots name and, when that changed,
/// replaces the watchers (clients that cannot register watchers get
/// none; their registries are read when a `prose.toml` is).
pub async fn update(inner: &Arc<Inner>) {
    let (roots, caps, old) = {
        let st = inner.state();
        (st.root_keys(), st.caps, st.registry_files.clone())
    };
    let Ok(files) = blocking(move || {
        let mut files: Vec<(String, String)> = roots
            .iter()
            .filter_map(|r| Some((workspace::configured_registry(Path::new(r))?, r.clone())))
            .collect();
        files.sort();
        files
    })
    .await
    else {
        return;
    };
    if files == old {
        return;
    }
    inner.state().registry_files = files.clone();
    if !caps.watch_files {
        return;
    }
    if !old.is_empty() {
        let gone = Unregistration {
            id: REGISTRATION.to_string(),
            method: WATCH_METHOD.to_string(),
        };
        let _ = inner.client.unregister_capability(vec![gone]).await;
    }
    if files.is_empty() {
        return;
    }
    let watchers = files
        .iter()
        .map(|(file, _)| watcher(file, caps.relative_patterns))
        .collect();
    register_watchers(inner, REGISTRATION, watchers, "the dialect registries").await;
}

/// A watcher of one file: its name relative to its directory when the
/// client takes `RelativePattern`s, else its absolute path as a glob
/// (glob characters in it escaped with brackets).
fn watcher(file: &str, relative_patterns: bool) -> FileSystemWatcher {
    let (dir, name) = file.rsplit_once('/').unwrap_or(("", file));
    let base = relative_patterns.then(|| workspace::key_uri(dir)).flatten();
    let glob_pattern = match base {
        Some(uri) => GlobPattern::Relative(RelativePattern {
            base_uri: OneOf::Right(uri),
            pattern: escape_glob(name),
        }),
        None => GlobPattern::String(escape_glob(file)),
    };
    FileSystemWatcher {
        glob_pattern,
        kind: None,
    }
}

/// `path` as a glob that matches only itself.
fn escape_glob(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        if matches!(c, '*' | '?' | '[' | ']' | '{' | '}') {
            out.push('[');
            out.push(c);
            out.push(']');
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_watcher_per_registry_file() {
        let plain =
            serde_json::to_value(watcher("/ws/agents/blocks[1].txt", false).glob_pattern).unwrap();
        assert_eq!(plain, "/ws/agents/blocks[[]1[]].txt");
        let relative =
            serde_json::to_value(watcher("/ws/agents/blocks.txt", true).glob_pattern).unwrap();
        assert_eq!(relative["pattern"], "blocks.txt");
        assert_eq!(relative["baseUri"], "file:///ws/agents");
    }

    #[test]
    fn events_map_to_the_root_naming_the_file() {
        let files = vec![("/ws/blocks.txt".to_string(), "/ws".to_string())];
        assert_eq!(
            root_of_registry(&files, "/ws/blocks.txt").as_deref(),
            Some("/ws")
        );
        assert_eq!(root_of_registry(&files, "/ws/other.txt"), None);
    }
}
