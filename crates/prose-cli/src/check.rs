//! `prose check`: find files, analyse them through `prose-ide`, fix what
//! is safe to fix (`--fix`), report in the chosen format.

use std::{
    cell::RefCell,
    collections::{BTreeMap, HashSet},
    io::{Read, Write},
    path::{Path, PathBuf},
    process::ExitCode,
    sync::Arc,
};

use prose_ide::{AnalysisHost, Cancellable, Config, Diagnostic, FileId, FileRange, TextRange};

use crate::{
    args::{CheckArgs, Format},
    batch, diff, fix, formats, parallel, render,
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
    ExitCode::from(check(args, out, Teardown::Leave, styled, batch::BYTES))
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

/// A file read for checking: how it is shown, its analysis key, its text.
#[derive(Clone)]
struct Source {
    path: String,
    key: String,
    /// Shared with the analysis, so a report of large files does not keep a
    /// second copy.
    text: Arc<String>,
}

/// A file to check in a database: its source and its id there.
struct Loaded {
    source: Source,
    id: FileId,
}

/// `host` configured and holding `sources`, with what they need loaded
/// (the work of that on up to `threads` threads; with `warm`, their
/// diagnostics too when there are spare threads, see
/// [`workspace::load_dependencies`]).
fn load(
    mut host: AnalysisHost,
    root: &Path,
    config: &Config,
    sources: &[Source],
    warm: bool,
    threads: usize,
) -> (AnalysisHost, Vec<Loaded>) {
    workspace::configure(&mut host, root, config.clone());
    let loaded: Vec<Loaded> = sources
        .iter()
        .map(|s| Loaded {
            id: host.set_file_text_shared(&s.key, s.text.clone()),
            source: s.clone(),
        })
        .collect();
    let files: Vec<_> = loaded.iter().map(|l| (l.id, l.source.text.len())).collect();
    workspace::load_dependencies(&mut host, &files, warm, threads);
    (host, loaded)
}

/// A batch database for analysing `sources` once ([`load`]).
fn batch_host(
    root: &Path,
    config: &Config,
    sources: &[Source],
    threads: usize,
) -> (AnalysisHost, Vec<Loaded>) {
    load(
        AnalysisHost::for_batch(),
        root,
        config,
        sources,
        true,
        threads,
    )
}

/// A thread's last batch: freed when the thread takes the next one, and
/// at the end, unless it is left to the end of the process
/// ([`Teardown::Leave`]).
struct Kept {
    batch: RefCell<Option<(AnalysisHost, Vec<Loaded>)>>,
    teardown: Teardown,
}

impl Drop for Kept {
    fn drop(&mut self) {
        if self.teardown == Teardown::Leave {
            std::mem::forget(self.batch.take());
        }
    }
}

/// What the analysis of the checked files gives the report.
#[derive(Default)]
struct Analysed {
    files: Vec<CheckedFile>,
    /// The files that related notes point into and that are not checked,
    /// by key.
    context: BTreeMap<String, CheckedFile>,
    /// With `--statistics`: the diagnostics (file key, code, range) that
    /// have a safe fix.
    fixable: HashSet<(String, &'static str, TextRange)>,
}

impl Analysed {
    /// What `host` says of `loaded`, on up to `threads` threads;
    /// `checked` holds the keys of every file checked (of every batch).
    fn of(
        host: &AnalysisHost,
        loaded: &[Loaded],
        checked: &HashSet<&str>,
        statistics: bool,
        threads: usize,
    ) -> Analysed {
        let files = analyse(host, loaded, threads);
        let context = context_files(host, &files, checked)
            .into_iter()
            .map(|c| (c.key.clone(), c))
            .collect();
        let fixable = if statistics {
            fixable(host, loaded, threads)
        } else {
            HashSet::new()
        };
        Analysed {
            files,
            context,
            fixable,
        }
    }

    /// Adds the analysis of other files.
    fn merge(&mut self, other: Analysed) {
        self.files.extend(other.files);
        for (key, file) in other.context {
            self.context.entry(key).or_insert(file);
        }
        self.fixable.extend(other.fixable);
    }
}

/// Runs the check, writing the report to `out`; returns the exit status.
pub fn run_with_output(args: &CheckArgs, out: Box<dyn Write>) -> u8 {
    check(args, out, Teardown::Drop, true, batch::BYTES)
}

/// The check, writing to `out` (styled unless `styled` is false), the
/// files analysed in batches of `batch_bytes` ([`batch`]).
fn check(
    args: &CheckArgs,
    out: Box<dyn Write>,
    teardown: Teardown,
    styled: bool,
    batch_bytes: usize,
) -> u8 {
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
    let mut failures: Vec<LoadError> = Vec::new();
    let mut stdin_bytes = None;
    let sources = match &args.stdin_filename {
        Some(name) => {
            let (sources, bytes) = read_stdin(name, &mut failures);
            stdin_bytes = Some(bytes);
            sources
        }
        None => match read_paths(args, &root, &config, &mut failures) {
            Ok(sources) => sources,
            Err(message) => {
                anstream::eprintln!("error: {message}");
                return EXIT_FAILURE;
            }
        },
    };
    let keys: Vec<String> = sources.iter().map(|s| s.key.clone()).collect();
    let mut checked: HashSet<&str> = keys.iter().map(String::as_str).collect();
    // Files that could not be read are reported, with no key.
    checked.insert("");

    let mut analysed = Analysed::default();
    let mut fixed = Vec::new();
    // The analysis of the last batch (all of it, when fixing), kept until
    // the report is written.
    let mut last = None;
    if fixing {
        // Diagnostics computed before the fixes would be lost: the texts
        // change. Every file in one database, which the fixes edit.
        let cores = parallel::cores();
        let (mut host, mut loaded) =
            load(AnalysisHost::new(), &root, &config, &sources, false, cores);
        let mut changed = Vec::new();
        for l in &mut loaded {
            let Source { path, key, text } = &mut l.source;
            let result = fix::fix_file(&mut host, l.id, key, path);
            if let Some(why) = &result.refused
                && !args.quiet
            {
                anstream::eprintln!("warning: {path} was not fixed: {why}");
            }
            fixed.extend(result.fixed);
            if result.text != result.original {
                // The report shows the fixed text.
                *text = Arc::new(result.text.clone());
                changed.push((path.clone(), result.original, result.text));
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
        analysed = Analysed::of(&host, &loaded, &checked, args.statistics, cores);
        last = Some((host, loaded));
    } else {
        let batches = batch::split(sources, |s| s.text.len(), batch_bytes);
        // A batch too large to share the cores (a long file among a few
        // short ones), or the only batch, is analysed on every core (its
        // rules on two threads, as in the editor), one after the other,
        // each database freed before the next.
        let cores = parallel::cores();
        let (whole, shared) = batch::schedule(batches, |s| s.text.len(), cores);
        for sources in &whole {
            drop(last.take());
            let (host, loaded) = batch_host(&root, &config, sources, cores);
            analysed.merge(Analysed::of(
                &host,
                &loaded,
                &checked,
                args.statistics,
                cores,
            ));
            last = Some((host, loaded));
        }
        // The others: each thread takes a batch at a time, the largest
        // first, in a database of its own that it frees before it takes the
        // next (memory holds a batch a thread; docs/performance/
        // peer-2026-12-01.md, "Checked a batch at a time").
        if !shared.is_empty() {
            drop(last.take());
            let kept = || Kept {
                batch: RefCell::new(None),
                teardown,
            };
            let parts = parallel::each(&shared, kept, |kept, sources| {
                drop(kept.batch.take());
                let (host, loaded) = batch_host(&root, &config, sources, 1);
                let part = Analysed::of(&host, &loaded, &checked, args.statistics, 1);
                *kept.batch.borrow_mut() = Some((host, loaded));
                part
            });
            parts.into_iter().for_each(|part| analysed.merge(part));
        }
    }

    let mut report = Report {
        files: analysed.files,
        context: analysed.context.into_values().collect(),
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
    if args.format != Format::Human {
        // The report holds them as F001; people watching the log see them too.
        failures.iter().for_each(report_load_error);
    }

    let status = exit_status(!failures.is_empty(), report.has_errors());
    let written = if args.statistics {
        let fixable = &analysed.fixable;
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
        std::mem::forget((last, report));
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

/// Reads the text of `--stdin-filename NAME` as the file NAME; returns it
/// and the bytes read (echoed by `--fix` when they are not text).
fn read_stdin(name: &Path, failures: &mut Vec<LoadError>) -> (Vec<Source>, Vec<u8>) {
    let mut bytes = Vec::new();
    if let Err(e) = std::io::stdin().lock().read_to_end(&mut bytes) {
        failures.push(LoadError::Io(name.to_path_buf(), e));
        return (Vec::new(), bytes);
    }
    match String::from_utf8(bytes.clone()) {
        Ok(text) => {
            let source = Source {
                path: name.display().to_string(),
                key: workspace::key(name),
                text: Arc::new(text),
            };
            (vec![source], bytes)
        }
        Err(e) => {
            let offset = e.utf8_error().valid_up_to();
            failures.push(LoadError::NotUtf8(name.to_path_buf(), offset));
            (Vec::new(), bytes)
        }
    }
}

/// From how many files [`read_paths`] reads them on several threads.
const READ_IN_PARALLEL: usize = 16;

/// Finds and reads the files below the paths (the root without paths).
/// Directories give every file of a known kind (docs/languages.md). An
/// error when there is nothing at all to check.
fn read_paths(
    args: &CheckArgs,
    root: &Path,
    config: &Config,
    failures: &mut Vec<LoadError>,
) -> Result<Vec<Source>, String> {
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
    let mut sources = Vec::new();
    for (path, text) in files.into_iter().zip(texts) {
        match text {
            Ok(text) => sources.push(Source {
                key: workspace::key(&path),
                path: path.display().to_string(),
                text: Arc::new(text),
            }),
            Err(e) => failures.push(e),
        }
    }
    Ok(sources)
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

/// Computes the diagnostics of `loaded` files on up to `threads` threads
/// ([`parallel::map_on`]); the result keeps the input order.
fn analyse(host: &AnalysisHost, loaded: &[Loaded], threads: usize) -> Vec<CheckedFile> {
    parallel::map_on(threads, host, loaded, |analysis, l| {
        Ok(CheckedFile {
            path: l.source.path.clone(),
            key: l.source.key.clone(),
            text: l.source.text.clone(),
            diagnostics: sorted(analysis.diagnostics(l.id)?),
            read: true,
        })
    })
}

/// The diagnostics (file key, code, range) that have a safe fix.
fn fixable(
    host: &AnalysisHost,
    loaded: &[Loaded],
    threads: usize,
) -> HashSet<(String, &'static str, TextRange)> {
    parallel::map_on(threads, host, loaded, |analysis, l| {
        let len = analysis.file_text(l.id)?.len() as u32;
        let range = TextRange::up_to(len.into());
        let actions = analysis.code_actions(FileRange { file: l.id, range })?;
        Ok(actions
            .into_iter()
            .filter(|a| a.is_safe)
            .filter_map(|a| {
                Some((
                    l.source.key.clone(),
                    a.diagnostic_code?,
                    a.diagnostic_range?,
                ))
            })
            .collect::<Vec<_>>())
    })
    .into_iter()
    .flatten()
    .collect()
}

/// The files that related notes of `files` point into and that are not
/// `checked` (imported programs), shown relative to the current directory.
fn context_files(
    host: &AnalysisHost,
    files: &[CheckedFile],
    checked: &HashSet<&str>,
) -> Vec<CheckedFile> {
    let mut keys: Vec<&str> = files
        .iter()
        .flat_map(|f| &f.diagnostics)
        .flat_map(|d| &d.related)
        .map(|r| r.path.as_str())
        .filter(|k| !checked.contains(k))
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

#[cfg(test)]
#[path = "check_batches_tests.rs"]
mod batches_tests;
