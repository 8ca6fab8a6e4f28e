//! One module per group of LSP methods. Handlers are plain functions over
//! the shared server state; `server.rs` only dispatches to them.

pub mod aux_files;
pub mod code_actions;
pub mod code_lens;
pub mod commands;
pub mod completion;
pub mod debug;
pub mod diagnostics;
pub mod diagnostics_pull;
pub mod document_link;
pub mod explain;
pub mod folding;
pub mod formatting;
pub mod hover;
pub mod inlay_hints;
pub mod lifecycle;
pub mod model_view;
pub mod navigation;
pub mod push_cache;
pub mod push_json;
pub mod references;
pub mod registry_watch;
pub mod rename;
pub mod run;
pub mod run_events;
pub mod run_task;
pub mod selection;
pub mod semantic_tokens;
pub mod signature_help;
pub mod snapshot;
pub mod symbols;
pub mod syntax_tree;
pub mod task_prompt;
pub mod text_sync;
pub mod workspace;
