//! Loading what the analysis needs from disk: the workspace root, its
//! `prose.toml`, agent memory files and the programs `use` statements name.
//!
//! The analysis itself does no IO; this module reads the disk and hands
//! the results to the `AnalysisHost`.

use std::path::{Path, PathBuf};

use prose_ide::{AnalysisHost, Config, FileId, config::CONFIG_FILE};

/// The workspace root: `explicit`, else the nearest ancestor of the current
/// directory holding `prose.toml` or a `.prose/` directory, else the current
/// directory.
pub fn find_root(explicit: Option<&Path>) -> PathBuf {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    if let Some(root) = explicit {
        return absolute(root);
    }
    let mut dir = Some(cwd.as_path());
    while let Some(d) = dir {
        if d.join(CONFIG_FILE).is_file() || d.join(".prose").is_dir() {
            return d.to_path_buf();
        }
        dir = d.parent();
    }
    cwd
}

/// An absolute path (not resolving symlinks), without `.`/`..` segments.
pub fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// `path` as a user in the current directory would type it: relative to
/// the current directory when it lies below it (`.` for the directory
/// itself), `../..` when it is an ancestor, else absolute.
pub fn relative_to_cwd(path: &Path) -> PathBuf {
    let path = absolute(path);
    let Ok(cwd) = std::env::current_dir() else {
        return path;
    };
    if let Ok(rel) = path.strip_prefix(&cwd) {
        return if rel.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            rel.to_path_buf()
        };
    }
    match cwd.strip_prefix(&path) {
        Ok(down) => down.components().map(|_| "..").collect(),
        Err(_) => path,
    }
}

/// The analysis key of a path: absolute, `/`-separated.
pub fn key(path: &Path) -> String {
    let s = absolute(path).to_string_lossy().replace('\\', "/");
    prose_ide::db::join_path("/", &s)
}

/// Reads `{root}/prose.toml` if it exists, and the files it names (the
/// `[dialect] registry`). Errors name the file.
pub fn load_config(root: &Path) -> Result<Config, String> {
    let path = root.join(CONFIG_FILE);
    if !path.is_file() {
        return Ok(Config::default());
    }
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut config =
        Config::from_toml(&text).map_err(|e| format!("{}: {}", path.display(), e.message))?;
    config
        .load_dialect_registry(&key(root), |registry| {
            std::fs::read_to_string(registry).map_err(|e| format!("cannot read {registry}: {e}"))
        })
        .map_err(|e| format!("{}: {}", path.display(), e.message))?;
    Ok(config)
}

/// Sets root, home (`$PROSE_HOME`, else `$HOME`, as the language server
/// does) and configuration on the host. The one root is `--root`'s; files
/// outside it look up their project state from their own directory.
pub fn configure(host: &mut AnalysisHost, root: &Path, config: Config) {
    host.set_workspace_root(Some(key(root)));
    host.set_home(prose_lsp::workspace::home());
    host.set_config(config);
}

/// The size of the checked texts from which the spare threads of the
/// first pass compute diagnostics ([`tasks`]): below it the analysis takes
/// about as long as starting a thread.
const WARM_FROM: usize = 32 * 1024;

/// The size of a file from which a spare thread also runs its statement
/// rules, in contexts of their own ([`tasks`]): below it the contexts
/// cost the thread more than the other saves (a 151 KB program took 6%
/// longer).
const APART_FROM: usize = 1024 * 1024;

/// What a thread of the first pass of [`load_dependencies`] computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Task {
    NeededFiles(FileId),
    Diagnostics(FileId),
    /// What the statement rules report, which the diagnostics read last.
    StatementRules(FileId),
}

/// The first pass's work for `files` (each with its text's length): the
/// files each file needs and then, with `warm`, fewer files than `cores`
/// (one long file, typically, whose analysis would otherwise run on one
/// core twice over) and [`WARM_FROM`] bytes in all, their diagnostics, and
/// the statement rules' reports of those of [`APART_FROM`] bytes or more.
/// A thread asking for a file's diagnostics waits for the parse another
/// thread is computing, then computes the names and the other rules while
/// the other finds the prompts and then runs the statement rules, which
/// the diagnostics read last. The check's own pass finds the answers
/// computed, unless loading a dependency changed something they read
/// (salsa then computes again what it must).
fn tasks(files: &[(FileId, usize)], warm: bool, cores: usize) -> Vec<Task> {
    let mut tasks: Vec<Task> = files.iter().map(|&(f, _)| Task::NeededFiles(f)).collect();
    let bytes: usize = files.iter().map(|&(_, n)| n).sum();
    if warm && files.len() < cores && bytes >= WARM_FROM {
        tasks.extend(files.iter().map(|&(f, _)| Task::Diagnostics(f)));
        tasks.extend(
            (files.iter())
                .filter(|&&(_, n)| n >= APART_FROM)
                .map(|&(f, _)| Task::StatementRules(f)),
        );
    }
    tasks
}

/// Loads the memory files and imported programs that `files` depend on,
/// and the files their prompts read (`/read` targets, `_spawn_` files).
/// Imported programs are added to the host (for their contracts) but are
/// not reported on. (The runner's error check loads them the same way.)
///
/// `files` come with their texts' lengths. With `warm`, and fewer long
/// files than `threads`, the spare threads compute the files' diagnostics
/// meanwhile (see `tasks`).
pub fn load_dependencies(
    host: &mut AnalysisHost,
    files: &[(FileId, usize)],
    warm: bool,
    threads: usize,
) {
    // Finding them parses every file: on up to `threads` threads first, so
    // the passes below (one thread) find the answers computed.
    let tasks = tasks(files, warm, threads);
    for task in &tasks {
        if let Task::StatementRules(f) = *task {
            host.run_statement_rules_apart(f);
        }
    }
    crate::parallel::map_on(threads, host, &tasks, |analysis, task| match *task {
        Task::NeededFiles(f) => analysis.needed_files(f).map(drop),
        Task::Diagnostics(f) => analysis.diagnostics(f).map(drop),
        Task::StatementRules(f) => analysis.prepare_statement_rules(f),
    });
    let ids: Vec<FileId> = files.iter().map(|&(f, _)| f).collect();
    prose_runner::check::load_dependencies(host, &ids);
    let analysis = host.analysis();
    let mut aux: Vec<String> = ids
        .iter()
        .filter_map(|&f| analysis.needed_files(f).ok())
        .flat_map(|p| p.aux.clone())
        .collect();
    drop(analysis);
    aux.sort();
    aux.dedup();
    for path in aux {
        // The same reading as the language server's (size limit, text or not).
        let state = prose_lsp::workspace::read_aux(Path::new(&path));
        host.set_aux_file(&path, state);
    }
}

#[cfg(test)]
mod tests {
    use super::{Task, tasks};
    use prose_ide::FileId;

    /// The spare threads of the first pass take the files' diagnostics:
    /// only with fewer files than cores, enough text, and only when asked;
    /// the statement rules of a file of a megabyte or more too.
    #[test]
    fn spare_cores_take_the_diagnostics() {
        let (long, huge) = (super::WARM_FROM, super::APART_FROM);
        let one = [(FileId(7), long)];
        assert_eq!(
            tasks(&one, true, 2),
            [Task::NeededFiles(FileId(7)), Task::Diagnostics(FileId(7))]
        );
        assert_eq!(
            tasks(&[(FileId(7), huge)], true, 2),
            [
                Task::NeededFiles(FileId(7)),
                Task::Diagnostics(FileId(7)),
                Task::StatementRules(FileId(7))
            ]
        );
        assert_eq!(tasks(&one, false, 2), [Task::NeededFiles(FileId(7))]);
        assert_eq!(tasks(&one, true, 1), [Task::NeededFiles(FileId(7))]);
        assert_eq!(
            tasks(&[(FileId(7), long - 1)], true, 2),
            [Task::NeededFiles(FileId(7))]
        );
        let two = [(FileId(1), long), (FileId(2), huge)];
        assert_eq!(
            tasks(&two, true, 2),
            [Task::NeededFiles(FileId(1)), Task::NeededFiles(FileId(2))]
        );
        assert_eq!(
            tasks(&two, true, 4),
            [
                Task::NeededFiles(FileId(1)),
                Task::NeededFiles(FileId(2)),
                Task::Diagnostics(FileId(1)),
                Task::Diagnostics(FileId(2)),
                Task::StatementRules(FileId(2))
            ]
        );
    }
}
