//! `prose check` reports the same, byte for byte, whatever the batches its
//! files are analysed in (crate::batch): a file's diagnostics depend on
//! its text and what it needs, which every batch loads for its files.

use std::{
    io::Write,
    path::Path,
    sync::{Arc, Mutex},
};

use clap::Parser;

use super::{Teardown, check};
use crate::args::{Cli, Command};

/// A report written to memory.
#[derive(Clone, Default)]
struct Buffer(Arc<Mutex<Vec<u8>>>);

impl Write for Buffer {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// `prose check ARGS...` run in-process with batches of `batch_bytes`:
/// the exit status and the report.
fn run(args: &[&str], batch_bytes: usize) -> (u8, String) {
    let cli = Cli::try_parse_from([&["prose", "check"][..], args].concat()).unwrap();
    let Command::Check(check_args) = cli.command else {
        unreachable!("parsed as a check")
    };
    let out = Buffer::default();
    let status = check(
        &check_args,
        Box::new(out.clone()),
        Teardown::Drop,
        false,
        batch_bytes,
    );
    let bytes = out.0.lock().unwrap().clone();
    (status, String::from_utf8(bytes).unwrap())
}

/// Each file a batch of its own (on both threads), against one batch.
fn same_in_any_batches(args: &[&str]) -> String {
    let (status, whole) = run(args, usize::MAX);
    for bytes in [1, 600, 8192] {
        let (batched_status, batched) = run(args, bytes);
        assert_eq!(batched_status, status, "batches of {bytes} bytes");
        assert_eq!(batched, whole, "batches of {bytes} bytes");
    }
    whole
}

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Programs that import others (checked in other batches, and not checked
/// at all), notes into other places, and every kind of document.
#[test]
fn imports_and_notes_across_batches() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "prose.toml", "");
    write(
        root,
        ".prose/imports/alice--research/program.prose",
        "input topic: \"What to research\"\ninput depth: \"How deep\"\noutput findings = session \"Research {topic}\"\n",
    );
    write(
        root,
        "a/main.prose",
        "use \"@alice/research\" as research\nlet a = research(topic: \"x\", dept: \"deep\")\nlet b = research()\n",
    );
    write(
        root,
        "b/dup.prose",
        "agent a:\n  model: opus\nagent a:\n  model: opus\nsession: a\n",
    );
    write(root, "c/clean.prose", "session \"hi\"\n");
    write(
        root,
        "d/prompt.md",
        "---\ndescription: Review\n---\n# Review\n\n/read notes/missing.md\n",
    );
    write(root, "e/broken.dialect", "@@@\n");
    let root = root.to_str().unwrap();
    let human = same_in_any_batches(&["--root", root, root]);
    // The imported program's inputs were known in main.prose's batch.
    assert!(human.contains("E027"), "{human}");
    assert!(human.contains("E026"), "{human}");
    assert!(human.contains("first defined here"), "{human}");
    let json = same_in_any_batches(&["--root", root, "--format", "json", root]);
    assert!(
        json.contains("\"E027\"") && json.contains("\"E006\""),
        "{json}"
    );
    same_in_any_batches(&["--root", root, "--statistics", root]);
}

/// The official corpus (`PROSE_CORPUS`; skipped without it, outside CI).
#[test]
fn the_corpus_in_any_batches() {
    let Some(corpus) = prose_test_support::corpus_dir() else {
        return;
    };
    let report = same_in_any_batches(&["--format", "json", corpus.to_str().unwrap()]);
    assert!(report.contains("\"code\""), "no diagnostics in the corpus?");
}
