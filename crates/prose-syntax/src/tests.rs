//! Snapshot tests over the parser corpus in `test_data/`.
//!
//! - `test_data/ok/*.prose` must parse without any error;
//! - `test_data/err/*.prose` must produce at least one error;
//! - every file must round-trip byte for byte through the tree;
//! - the tree and errors (`Parse::debug_dump`) must match the `.rast` file
//!   next to the program. Run with `UPDATE_EXPECT=1` to rewrite snapshots.

use std::{
    fs,
    panic::{AssertUnwindSafe, catch_unwind},
    path::{Path, PathBuf},
};

fn test_data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data")
}

/// The `.prose` files of `test_data/<dir>`, sorted; fails on stray files.
fn prose_files(dir: &str) -> Vec<PathBuf> {
    let dir = test_data_dir().join(dir);
    let mut files = Vec::new();
    let entries =
        fs::read_dir(&dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("directory entry").path();
        match path.extension().and_then(|e| e.to_str()) {
            Some("prose") => files.push(path),
            Some("rast") => assert!(
                path.with_extension("prose").exists(),
                "{} has no .prose file next to it",
                path.display()
            ),
            _ => panic!("unexpected file in the parser corpus: {}", path.display()),
        }
    }
    files.sort();
    assert!(!files.is_empty(), "no .prose files in {}", dir.display());
    files
}

/// Parses every file of `test_data/<dir>`, checks the invariants and the
/// snapshot; reports every failing file, not just the first.
fn run_dir(dir: &str, expect_errors: bool) {
    let mut failures = Vec::new();
    for path in prose_files(dir) {
        let name = format!("{dir}/{}", path.file_name().unwrap().to_string_lossy());
        let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {name}: {e}"));
        let parse = crate::parse(&text);
        if parse.syntax_node().text().to_string() != text {
            failures.push(format!("{name}: the tree is not lossless"));
            continue;
        }
        let n = parse.errors().len();
        if expect_errors && n == 0 {
            failures.push(format!("{name}: expected at least one error, got none"));
        } else if !expect_errors && n != 0 {
            failures.push(format!(
                "{name}: expected no errors, got {n}:\n{}",
                parse
                    .errors()
                    .iter()
                    .map(|e| format!("    {e}\n"))
                    .collect::<String>()
            ));
        }
        let dump = parse.debug_dump();
        let snapshot = expect_test::expect_file![path.with_extension("rast")];
        if catch_unwind(AssertUnwindSafe(|| snapshot.assert_eq(&dump))).is_err() {
            failures.push(format!(
                "{name}: the tree differs from the .rast snapshot (UPDATE_EXPECT=1 rewrites it)"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} parser corpus file(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn parser_corpus_ok() {
    run_dir("ok", false);
}

#[test]
fn parser_corpus_err() {
    run_dir("err", true);
}
