//! `prose.showTaskPrompt` (`workspace/executeCommand`), the command of a
//! job task's "Show expanded prompt" lens: the task's fully expanded
//! prompt, for the editor to show.
//!
//! Arguments `[{"uri": string, "task": string}]`; result `{"uri": string,
//! "task": string, "text": string}`. A task the document does not have,
//! or whose prompt cannot be expanded (the message lists its errors), is a
//! `RequestFailed` error (`-32803`); an unknown document or malformed
//! arguments are `InvalidParams`.

use std::sync::Arc;

use ls_types::Uri;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tower_lsp_server::jsonrpc::{Error, Result};

use crate::{
    handlers::snapshot::{Lsp, on_document_retrying, request_failed},
    server::Inner,
};

/// The command id.
pub const COMMAND: &str = "prose.showTaskPrompt";

#[derive(Debug, Deserialize)]
pub struct TaskPromptArgs {
    pub uri: Uri,
    pub task: String,
}

#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct TaskPrompt {
    pub uri: Uri,
    pub task: String,
    pub text: String,
}

/// The arguments of one command call: its first argument, as `T`.
pub fn first_argument<T: serde::de::DeserializeOwned>(arguments: Vec<Value>) -> Result<T> {
    let first = arguments
        .into_iter()
        .next()
        .ok_or_else(|| Error::invalid_params("the command takes one argument object"))?;
    serde_json::from_value(first).map_err(|e| Error::invalid_params(e.to_string()))
}

pub async fn show_task_prompt(inner: &Arc<Inner>, arguments: Vec<Value>) -> Result<Value> {
    let args: TaskPromptArgs = first_argument(arguments)?;
    let task = args.task.clone();
    let expanded = on_document_retrying(inner, &args.uri, move |s, file| {
        s.analysis.expanded_prompt(file, &task).lsp()
    })
    .await?
    .flatten()
    .ok_or_else(|| {
        request_failed(format!(
            "{} has no task {:?} with a prompt",
            args.uri.as_str(),
            args.task
        ))
    })?;
    match expanded.text {
        Ok(text) => Ok(serde_json::to_value(TaskPrompt {
            uri: args.uri,
            task: expanded.task,
            text,
        })
        .unwrap_or(Value::Null)),
        Err(errors) => Err(request_failed(format!(
            "The prompt of task {:?} cannot be expanded: {}",
            expanded.task,
            errors.join(" ")
        ))),
    }
}
