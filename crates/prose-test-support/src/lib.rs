//! Where the tests find the official OpenProse programs and the language
//! reference, the same way in every crate; and ([`elf`]) which shared
//! libraries a built binary loads.
//!
//! `cargo test` runs each crate's tests in that crate's directory, so a
//! relative `PROSE_CORPUS` (the README's `../shared/corpus/openprose-examples`)
//! is resolved against the **workspace root**, never the current
//! directory. Without `PROSE_CORPUS` a corpus test says so and skips,
//! unless `CI` is set: in CI a missing corpus fails the run, so a test can
//! never pass by skipping itself there. A `PROSE_CORPUS` that names no
//! directory, or one without programs, always fails.

pub mod elf;

use std::path::{Path, PathBuf};

/// The workspace root (this crate is `crates/prose-test-support`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the workspace root exists")
}

/// Whether the tests run in CI (`CI` set to anything but empty, `0` or
/// `false`, as CI services set it).
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !matches!(v.trim(), "" | "0" | "false"))
}

/// The directory of the official programs, from `PROSE_CORPUS` (relative
/// to the workspace root when relative). `None` when it is not set
/// (after printing why the calling test skips).
///
/// # Panics
/// When `PROSE_CORPUS` is unset and [`in_ci`]; when it names no directory
/// or a directory without `*.prose` files.
pub fn corpus_dir() -> Option<PathBuf> {
    match resolve_corpus(std::env::var_os("PROSE_CORPUS").as_deref(), in_ci()) {
        Ok(dir) => dir,
        Err(message) => panic!("{message}"),
    }
}

/// [`corpus_dir`] for a given `PROSE_CORPUS` value and CI flag: the
/// directory, `None` to skip (after a message), or why the run fails.
pub fn resolve_corpus(
    value: Option<&std::ffi::OsStr>,
    ci: bool,
) -> Result<Option<PathBuf>, String> {
    let Some(value) = value else {
        if ci {
            return Err(
                "PROSE_CORPUS is not set and CI is: the corpus tests must run in CI \
                 (set PROSE_CORPUS to the openprose-examples directory)"
                    .into(),
            );
        }
        eprintln!(
            "PROSE_CORPUS is not set: skipping this corpus test \
             (set it to ../shared/corpus/openprose-examples to run it)"
        );
        return Ok(None);
    };
    let dir = workspace_root().join(value);
    if !dir.is_dir() {
        return Err(format!(
            "PROSE_CORPUS names {}, which is not a directory (a relative path is taken from the workspace root)",
            dir.display()
        ));
    }
    if prose_files(&dir).is_empty() {
        return Err(format!(
            "PROSE_CORPUS names {}, which holds no .prose file",
            dir.display()
        ));
    }
    Ok(Some(dir))
}

/// The `*.prose` files below `dir`, recursively, sorted.
///
/// # Panics
/// When a directory cannot be read.
pub fn prose_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    collect(dir, &mut out);
    out.sort();
    out
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "prose") {
            out.push(path);
        }
    }
}

/// A file of the OpenProse language reference beside the workspace
/// (`../shared/reference/openprose/NAME`, next to the corpus). `None`
/// when it is not there (after printing why the calling test skips).
///
/// # Panics
/// When it is not there and [`in_ci`].
pub fn reference_file(name: &str) -> Option<PathBuf> {
    let path = workspace_root()
        .join("../shared/reference/openprose")
        .join(name);
    if path.is_file() {
        return Some(path);
    }
    assert!(
        !in_ci(),
        "{} is missing and CI is set: the reference tests must run in CI",
        path.display()
    );
    eprintln!("{} is missing: skipping this test", path.display());
    None
}

/// A small deterministic generator of numbers for tests that make random
/// edits: the same seed gives the same numbers on every run and machine
/// (a linear congruential generator, its high bits).
pub struct Lcg(u64);

impl Lcg {
    pub fn new(seed: u64) -> Lcg {
        Lcg(seed)
    }

    /// The next number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        (self.0 >> 33) as usize % n.max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_relative_corpus_is_taken_from_the_workspace_root() {
        // A crate's tests run in the crate's directory; the README's
        // relative path must still find the corpus.
        let shared = workspace_root().join("../shared/corpus/openprose-examples");
        if !shared.is_dir() {
            assert!(!in_ci(), "{} is missing", shared.display());
            return;
        }
        let relative = std::ffi::OsStr::new("../shared/corpus/openprose-examples");
        let dir = resolve_corpus(Some(relative), false).unwrap().unwrap();
        assert_eq!(dir.canonicalize().unwrap(), shared.canonicalize().unwrap());
    }

    #[test]
    fn a_missing_corpus_skips_only_outside_ci() {
        assert_eq!(resolve_corpus(None, false), Ok(None));
        assert!(resolve_corpus(None, true).unwrap_err().contains("CI"));
        let nowhere = std::ffi::OsStr::new("no/such/dir");
        assert!(
            resolve_corpus(Some(nowhere), false)
                .unwrap_err()
                .contains("not a directory")
        );
        // A directory without programs fails too.
        let src = std::ffi::OsStr::new("crates/prose-test-support/src");
        assert!(
            resolve_corpus(Some(src), false)
                .unwrap_err()
                .contains("no .prose file")
        );
    }

    #[test]
    fn the_workspace_root_holds_the_workspace_manifest() {
        let manifest = std::fs::read_to_string(workspace_root().join("Cargo.toml")).unwrap();
        assert!(manifest.contains("[workspace]"));
    }
}
