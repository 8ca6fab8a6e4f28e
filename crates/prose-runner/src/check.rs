//! Refusing programs with errors: the same analysis as `prose check`
//! (`prose_ide::Analysis::diagnostics`), so a program the checker rejects
//! never runs, and one it accepts (warnings are fine) does.

use std::{collections::BTreeSet, path::Path};

use prose_ide::{AnalysisHost, Config, Diagnostic, FileId, Root, Severity};

/// An analysis key: an absolute, `/`-separated path.
pub fn key(path: &Path) -> String {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    prose_ide::db::join_path("/", &abs.to_string_lossy().replace('\\', "/"))
}

/// Loads what `files` depend on from disk into `host`: the agent memory
/// files that exist and the imported programs (for their contracts).
pub fn load_dependencies(host: &mut AnalysisHost, files: &[FileId]) {
    let analysis = host.analysis();
    let mut memory = BTreeSet::new();
    let mut imports = BTreeSet::new();
    for &file in files {
        // Nothing changes the host meanwhile, so nothing cancels.
        let Ok(paths) = analysis.needed_files(file) else {
            continue;
        };
        memory.extend(
            (paths.memory.iter())
                .filter(|p| Path::new(p).is_file())
                .cloned(),
        );
        imports.extend(paths.imports.iter().cloned());
    }
    drop(analysis);
    host.set_memory_files(memory);
    for path in imports {
        if host.file_id(&path).is_some() {
            continue;
        }
        if let Ok(text) = std::fs::read_to_string(&path) {
            host.set_file_text(&path, text);
        }
    }
}

/// Every diagnostic of the program at `path` (with text `source`), checked
/// as `prose check --root ROOT` checks it, sorted by position.
pub fn diagnostics(
    path: &Path,
    source: &str,
    root: &Path,
    home: Option<&Path>,
    config: &Config,
) -> Vec<Diagnostic> {
    // One analysis of one text: nothing kept for later edits.
    let mut host = AnalysisHost::for_batch();
    host.set_roots(vec![Root {
        path: key(root),
        config: config.clone(),
    }]);
    host.set_default_config(config.clone());
    host.set_home(home.map(key));
    let file = host.set_file_text(&key(path), source.to_string());
    load_dependencies(&mut host, &[file]);
    let mut diags = host.analysis().diagnostics(file).unwrap_or_default();
    diags.sort_by_key(|d| (d.range.start(), d.range.end()));
    diags
}

/// Whether any diagnostic is an error.
pub fn has_errors(diags: &[Diagnostic]) -> bool {
    diags.iter().any(|d| d.severity == Severity::Error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_are_found_and_warnings_do_not_count() {
        let dir = tempfile::tempdir().unwrap();
        let ok = diagnostics(
            &dir.path().join("ok.prose"),
            "session \"hi\"\n",
            dir.path(),
            None,
            &Config::default(),
        );
        assert!(!has_errors(&ok), "{ok:?}");
        let bad = diagnostics(
            &dir.path().join("bad.prose"),
            "session: nobody\n",
            dir.path(),
            None,
            &Config::default(),
        );
        assert!(has_errors(&bad), "{bad:?}");
    }
}
