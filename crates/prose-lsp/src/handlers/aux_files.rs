//! Auxiliary files: the files a prompt `/read`s and an instruction
//! `_spawn_`s, which may be of any type. The analysis asks for them
//! (`ExternalPaths::aux`) before a document's first diagnostics; this
//! module reads them (existence, and the text of text files under the size
//! limit), hands them to the analysis, and asks the client to watch each
//! one, so that creating, editing or deleting it updates M005, M006, K007,
//! the hovers and "what the model receives". `didChangeWatchedFiles`
//! events for them are applied in `handlers/workspace.rs`.

use std::{path::Path, sync::Arc};

use ls_types::{
    DidChangeWatchedFilesRegistrationOptions, FileSystemWatcher, GlobPattern, MessageType, OneOf,
    Registration, RelativePattern,
};
use tower_lsp_server::jsonrpc::Result;

use crate::{
    server::{Inner, blocking},
    workspace,
};

/// Reads `paths`, hands them to the analysis and watches the new ones.
pub async fn load(inner: &Arc<Inner>, paths: Vec<String>) -> Result<()> {
    if paths.is_empty() {
        return Ok(());
    }
    let found = blocking(move || {
        paths
            .into_iter()
            .map(|p| {
                let state = workspace::read_aux(Path::new(&p));
                (p, state)
            })
            .collect::<Vec<_>>()
    })
    .await?;
    let (new, caps) = {
        let mut st = inner.state();
        let mut new = Vec::new();
        for (path, state) in found {
            if !st.aux_files.contains(&path) {
                new.push(path.clone());
            }
            st.set_aux_file(&path, state);
        }
        st.touch();
        (new, st.caps)
    };
    if caps.watch_files && !new.is_empty() {
        watch(inner, &new, caps.relative_patterns).await;
    }
    Ok(())
}

/// Registers a watcher for each of `paths` (exact files: relative to their
/// directory where the client supports it).
async fn watch(inner: &Arc<Inner>, paths: &[String], relative: bool) {
    let options = DidChangeWatchedFilesRegistrationOptions {
        watchers: watchers(paths, relative),
    };
    let id = {
        let mut st = inner.state();
        st.aux_registrations += 1;
        format!("prose-aux-files-{}", st.aux_registrations)
    };
    let registration = Registration {
        id,
        method: "workspace/didChangeWatchedFiles".to_string(),
        register_options: serde_json::to_value(options).ok(),
    };
    if let Err(e) = inner.client.register_capability(vec![registration]).await {
        inner
            .client
            .log_message(
                MessageType::WARNING,
                format!("prose: cannot watch the files prompts read: {}", e.message),
            )
            .await;
    }
}

/// One watcher per file.
pub fn watchers(paths: &[String], relative: bool) -> Vec<FileSystemWatcher> {
    paths
        .iter()
        .map(|p| {
            let base = p
                .rsplit_once('/')
                .filter(|_| relative)
                .and_then(|(dir, name)| {
                    let dir = if dir.is_empty() { "/" } else { dir };
                    Some((workspace::key_uri(dir)?, name))
                });
            let glob_pattern = match base {
                Some((uri, name)) => GlobPattern::Relative(RelativePattern {
                    base_uri: OneOf::Right(uri),
                    pattern: name.to_string(),
                }),
                None => GlobPattern::String(p.clone()),
            };
            FileSystemWatcher {
                glob_pattern,
                kind: None,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_watcher_per_file() {
        let paths = ["/ws/docs/a.md".to_string()];
        let plain = serde_json::to_value(&watchers(&paths, false)[0].glob_pattern).unwrap();
        assert_eq!(plain, serde_json::json!("/ws/docs/a.md"));
        let relative = serde_json::to_value(&watchers(&paths, true)[0].glob_pattern).unwrap();
        assert_eq!(
            relative,
            serde_json::json!({ "baseUri": "file:///ws/docs", "pattern": "a.md" })
        );
    }
}
