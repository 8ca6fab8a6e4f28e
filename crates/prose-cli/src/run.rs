//! `prose run`: configuration layers, the error check, the dry run, the
//! run itself with progress or JSON events, Ctrl-C, inputs on the
//! terminal, the outputs at the end.

use std::{
    collections::BTreeMap,
    io::{IsTerminal, Write},
    path::{Path, PathBuf},
    process::ExitCode,
};

use prose_ide::config::{RunnerTable, runner::parse_duration_ms};
use prose_runner::{
    config::{Origin, RunnerConfig},
    run::{RunOptions, StartError, prepare, start},
};

use crate::{
    args::RunArgs,
    consent,
    live::Live,
    render,
    report::{CheckedFile, Report},
    source::{read_source, report_load_error},
    workspace,
};

/// Exit status: the program finished.
pub const EXIT_OK: u8 = 0;
/// Exit status: the program failed, was cancelled, or has errors.
pub const EXIT_FAILED: u8 = 1;
/// Exit status: usage error.
pub const EXIT_USAGE: u8 = 2;

pub fn run(args: &RunArgs) -> ExitCode {
    crate::live::block_on(run_async(args))
}

pub(crate) fn usage(message: &str) -> u8 {
    anstream::eprintln!("error: {message}");
    EXIT_USAGE
}

/// The flags of `prose run` and `prose jobs run` that set the runner's
/// configuration (both commands have them; `max_parallel` only the first).
pub(crate) struct RunnerFlags<'a> {
    pub backend: &'a Option<String>,
    pub command: &'a Option<String>,
    pub mock_script: &'a Option<PathBuf>,
    pub model: &'a Option<String>,
    pub timeout: &'a Option<String>,
    pub max_parallel: Option<u64>,
    pub env: &'a [String],
}

impl RunArgs {
    pub(crate) fn runner_flags(&self) -> RunnerFlags<'_> {
        RunnerFlags {
            backend: &self.backend,
            command: &self.command,
            mock_script: &self.mock_script,
            model: &self.model,
            timeout: &self.timeout,
            max_parallel: self.max_parallel,
            env: &self.env,
        }
    }
}

/// The `[runner]` table the flags make.
fn flags_table(flags: &RunnerFlags<'_>) -> Result<RunnerTable, String> {
    let mut t = RunnerTable {
        backend: flags.backend.clone(),
        command: flags.command.clone(),
        model: flags.model.clone(),
        max_parallel: flags.max_parallel,
        env: flags.env.to_vec(),
        ..RunnerTable::default()
    };
    if let Some(text) = flags.timeout {
        t.timeout_ms = Some(parse_duration_ms(text).ok_or_else(|| {
            format!("--timeout {text}: expected a duration such as 90s, 10m or 1h")
        })?);
    }
    if flags.max_parallel == Some(0) {
        return Err("--max-parallel must be at least 1".into());
    }
    if let Some(script) = flags.mock_script {
        t.backends.insert(
            "mock".into(),
            prose_ide::config::runner::BackendTable {
                script: Some(script.to_string_lossy().into_owned()),
                ..Default::default()
            },
        );
    }
    Ok(t)
}

/// The runner configuration: defaults, `~/.prose/prose.toml`, the
/// repository's `prose.toml`, the flags.
pub(crate) fn runner_config(
    root: &Path,
    home: Option<&Path>,
    repo: &prose_ide::Config,
    flags: &RunnerFlags<'_>,
) -> Result<RunnerConfig, String> {
    let mut config = prose_runner::config::layered(root, home, repo)?;
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    config.apply(&flags_table(flags)?, &Origin::CommandLine, &cwd);
    Ok(config)
}

/// `NAME=VALUE` pairs.
pub(crate) fn parse_inputs(pairs: &[String]) -> Result<BTreeMap<String, String>, String> {
    let mut out = BTreeMap::new();
    for p in pairs {
        let Some((k, v)) = p.split_once('=') else {
            return Err(format!("--input {p}: expected NAME=VALUE"));
        };
        if k.trim().is_empty() {
            return Err(format!("--input {p}: the name is empty"));
        }
        out.insert(k.trim().to_string(), v.to_string());
    }
    Ok(out)
}

async fn run_async(args: &RunArgs) -> u8 {
    let root = workspace::find_root(args.root.as_deref());
    let repo = match workspace::load_config(&root) {
        Ok(c) => c,
        Err(m) => return usage(&m),
    };
    let home = prose_lsp::workspace::home().map(PathBuf::from);
    let config = match runner_config(&root, home.as_deref(), &repo, &args.runner_flags()) {
        Ok(c) => c,
        Err(m) => return usage(&m),
    };
    let inputs = match parse_inputs(&args.inputs) {
        Ok(i) => i,
        Err(m) => return usage(&m),
    };
    let source = if args.resume.is_some() {
        String::new()
    } else {
        match read_source(&args.file) {
            Ok(s) => s,
            Err(e) => {
                report_load_error(&e);
                return EXIT_USAGE;
            }
        }
    };
    if args.dry_run {
        let text = match &args.resume {
            Some(id) => match std::fs::read_to_string(
                prose_runner::state::runs_dir(&root)
                    .join(id)
                    .join("program.prose"),
            ) {
                Ok(t) => t,
                Err(e) => return usage(&format!("cannot resume {id}: {e}")),
            },
            None => source.clone(),
        };
        let diags =
            prose_runner::check::diagnostics(&args.file, &text, &root, home.as_deref(), &repo);
        if prose_runner::check::has_errors(&diags) {
            print_diagnostics(&args.file, &text, diags);
            return EXIT_FAILED;
        }
        print!("{}", prose_runner::run::dry_run(&text));
        return EXIT_OK;
    }

    let events_jsonl = args.events.is_some();
    let terminal_in = std::io::stdin().is_terminal();
    let interactive = !args.no_input && terminal_in;
    let mut options = RunOptions::new(args.file.clone(), source.clone(), root.clone());
    options.home = home.clone();
    options.prose_config = repo;
    options.config = config;
    options.inputs = inputs;
    options.resume = args.resume.clone();
    options.allow_unenforced_permissions = args.allow_unenforced_permissions;
    options.interactive = interactive;
    // Errors first (a broken program is not worth a question), then
    // consent for what the repository chose, then the run.
    if args.resume.is_none() {
        let diags = prose_runner::check::diagnostics(
            &args.file,
            &source,
            &root,
            home.as_deref(),
            &options.prose_config,
        );
        if prose_runner::check::has_errors(&diags) {
            print_diagnostics(&args.file, &source, diags);
            return EXIT_FAILED;
        }
        options.skip_check = true;
    }
    if let Err(code) = consent::before_run(
        &root,
        home.as_deref(),
        &options.config,
        args.yes,
        args.no_input,
    ) {
        return code;
    }
    let prepared = match prepare(options) {
        Ok(p) => p,
        Err(StartError::ProgramErrors(diags)) => {
            print_diagnostics(&args.file, &source, diags);
            return EXIT_FAILED;
        }
        Err(e) => return usage(&e.to_string()),
    };

    let live = match Live::new(events_jsonl, args.events_file.as_deref(), interactive) {
        Ok(l) => l,
        Err(m) => return usage(&m),
    };
    let handle = start(prepared, live.sink.clone(), live.provider.clone());
    let resume = format!("prose run {}", args.file.display());
    live.end(handle, &root, &resume).await
}

/// Prints diagnostics as `prose check` does (on stderr: stdout is the
/// run's), with the summary line.
pub(crate) fn print_diagnostics(path: &Path, text: &str, diagnostics: Vec<prose_ide::Diagnostic>) {
    let report = Report {
        files: vec![CheckedFile {
            path: path.display().to_string(),
            key: crate::workspace::key(path),
            text: std::sync::Arc::new(text.to_string()),
            diagnostics,
            read: true,
        }],
        context: Vec::new(),
        fixed: None,
    };
    let mut err = anstream::stderr().lock();
    let _ = render::human(&mut err, &report, false, true);
    let _ = writeln!(err, "error: {} has errors; it was not run", path.display());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_are_name_value_pairs() {
        let i = parse_inputs(&["topic=quantum = computing".into(), "empty=".into()]).unwrap();
        assert_eq!(i["topic"], "quantum = computing");
        assert_eq!(i["empty"], "");
        assert!(parse_inputs(&["novalue".into()]).is_err());
        assert!(parse_inputs(&["=x".into()]).is_err());
    }
}
