//! One module per group of LSP methods. Handlers are plain functions over
//! the shared server state; `server.rs` only dispatches to them.

pub mod diagnostics;
pub mod lifecycle;
pub mod text_sync;
pub mod workspace;
