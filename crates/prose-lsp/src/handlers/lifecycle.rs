//! `initialize`, `initialized`, `shutdown`.

use std::{path::PathBuf, sync::Arc};

use ls_types::{
    DiagnosticOptions, DiagnosticServerCapabilities, DidChangeWatchedFilesRegistrationOptions,
    FileSystemWatcher, GlobPattern, InitializeParams, InitializeResult, InitializedParams,
    MessageType, OneOf, Registration, ServerCapabilities, ServerInfo, TextDocumentSyncCapability,
    TextDocumentSyncKind, TextDocumentSyncOptions, WorkspaceFoldersServerCapabilities,
    WorkspaceServerCapabilities,
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

/// The files whose changes the server needs to hear about.
pub const WATCHED: &[&str] = &["**/*.prose", "**/prose.toml", "**/memory.md"];

/// Reads the client's capabilities and settings, loads `prose.toml`, and
/// scans the workspace folders so imports resolve from the first
/// diagnostics on. (Clients send nothing else until this returns.)
pub async fn initialize(inner: &Arc<Inner>, params: InitializeParams) -> Result<InitializeResult> {
    let roots = roots(&params);
    let caps = &params.capabilities;
    let encoding = Encoding::negotiate(
        caps.general
            .as_ref()
            .and_then(|g| g.position_encodings.as_deref()),
    );
    let workspace_caps = caps.workspace.as_ref();
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
        watch_files: workspace_caps
            .and_then(|w| w.did_change_watched_files.as_ref())
            .and_then(|d| d.dynamic_registration)
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
    };
    let (init_settings, problems) = params
        .initialization_options
        .as_ref()
        .map(ClientSettings::from_json)
        .unwrap_or_default();

    let scan_roots = roots.clone();
    let (file_config, scan) = blocking(move || {
        let config = scan_roots.first().map(|r| workspace::load_config(r));
        (config, workspace::scan(&scan_roots))
    })
    .await?;

    {
        let mut st = inner.state();
        st.encoding = encoding;
        st.caps = client_caps;
        st.roots = roots;
        st.init_settings = init_settings;
        st.pending_messages.extend(problems);
        if let Some(Err(message)) = &file_config {
            st.pending_messages
                .push(format!("{message}; using the default configuration"));
        }
        st.file_config = file_config.and_then(|c| c.ok()).unwrap_or_default();
        if scan.truncated {
            st.pending_messages.push(format!(
                "prose: the workspace has more than {} programs; only the first ones are loaded",
                workspace::MAX_SCANNED_FILES
            ));
        }
        for skipped in &scan.skipped {
            eprintln!("prose-lsp: not loaded: {skipped}");
        }
        st.apply_roots();
        st.apply_config();
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

/// The workspace folders, else the root URI: local directories only.
fn roots(params: &InitializeParams) -> Vec<PathBuf> {
    let from_folders: Vec<PathBuf> = params
        .workspace_folders
        .iter()
        .flatten()
        .filter_map(|f| workspace::uri_path(&f.uri))
        .collect();
    if !from_folders.is_empty() {
        return from_folders;
    }
    #[allow(deprecated)]
    let root_uri = params.root_uri.as_ref();
    root_uri.and_then(workspace::uri_path).into_iter().collect()
}

/// What the server offers. Code lenses ("Run program") come later.
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
    let (messages, caps) = {
        let mut st = inner.state();
        (std::mem::take(&mut st.pending_messages), st.caps)
    };
    for message in messages {
        inner
            .client
            .show_message(MessageType::WARNING, message)
            .await;
    }
    if caps.watch_files {
        let options = DidChangeWatchedFilesRegistrationOptions {
            watchers: WATCHED
                .iter()
                .map(|glob| FileSystemWatcher {
                    glob_pattern: GlobPattern::String(glob.to_string()),
                    kind: None,
                })
                .collect(),
        };
        let registration = Registration {
            id: "prose-watched-files".to_string(),
            method: "workspace/didChangeWatchedFiles".to_string(),
            register_options: serde_json::to_value(options).ok(),
        };
        if let Err(e) = inner.client.register_capability(vec![registration]).await {
            inner
                .client
                .log_message(
                    MessageType::WARNING,
                    format!("prose: cannot watch files: {}", e.message),
                )
                .await;
        }
    }
    if caps.configuration {
        pull_configuration(inner).await;
    }
}

pub fn shutdown(inner: &Arc<Inner>) -> Result<()> {
    inner
        .shutdown
        .store(true, std::sync::atomic::Ordering::SeqCst);
    Ok(())
}
