//! `textDocument/codeLens`: the lenses of `prose_ide::code_lens`, each
//! turned into a command of the server's own (`workspace/executeCommand`)
//! with the document's URI as its argument. This is the one place that
//! maps a `LensCommand` to a command id. In a workspace the client has not
//! trusted (`trusted: false`), the lenses that run something become one
//! `Run disabled: workspace not trusted` lens without a command.

use std::sync::Arc;

use ls_types::{CodeLens, CodeLensParams, Command, Uri};
use prose_ide::code_lens::LensCommand;
use serde_json::json;
use tower_lsp_server::jsonrpc::Result;

use crate::{
    handlers::snapshot::{Lsp, on_document_retrying},
    server::Inner,
};

pub async fn code_lens(
    inner: &Arc<Inner>,
    params: CodeLensParams,
) -> Result<Option<Vec<CodeLens>>> {
    let uri = params.text_document.uri.clone();
    // In a workspace the client has not trusted, nothing runs.
    let trusted = crate::handlers::run::trusted(&inner.state());
    // An edit or a file loaded meanwhile (a prompt file's `/read`
    // targets, just after it opens) retries on the new state: clients
    // without `workspace/codeLens/refresh` (Neovim 0.7) would otherwise
    // show no lens until the cursor rests.
    let result = on_document_retrying(inner, &params.text_document.uri, move |s, file| {
        let text = s.text(file)?;
        let mut lenses = s.analysis.code_lenses(file).lsp()?;
        if !trusted {
            lenses = prose_ide::code_lens::untrusted(lenses);
        }
        Ok(lenses
            .into_iter()
            .map(|lens| CodeLens {
                range: text.range(s.encoding, lens.range),
                command: Some(command(&lens.title, &lens.command, &uri)),
                data: None,
            })
            .collect::<Vec<_>>())
    })
    .await?;
    Ok(Some(result.unwrap_or_default()))
}

/// The protocol command of a lens (`prose.run` with `[{"uri": ...}]`, ...);
/// a lens that only informs has an empty command id, which clients show
/// as plain text.
pub fn command(title: &str, command: &LensCommand, uri: &Uri) -> Command {
    let (id, arguments) = match command {
        LensCommand::RunProgram => ("prose.run", vec![json!({ "uri": uri.as_str() })]),
        LensCommand::DryRun => ("prose.dryRun", vec![json!({ "uri": uri.as_str() })]),
        LensCommand::RevealErrors => ("prose.revealErrors", vec![json!({ "uri": uri.as_str() })]),
        LensCommand::ShowModelView => (
            crate::handlers::model_view::COMMAND,
            vec![json!({ "uri": uri.as_str() })],
        ),
        LensCommand::None => ("", Vec::new()),
        LensCommand::ShowTaskPrompt { task } => (
            crate::handlers::task_prompt::COMMAND,
            vec![json!({ "uri": uri.as_str(), "task": task })],
        ),
        LensCommand::RunTask { task } => (
            crate::handlers::run_task::RUN_TASK,
            vec![json!({ "uri": uri.as_str(), "task": task })],
        ),
        LensCommand::DryRunTask { task } => (
            crate::handlers::run_task::DRY_RUN_TASK,
            vec![json!({ "uri": uri.as_str(), "task": task })],
        ),
    };
    Command {
        title: title.to_string(),
        command: id.to_string(),
        arguments: (!arguments.is_empty()).then_some(arguments),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lens_commands_carry_the_document() {
        let uri: Uri = "file:///w/a.prose".parse().unwrap();
        let c = command("▶ Run program", &LensCommand::RunProgram, &uri);
        assert_eq!(c.command, "prose.run");
        assert_eq!(
            c.arguments,
            Some(vec![json!({ "uri": "file:///w/a.prose" })])
        );
        let info = command(
            "Run disabled: workspace not trusted",
            &LensCommand::None,
            &uri,
        );
        assert_eq!(info.command, "");
        assert_eq!(info.arguments, None);
        let uri: Uri = "file:///w/team.jobs.json".parse().unwrap();
        let show = command(
            "Show expanded prompt",
            &LensCommand::ShowTaskPrompt {
                task: "plan-task".into(),
            },
            &uri,
        );
        assert_eq!(show.command, "prose.showTaskPrompt");
        let task = Some(vec![
            json!({ "uri": "file:///w/team.jobs.json", "task": "plan-task" }),
        ]);
        assert_eq!(show.arguments, task);
        let task_command = |command: LensCommand| super::command("", &command, &uri);
        let run = task_command(LensCommand::RunTask {
            task: "plan-task".into(),
        });
        assert_eq!(
            (run.command.as_str(), &run.arguments),
            ("prose.runTask", &task)
        );
        let dry = task_command(LensCommand::DryRunTask {
            task: "plan-task".into(),
        });
        assert_eq!(
            (dry.command.as_str(), &dry.arguments),
            ("prose.dryRunTask", &task)
        );
    }
}
