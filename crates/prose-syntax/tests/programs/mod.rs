//! The programs the integration tests run over: the parser's `test_data/`,
//! and the official corpus (`PROSE_CORPUS`) with the history corpus
//! (`PROSE_HISTORY_CORPUS`, else `openprose-history` beside the official
//! one), as (path, text) pairs.

use std::path::{Path, PathBuf};

/// Every program under `dir`.
pub fn programs_in(dir: &Path) -> Vec<(String, String)> {
    prose_test_support::prose_files(dir)
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("a program is UTF-8 text");
            (p.display().to_string(), text)
        })
        .collect()
}

/// The parser's `test_data/` (`ok/` and `err/`).
pub fn test_data() -> Vec<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("test_data");
    let mut all = programs_in(&dir.join("ok"));
    all.extend(programs_in(&dir.join("err")));
    all
}

/// The official corpus and the history corpus beside it (said when it is
/// missing); `None` without a corpus.
pub fn corpora() -> Option<Vec<(String, String)>> {
    let official = prose_test_support::corpus_dir()?;
    let mut programs = programs_in(&official);
    let history = match std::env::var_os("PROSE_HISTORY_CORPUS") {
        Some(dir) => Some(prose_test_support::workspace_root().join(dir)),
        None => official.parent().map(|p| p.join("openprose-history")),
    };
    match history {
        Some(dir) if dir.is_dir() => programs.extend(programs_in(&dir)),
        _ => eprintln!("no history corpus beside {}: skipped", official.display()),
    }
    Some(programs)
}
