//! `workspace/executeCommand`: the server's own commands, which code
//! lenses and editors call (`executeCommandProvider` lists [`COMMANDS`]).
//! Each command is handled in its own module.

use std::sync::Arc;

use ls_types::ExecuteCommandParams;
use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, Result};

use crate::{handlers::task_prompt, server::Inner};

/// Every command the server carries out.
pub const COMMANDS: &[&str] = &[task_prompt::COMMAND];

pub async fn execute(inner: &Arc<Inner>, params: ExecuteCommandParams) -> Result<Option<Value>> {
    match params.command.as_str() {
        task_prompt::COMMAND => task_prompt::show_task_prompt(inner, params.arguments)
            .await
            .map(Some),
        other => Err(Error::invalid_params(format!("unknown command {other:?}"))),
    }
}
