//! `workspace/didChangeWatchedFiles`, `workspace/didChangeConfiguration`,
//! `workspace/didChangeWorkspaceFolders`, and pulling the editor's settings
//! (`workspace/configuration`).

use std::{
    path::{Path, PathBuf},
    sync::Arc,
};

use ls_types::{
    ConfigurationItem, DidChangeConfigurationParams, DidChangeWatchedFilesParams,
    DidChangeWorkspaceFoldersParams, FileChangeType, MessageType,
};

use crate::{
    handlers::{diagnostics, registry_watch},
    server::{Inner, blocking},
    settings::ClientSettings,
    workspace::{self, DiskText},
};

/// Re-runs diagnostics after a workspace-wide change: pushes, or asks a
/// pulling client to pull again.
async fn refresh(inner: &Arc<Inner>) {
    diagnostics::schedule(inner, None);
    let caps = inner.state().caps;
    if caps.pull_diagnostics && caps.diagnostic_refresh {
        let _ = inner.client.workspace_diagnostic_refresh().await;
    }
}

async fn warn(inner: &Arc<Inner>, messages: Vec<String>) {
    for message in messages {
        inner
            .client
            .show_message(MessageType::WARNING, message)
            .await;
    }
}

/// Keeps the analysis in step with the disk, for the workspace folders and
/// `~/.prose` alike: programs (unless open: the editor owns those), agent
/// memory files, the files prompts read (auxiliary files, watched one by
/// one: `handlers/aux_files.rs`), and the `prose.toml` of every folder. Files are read here,
/// in the handler, so events apply in order.
pub async fn did_change_watched_files(inner: &Arc<Inner>, params: DidChangeWatchedFilesParams) {
    let (roots, aux_files, registry_files) = {
        let st = inner.state();
        (
            st.root_keys(),
            st.aux_files.clone(),
            st.registry_files.clone(),
        )
    };
    let mut programs = Vec::new();
    let mut memory = Vec::new();
    let mut aux = Vec::new();
    let mut configs: Vec<String> = Vec::new();
    for event in params.changes {
        let Some(path) = workspace::uri_path(&event.uri) else {
            continue;
        };
        let key = workspace::key(&path);
        let deleted = event.typ == FileChangeType::DELETED;
        if aux_files.contains(&key) {
            let state = if deleted {
                prose_ide::auxiliary::AuxState::Missing
            } else {
                workspace::read_aux(&path)
            };
            aux.push((key.clone(), state));
        }
        if workspace::is_program(&key) {
            let text = if deleted {
                DiskText::Missing
            } else {
                workspace::read_text(&path)
            };
            programs.push((key, text));
        } else if workspace::is_memory_file(&key) {
            memory.push((key, !deleted && path.is_file()));
        } else if workspace::is_config_file(&key)
            && let Some((dir, _)) = key.rsplit_once('/')
            && let Some(root) = roots.iter().find(|r| r.trim_end_matches('/') == dir)
            && !configs.contains(root)
        {
            configs.push(root.clone());
        } else if let Some(root) = registry_watch::root_of_registry(&registry_files, &key)
            && !configs.contains(&root)
        {
            // A block registry: its root's configuration holds its text.
            configs.push(root);
        }
    }
    let reloaded = !configs.is_empty();
    let configs: Vec<_> = configs
        .into_iter()
        .map(|root| {
            let config = workspace::load_config(Path::new(&root));
            (root, config)
        })
        .collect();

    let mut messages = Vec::new();
    let changed = {
        let mut st = inner.state();
        let mut changed = false;
        for (key, text) in programs {
            changed |= st.load_disk_program(&key, text);
        }
        for (key, exists) in memory {
            changed |= st.set_memory_file(&key, exists);
        }
        for (key, state) in aux {
            changed |= st.set_aux_file(&key, state);
        }
        if !configs.is_empty() {
            for (root, config) in configs {
                messages.extend(st.set_file_config(root, config));
            }
            changed |= st.apply_config();
        }
        changed
    };
    warn(inner, messages).await;
    if reloaded {
        registry_watch::update(inner).await;
    }
    if changed {
        refresh(inner).await;
    }
}

/// Asks the client for the `prose` section and applies it.
pub async fn pull_configuration(inner: &Arc<Inner>) {
    let items = vec![ConfigurationItem {
        scope_uri: None,
        section: Some("prose".to_string()),
    }];
    match inner.client.configuration(items).await {
        Ok(values) => {
            let value = values.into_iter().next().unwrap_or_default();
            apply_settings(inner, &value).await;
        }
        Err(e) => {
            inner
                .client
                .log_message(
                    MessageType::WARNING,
                    format!("prose: cannot read the settings: {}", e.message),
                )
                .await;
        }
    }
}

async fn apply_settings(inner: &Arc<Inner>, value: &serde_json::Value) {
    let (settings, problems) = ClientSettings::from_json(value);
    let (changed, trust_changed) = {
        let mut st = inner.state();
        let trusted = crate::handlers::run::trusted(&st);
        st.client_settings = settings;
        (
            st.apply_config(),
            trusted != crate::handlers::run::trusted(&st),
        )
    };
    warn(inner, problems).await;
    if changed {
        refresh(inner).await;
    }
    if trust_changed && inner.runs.caps().lens_refresh {
        // The run lenses follow the workspace's trust.
        let _ = inner.client.code_lens_refresh().await;
    }
}

/// Settings changed: pull them when the client supports it (the
/// notification's payload is then usually empty), else read the payload.
pub async fn did_change_configuration(inner: &Arc<Inner>, params: DidChangeConfigurationParams) {
    if inner.state().caps.configuration {
        pull_configuration(inner).await;
    } else {
        apply_settings(inner, &params.settings).await;
    }
}

/// Folders added become roots: their `prose.toml` is read and they are
/// scanned. Removed folders stop being roots, and what was loaded from them
/// (and from no other folder) is forgotten.
pub async fn did_change_workspace_folders(
    inner: &Arc<Inner>,
    params: DidChangeWorkspaceFoldersParams,
) {
    let removed: Vec<PathBuf> = params
        .event
        .removed
        .iter()
        .filter_map(|f| workspace::uri_path(&f.uri))
        .collect();
    let added: Vec<PathBuf> = {
        let st = inner.state();
        let mut added: Vec<PathBuf> = Vec::new();
        for path in params
            .event
            .added
            .iter()
            .filter_map(|f| workspace::uri_path(&f.uri))
        {
            let kept = st.roots.contains(&path) && !removed.contains(&path);
            if !kept && !added.contains(&path) {
                added.push(path);
            }
        }
        added
    };
    let to_load = added.clone();
    let Ok((scan, configs)) = blocking(move || {
        let configs: Vec<_> = to_load
            .iter()
            .map(|r| (workspace::key(r), workspace::load_config(r)))
            .collect();
        (workspace::scan(&to_load), configs)
    })
    .await
    else {
        return;
    };

    let mut messages = Vec::new();
    {
        let mut st = inner.state();
        // From the roots as they are now (another change may have come
        // in during the scan).
        st.roots.retain(|r| !removed.contains(r));
        for path in added {
            if !st.roots.contains(&path) {
                st.roots.push(path);
            }
        }
        for dir in &removed {
            st.unload_folder(&workspace::key(dir));
        }
        for (root, config) in configs {
            messages.extend(st.set_file_config(root, config));
        }
        st.load_scan(scan);
        st.apply_config();
    }
    warn(inner, messages).await;
    registry_watch::update(inner).await;
    refresh(inner).await;
}
