//! The command line, as clap derive types. Doc comments are the help text.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Language tooling for OpenProse (`.prose` programs).
#[derive(Debug, Parser)]
// `bin_name`: usage lines say `prose` however the binary is named or invoked
// (the end-to-end tests run a copy named `e2e-prose`).
// `version`: the package version and the commit it was built from (build.rs).
#[command(
    name = "prose",
    bin_name = "prose",
    version = env!("PROSE_VERSION"),
    propagate_version = true
)]
#[command(after_help = "Run `prose help <COMMAND>` for the options of one command.")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

// `defer`: the options of a subcommand are defined only when it is the one
// run (its name and summary, on the variant, stay in `prose --help`).
// Defining every subcommand's options was most of the start-up's code: a
// `prose check` ran `prose run`'s and `prose jobs run`'s definitions too.
// The options' structs (`CheckArgs`, ...) are therefore described in plain
// comments: a doc comment there would become the command's help text when
// its options are defined, over the variant's.
#[derive(Debug, Subcommand)]
#[command(defer = true)]
pub enum Command {
    /// Check files and report their problems.
    ///
    /// Every PATH that is a directory is searched recursively for every
    /// kind of document (`*.prose`, job entries, `*.dialect`, `*.md`), in
    /// sorted order; a file named explicitly is checked whatever its
    /// extension. Without a PATH, the workspace root is checked. Problems
    /// are reported on stdout, ordered by path and position; a file that
    /// cannot be read is reported as F001.
    #[command(after_help = CHECK_AFTER_HELP)]
    Check(CheckArgs),

    /// Format OpenProse files in place, in the canonical layout.
    ///
    /// Only whitespace changes: indentation becomes two spaces per level
    /// (a pipeline stage's body four past its `|`), spacing around
    /// operators and punctuation is normalised, trailing blanks and extra
    /// blank lines go. Strings, discretions and comments are never changed.
    /// Directories are searched for `*.prose` files. A file with syntax
    /// errors is left unchanged and named on stderr.
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

    /// Show what the repository's prose.toml chooses that a run needs your
    /// consent for (a command, an executable, an endpoint, environment
    /// passthrough), and whether you allowed it; `--revoke` forgets it.
    ///
    /// `prose run` asks before it uses such a setting and remembers a yes
    /// in ~/.prose/consent.toml, per repository, until the settings change.
    /// See docs/security.md.
    Consent(crate::consent::ConsentArgs),

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

    /// Pattern Dialect, the action language of agents: `prose dialect
    /// parse` reads agent output and prints its actions as JSON lines.
    Dialect(crate::dialect::DialectArgs),

    /// Job entries: `prose jobs run ENTRY TASK` runs a task with an agent
    /// backend (see docs/jobs.md).
    Jobs(crate::jobs::JobsArgs),
}

// Options of `prose lsp`.
#[derive(Debug, Args)]
pub struct LspArgs {
    /// Accepted and ignored: stdio is the only transport (some clients,
    /// such as vscode-languageclient, always pass it).
    #[arg(long, hide = true)]
    pub stdio: bool,
}

const CHECK_AFTER_HELP: &str = "\
Exit status:
  0  no errors (warnings are fine); with --diff: nothing to fix
  1  errors were found (after --fix: errors are left); with --diff: some
     file would change
  2  bad usage, nothing to check, or a file could not be read (F001; the
     other files are still checked)

JSON output (--format json) is one object on one line:
  {\"version\":1,\"files\":N,\"diagnostics\":[{\"path\":..,\"code\":\"E004\",
   \"severity\":\"error\",\"message\":..,\"range\":{\"start\":{\"line\":L,\"column\":C},
   \"end\":{\"line\":L,\"column\":C}}}]}
Lines and columns are 1-based; columns count Unicode scalar values (chars).
A path that could not be read is a diagnostic of code F001 at 1:1. With
--fix, a fourth key \"fixed\" lists the fixes applied.

Configuration: `prose.toml` at the workspace root sets `profile`, `select`,
`ignore` and per-code severities ([severity] W005 = \"off\"); see
docs/configuration.md.

Examples:
  prose check
  prose check examples/
  prose check --fix --diff .
  prose check --profile strict --format json main.prose lib/
  prose check --format github --select E,W005 .
  prose check --stdin-filename main.prose < main.prose";

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
  2  usage error: bad flags, a missing file or input, no backend available,
     or consent refused (the repository's prose.toml chooses a command, an
     executable, an endpoint or environment passthrough you did not allow)

Consent: before a run uses a program, an endpoint or environment variables
that the repository's prose.toml chose, `prose run` prints what that is and
asks (on a terminal; the yes is remembered). --yes allows it for one run.
See docs/security.md.

Examples:
  prose run review.prose --input topic=\"quantum computing\"
  prose run docs/examples/quickstart.prose --backend mock --mock-script docs/examples/quickstart.mock.toml
  prose run flow.prose --backend command --command 'my-agent --quiet'
  prose run --resume 20260115-143052-a7b3c9 flow.prose
  prose run flow.prose --dry-run";

const FMT_AFTER_HELP: &str = "\
Exit status:
  0  every file is formatted (with --check or --diff: no file would change)
  1  with --check or --diff: some file would change
  2  some file could not be formatted (it has syntax errors, or could not be
     read or written; named on stderr, the other files are still formatted),
     bad usage, or nothing to format

Examples:
  prose fmt main.prose lib/
  prose fmt --check .
  prose fmt --diff .";

// Options of `prose fmt`.
#[derive(Debug, Args)]
pub struct FmtArgs {
    /// Change no file: print the paths of the files that are not formatted
    /// and exit with status 1 if there are any.
    #[arg(long)]
    pub check: bool,

    /// Change no file: print a unified diff of what formatting would
    /// change, and exit with status 1 if there is any (implies --check,
    /// without its list of paths).
    #[arg(long)]
    pub diff: bool,

    /// Files and directories to format.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

// Options of `prose run`.
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

    /// Never ask on the terminal: a missing input is a usage error, and so
    /// is a setting that needs consent (unless --yes).
    #[arg(long)]
    pub no_input: bool,

    /// Allow, for this run only and without asking, what the repository's
    /// prose.toml chooses that needs consent (a command, an executable, an
    /// endpoint, environment passthrough); what is allowed is printed on
    /// stderr. For CI.
    #[arg(long, short = 'y')]
    pub yes: bool,

    /// The workspace root (where prose.toml and .prose/ live); found as for
    /// `prose check` by default.
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

// Options of `prose check`.
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

    /// Apply the safe quick fixes (those with one obvious outcome) and
    /// report what is left. A file whose fixes would add an error is left
    /// unchanged.
    #[arg(long)]
    pub fix: bool,

    /// Print what --fix would change as a unified diff and write nothing
    /// (implies --fix).
    #[arg(long)]
    pub diff: bool,

    /// Print how many problems each code has instead of the problems.
    #[arg(long, conflicts_with = "diff")]
    pub statistics: bool,

    /// Print the problems only: no summary, no list of fixes, no warnings.
    #[arg(long, short)]
    pub quiet: bool,

    /// Report only these codes: codes (`E004`), prefixes (`E`, `P6`) or
    /// rule names, comma-separated; replaces `select` of `prose.toml`.
    #[arg(long, value_delimiter = ',', value_name = "CODE,...")]
    pub select: Option<Vec<String>>,

    /// Never report these codes (as --select); added to `ignore` of
    /// `prose.toml`.
    #[arg(long, value_delimiter = ',', value_name = "CODE,...")]
    pub ignore: Vec<String>,

    /// Check the text read from stdin as the file NAME (its kind, its
    /// imports, its place in the workspace come from NAME, which need not
    /// exist). With --fix the fixed text goes to stdout and the report to
    /// stderr.
    #[arg(long, value_name = "NAME", conflicts_with = "paths")]
    pub stdin_filename: Option<PathBuf>,

    /// Files and directories to check (default: the workspace root).
    #[arg(value_name = "PATH")]
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

// The argument of `prose explain`.
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
    /// GitHub Actions workflow commands (`::error file=...::`): annotations
    /// on the pull request.
    Github,
    /// SARIF 2.1.0, for code scanning (GitHub, GitLab, IDEs).
    Sarif,
    /// JUnit XML: one test suite per file, a failed test per error or
    /// warning.
    Junit,
}

// The argument of the `dump-*` commands.
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

    /// The subcommands' options are defined late (`defer`), and then
    /// nothing of their options' structs may replace the command's own
    /// help: each `prose COMMAND --help` opens with the summary that
    /// `prose --help` lists for it, which comes from the variant's doc
    /// comment before any subcommand is built.
    #[test]
    fn deferred_options_keep_each_commands_help() {
        let cli = Cli::command();
        let mut seen = 0;
        for sub in cli.get_subcommands() {
            let name = sub.get_name();
            let summary = sub.get_about().expect("a summary").to_string();
            let help = match Cli::try_parse_from(["prose", name, "--help"]) {
                Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelp => e.to_string(),
                other => panic!("`prose {name} --help` gave {other:?}"),
            };
            assert!(
                help.starts_with(&summary),
                "`prose {name} --help` opens with {:?}, not {summary:?}",
                help.lines().next()
            );
            seen += 1;
        }
        assert_eq!(seen, 10);
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
    fn check_takes_no_path_lists_of_codes_and_stdin() {
        let check = |args: &[&str]| match Cli::try_parse_from(args).map(|c| c.command) {
            Ok(Command::Check(args)) => Ok(args),
            Ok(_) => panic!("not check"),
            Err(e) => Err(e),
        };
        assert!(check(&["prose", "check"]).unwrap().paths.is_empty());
        assert!(check(&["prose", "check", "--format", "xml", "a"]).is_err());
        let args = check(&[
            "prose",
            "check",
            "--select",
            "E,W005",
            "--select=P6",
            "--ignore",
            "E004",
        ])
        .unwrap();
        assert_eq!(args.select.unwrap(), ["E", "W005", "P6"]);
        assert_eq!(args.ignore, ["E004"]);
        assert!(check(&["prose", "check", "--stdin-filename", "a.prose", "b.prose"]).is_err());
        assert!(check(&["prose", "check", "-q", "--fix", "--statistics"]).is_ok());
        assert!(check(&["prose", "check", "--diff", "--statistics"]).is_err());
    }
}
