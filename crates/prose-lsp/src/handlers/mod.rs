//! One module per group of LSP methods. Handlers are plain functions over
//! the shared server state; `server.rs` only dispatches to them.

pub mod code_actions;
pub mod completion;
pub mod debug;
pub mod diagnostics;
pub mod folding;
pub mod formatting;
pub mod hover;
pub mod inlay_hints;
pub mod lifecycle;
pub mod navigation;
pub mod references;
pub mod rename;
pub mod selection;
pub mod semantic_tokens;
pub mod signature_help;
pub mod snapshot;
pub mod symbols;
pub mod text_sync;
pub mod workspace;
