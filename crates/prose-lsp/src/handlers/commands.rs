//! `workspace/executeCommand`: the server's own commands, which code
//! lenses and editors call (`executeCommandProvider` lists [`commands`]).
//! Each command is handled in its own module; see docs/lsp.md.

use std::sync::Arc;

use ls_types::ExecuteCommandParams;
use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, Result};

use crate::{
    handlers::{model_view, run, run_task, task_prompt},
    server::Inner,
};

/// Every command the server carries out: running programs
/// ([`run::COMMANDS`]), a job task's expanded prompt, running job tasks
/// ([`run_task::COMMANDS`]), what the model receives from a prompt file.
pub fn commands() -> Vec<&'static str> {
    let mut all = run::COMMANDS.to_vec();
    all.push(task_prompt::COMMAND);
    all.extend(run_task::COMMANDS);
    all.push(model_view::COMMAND);
    all
}

pub async fn execute(inner: &Arc<Inner>, params: ExecuteCommandParams) -> Result<Option<Value>> {
    match params.command.as_str() {
        task_prompt::COMMAND => task_prompt::show_task_prompt(inner, params.arguments)
            .await
            .map(Some),
        model_view::COMMAND => model_view::execute(inner, params.arguments).await,
        c if run::COMMANDS.contains(&c) => run::execute_command(inner, params).await,
        c if run_task::COMMANDS.contains(&c) => run_task::execute_command(inner, params).await,
        other => Err(Error::invalid_params(format!(
            "unknown command `{other}`; the server's commands are {}",
            commands().join(", ")
        ))),
    }
}
