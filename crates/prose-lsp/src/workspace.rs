//! The server's IO: URIs and paths, reading files with limits, scanning
//! the workspace folders, each folder's `prose.toml`, the home directory.
//! The analysis does no IO; these functions feed it. Nothing here holds
//! the server state.

use std::{
    fs, io,
    path::{Path, PathBuf},
};

use ls_types::Uri;
use prose_ide::{Config, config::CONFIG_FILE};

/// Files larger than this are not analysed (a diagnostic says so).
pub const MAX_FILE_SIZE: usize = 10 * 1024 * 1024;

/// The scan of the workspace folders stops after this many programs.
pub const MAX_SCANNED_FILES: usize = 20_000;

/// The scan stops after looking at this many directory entries (a folder
/// such as `/` or `~` must not keep `initialize` busy).
pub const MAX_SCANNED_ENTRIES: usize = 200_000;

/// The analysis key of a path: absolute, `/`-separated, without `.`/`..`
/// (the same keys as the CLI's).
pub fn key(path: &Path) -> String {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let s = abs.to_string_lossy().replace('\\', "/");
    prose_ide::db::join_path("/", &s)
}

/// The file path of a `file:` URI.
pub fn uri_path(uri: &Uri) -> Option<PathBuf> {
    if !uri.scheme().as_str().eq_ignore_ascii_case("file") {
        return None;
    }
    uri.to_file_path().map(|p| p.into_owned())
}

/// The analysis key of a document: its path for `file:` URIs, the URI
/// itself otherwise (`untitled:` buffers).
pub fn uri_key(uri: &Uri) -> String {
    match uri_path(uri) {
        Some(path) => key(&path),
        None => uri.as_str().to_string(),
    }
}

/// The URI of an analysis key (the inverse of [`uri_key`]).
pub fn key_uri(key: &str) -> Option<Uri> {
    if key.starts_with('/') {
        Uri::from_file_path(key)
    } else {
        key.parse().ok()
    }
}

/// Whether `key` names an agent memory file (`.../agents/{name}/memory.md`).
pub fn is_memory_file(key: &str) -> bool {
    let mut parts = key.rsplit('/');
    parts.next() == Some("memory.md")
        && parts.next().is_some_and(|name| !name.is_empty())
        && parts.next() == Some("agents")
}

pub fn is_program(key: &str) -> bool {
    key.ends_with(".prose")
}

pub fn is_config_file(key: &str) -> bool {
    key.rsplit('/').next() == Some(CONFIG_FILE)
}

/// A file's contents, or why the analysis cannot have them.
#[derive(Debug)]
pub enum DiskText {
    Text(String),
    Missing,
    TooLarge(u64),
    NotUtf8,
    Error(io::Error),
}

/// Reads a file as UTF-8 text, refusing files over [`MAX_FILE_SIZE`].
pub fn read_text(path: &Path) -> DiskText {
    match fs::metadata(path) {
        Ok(meta) if !meta.is_file() => return DiskText::Missing,
        Ok(meta) if meta.len() > MAX_FILE_SIZE as u64 => return DiskText::TooLarge(meta.len()),
        Ok(_) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => return DiskText::Missing,
        Err(e) => return DiskText::Error(e),
    }
    match fs::read(path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => DiskText::Text(text),
            Err(_) => DiskText::NotUtf8,
        },
        Err(e) if e.kind() == io::ErrorKind::NotFound => DiskText::Missing,
        Err(e) => DiskText::Error(e),
    }
}

/// What is at an auxiliary path (a `/read` target, a `_spawn_` file),
/// for the analysis: the text of a text file under [`MAX_FILE_SIZE`],
/// else whether something is there.
pub fn read_aux(path: &Path) -> prose_ide::auxiliary::AuxState {
    use prose_ide::auxiliary::AuxState;
    match read_text(path) {
        DiskText::Text(text) => AuxState::Text(text),
        DiskText::Missing => AuxState::Missing,
        DiskText::TooLarge(_) | DiskText::NotUtf8 | DiskText::Error(_) => AuxState::Exists,
    }
}

/// What a scan of the workspace folders found.
#[derive(Debug, Default)]
pub struct Scan {
    /// `(key, text)` of every readable `*.prose` file.
    pub programs: Vec<(String, String)>,
    /// Keys of the agent memory files found.
    pub memory: Vec<String>,
    /// Files left out, with the reason (for the log).
    pub skipped: Vec<String>,
    /// Whether the scan stopped at [`MAX_SCANNED_FILES`] or
    /// [`MAX_SCANNED_ENTRIES`].
    pub truncated: bool,
    entries: usize,
}

/// Finds the programs and memory files under `roots`. Symbolic links to
/// directories are not followed (no cycles); version-control and build
/// directories are skipped.
pub fn scan(roots: &[PathBuf]) -> Scan {
    let mut scan = Scan::default();
    for root in roots {
        walk(root, &mut scan);
    }
    scan
}

fn walk(dir: &Path, scan: &mut Scan) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        scan.entries += 1;
        if scan.entries > MAX_SCANNED_ENTRIES {
            scan.truncated = true;
        }
        if scan.truncated {
            return;
        }
        let path = entry.path();
        let Ok(file_type) = entry.file_type() else {
            continue;
        };
        let name = entry.file_name();
        if file_type.is_dir() {
            if !prose_ide::kind::is_skipped_dir(&name.to_string_lossy()) {
                walk(&path, scan);
            }
            continue;
        }
        let k = key(&path);
        if is_memory_file(&k) {
            if path.is_file() {
                scan.memory.push(k);
            }
            continue;
        }
        if !is_program(&k) {
            continue;
        }
        if scan.programs.len() >= MAX_SCANNED_FILES {
            scan.truncated = true;
            return;
        }
        match read_text(&path) {
            DiskText::Text(text) => scan.programs.push((k, text)),
            DiskText::Missing => {}
            DiskText::TooLarge(n) => scan.skipped.push(format!("{k}: {n} bytes, over the limit")),
            DiskText::NotUtf8 => scan.skipped.push(format!("{k}: not valid UTF-8")),
            DiskText::Error(e) => scan.skipped.push(format!("{k}: {e}")),
        }
    }
}

/// Reads `{root}/prose.toml` if it exists, and the files it names (the
/// `[dialect] registry`). Errors name the file.
pub fn load_config(root: &Path) -> Result<Config, String> {
    let path = root.join(CONFIG_FILE);
    let mut config = match read_text(&path) {
        DiskText::Missing => return Ok(Config::default()),
        DiskText::Text(text) => {
            Config::from_toml(&text).map_err(|e| format!("{}: {}", path.display(), e.message))?
        }
        DiskText::TooLarge(_) => return Err(format!("{}: too large", path.display())),
        DiskText::NotUtf8 => return Err(format!("{}: not valid UTF-8", path.display())),
        DiskText::Error(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    config
        .load_dialect_registry(&key(root), |registry| {
            match read_text(Path::new(registry)) {
                DiskText::Text(text) => Ok(text),
                DiskText::Missing => Err(format!("{registry} does not exist")),
                DiskText::TooLarge(n) => Err(format!("{registry}: {n} bytes, too large")),
                DiskText::NotUtf8 => Err(format!("{registry}: not valid UTF-8")),
                DiskText::Error(e) => Err(format!("cannot read {registry}: {e}")),
            }
        })
        .map_err(|e| format!("{}: {}", path.display(), e.message))?;
    Ok(config)
}

/// The `[dialect] registry` file that `{root}/prose.toml` names (an
/// analysis key), whether or not it exists or is valid; `None` without one
/// (or without a valid `prose.toml`).
pub fn configured_registry(root: &Path) -> Option<String> {
    let DiskText::Text(text) = read_text(&root.join(CONFIG_FILE)) else {
        return None;
    };
    Config::from_toml(&text)
        .ok()?
        .dialect_registry_path(&key(root))
}

/// The environment variable that stands in for the home directory (user
/// state is then under `$PROSE_HOME/.prose/`), so tests and sandboxes need
/// not touch the real home.
pub const HOME_VAR: &str = "PROSE_HOME";

/// The user's home directory, as an analysis key: `$PROSE_HOME`, else `$HOME`.
pub fn home() -> Option<String> {
    [HOME_VAR, "HOME"]
        .iter()
        .filter_map(std::env::var_os)
        .find(|h| !h.is_empty())
        .map(|h| key(Path::new(&h)))
}

/// The user-level state directory (`~/.prose`) under a home key.
pub fn home_state_dir(home: &str) -> String {
    prose_ide::db::join_path(home, ".prose")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_uris() {
        let uri: Uri = "file:///tmp/a%20b/x.prose".parse().unwrap();
        assert_eq!(uri_key(&uri), "/tmp/a b/x.prose");
        assert_eq!(
            key_uri("/tmp/a b/x.prose").unwrap().as_str(),
            "file:///tmp/a%20b/x.prose"
        );
        let untitled: Uri = "untitled:Untitled-1".parse().unwrap();
        assert_eq!(uri_key(&untitled), "untitled:Untitled-1");
        assert_eq!(key_uri("untitled:Untitled-1").unwrap(), untitled);
        assert_eq!(key(Path::new("/w/./a/../b.prose")), "/w/b.prose");
    }

    #[test]
    fn scans_programs_and_memory_files() {
        let dir = std::env::temp_dir().join(format!("prose-lsp-scan-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        for (rel, contents) in [
            ("a.prose", &b"session \"a\""[..]),
            ("sub/b.prose", b"session \"b\""),
            ("bad.prose", b"\xff\xfe"),
            (".git/c.prose", b"x"),
            ("node_modules/d.prose", b"x"),
            (".prose/imports/x--y/program.prose", b"input i"),
            (".prose/agents/captain/memory.md", b"notes"),
            ("notes.md", b"x"),
        ] {
            let path = dir.join(rel);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, contents).unwrap();
        }
        let scan = scan(std::slice::from_ref(&dir));
        let root = key(&dir);
        let programs: Vec<_> = scan
            .programs
            .iter()
            .map(|(k, _)| k.strip_prefix(&root).unwrap())
            .collect();
        assert_eq!(
            programs,
            [
                "/.prose/imports/x--y/program.prose",
                "/a.prose",
                "/sub/b.prose"
            ]
        );
        assert_eq!(
            scan.memory,
            [format!("{root}/.prose/agents/captain/memory.md")]
        );
        assert_eq!(scan.skipped.len(), 1, "{:?}", scan.skipped);
        assert!(scan.skipped[0].contains("UTF-8"));
        assert!(!scan.truncated);
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn recognises_files() {
        assert!(is_memory_file("/w/.prose/agents/captain/memory.md"));
        assert!(!is_memory_file("/w/.prose/agents/memory.md"));
        assert!(!is_memory_file("/w/notes/memory.md"));
        assert!(is_config_file("/w/prose.toml"));
        assert!(is_program("/w/a.prose"));
    }
}
