//! `prose check`: find files, analyse them through `prose-ide`, report.

use std::{io::Write, process::ExitCode};

use prose_ide::{AnalysisHost, Cancellable, Diagnostic, Severity};

use crate::{
    args::{CheckArgs, Format},
    render::{self, CheckedFile},
    source::{LoadError, collect_files, read_source, report_load_error},
    workspace, write_or_exit,
};

/// Exit status: no errors (warnings are fine).
pub const EXIT_OK: u8 = 0;
/// Exit status: some file has an error-severity diagnostic.
pub const EXIT_ERRORS: u8 = 1;
/// Exit status: bad usage, or a path could not be read.
pub const EXIT_FAILURE: u8 = 2;

pub fn run(args: &CheckArgs) -> ExitCode {
    let status = run_with_output(args, Box::new(anstream::stdout().lock()));
    ExitCode::from(status)
}

/// Runs the check, writing the report to `out`; returns the exit status.
pub fn run_with_output(args: &CheckArgs, out: Box<dyn Write>) -> u8 {
    let mut out = std::io::BufWriter::with_capacity(64 * 1024, out);
    // Diagnostics come from prose-ide, the same analysis the language
    // server uses, so `prose check` and the editor never disagree.
    let root = workspace::find_root(args.root.as_deref());
    let mut config = match workspace::load_config(&root) {
        Ok(config) => config,
        Err(message) => {
            eprintln!("error: {message}");
            return EXIT_FAILURE;
        }
    };
    if let Some(profile) = args.profile {
        config.profile = profile.into();
    }
    // Directories give every file of a known kind (docs/languages.md).
    let mut failures: Vec<LoadError> = Vec::new();
    let root_key = workspace::key(&root);
    let accept = |path: &std::path::Path| {
        prose_ide::kind::kind_of_path(&workspace::key(path), Some(&root_key), &config).is_some()
    };
    let paths = collect_files(&args.paths, &accept, &mut failures);
    let mut host = AnalysisHost::new();
    workspace::configure(&mut host, &root, config);
    let mut loaded = Vec::new();
    for path in paths {
        match read_source(&path) {
            Ok(text) => {
                let display = path.display().to_string();
                let id = host.set_file_text(&workspace::key(&path), text);
                loaded.push((display, id));
            }
            Err(e) => failures.push(e),
        }
    }
    for failure in &failures {
        report_load_error(failure);
    }
    let ids: Vec<_> = loaded.iter().map(|(_, id)| *id).collect();
    workspace::load_dependencies(&mut host, &ids);

    let files = analyse(&host, loaded);

    let has_errors = files
        .iter()
        .flat_map(|f| &f.diagnostics)
        .any(|d| d.severity == Severity::Error);
    let status = if !failures.is_empty() {
        EXIT_FAILURE
    } else if has_errors {
        EXIT_ERRORS
    } else {
        EXIT_OK
    };

    let written = match args.format {
        Format::Human => render::human(&mut out, &files),
        Format::Json => render::json(&mut out, &files),
    };
    write_or_exit(written.and_then(|()| out.flush()), status);
    status
}

/// Computes the diagnostics of `loaded` files on one thread per core, each
/// with its own database snapshot; the result keeps the input order.
fn analyse(host: &AnalysisHost, loaded: Vec<(String, prose_ide::FileId)>) -> Vec<CheckedFile> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(loaded.len().max(1));
    let chunk = loaded.len().div_ceil(threads).max(1);
    let mut files: Vec<CheckedFile> = Vec::with_capacity(loaded.len());
    std::thread::scope(|scope| {
        let workers: Vec<_> = loaded
            .chunks(chunk)
            .map(|part| {
                let analysis = host.analysis();
                scope.spawn(move || {
                    part.iter()
                        .map(|(path, id)| CheckedFile {
                            path: path.clone(),
                            text: uncancelled(analysis.file_text(*id)),
                            diagnostics: sorted(uncancelled(analysis.diagnostics(*id))),
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for w in workers {
            files.extend(w.join().expect("an analysis thread panicked"));
        }
    });
    files
}

/// Orders by position (the JSON contract), keeping prose-ide's order for
/// diagnostics at the same range.
fn sorted(mut diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    diagnostics.sort_by_key(|d| (d.range.start(), d.range.end()));
    diagnostics
}

/// The CLI never changes the inputs while it queries, so nothing cancels.
pub(crate) fn uncancelled<T>(result: Cancellable<T>) -> T {
    result.expect("no concurrent changes in the CLI, so no cancellation")
}
