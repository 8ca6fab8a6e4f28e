//! `prose check`: find files, analyse them through `prose-ide`, fix what
//! is safe to fix (`--fix`), report in the chosen format.

use std::{
    collections::HashSet,
    io::{Read, Write},
    path::{Path, PathBuf},
    process::ExitCode,
    sync::Arc,
};

use prose_ide::{AnalysisHost, Cancellable, Config, Diagnostic, FileId, FileRange, TextRange};

use crate::{
    args::{CheckArgs, Format},
    diff, fix, formats, parallel, render,
    report::{CheckedFile, Fixed, Report, plural},
    source::{LoadError, collect_files, empty_dirs, read_source, report_load_error},
    statistics, workspace, write_or_exit,
};

/// Exit status: no errors (warnings are fine).
pub const EXIT_OK: u8 = 0;
/// Exit status: some file has an error-severity diagnostic.
pub const EXIT_ERRORS: u8 = 1;
/// Exit status: bad usage, or a path could not be read.
pub const EXIT_FAILURE: u8 = 2;

pub fn run(args: &CheckArgs) -> ExitCode {
    // Colours are decided for the terminal, then the buffer sits under the
    // colour stripper: stripping writes each styled piece on its own, which
    // on a bare stdout lock is a system call per line of the report.
    let choice = anstream::AutoStream::choice(&std::io::stdout());
    let buffered: Box<dyn Write> = Box::new(std::io::BufWriter::with_capacity(
        64 * 1024,
        std::io::stdout().lock(),
    ));
    // Styles the stream would strip are not made at all, and then nothing
    // is left to strip: the report goes to the buffer as it is (the
    // stripper reads every byte of it, a percent of a run on a long report).
    let styled = choice != anstream::ColorChoice::Never;
    let out: Box<dyn Write> = if styled {
        Box::new(anstream::AutoStream::new(buffered, choice))
    } else {
        buffered
    };
    ExitCode::from(check(args, out, Teardown::Leave, styled))
}

/// What becomes of the analysis (the database, every file's tree and
/// diagnostics) once the report is written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Teardown {
    /// Freed, as a library call must (tests, benchmarks).
    Drop,
    /// Left to the end of the process, which is about to exit: freeing
    /// every node of every tree a piece at a time is a few per cent of a
    /// whole run, on the one thread, for nothing.
    Leave,
}

/// One file to check: how it is shown, its analysis key, its id.
struct Loaded {
    path: String,
    key: String,
    id: FileId,
    /// The text the analysis holds (shared, so a report of large files
    /// does not keep a second copy).
    text: Arc<String>,
}

/// Runs the check, writing the report to `out`; returns the exit status.
pub fn run_with_output(args: &CheckArgs, out: Box<dyn Write>) -> u8 {
    check(args, out, Teardown::Drop, true)
}

/// The check, writing to `out` (styled unless `styled` is false).
fn check(args: &CheckArgs, out: Box<dyn Write>, teardown: Teardown, styled: bool) -> u8 {
    let mut out = std::io::BufWriter::with_capacity(64 * 1024, out);
    let (root, config) = match settings(args) {
        Ok(settings) => settings,
        Err(message) => {
            anstream::eprintln!("error: {message}");
            return EXIT_FAILURE;
        }
    };
    // Diagnostics come from prose-ide, the same analysis the language
    // server uses, so `prose check` and the editor never disagree.
    // Each text is analysed once, unless fixes change it.
    let fixing = args.fix || args.diff;
    let mut host = if fixing {
        AnalysisHost::new()
    } else {
        AnalysisHost::for_batch()
    };
    workspace::configure(&mut host, &root, config.clone());
    let mut failures: Vec<LoadError> = Vec::new();
    let mut stdin_bytes = None;
    let mut loaded = match &args.stdin_filename {
        Some(name) => {
            let (loaded, bytes) = load_stdin(&mut host, name, &mut failures);
            stdin_bytes = Some(bytes);
            loaded
        }
        None => match load_paths(args, &root, &config, &mut host, &mut failures) {
            Ok(loaded) => loaded,
            Err(message) => {
                anstream::eprintln!("error: {message}");
                return EXIT_FAILURE;
            }
        },
    };
    let files: Vec<_> = loaded.iter().map(|l| (l.id, l.text.len())).collect();
    // Fixing changes the texts: diagnostics computed before would be lost.
    workspace::load_dependencies(&mut host, &files, !fixing);

    let mut fixed = Vec::new();
    if fixing {
        let mut changed = Vec::new();
        for l in &mut loaded {
            let result = fix::fix_file(&mut host, l.id, &l.key, &l.path);
            if let Some(why) = &result.refused
                && !args.quiet
            {
                anstream::eprintln!("warning: {} was not fixed: {why}", l.path);
            }
            fixed.extend(result.fixed);
            if result.text != result.original {
                // The report shows the fixed text.
                l.text = Arc::new(result.text.clone());
                changed.push((l.path.clone(), result.original, result.text));
            }
        }
        if args.diff {
            return print_diffs(&mut out, args, &changed, &fixed, &failures);
        }
        if let Some(bytes) = &stdin_bytes {
            // The fixed text is the output; the report goes to stderr.
            let text = changed.first().map(|(_, _, text)| text.as_bytes());
            let written = out
                .write_all(text.unwrap_or(bytes))
                .and_then(|()| out.flush());
            write_or_exit(written, EXIT_FAILURE);
            out = std::io::BufWriter::with_capacity(64 * 1024, Box::new(anstream::stderr()));
        } else {
            for (path, _, text) in &changed {
                if let Err(e) = std::fs::write(path, text) {
                    anstream::eprintln!("error: cannot write {path}: {e}");
                    return EXIT_FAILURE;
                }
            }
        }
    }

    let mut report = Report {
        files: analyse(&host, &loaded),
        context: Vec::new(),
        fixed: fixing.then_some(fixed),
    };
    report.files.extend(
        failures
            .iter()
            .map(|e| CheckedFile::unread(e.path().display().to_string(), e.to_string())),
    );
    report
        .files
        .sort_by(|a, b| Path::new(&a.path).cmp(Path::new(&b.path)));
    report.context = context_files(&host, &report);
    if args.format != Format::Human {
        // The report holds them as F001; people watching the log see them too.
        failures.iter().for_each(report_load_error);
    }

    let status = exit_status(!failures.is_empty(), report.has_errors());
    let written = if args.statistics {
        let fixable = fixable(&host, &loaded);
        let is_fixable = |f: &CheckedFile, d: &Diagnostic| {
            fixable.contains(&(f.key.clone(), d.code.as_str(), d.range))
        };
        let rows = statistics::rows(&report, &is_fixable);
        match args.format {
            Format::Json => statistics::json(&mut out, &rows),
            _ => statistics::human(&mut out, &rows).and_then(|()| {
                if args.quiet {
                    Ok(())
                } else {
                    writeln!(out, "{}", crate::report::summary(&report))
                }
            }),
        }
    } else {
        match args.format {
            Format::Human => render::human(&mut out, &report, args.quiet, styled),
            Format::Json => render::json(&mut out, &report),
            Format::Github => formats::github::write(&mut out, &report),
            Format::Sarif => formats::sarif::write(&mut out, &report, config.docs_url.as_deref()),
            Format::Junit => formats::junit::write(&mut out, &report),
        }
    };
    write_or_exit(written.and_then(|()| out.flush()), status);
    if teardown == Teardown::Leave {
        std::mem::forget((host, loaded, report));
    }
    status
}

/// 2 when something could not be read, else 1 when `problems`, else 0.
pub(crate) fn exit_status(unreadable: bool, problems: bool) -> u8 {
    if unreadable {
        EXIT_FAILURE
    } else if problems {
        EXIT_ERRORS
    } else {
        EXIT_OK
    }
}

/// The root and its configuration with the command line's overrides.
fn settings(args: &CheckArgs) -> Result<(PathBuf, Config), String> {
    if args.statistics && matches!(args.format, Format::Github | Format::Sarif | Format::Junit) {
        return Err("--statistics prints with --format human or json only".into());
    }
    if let Some(root) = &args.root
        && !root.is_dir()
    {
        return Err(format!("--root {} is not a directory", root.display()));
    }
    let root = workspace::find_root(args.root.as_deref());
    let mut config = workspace::load_config(&root)?;
    if let Some(profile) = args.profile {
        config.profile = profile.into();
    }
    if let Some(select) = &args.select {
        let codes = prose_ide::config::resolve_selectors(select, "--select");
        config.select = Some(codes.map_err(|e| e.message)?);
    }
    let ignore = prose_ide::config::resolve_selectors(&args.ignore, "--ignore");
    config.ignore.extend(ignore.map_err(|e| e.message)?);
    Ok((root, config))
}

/// Reads the text of `--stdin-filename NAME` into the host as the file
/// NAME; returns it and the bytes read (echoed by `--fix` when they are
/// not text).
fn load_stdin(
    host: &mut AnalysisHost,
    name: &Path,
    failures: &mut Vec<LoadError>,
) -> (Vec<Loaded>, Vec<u8>) {
    let mut bytes = Vec::new();
    if let Err(e) = std::io::stdin().lock().read_to_end(&mut bytes) {
        failures.push(LoadError::Io(name.to_path_buf(), e));
        return (Vec::new(), bytes);
    }
    match String::from_utf8(bytes.clone()) {
        Ok(text) => {
            let key = workspace::key(name);
            let text = Arc::new(text);
            let id = host.set_file_text_shared(&key, text.clone());
            let path = name.display().to_string();
            (
                vec![Loaded {
                    path,
                    key,
                    id,
                    text,
                }],
                bytes,
            )
        }
        Err(e) => {
            let offset = e.utf8_error().valid_up_to();
            failures.push(LoadError::NotUtf8(name.to_path_buf(), offset));
            (Vec::new(), bytes)
        }
    }
}

/// From how many files [`load_paths`] reads them on several threads.
const READ_IN_PARALLEL: usize = 16;

/// Finds and reads the files below the paths (the root without paths).
/// Directories give every file of a known kind (docs/languages.md). An
/// error when there is nothing at all to check.
fn load_paths(
    args: &CheckArgs,
    root: &Path,
    config: &Config,
    host: &mut AnalysisHost,
    failures: &mut Vec<LoadError>,
) -> Result<Vec<Loaded>, String> {
    let implicit = args.paths.is_empty();
    let paths = if implicit {
        vec![workspace::relative_to_cwd(root)]
    } else {
        args.paths.clone()
    };
    let root_key = workspace::key(root);
    let accept = |path: &Path| {
        prose_ide::kind::kind_of_path(&workspace::key(path), Some(&root_key), config).is_some()
    };
    let mut files = collect_files(&paths, &accept, failures);
    let empty = empty_dirs(&paths, &files);
    if files.is_empty() && failures.is_empty() {
        let what = if implicit { "the workspace root " } else { "" };
        let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        return Err(format!(
            "nothing to check: {what}{} holds no file of a known kind (*.prose, *.dialect, *.md, job entries)",
            shown.join(", ")
        ));
    }
    if !args.quiet {
        for dir in empty {
            anstream::eprintln!("warning: {} holds no file to check", dir.display());
        }
    }
    if implicit && paths[0] == Path::new(".") {
        // `prose check` in the root shows `a.prose`, not `./a.prose`.
        for f in &mut files {
            if let Ok(rel) = f.strip_prefix(".") {
                *f = rel.to_path_buf();
            }
        }
    }
    // Reading is system calls, a few per file: many files are read on one
    // thread per core (a thread costs more than reading a few).
    let texts: Vec<Result<String, LoadError>> = if files.len() >= READ_IN_PARALLEL {
        parallel::each(&files, || (), |(), path| read_source(path))
    } else {
        files.iter().map(|path| read_source(path)).collect()
    };
    let mut loaded = Vec::new();
    for (path, text) in files.into_iter().zip(texts) {
        match text {
            Ok(text) => {
                let key = workspace::key(&path);
                let text = Arc::new(text);
                let id = host.set_file_text_shared(&key, text.clone());
                let path = path.display().to_string();
                loaded.push(Loaded {
                    path,
                    key,
                    id,
                    text,
                });
            }
            Err(e) => failures.push(e),
        }
    }
    Ok(loaded)
}

/// `--diff`: the unified diffs of what `--fix` would change, on `out`; a
/// summary on stderr. Status 1 when something would change.
fn print_diffs(
    out: &mut dyn Write,
    args: &CheckArgs,
    changed: &[(String, String, String)],
    fixed: &[Fixed],
    failures: &[LoadError],
) -> u8 {
    failures.iter().for_each(report_load_error);
    let status = exit_status(!failures.is_empty(), !changed.is_empty());
    let written = changed
        .iter()
        .try_for_each(|(path, old, new)| out.write_all(diff::unified(path, old, new).as_bytes()))
        .and_then(|()| out.flush());
    write_or_exit(written, status);
    if !args.quiet {
        anstream::eprintln!(
            "would fix {} in {}",
            plural(fixed.len(), "problem"),
            plural(changed.len(), "file")
        );
    }
    status
}

/// Computes the diagnostics of `loaded` files on one thread per core
/// ([`parallel::map`]); the result keeps the input order.
fn analyse(host: &AnalysisHost, loaded: &[Loaded]) -> Vec<CheckedFile> {
    parallel::map(host, loaded, |analysis, l| {
        Ok(CheckedFile {
            path: l.path.clone(),
            key: l.key.clone(),
            text: l.text.clone(),
            diagnostics: sorted(analysis.diagnostics(l.id)?),
            read: true,
        })
    })
}

/// The diagnostics (file key, code, range) that have a safe fix.
fn fixable(host: &AnalysisHost, loaded: &[Loaded]) -> HashSet<(String, &'static str, TextRange)> {
    parallel::map(host, loaded, |analysis, l| {
        let len = analysis.file_text(l.id)?.len() as u32;
        let range = TextRange::up_to(len.into());
        let actions = analysis.code_actions(FileRange { file: l.id, range })?;
        Ok(actions
            .into_iter()
            .filter(|a| a.is_safe)
            .filter_map(|a| Some((l.key.clone(), a.diagnostic_code?, a.diagnostic_range?)))
            .collect::<Vec<_>>())
    })
    .into_iter()
    .flatten()
    .collect()
}

/// The files that related notes point into and that are not reported on
/// (imported programs), shown relative to the current directory.
fn context_files(host: &AnalysisHost, report: &Report) -> Vec<CheckedFile> {
    let reported: HashSet<&str> = report.files.iter().map(|f| f.key.as_str()).collect();
    let mut keys: Vec<&str> = report
        .diagnostics()
        .flat_map(|(_, d)| &d.related)
        .map(|r| r.path.as_str())
        .filter(|k| !reported.contains(k))
        .collect();
    keys.sort_unstable();
    keys.dedup();
    let analysis = host.analysis();
    keys.into_iter()
        .filter_map(|key| {
            let text = uncancelled(analysis.file_text_at(key))?;
            Some(CheckedFile {
                path: workspace::relative_to_cwd(Path::new(key))
                    .display()
                    .to_string(),
                key: key.to_string(),
                text: Arc::new(text),
                diagnostics: Vec::new(),
                read: true,
            })
        })
        .collect()
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
