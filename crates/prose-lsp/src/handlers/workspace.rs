//! `workspace/didChangeWatchedFiles`, `workspace/didChangeConfiguration`,
//! `workspace/didChangeWorkspaceFolders`, and pulling the editor's settings
//! (`workspace/configuration`).

use std::{path::PathBuf, sync::Arc};

use ls_types::{
    ConfigurationItem, DidChangeConfigurationParams, DidChangeWatchedFilesParams,
    DidChangeWorkspaceFoldersParams, FileChangeType, MessageType,
};

use crate::{
    handlers::diagnostics,
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

/// Keeps the analysis in step with the disk: programs (unless open: the
/// editor owns those), agent memory files, and `prose.toml` of the first
/// folder. Files are read here, in the handler, so events apply in order.
pub async fn did_change_watched_files(inner: &Arc<Inner>, params: DidChangeWatchedFilesParams) {
    let config_path = inner
        .state()
        .roots
        .first()
        .map(|r| workspace::key(&r.join(prose_ide::config::CONFIG_FILE)));
    let mut programs = Vec::new();
    let mut memory = Vec::new();
    let mut config_changed = false;
    for event in params.changes {
        let Some(path) = workspace::uri_path(&event.uri) else {
            continue;
        };
        let key = workspace::key(&path);
        let deleted = event.typ == FileChangeType::DELETED;
        if workspace::is_program(&key) {
            let text = if deleted {
                DiskText::Missing
            } else {
                workspace::read_text(&path)
            };
            programs.push((key, text));
        } else if workspace::is_memory_file(&key) {
            memory.push((key, !deleted && path.is_file()));
        } else if config_path.as_deref() == Some(key.as_str()) {
            config_changed = true;
        }
    }
    let config = match (config_changed, inner.state().roots.first().cloned()) {
        (true, Some(root)) => Some(workspace::load_config(&root)),
        _ => None,
    };

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
        if let Some(config) = config {
            st.file_config = config.unwrap_or_else(|message| {
                messages.push(format!("{message}; using the default configuration"));
                Default::default()
            });
            changed |= st.apply_config();
        }
        changed
    };
    warn(inner, messages).await;
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
    let changed = {
        let mut st = inner.state();
        st.client_settings = settings;
        st.apply_config()
    };
    warn(inner, problems).await;
    if changed {
        refresh(inner).await;
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

/// Folders added are scanned; programs loaded from removed folders are
/// forgotten. When the first folder changes, so do the analysis root and
/// `prose.toml`.
pub async fn did_change_workspace_folders(
    inner: &Arc<Inner>,
    params: DidChangeWorkspaceFoldersParams,
) {
    let added: Vec<PathBuf> = params
        .event
        .added
        .iter()
        .filter_map(|f| workspace::uri_path(&f.uri))
        .collect();
    let removed: Vec<PathBuf> = params
        .event
        .removed
        .iter()
        .filter_map(|f| workspace::uri_path(&f.uri))
        .collect();
    let (old_first, new_roots) = {
        let st = inner.state();
        let mut roots: Vec<PathBuf> = st
            .roots
            .iter()
            .filter(|r| !removed.contains(r))
            .cloned()
            .collect();
        roots.extend(
            added
                .iter()
                .filter(|a| !roots.contains(a))
                .cloned()
                .collect::<Vec<_>>(),
        );
        (st.roots.first().cloned(), roots)
    };
    let first = new_roots.first().cloned();
    let scan_added = added.clone();
    let reload = first != old_first;
    let Ok((scan, config)) = blocking(move || {
        let config = if reload {
            first.map(|r| workspace::load_config(&r))
        } else {
            None
        };
        (workspace::scan(&scan_added), config)
    })
    .await
    else {
        return;
    };

    let mut messages = Vec::new();
    {
        let mut st = inner.state();
        st.roots = new_roots;
        for dir in &removed {
            st.unload_folder(&workspace::key(dir));
        }
        st.load_scan(scan);
        if reload {
            st.apply_roots();
            st.file_config = match config {
                Some(Ok(config)) => config,
                Some(Err(message)) => {
                    messages.push(format!("{message}; using the default configuration"));
                    Default::default()
                }
                None => Default::default(),
            };
            st.apply_config();
        }
    }
    warn(inner, messages).await;
    refresh(inner).await;
}
