//! `prose jobs`: job entries' tasks. `prose jobs run` runs one
//! ([`crate::jobs_run`]); `prose jobs tool` reports a tool call from a
//! program of the `command` backend; `prose jobs mcp` (hidden) is the MCP
//! server the agent CLIs reach the job tools through.

use std::{io::Read, path::PathBuf, process::ExitCode};

use clap::{Args, Subcommand};
use prose_runner::backend::tools::{self, mcp};

use crate::run::EXIT_USAGE;

// `prose jobs`.
#[derive(Debug, Args)]
pub struct JobsArgs {
    #[command(subcommand)]
    pub command: JobsCommand,
}

#[derive(Debug, Subcommand)]
pub enum JobsCommand {
    /// Run a task of a job entry with an agent backend.
    ///
    /// The entry is checked first (J001-J020): an entry with errors is not
    /// run, and its diagnostics are printed as `prose check` prints them.
    /// The task's sessions are offered the job tools (job_prepare_document,
    /// job_boolean_true, job_boolean_false, job_prerequisite_failed); its
    /// availability and criteria decide whether it runs and whether it
    /// succeeded. Progress goes to the terminal, the runtime variables the
    /// sessions set to stdout at the end. State lives in
    /// `.prose/runs/RUN_ID/`: `--resume RUN_ID` goes on without repeating a
    /// finished session. Ctrl-C cancels cleanly. See docs/jobs.md.
    #[command(after_help = RUN_AFTER_HELP)]
    Run(Box<JobsRunArgs>),

    /// Report a tool call of a job task's session, from the program the
    /// `command` backend runs.
    ///
    /// The runner names the calls file in `PROSE_TOOLS_FILE` and the tools
    /// the request offers in `PROSE_TOOLS`. ARGUMENT `-` reads it from
    /// stdin. Exit status 0 when the call was recorded, 2 when it could
    /// not be (not run by the runner, a tool the request does not offer).
    Tool(ToolArgs),

    /// The MCP server (stdio) the agent CLIs reach the job tools through;
    /// the runner starts it. Not for people.
    #[command(hide = true)]
    Mcp(McpArgs),
}

const RUN_AFTER_HELP: &str = "\
Exit status:
  0  the task succeeded
  1  the task failed (its availability did not hold, a session called
     job_prerequisite_failed, its criteria were still unmet after the
     retries, a session failed), was cancelled, or the entry has errors
  2  usage error: bad flags, a missing file, task or user input, an unknown
     previous job or task, no backend available

Examples:
  prose jobs run docs/examples/scrum.jobs.json design-task --previous-job story --dry-run
  prose jobs run jobs.json ask-task --input user-input=\"Where is the cache?\"
  prose jobs run jobs.json plan-task --previous-job design --backend codex
  prose jobs run jobs.json plan-task --resume 20260115-143052-a7b3c9";

/// Options of `prose jobs run`.
#[derive(Debug, Args)]
pub struct JobsRunArgs {
    /// The job entry (`*.jobs.json`, JSON with comments).
    #[arg(value_name = "ENTRY")]
    pub entry: PathBuf,

    /// The task to run, a key of the entry's `tasks`. Without it,
    /// `--dry-run` shows every task.
    #[arg(value_name = "TASK")]
    pub task: Option<String>,

    /// The user's input, `user-input=TEXT`: the value of `$user-input`,
    /// for a task whose `requireUserInput` is true.
    #[arg(long = "input", short = 'i', value_name = "user-input=TEXT")]
    pub inputs: Vec<String>,

    /// The keyword of the job that ran before (the grid's keyword), for
    /// `availability.previousJobKeywords`.
    #[arg(long, value_name = "KEYWORD")]
    pub previous_job: Option<String>,

    /// The task that ran before, for `availability.previousTasks`.
    #[arg(long, value_name = "NAME")]
    pub previous_task: Option<String>,

    /// One session for the driving and the task session, with the task's
    /// model, whatever `criteria.runConditionInSameSession` says.
    #[arg(long)]
    pub single_model: bool,

    /// The agent backend: claude, codex, openai, anthropic, command or mock.
    #[arg(long, value_name = "NAME", value_parser = ["claude", "codex", "openai", "anthropic", "command", "mock"])]
    pub backend: Option<String>,

    /// The command line of the `command` backend (split like a shell
    /// would, never run through one).
    #[arg(long, value_name = "CMD")]
    pub command: Option<String>,

    /// The mock backend's script (TOML).
    #[arg(long, value_name = "FILE")]
    pub mock_script: Option<PathBuf>,

    /// The model of a task that names none: a model key of the entry
    /// (`planning`) or a model id.
    #[arg(long, value_name = "MODEL")]
    pub model: Option<String>,

    /// How long one backend request may take: 90s, 10m, 1h.
    #[arg(long, value_name = "DURATION")]
    pub timeout: Option<String>,

    /// An environment variable to pass to backend processes (repeatable).
    #[arg(long = "env", value_name = "NAME")]
    pub env: Vec<String>,

    /// Continue the run RUN_ID (its own copy of the entry is run).
    #[arg(long, value_name = "RUN_ID")]
    pub resume: Option<String>,

    /// Print what the task would do: its sessions and models, its prompts
    /// after static expansion, its availability and criteria steps. Call
    /// no backend.
    #[arg(long)]
    pub dry_run: bool,

    /// Write the run's events to stdout, one JSON object per line (and
    /// nothing else); see docs/runner.md.
    #[arg(long, value_name = "FORMAT", value_parser = ["jsonl"])]
    pub events: Option<String>,

    /// Also append the events, as JSON lines, to this file.
    #[arg(long, value_name = "PATH")]
    pub events_file: Option<PathBuf>,

    /// Never ask for the user's input: a missing one is a usage error.
    #[arg(long)]
    pub no_input: bool,

    /// Allow, for this run only, what the repository's prose.toml chooses
    /// that needs consent (as `prose run --yes`).
    #[arg(long, short = 'y')]
    pub yes: bool,

    /// The workspace root (where prose.toml and .prose/ live, and where
    /// sessions work); found as for `prose check` by default.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

/// Options of `prose jobs tool`.
#[derive(Debug, Args)]
pub struct ToolArgs {
    /// The tool: job_prepare_document, job_boolean_true,
    /// job_boolean_false or job_prerequisite_failed.
    #[arg(value_name = "NAME")]
    pub name: String,

    /// Its argument (`-` reads it from stdin).
    #[arg(value_name = "ARGUMENT", default_value = "")]
    pub argument: String,
}

/// Options of `prose jobs mcp`.
#[derive(Debug, Args)]
pub struct McpArgs {
    /// The tool definitions (JSON) the runner wrote.
    #[arg(long, value_name = "FILE")]
    pub tools: PathBuf,

    /// Where each call is appended.
    #[arg(long, value_name = "FILE")]
    pub calls: PathBuf,
}

pub fn run(args: &JobsArgs) -> ExitCode {
    match &args.command {
        JobsCommand::Run(a) => crate::jobs_run::run(a),
        JobsCommand::Tool(a) => ExitCode::from(tool(a)),
        JobsCommand::Mcp(a) => {
            let server = mcp::ServerArgs {
                tools: a.tools.clone(),
                calls: a.calls.clone(),
            };
            match mcp::main(&server) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: prose jobs mcp: {e}");
                    ExitCode::from(EXIT_USAGE)
                }
            }
        }
    }
}

fn tool(a: &ToolArgs) -> u8 {
    let argument = if a.argument == "-" {
        let mut s = String::new();
        if let Err(e) = std::io::stdin().read_to_string(&mut s) {
            eprintln!("error: cannot read the argument from stdin: {e}");
            return EXIT_USAGE;
        }
        s
    } else {
        a.argument.clone()
    };
    match tools::report_call(&a.name, &argument, |k| std::env::var(k).ok()) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            EXIT_USAGE
        }
    }
}
