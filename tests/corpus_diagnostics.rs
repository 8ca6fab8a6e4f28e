//! `prose check` over real OpenProse programs, under both profiles.
//!
//! Four corpora, each with its snapshots under `tests/corpus-diagnostics/`:
//!
//! | corpus | where it comes from | snapshots |
//! |---|---|---|
//! | the 65 official programs | `PROSE_CORPUS` (`../shared/corpus/openprose-examples`) | `default.txt`, `strict.txt`, `default-errors-reviewed.txt` |
//! | the language's history: its `common/` library, the peer linter's fixtures, early examples | `PROSE_HISTORY_CORPUS`, else `openprose-history` beside `PROSE_CORPUS` | `history/` |
//! | the ```` ```prose ```` blocks of the reference (`compiler.md`, `prose.md`, `primitives-session.md`, `state-filesystem.md`) | `PROSE_REFERENCE`, else `../../reference/openprose` from `PROSE_CORPUS` | `reference/` |
//! | third-party programs (not in ../shared) | `PROSE_EXTRA_CORPUS` (skipped when unset) | `extra/` (with `manifest.tsv`) |
//!
//! - The full report of each profile is a reviewed snapshot
//!   (`{default,strict}.txt`, one line per diagnostic:
//!   `path:line:column CODE severity message`). Refresh with
//!   `UPDATE_EXPECT=1` and review the diff.
//! - Every **error** the `default` profile reports must be listed, with a
//!   reason, in the corpus's `default-errors-reviewed.txt`
//!   (`path:line CODE reason`, or `path * reason` for a file whose every
//!   error is accounted for by one reason, e.g. a documentation fragment
//!   that uses names defined elsewhere): the default profile reports no
//!   error on these programs that their authors would not agree with.

mod common;

use std::{
    collections::BTreeSet,
    path::{Path, PathBuf},
};

use common::prose_bin;
use expect_test::ExpectFile;

/// `PROSE_CORPUS`, resolved from the workspace root (`prose-test-support`:
/// a missing corpus skips the test, or fails it under `CI`).
fn official_dir() -> Option<PathBuf> {
    prose_test_support::corpus_dir()
}

/// The directory named by `var`, else `fallback` (relative to the official
/// corpus) when it exists. A variable that is set must name a directory.
fn corpus_dir(var: &str, fallback: &str) -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os(var) {
        let dir = prose_test_support::workspace_root().join(dir);
        assert!(
            dir.is_dir(),
            "{var} points at {}, which is not a directory",
            dir.display()
        );
        return Some(dir);
    }
    let dir = official_dir()?.join(fallback);
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "{var} is not set and {} does not exist: skipped",
            dir.display()
        );
        None
    }
}

struct Diag {
    path: String,
    line: u64,
    column: u64,
    code: String,
    severity: String,
    message: String,
}

fn check(dir: &Path, profile: &str, files: u64) -> Vec<Diag> {
    let out = std::process::Command::new(prose_bin())
        .args([
            "check",
            "--format",
            "json",
            "--profile",
            profile,
            "--root",
            ".",
            ".",
        ])
        .current_dir(dir)
        .output()
        .expect("run prose");
    let stdout = String::from_utf8(out.stdout).expect("UTF-8 report");
    let json: serde_json::Value =
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    assert_eq!(json["files"], files, "files checked in {}", dir.display());
    json["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| Diag {
            path: d["path"]
                .as_str()
                .unwrap()
                .trim_start_matches("./")
                .to_string(),
            line: d["range"]["start"]["line"].as_u64().unwrap(),
            column: d["range"]["start"]["column"].as_u64().unwrap(),
            code: d["code"].as_str().unwrap().to_string(),
            severity: d["severity"].as_str().unwrap().to_string(),
            message: d["message"].as_str().unwrap().to_string(),
        })
        .collect()
}

fn render(diags: &[Diag]) -> String {
    diags
        .iter()
        .map(|d| {
            format!(
                "{}:{}:{} {} {} {}\n",
                d.path, d.line, d.column, d.code, d.severity, d.message
            )
        })
        .collect()
}

/// Checks the default profile's report against its snapshot, and every
/// error in it against the reviewed list (`reviewed`, its text).
fn assert_default_reviewed(diags: &[Diag], snapshot: ExpectFile, reviewed: &str) {
    snapshot.assert_eq(&render(diags));
    let mut lines = BTreeSet::new();
    let mut files = BTreeSet::new();
    for line in reviewed
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let mut parts = line.splitn(3, ' ');
        let (loc, code, reason) = (
            parts.next().unwrap(),
            parts.next().unwrap_or(""),
            parts.next().unwrap_or(""),
        );
        assert!(
            !reason.trim().is_empty(),
            "reviewed entry without a reason: {line}"
        );
        if code == "*" {
            files.insert(loc.to_string());
        } else {
            lines.insert((loc.to_string(), code.to_string()));
        }
    }
    let mut unreviewed = Vec::new();
    let mut seen = BTreeSet::new();
    let mut seen_files = BTreeSet::new();
    for d in diags.iter().filter(|d| d.severity == "error") {
        if files.contains(&d.path) {
            seen_files.insert(d.path.clone());
            continue;
        }
        let key = (format!("{}:{}", d.path, d.line), d.code.clone());
        if !lines.contains(&key) {
            unreviewed.push(format!("{}:{} {} {}", d.path, d.line, d.code, d.message));
        }
        seen.insert(key);
    }
    let stale: Vec<_> = lines
        .difference(&seen)
        .map(|(l, c)| format!("{l} {c}"))
        .chain(files.difference(&seen_files).map(|f| format!("{f} *")))
        .collect();
    assert!(
        unreviewed.is_empty() && stale.is_empty(),
        "default-profile errors not reviewed (a false positive to fix, or a true positive to list with a reason):\n{}\nlisted but no longer reported: {stale:?}",
        unreviewed.join("\n")
    );
}

#[test]
fn default_profile_report_is_reviewed() {
    let Some(dir) = official_dir() else { return };
    assert_default_reviewed(
        &check(&dir, "default", 65),
        expect_test::expect_file!["corpus-diagnostics/default.txt"],
        include_str!("corpus-diagnostics/default-errors-reviewed.txt"),
    );
}

#[test]
fn strict_profile_report_is_the_spec_literal_view() {
    let Some(dir) = official_dir() else { return };
    let diags = check(&dir, "strict", 65);
    expect_test::expect_file!["corpus-diagnostics/strict.txt"].assert_eq(&render(&diags));
}

/// The history corpus: 34 programs (`manifest.tsv` in ../shared names their
/// sources).
const HISTORY_FILES: u64 = 34;

#[test]
fn history_default_profile_report_is_reviewed() {
    let Some(dir) = corpus_dir("PROSE_HISTORY_CORPUS", "../openprose-history") else {
        return;
    };
    assert_default_reviewed(
        &check(&dir, "default", HISTORY_FILES),
        expect_test::expect_file!["corpus-diagnostics/history/default.txt"],
        include_str!("corpus-diagnostics/history/default-errors-reviewed.txt"),
    );
}

#[test]
fn history_strict_profile_report() {
    let Some(dir) = corpus_dir("PROSE_HISTORY_CORPUS", "../openprose-history") else {
        return;
    };
    let diags = check(&dir, "strict", HISTORY_FILES);
    expect_test::expect_file!["corpus-diagnostics/history/strict.txt"].assert_eq(&render(&diags));
}

/// The reference documents whose ```` ```prose ```` blocks are checked.
const REFERENCE_DOCS: &[&str] = &[
    "compiler.md",
    "prose.md",
    "primitives-session.md",
    "state-filesystem.md",
];

/// The ```` ```prose ```` blocks of `text`: `(line of the opening fence,
/// body)`. A block closes at a line of at least as many backticks as opened
/// it; the opening fence's indentation is removed from its lines.
fn prose_blocks(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((i, line)) = lines.next() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        let ticks = trimmed.len() - trimmed.trim_start_matches('`').len();
        if ticks < 3 || trimmed[ticks..].trim_end() != "prose" {
            continue;
        }
        let mut body = String::new();
        for (_, l) in lines.by_ref() {
            let t = l.trim();
            if t.len() >= ticks && t.bytes().all(|b| b == b'`') {
                break;
            }
            let cut = l.len() - l.trim_start().len();
            body.push_str(&l[cut.min(indent)..]);
            body.push('\n');
        }
        out.push((i + 1, body));
    }
    out
}

/// Writes every block of the reference documents into `dir` as
/// `{document}/L{line}.prose`; returns how many.
fn write_reference_blocks(reference: &Path, dir: &Path) -> u64 {
    let mut n = 0;
    for doc in REFERENCE_DOCS {
        let text = std::fs::read_to_string(reference.join(doc))
            .unwrap_or_else(|e| panic!("cannot read {doc}: {e}"));
        let sub = dir.join(doc);
        std::fs::create_dir_all(&sub).unwrap();
        for (line, body) in prose_blocks(&text) {
            std::fs::write(sub.join(format!("L{line:04}.prose")), body).unwrap();
            n += 1;
        }
    }
    n
}

/// The reference's examples, checked as programs (see
/// `corpus-diagnostics/reference/default-errors-reviewed.txt` for which
/// blocks are fragments rather than programs).
#[test]
fn reference_examples_default_profile_report_is_reviewed() {
    let Some(reference) = corpus_dir("PROSE_REFERENCE", "../../reference/openprose") else {
        return;
    };
    let sandbox = common::Sandbox::new("reference-examples");
    let n = write_reference_blocks(&reference, sandbox.path());
    assert_default_reviewed(
        &check(sandbox.path(), "default", n),
        expect_test::expect_file!["corpus-diagnostics/reference/default.txt"],
        include_str!("corpus-diagnostics/reference/default-errors-reviewed.txt"),
    );
    let diags = check(sandbox.path(), "strict", n);
    expect_test::expect_file!["corpus-diagnostics/reference/strict.txt"].assert_eq(&render(&diags));
}

/// Third-party programs, not in ../shared: `PROSE_EXTRA_CORPUS` names a
/// directory holding them as `{owner}+{repo}/{path}`, exactly as
/// `corpus-diagnostics/extra/manifest.tsv` records them (repository, commit,
/// path, sha256). Skipped when the variable is unset.
#[test]
fn extra_programs_default_profile_report_is_reviewed() {
    let Some(dir) = std::env::var_os("PROSE_EXTRA_CORPUS") else {
        eprintln!("PROSE_EXTRA_CORPUS is not set: the third-party programs are not checked");
        return;
    };
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(dir);
    let manifest = include_str!("corpus-diagnostics/extra/manifest.tsv");
    let mut n = 0;
    for line in manifest.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split('\t').collect();
        let [repo, _commit, path, sha] = fields[..] else {
            panic!("manifest line: {line:?}");
        };
        let file = dir.join(repo.replace('/', "+")).join(path);
        let bytes = std::fs::read(&file)
            .unwrap_or_else(|e| panic!("{}: {e} (see manifest.tsv)", file.display()));
        assert_eq!(
            sha256_hex(&bytes),
            sha,
            "{} differs from the reviewed version",
            file.display()
        );
        n += 1;
    }
    assert_default_reviewed(
        &check(&dir, "default", n),
        expect_test::expect_file!["corpus-diagnostics/extra/default.txt"],
        include_str!("corpus-diagnostics/extra/default-errors-reviewed.txt"),
    );
    let diags = check(&dir, "strict", n);
    expect_test::expect_file!["corpus-diagnostics/extra/strict.txt"].assert_eq(&render(&diags));
}

fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn reference_blocks_are_extracted_with_their_nested_fences() {
    let doc = "text\n```prose\nsession \"a\"\n```\n  ````prose\n  agent a:\n    prompt: \"\"\"\n    ```bash\n    ls\n    ```\n    \"\"\"\n  ````\n```prose\n";
    let blocks = prose_blocks(doc);
    assert_eq!(blocks.len(), 3);
    assert_eq!(blocks[0], (2, "session \"a\"\n".to_string()));
    assert_eq!(
        blocks[1],
        (
            5,
            "agent a:\n  prompt: \"\"\"\n  ```bash\n  ls\n  ```\n  \"\"\"\n".to_string()
        )
    );
    assert_eq!(blocks[2], (13, String::new()));
}
