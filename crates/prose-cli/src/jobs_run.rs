//! `prose jobs run ENTRY TASK`: the configuration (the same layers as
//! `prose run`), the entry's check, the dry run, the task's run with
//! progress or JSON events, Ctrl-C, `$user-input` on the terminal, the
//! runtime variables at the end.

use std::{
    io::IsTerminal,
    path::{Path, PathBuf},
    process::ExitCode,
};

use prose_runner::{
    jobs::{ENTRY_FILE, PlanOptions, TaskRunOptions, dry_run_task, prepare_task, start_task},
    run::StartError,
};

use crate::{
    jobs::JobsRunArgs,
    live::Live,
    run::{
        EXIT_FAILED, EXIT_OK, EXIT_USAGE, RunnerFlags, parse_inputs, print_diagnostics,
        runner_config, usage,
    },
    source::{read_source, report_load_error},
    workspace,
};

/// The only input a task takes.
const USER_INPUT: &str = "user-input";

pub fn run(args: &JobsRunArgs) -> ExitCode {
    crate::live::block_on(run_async(args))
}

/// `$user-input` from `--input user-input=TEXT`; any other name is an error.
fn user_input(pairs: &[String]) -> Result<Option<String>, String> {
    let mut inputs = parse_inputs(pairs)?;
    if let Some(other) = inputs.keys().find(|k| *k != USER_INPUT) {
        return Err(format!(
            "unknown input `{other}`: a task takes one input, `{USER_INPUT}` ($user-input)"
        ));
    }
    Ok(inputs.remove(USER_INPUT))
}

/// The command that starts the MCP server: this very program.
fn tool_server() -> Option<Vec<String>> {
    let exe = std::env::current_exe().ok()?;
    Some(vec![exe.display().to_string(), "jobs".into(), "mcp".into()])
}

/// The entry's text: the file's, or on resume the run's own copy.
fn entry_text(args: &JobsRunArgs, root: &Path) -> Result<String, u8> {
    match &args.resume {
        Some(id) => {
            let copy = prose_runner::state::runs_dir(root)
                .join(id)
                .join(ENTRY_FILE);
            std::fs::read_to_string(&copy)
                .map_err(|e| usage(&format!("cannot resume {id}: {}: {e}", copy.display())))
        }
        None => read_source(&args.entry).map_err(|e| {
            report_load_error(&e);
            EXIT_USAGE
        }),
    }
}

async fn run_async(args: &JobsRunArgs) -> u8 {
    let root = workspace::find_root(args.root.as_deref());
    let repo = match workspace::load_config(&root) {
        Ok(c) => c,
        Err(m) => return usage(&m),
    };
    let home = prose_lsp::workspace::home().map(PathBuf::from);
    let flags = RunnerFlags {
        backend: &args.backend,
        command: &args.command,
        mock_script: &args.mock_script,
        model: &args.model,
        timeout: &args.timeout,
        max_parallel: None,
        env: &args.env,
    };
    let config = match runner_config(&root, home.as_deref(), &repo, &flags) {
        Ok(c) => c,
        Err(m) => return usage(&m),
    };
    let input = match user_input(&args.inputs) {
        Ok(i) => i,
        Err(m) => return usage(&m),
    };
    let text = match entry_text(args, &root) {
        Ok(t) => t,
        Err(code) => return code,
    };
    if args.dry_run {
        let options = PlanOptions {
            model: config.model.as_ref().map(|m| m.value.clone()),
            single_model: args.single_model,
        };
        return match dry_run_task(&args.entry, &text, args.task.as_deref(), &options) {
            Ok(plan) => {
                print!("{plan}");
                EXIT_OK
            }
            Err(e) => refused(args, &text, e),
        };
    }
    // Without a task, the runner's error lists the entry's tasks.
    let task = args.task.clone().unwrap_or_default();

    // Workspace trust (issue 18): the same gate as `prose run`, after the
    // dry run (which runs nothing) and before anything starts.
    if let Err(code) =
        crate::consent::before_run(&root, home.as_deref(), &config, args.yes, args.no_input)
    {
        return code;
    }
    let events_jsonl = args.events.is_some();
    let interactive = !args.no_input && std::io::stdin().is_terminal();
    let mut options = TaskRunOptions::new(args.entry.clone(), text.clone(), task, root.clone());
    options.config = config;
    options.user_input = input;
    options.previous_job = args.previous_job.clone();
    options.previous_task = args.previous_task.clone();
    options.single_model = args.single_model;
    options.resume = args.resume.clone();
    options.interactive = interactive;
    options.tool_server = tool_server();
    let prepared = match prepare_task(options) {
        Ok(p) => p,
        Err(e) => return refused(args, &text, e),
    };
    let resume = format!(
        "prose jobs run {} {}",
        args.entry.display(),
        prepared.plan().task
    );

    let live = match Live::new(events_jsonl, args.events_file.as_deref(), interactive) {
        Ok(l) => l,
        Err(m) => return usage(&m),
    };
    let handle = start_task(prepared, live.sink.clone(), live.provider.clone());
    live.end(handle, &root, &resume).await
}

/// A run that could not start: the entry's diagnostics (status 1), or the
/// reason (status 2).
fn refused(args: &JobsRunArgs, text: &str, e: StartError) -> u8 {
    match e {
        StartError::ProgramErrors(diags) => {
            print_diagnostics(&args.entry, text, diags);
            EXIT_FAILED
        }
        other => usage(&other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_task_takes_only_the_user_input() {
        assert_eq!(user_input(&[]), Ok(None));
        assert_eq!(
            user_input(&["user-input=a = b".into()]),
            Ok(Some("a = b".into()))
        );
        assert_eq!(
            user_input(&["topic=x".into()]),
            Err("unknown input `topic`: a task takes one input, `user-input` ($user-input)".into())
        );
    }
}
