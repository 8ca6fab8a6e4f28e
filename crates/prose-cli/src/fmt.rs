//! `prose fmt`: rewrite files in the canonical layout with `prose-ide`'s
//! formatter (the one the language server uses), or with `--check` list
//! the files that are not in it, or with `--diff` show the changes.
//!
//! Files are found as by `prose check` (programs only). A file is written
//! only when its text changes. A file with syntax errors is never
//! formatted: it is named on stderr and the exit status is 2, as for a
//! file that could not be read, so "would reformat" (1) and "could not
//! format" (2) are told apart.

use std::{fs, io::Write, path::Path, process::ExitCode};

use prose_ide::features::formatting::format_text;

use crate::{
    args::FmtArgs,
    check::{EXIT_FAILURE, exit_status},
    diff,
    source::{collect_files, empty_dirs, is_program, read_source, report_load_error},
    write_or_exit,
};

pub fn run(args: &FmtArgs) -> ExitCode {
    ExitCode::from(run_with_output(args, Box::new(std::io::stdout().lock())))
}

/// Formats (or checks) the files, printing the unformatted paths of
/// `--check` (or the diffs of `--diff`) to `out`; returns the exit status.
pub fn run_with_output(args: &FmtArgs, out: Box<dyn Write>) -> u8 {
    let mut out = std::io::BufWriter::new(out);
    let mut load_errors = Vec::new();
    let files = collect_files(&args.paths, &is_program, &mut load_errors);
    for e in &load_errors {
        report_load_error(e);
    }
    if files.is_empty() && load_errors.is_empty() {
        let shown: Vec<String> = args.paths.iter().map(|p| p.display().to_string()).collect();
        anstream::eprintln!(
            "error: nothing to format: {} holds no *.prose file",
            shown.join(", ")
        );
        return EXIT_FAILURE;
    }
    for dir in empty_dirs(&args.paths, &files) {
        anstream::eprintln!("warning: {} holds no *.prose file", dir.display());
    }
    let mut failed = !load_errors.is_empty();
    let mut unformatted = Vec::new();
    let mut diffs = String::new();
    for path in files {
        let text = match read_source(&path) {
            Ok(text) => text,
            Err(e) => {
                report_load_error(&e);
                failed = true;
                continue;
            }
        };
        let Some(formatted) = format_text(&text) else {
            report(&not_formatted(&path, &text));
            failed = true;
            continue;
        };
        if formatted == text {
            continue;
        }
        if args.diff {
            diffs.push_str(&diff::unified(
                &path.display().to_string(),
                &text,
                &formatted,
            ));
            unformatted.push(path);
        } else if args.check {
            unformatted.push(path);
        } else if let Err(e) = fs::write(&path, formatted) {
            report(&format!("cannot write {}: {e}", path.display()));
            failed = true;
        }
    }
    let status = exit_status(failed, !unformatted.is_empty());
    let written = if args.diff {
        out.write_all(diffs.as_bytes())
    } else {
        unformatted
            .iter()
            .try_for_each(|p| writeln!(out, "{}", p.display()))
    };
    let written = written.and_then(|()| out.flush());
    write_or_exit(written, status);
    status
}

/// Why `path` was left unchanged.
fn not_formatted(path: &Path, text: &str) -> String {
    let errors = prose_syntax::parse(text).broken().count();
    let path = path.display();
    match errors {
        // The formatter refused its own result: a bug, never seen on the
        // official programs.
        0 => format!(
            "{path} was not formatted: the result would not be the same program (please report this)"
        ),
        1 => format!("{path} was not formatted: it has a syntax error (see `prose check {path}`)"),
        n => {
            format!("{path} was not formatted: it has {n} syntax errors (see `prose check {path}`)")
        }
    }
}

/// Prints `error: message` on stderr (coloured on a terminal).
fn report(message: &str) {
    let report = &[annotate_snippets::Group::with_title(
        annotate_snippets::Level::ERROR.primary_title(message),
    )];
    anstream::eprintln!("{}", crate::render::renderer().render(report));
}
