//! `initialize`, `initialized`, `shutdown`.

use std::{path::PathBuf, sync::Arc};

use ls_types::{
    DiagnosticOptions, DiagnosticServerCapabilities, DidChangeWatchedFilesRegistrationOptions,
    FileSystemWatcher, GlobPattern, InitializeParams, InitializeResult, InitializedParams,
    MessageType, OneOf, Registration, RelativePattern, ServerCapabilities, ServerInfo,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    WorkspaceFoldersServerCapabilities, WorkspaceServerCapabilities,
};
use tower_lsp_server::jsonrpc::Result;

use crate::{
    convert::Encoding,
    handlers::workspace::pull_configuration,
    server::{Inner, blocking},
    settings::ClientSettings,
    state::ClientCaps,
    workspace,
};

/// The files of the workspace whose changes the server needs to hear about.
pub const WATCHED: &[&str] = &["**/*.prose", "**/prose.toml", "**/memory.md"];

/// The files under the home directory's `.prose` folder to watch (user
/// memory `agents/*/memory.md`, the user import cache `imports/**`).
pub const HOME_WATCHED: &str = "**";

/// The id of the one registration of `workspace/didChangeWatchedFiles`.
pub const WATCH_REGISTRATION: &str = "prose-watched-files";

/// Reads the client's capabilities and settings, loads every workspace
/// folder's `prose.toml`, and scans the folders so imports resolve from the
/// first diagnostics on. (Clients send nothing else until this returns.)
pub async fn initialize(inner: &Arc<Inner>, params: InitializeParams) -> Result<InitializeResult> {
    let roots = roots(&params);
    let caps = &params.capabilities;
    let encoding = Encoding::negotiate(
        caps.general
            .as_ref()
            .and_then(|g| g.position_encodings.as_deref()),
    );
    let workspace_caps = caps.workspace.as_ref();
    let watch_caps = workspace_caps.and_then(|w| w.did_change_watched_files.as_ref());
    let client_caps = ClientCaps {
        pull_diagnostics: caps
            .text_document
            .as_ref()
            .is_some_and(|t| t.diagnostic.is_some()),
        diagnostic_refresh: workspace_caps
            .and_then(|w| w.diagnostics.as_ref())
            .and_then(|d| d.refresh_support)
            .unwrap_or(false),
        configuration: workspace_caps
            .and_then(|w| w.configuration)
            .unwrap_or(false),
        watch_files: watch_caps
            .and_then(|d| d.dynamic_registration)
            .unwrap_or(false),
        relative_patterns: watch_caps
            .and_then(|d| d.relative_pattern_support)
            .unwrap_or(false),
        definition_links: caps
            .text_document
            .as_ref()
            .and_then(|t| t.definition.as_ref())
            .and_then(|d| d.link_support)
            .unwrap_or(false),
        document_changes: workspace_caps
            .and_then(|w| w.workspace_edit.as_ref())
            .and_then(|e| e.document_changes)
            .unwrap_or(false),
        hierarchical_symbols: caps
            .text_document
            .as_ref()
            .and_then(|t| t.document_symbol.as_ref())
            .and_then(|d| d.hierarchical_document_symbol_support)
            .unwrap_or(false),
        snippet_support: caps
            .text_document
            .as_ref()
            .and_then(|t| t.completion.as_ref())
            .and_then(|c| c.completion_item.as_ref())
            .and_then(|i| i.snippet_support)
            .unwrap_or(false),
        show_document: caps
            .window
            .as_ref()
            .and_then(|w| w.show_document.as_ref())
            .is_some_and(|s| s.support),
    };
    inner.runs.set_caps(crate::handlers::run::client_caps(caps));
    let (init_settings, problems) = params
        .initialization_options
        .as_ref()
        .map(ClientSettings::from_json)
        .unwrap_or_default();

    let scan_roots = roots.clone();
    let (file_configs, scan) = blocking(move || {
        let configs: Vec<_> = scan_roots
            .iter()
            .map(|r| (workspace::key(r), workspace::load_config(r)))
            .collect();
        (configs, workspace::scan(&scan_roots))
    })
    .await?;

    {
        let mut st = inner.state();
        st.encoding = encoding;
        st.caps = client_caps;
        st.roots = roots;
        st.init_settings = init_settings;
        st.pending_messages.extend(problems);
        for (root, config) in file_configs {
            if let Some(message) = st.set_file_config(root, config) {
                st.pending_messages.push(message);
            }
        }
        if scan.truncated {
            st.pending_messages.push(format!(
                "prose: the workspace has more than {} programs; only the first ones are loaded",
                workspace::MAX_SCANNED_FILES
            ));
        }
        for skipped in &scan.skipped {
            eprintln!("prose-lsp: not loaded: {skipped}");
        }
        st.apply_roots(workspace::home());
        st.load_scan(scan);
    }

    Ok(InitializeResult {
        capabilities: capabilities(encoding),
        server_info: Some(ServerInfo {
            name: "prose-lsp".to_string(),
            version: Some(env!("CARGO_PKG_VERSION").to_string()),
        }),
        offset_encoding: None,
    })
}

/// The workspace folders, else the root URI, else the root path: local
/// directories only, each once.
fn roots(params: &InitializeParams) -> Vec<PathBuf> {
    let mut roots: Vec<PathBuf> = Vec::new();
    for folder in params.workspace_folders.iter().flatten() {
        if let Some(path) = workspace::uri_path(&folder.uri)
            && !roots.contains(&path)
        {
            roots.push(path);
        }
    }
    if !roots.is_empty() {
        return roots;
    }
    #[allow(deprecated)]
    let (root_uri, root_path) = (params.root_uri.as_ref(), params.root_path.as_ref());
    root_uri
        .and_then(workspace::uri_path)
        .or_else(|| root_path.filter(|p| !p.is_empty()).map(PathBuf::from))
        .into_iter()
        .collect()
}

/// What the server offers.
pub fn capabilities(encoding: Encoding) -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(encoding.kind()),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                ..Default::default()
            },
        )),
        diagnostic_provider: Some(DiagnosticServerCapabilities::Options(DiagnosticOptions {
            identifier: Some("prose".to_string()),
            inter_file_dependencies: true,
            workspace_diagnostics: false,
            ..Default::default()
        })),
        // Hover, completion, signature help, inlay hints, semantic tokens,
        // folding, selection ranges, formatting.
        hover_provider: Some(ls_types::HoverProviderCapability::Simple(true)),
        completion_provider: Some(ls_types::CompletionOptions {
            trigger_characters: Some(
                crate::handlers::completion::TRIGGER_CHARACTERS
                    .iter()
                    .map(|c| c.to_string())
                    .collect(),
            ),
            ..Default::default()
        }),
        signature_help_provider: Some(ls_types::SignatureHelpOptions {
            trigger_characters: Some(vec!["(".to_string(), ",".to_string()]),
            retrigger_characters: None,
            work_done_progress_options: Default::default(),
        }),
        inlay_hint_provider: Some(OneOf::Left(true)),
        semantic_tokens_provider: Some(
            ls_types::SemanticTokensOptions {
                legend: crate::handlers::semantic_tokens::legend(),
                range: Some(true),
                full: Some(ls_types::SemanticTokensFullOptions::Bool(true)),
                ..Default::default()
            }
            .into(),
        ),
        folding_range_provider: Some(ls_types::FoldingRangeProviderCapability::Simple(true)),
        // Code lenses (Run program; a job task's expanded prompt; what the
        // model receives from a prompt file) and the server's commands
        // (handlers/commands.rs).
        code_lens_provider: Some(ls_types::CodeLensOptions {
            resolve_provider: Some(false),
        }),
        execute_command_provider: Some(ls_types::ExecuteCommandOptions {
            commands: crate::handlers::commands::commands()
                .iter()
                .map(|c| c.to_string())
                .collect(),
            work_done_progress_options: Default::default(),
        }),
        // `/read` paths and `_spawn_` files.
        document_link_provider: Some(ls_types::DocumentLinkOptions {
            resolve_provider: Some(false),
            work_done_progress_options: Default::default(),
        }),
        selection_range_provider: Some(ls_types::SelectionRangeProviderCapability::Simple(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        // Definition, references, highlight, rename, symbols, code actions.
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        document_highlight_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Right(ls_types::RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        document_symbol_provider: Some(OneOf::Left(true)),
        workspace_symbol_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(ls_types::CodeActionProviderCapability::Options(
            ls_types::CodeActionOptions {
                code_action_kinds: Some(vec![
                    ls_types::CodeActionKind::QUICKFIX,
                    ls_types::CodeActionKind::REFACTOR,
                ]),
                resolve_provider: Some(false),
                work_done_progress_options: Default::default(),
            },
        )),
        workspace: Some(WorkspaceServerCapabilities {
            workspace_folders: Some(WorkspaceFoldersServerCapabilities {
                supported: Some(true),
                change_notifications: Some(OneOf::Left(true)),
            }),
            file_operations: None,
        }),
        ..Default::default()
    }
}

/// Shows the messages held back during `initialize`, registers the file
/// watchers, and pulls the editor's settings.
pub async fn initialized(inner: &Arc<Inner>, _: InitializedParams) {
    let (messages, caps, home) = {
        let mut st = inner.state();
        (
            std::mem::take(&mut st.pending_messages),
            st.caps,
            st.home.clone(),
        )
    };
    for message in messages {
        inner
            .client
            .show_message(MessageType::WARNING, message)
            .await;
    }
    if caps.watch_files {
        let watchers = watchers(home.as_deref(), caps.relative_patterns);
        register_watchers(inner, WATCH_REGISTRATION, watchers, "files").await;
    }
    crate::handlers::registry_watch::update(inner).await;
    if caps.configuration {
        pull_configuration(inner).await;
    }
}

/// Registers `workspace/didChangeWatchedFiles` for `watchers` under `id`;
/// a refusal is logged (`what` says what goes unwatched).
pub async fn register_watchers(
    inner: &Arc<Inner>,
    id: &str,
    watchers: Vec<FileSystemWatcher>,
    what: &str,
) {
    let options = DidChangeWatchedFilesRegistrationOptions { watchers };
    let registration = Registration {
        id: id.to_string(),
        method: WATCH_METHOD.to_string(),
        register_options: serde_json::to_value(options).ok(),
    };
    if let Err(e) = inner.client.register_capability(vec![registration]).await {
        inner
            .client
            .log_message(
                MessageType::WARNING,
                format!("prose: cannot watch {what}: {}", e.message),
            )
            .await;
    }
}

/// The method file watchers are registered for.
pub const WATCH_METHOD: &str = "workspace/didChangeWatchedFiles";

/// The file watchers: the workspace globs, and `~/.prose/**` (relative to
/// the home `.prose` folder when the client supports `RelativePattern`s,
/// else as an absolute glob).
pub fn watchers(home: Option<&str>, relative_patterns: bool) -> Vec<FileSystemWatcher> {
    let mut out: Vec<FileSystemWatcher> = WATCHED
        .iter()
        .map(|glob| FileSystemWatcher {
            glob_pattern: GlobPattern::String(glob.to_string()),
            kind: None,
        })
        .collect();
    if let Some(home) = home {
        let dir = workspace::home_state_dir(home);
        let base = relative_patterns
            .then(|| workspace::key_uri(&dir))
            .flatten();
        let glob_pattern = match base {
            Some(uri) => GlobPattern::Relative(RelativePattern {
                base_uri: OneOf::Right(uri),
                pattern: HOME_WATCHED.to_string(),
            }),
            None => GlobPattern::String(format!("{}/{HOME_WATCHED}", dir.trim_end_matches('/'))),
        };
        out.push(FileSystemWatcher {
            glob_pattern,
            kind: None,
        });
    }
    out
}

pub fn shutdown(inner: &Arc<Inner>) -> Result<()> {
    inner
        .shutdown
        .store(true, std::sync::atomic::Ordering::SeqCst);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn watchers_include_the_home_prose_folder() {
        let globs = |w: &[FileSystemWatcher]| -> Vec<serde_json::Value> {
            w.iter()
                .map(|w| serde_json::to_value(&w.glob_pattern).unwrap())
                .collect()
        };
        let plain = watchers(Some("/home/u"), false);
        assert_eq!(
            globs(&plain),
            [
                "**/*.prose",
                "**/prose.toml",
                "**/memory.md",
                "/home/u/.prose/**"
            ]
        );
        let relative = watchers(Some("/home/u"), true);
        assert_eq!(
            globs(&relative)[3],
            serde_json::json!({ "baseUri": "file:///home/u/.prose", "pattern": "**" })
        );
        assert_eq!(watchers(None, true).len(), WATCHED.len());
    }
}
