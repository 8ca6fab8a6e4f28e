//! Finding the files to check and reading them as UTF-8 text.

use std::{
    fmt, fs, io,
    path::{Path, PathBuf},
};

/// Why a path could not be checked. Printed on stderr; makes the exit code 2.
#[derive(Debug)]
pub enum LoadError {
    NotFound(PathBuf),
    Io(PathBuf, io::Error),
    ReadDir(PathBuf, io::Error),
    /// The file is not UTF-8; the offset of the first invalid byte.
    NotUtf8(PathBuf, usize),
}

impl LoadError {
    /// The path that could not be read.
    pub fn path(&self) -> &Path {
        match self {
            LoadError::NotFound(p)
            | LoadError::Io(p, _)
            | LoadError::ReadDir(p, _)
            | LoadError::NotUtf8(p, _) => p,
        }
    }
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::NotFound(p) => write!(f, "{} does not exist", p.display()),
            LoadError::Io(p, e) => write!(f, "cannot read {}: {e}", p.display()),
            LoadError::ReadDir(p, e) => write!(f, "cannot read directory {}: {e}", p.display()),
            LoadError::NotUtf8(p, offset) => write!(
                f,
                "{} is not valid UTF-8 (invalid byte at offset {offset})",
                p.display()
            ),
        }
    }
}

/// Expands `paths` into the files to check, sorted (by path components, so
/// a directory's files stay together) and without duplicates.
///
/// Directories are searched recursively for the files `accept` takes
/// (`prose check`: every kind of document; `prose fmt`: programs),
/// skipping what [`prose_ide::kind::is_skipped_dir`] names; symbolic links
/// to files are followed, symbolic links to directories are not (no
/// cycles). Files named explicitly are kept whatever their name. Paths
/// keep the spelling they were given (`./a` stays `./a`, relative stays
/// relative). Problems are pushed to `errors` and the other paths are
/// still expanded.
pub fn collect_files(
    paths: &[PathBuf],
    accept: &dyn Fn(&Path) -> bool,
    errors: &mut Vec<LoadError>,
) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for path in paths {
        match fs::metadata(path) {
            Ok(meta) if meta.is_dir() => walk(path, accept, &mut files, errors),
            Ok(_) => files.push(path.clone()),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                errors.push(LoadError::NotFound(path.clone()))
            }
            Err(e) => errors.push(LoadError::Io(path.clone(), e)),
        }
    }
    files.sort();
    files.dedup();
    files
}

/// The directories among `paths` below which `files` (from
/// [`collect_files`]) holds nothing: a directory named on the command line
/// that gave no file to check.
pub fn empty_dirs<'a>(paths: &'a [PathBuf], files: &[PathBuf]) -> Vec<&'a PathBuf> {
    paths
        .iter()
        .filter(|p| p.is_dir() && !files.iter().any(|f| f.starts_with(p)))
        .collect()
}

/// Whether `path` is an OpenProse program by its name (`*.prose`).
pub fn is_program(path: &Path) -> bool {
    path.extension().is_some_and(|ext| ext == "prose")
}

fn walk(
    dir: &Path,
    accept: &dyn Fn(&Path) -> bool,
    files: &mut Vec<PathBuf>,
    errors: &mut Vec<LoadError>,
) {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => return errors.push(LoadError::ReadDir(dir.to_path_buf(), e)),
    };
    let mut entries: Vec<_> = match entries.collect::<io::Result<_>>() {
        Ok(entries) => entries,
        Err(e) => return errors.push(LoadError::ReadDir(dir.to_path_buf(), e)),
    };
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let file_type = match entry.file_type() {
            Ok(t) => t,
            Err(e) => {
                errors.push(LoadError::Io(path, e));
                continue;
            }
        };
        if file_type.is_dir() {
            if !prose_ide::kind::is_skipped_dir(&entry.file_name().to_string_lossy()) {
                walk(&path, accept, files, errors);
            }
            continue;
        }
        if !accept(&path) {
            continue;
        }
        // A symlink counts if it leads to a file (a dangling one is reported).
        let is_file = file_type.is_file() || (file_type.is_symlink() && !path.is_dir());
        if is_file {
            files.push(path);
        }
    }
}

/// Reads a file as UTF-8 text.
pub fn read_source(path: &Path) -> Result<String, LoadError> {
    let bytes = fs::read(path).map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => LoadError::NotFound(path.to_path_buf()),
        _ => LoadError::Io(path.to_path_buf(), e),
    })?;
    String::from_utf8(bytes)
        .map_err(|e| LoadError::NotUtf8(path.to_path_buf(), e.utf8_error().valid_up_to()))
}

/// Prints a load error on stderr as `error: ...` (coloured on a terminal).
pub fn report_load_error(error: &LoadError) {
    let message = error.to_string();
    let report = &[annotate_snippets::Group::with_title(
        annotate_snippets::Level::ERROR.primary_title(message),
    )];
    let rendered = crate::render::renderer().render(report);
    anstream::eprintln!("{rendered}");
}
