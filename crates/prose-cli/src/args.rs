//! The command line, as clap derive types. Doc comments are the help text.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Language tooling for OpenProse (`.prose` programs).
#[derive(Debug, Parser)]
// `bin_name`: usage lines say `prose` however the binary is named or invoked
// (the end-to-end tests run a copy named `e2e-prose`).
#[command(name = "prose", bin_name = "prose", version, propagate_version = true)]
#[command(after_help = "Run `prose help <COMMAND>` for the options of one command.")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check OpenProse files and report their problems.
    ///
    /// Every PATH that is a directory is searched recursively for `*.prose`
    /// files (in sorted order); a file named explicitly is checked whatever
    /// its extension. Problems are reported on stdout, ordered by path and
    /// position; files that cannot be read are reported on stderr.
    #[command(after_help = CHECK_AFTER_HELP)]
    Check(CheckArgs),

    /// Format OpenProse files in place, in the canonical layout.
    ///
    /// Only whitespace changes: indentation becomes two spaces per level,
    /// spacing around operators and punctuation is normalised, trailing
    /// blanks and extra blank lines go. Strings, discretions and comments
    /// are never changed. Directories are searched for `*.prose` files as
    /// by `prose check`. A file with syntax errors is left unchanged and
    /// named on stderr.
    #[command(after_help = FMT_AFTER_HELP)]
    Fmt(FmtArgs),

    /// Run a program with an agent backend.
    ///
    /// A program with errors is not run: its diagnostics are printed as
    /// `prose check` prints them. Progress goes to the terminal (a line per
    /// session), the program's outputs to stdout at the end. State lives in
    /// `.prose/runs/RUN_ID/` under the workspace root: `--resume RUN_ID`
    /// continues a run that was cancelled or crashed without repeating a
    /// finished session. Ctrl-C cancels cleanly.
    #[command(after_help = RUN_AFTER_HELP)]
    Run(Box<RunArgs>),

    /// Explain a diagnostic code: what it means, an example, how to fix it.
    Explain(ExplainArgs),

    /// Print the concrete syntax tree of a file, then its syntax errors.
    ///
    /// A debugging aid: the format is not stable.
    #[command(name = "dump-cst")]
    DumpCst(DumpArgs),

    /// Print the tokens of a file as `KIND "text"` lines, then lexer errors.
    ///
    /// A debugging aid: the format is not stable.
    #[command(name = "dump-tokens")]
    DumpTokens(DumpArgs),

    /// Run the language server on stdin/stdout (the same server as the
    /// `prose-lsp` binary); editors start it. See docs/lsp.md.
    Lsp(LspArgs),
}

/// Options of `prose lsp`.
#[derive(Debug, Args)]
pub struct LspArgs {
    /// Accepted and ignored: stdio is the only transport (some clients,
    /// such as vscode-languageclient, always pass it).
    #[arg(long, hide = true)]
    pub stdio: bool,
}

const CHECK_AFTER_HELP: &str = "\
Exit status:
  0  no errors (warnings are fine)
  1  errors were found
  2  bad usage, or a path could not be read (the other paths are still checked)

JSON output (--format json) is one object on one line:
  {\"version\":1,\"files\":N,\"diagnostics\":[{\"path\":..,\"code\":\"E004\",
   \"severity\":\"error\",\"message\":..,\"range\":{\"start\":{\"line\":L,\"column\":C},
   \"end\":{\"line\":L,\"column\":C}}}]}
Lines and columns are 1-based; columns count Unicode scalar values (chars).

Configuration: `prose.toml` at the workspace root sets `profile` and
per-code severities ([severity] W005 = \"off\"); see docs/configuration.md.

Examples:
  prose check examples/
  prose check --profile strict --format json main.prose lib/";

const RUN_AFTER_HELP: &str = "\
Backends (--backend, or `backend = \"...\"` in the [runner] table of prose.toml):
  claude     the Claude Code CLI (`claude -p`); the default when it is on PATH
  codex      the Codex CLI (`codex exec`)
  openai     an OpenAI-compatible HTTP API ([runner.openai] base_url, api_key_env)
  anthropic  the Anthropic Messages API
  command    any program, prompt on stdin (--command 'PROGRAM ARGS...')
  mock       offline scripted answers (--mock-script FILE)

Exit status:
  0  the program finished
  1  the program failed, was cancelled, or has errors and was not run
  2  usage error: bad flags, a missing file or input, no backend available

Examples:
  prose run review.prose --input topic=\"quantum computing\"
  prose run docs/examples/quickstart.prose --backend mock --mock-script docs/examples/quickstart.mock.toml
  prose run flow.prose --backend command --command 'my-agent --quiet'
  prose run --resume 20260115-143052-a7b3c9 flow.prose
  prose run flow.prose --dry-run";

const FMT_AFTER_HELP: &str = "\
Exit status:
  0  every file is formatted (with --check: no file would change)
  1  with --check: some file would change (its path is printed on stdout);
     or some file has syntax errors and was left unchanged (named on stderr)
  2  bad usage, or a path could not be read or written (the other paths are
     still formatted)

Examples:
  prose fmt main.prose lib/
  prose fmt --check .";

/// Options of `prose fmt`.
#[derive(Debug, Args)]
pub struct FmtArgs {
    /// Change no file: print the paths of the files that are not formatted
    /// and exit with status 1 if there are any.
    #[arg(long)]
    pub check: bool,

    /// Files and directories to format.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

/// Options of `prose run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The program to run.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,

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

    /// A program input, `NAME=VALUE` (repeatable).
    #[arg(long = "input", short = 'i', value_name = "NAME=VALUE")]
    pub inputs: Vec<String>,

    /// The model alias of sessions that name none (sonnet, opus, haiku).
    #[arg(long, value_name = "ALIAS")]
    pub model: Option<String>,

    /// How long one backend request may take: 90s, 10m, 1h.
    #[arg(long, value_name = "DURATION")]
    pub timeout: Option<String>,

    /// At most this many backend requests at once.
    #[arg(long, value_name = "N")]
    pub max_parallel: Option<u64>,

    /// An environment variable to pass to backend processes (repeatable).
    #[arg(long = "env", value_name = "NAME")]
    pub env: Vec<String>,

    /// Continue the run RUN_ID (its own copy of the program is run).
    #[arg(long, value_name = "RUN_ID")]
    pub resume: Option<String>,

    /// Print the execution plan; call no backend.
    #[arg(long)]
    pub dry_run: bool,

    /// Write the run's events to stdout, one JSON object per line (and
    /// nothing else); see docs/runner.md.
    #[arg(long, value_name = "FORMAT", value_parser = ["jsonl"])]
    pub events: Option<String>,

    /// Also append the events, as JSON lines, to this file.
    #[arg(long, value_name = "PATH")]
    pub events_file: Option<PathBuf>,

    /// Run even when the backend cannot enforce an agent's permissions
    /// (the run's state records it).
    #[arg(long)]
    pub allow_unenforced_permissions: bool,

    /// Never ask for inputs: a missing input is a usage error.
    #[arg(long)]
    pub no_input: bool,

    /// The workspace root (where prose.toml and .prose/ live); found as for
    /// `prose check` by default.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

/// Options of `prose check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,

    /// Which reading of the specification to apply; overrides `profile` in
    /// `prose.toml`. `default` is calibrated on real programs, `strict`
    /// reports compiler.md literally.
    #[arg(long, value_enum)]
    pub profile: Option<ProfileArg>,

    /// The workspace root (where `prose.toml`, `.prose/agents/` and
    /// `.prose/imports/` live). Default: the nearest ancestor of the current
    /// directory with `prose.toml` or `.prose/`, else the current directory.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,

    /// Files and directories to check.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

/// The `--profile` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ProfileArg {
    /// Calibrated on the official programs.
    Default,
    /// compiler.md, literally.
    Strict,
}

impl From<ProfileArg> for prose_ide::Profile {
    fn from(p: ProfileArg) -> Self {
        match p {
            ProfileArg::Default => prose_ide::Profile::Default,
            ProfileArg::Strict => prose_ide::Profile::Strict,
        }
    }
}

/// The argument of `prose explain`.
#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// A diagnostic code (`E006`, `W005`, `P601`) or rule name
    /// (`duplicate-agent`). Without it, every code is listed.
    #[arg(value_name = "CODE")]
    pub code: Option<String>,
}

/// How `prose check` prints its report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Annotated source snippets and a summary line, for people.
    Human,
    /// One JSON object (a stable format, `"version":1`), for tools.
    Json,
}

/// The argument of the `dump-*` commands.
#[derive(Debug, Args)]
pub struct DumpArgs {
    /// The file to dump.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn clap_definition_is_valid() {
        Cli::command().debug_assert();
    }

    #[test]
    fn check_defaults_to_human() {
        let cli = Cli::try_parse_from(["prose", "check", "a.prose"]).unwrap();
        let Command::Check(args) = cli.command else {
            panic!("not check")
        };
        assert_eq!(args.format, Format::Human);
        assert_eq!(args.paths, vec![PathBuf::from("a.prose")]);
    }

    #[test]
    fn fmt_takes_check_and_paths() {
        let cli = Cli::try_parse_from(["prose", "fmt", "--check", "a.prose", "lib"]).unwrap();
        let Command::Fmt(args) = cli.command else {
            panic!("not fmt")
        };
        assert!(args.check);
        assert_eq!(args.paths.len(), 2);
        assert!(Cli::try_parse_from(["prose", "fmt"]).is_err());
    }

    #[test]
    fn check_needs_a_path() {
        assert!(Cli::try_parse_from(["prose", "check"]).is_err());
        assert!(Cli::try_parse_from(["prose", "check", "--format", "xml", "a"]).is_err());
    }
}
