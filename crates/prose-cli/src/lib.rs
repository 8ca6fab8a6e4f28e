//! The `prose` command line: `check`, `fmt`, `run`, `consent`, `explain`,
//! `dump-cst`, `dump-tokens`, `lsp`, `dialect parse`, `jobs run`.
//!
//! Everything lives in this library so the thin `prose` binary and the
//! end-to-end test harness of the workspace root run the very same code
//! (see `tests/common/mod.rs` at the workspace root).

pub mod args;
pub mod batch;
pub mod check;
pub mod consent;
pub mod dialect;
pub mod diff;
pub mod dump;
pub mod explain;
pub mod fix;
pub mod fmt;
pub mod formats;
pub mod jobs;
pub mod jobs_run;
pub mod line_index;
pub mod live;
pub mod parallel;
pub mod progress;
pub mod render;
pub mod report;
pub mod run;
pub mod source;
pub mod statistics;
pub mod workspace;

use std::{io, process::ExitCode};

use clap::Parser;

use args::{Cli, Command};

/// Runs the CLI on the process arguments; the `prose` binary's `main`.
pub fn main() -> ExitCode {
    // clap prints help/version (exit 0) or a usage error (exit 2) itself.
    let cli = Cli::parse();
    match cli.command {
        Command::Check(args) => check::run(&args),
        Command::Fmt(args) => fmt::run(&args),
        Command::Run(args) => run::run(&args),
        Command::Consent(args) => consent::run(&args),
        Command::Explain(args) => explain::run(args.code.as_deref()),
        Command::DumpCst(args) => dump::cst(&args.file),
        Command::DumpTokens(args) => dump::tokens(&args.file),
        Command::Lsp(_) => prose_lsp::run_stdio(),
        Command::Dialect(args) => dialect::run(&args),
        Command::Jobs(args) => jobs::run(&args),
    }
}

/// Checks a write to stdout. When stdout was closed early
/// (`prose check . | head`) the process stops quietly with `status`, the exit
/// status the command had already decided on; any other write failure is
/// reported and exits with status 2.
pub(crate) fn write_or_exit(result: io::Result<()>, status: u8) {
    match result {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => std::process::exit(status.into()),
        Err(e) => {
            eprintln!("error: cannot write output: {e}");
            std::process::exit(check::EXIT_FAILURE.into());
        }
    }
}
