//! `workspace/executeCommand`: the server's own commands, each in its
//! handler module. The ids are advertised in `executeCommandProvider`, so
//! clients (vscode-languageclient, Neovim's code lens runner) send them
//! here; see docs/lsp.md.

use std::sync::Arc;

use ls_types::ExecuteCommandParams;
use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, Result};

use crate::{handlers::model_view, server::Inner};

/// Every command id the server runs.
pub const COMMANDS: &[&str] = &[model_view::COMMAND];

pub async fn execute_command(
    inner: &Arc<Inner>,
    params: ExecuteCommandParams,
) -> Result<Option<Value>> {
    match params.command.as_str() {
        model_view::COMMAND => model_view::execute(inner, params.arguments).await,
        other => Err(Error::invalid_params(format!("unknown command `{other}`"))),
    }
}

/// The `uri` of a command's first argument (`[{"uri": "..."}]`).
pub fn uri_argument(arguments: &[Value]) -> Result<ls_types::Uri> {
    arguments
        .first()
        .and_then(|a| a.get("uri"))
        .and_then(Value::as_str)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| Error::invalid_params("expected the arguments [{\"uri\": string}]"))
}
