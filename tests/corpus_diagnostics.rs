//! `prose check` over the official OpenProse programs, under both profiles.
//!
//! - The full report of each profile is a reviewed snapshot:
//!   `tests/corpus-diagnostics/{default,strict}.txt` (one line per diagnostic:
//!   `path:line:column CODE severity message`). Refresh with `UPDATE_EXPECT=1`
//!   and review the diff.
//! - Every **error** the `default` profile reports must be listed, with a
//!   reason, in `tests/corpus-diagnostics/default-errors-reviewed.txt`
//!   (`path:line CODE reason`): the default profile reports no error on these
//!   programs that their authors would not agree with.
//!
//! The corpus directory comes from `PROSE_CORPUS` (see `prose-test-support`).

mod common;

use std::{collections::BTreeSet, path::Path};

use common::prose_bin;

struct Diag {
    path: String,
    line: u64,
    column: u64,
    code: String,
    severity: String,
    message: String,
}

fn check(dir: &Path, profile: &str) -> Vec<Diag> {
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
    assert_eq!(json["files"], 65, "the official corpus has 65 programs");
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

#[test]
fn default_profile_report_is_reviewed() {
    let Some(dir) = prose_test_support::corpus_dir() else {
        return;
    };
    let diags = check(&dir, "default");
    expect_test::expect_file!["corpus-diagnostics/default.txt"].assert_eq(&render(&diags));

    let reviewed_text = include_str!("corpus-diagnostics/default-errors-reviewed.txt");
    let mut reviewed = BTreeSet::new();
    for line in reviewed_text
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
        reviewed.insert((loc.to_string(), code.to_string()));
    }
    let mut unreviewed = Vec::new();
    let mut seen = BTreeSet::new();
    for d in diags.iter().filter(|d| d.severity == "error") {
        let key = (format!("{}:{}", d.path, d.line), d.code.clone());
        if !reviewed.contains(&key) {
            unreviewed.push(format!("{}:{} {} {}", d.path, d.line, d.code, d.message));
        }
        seen.insert(key);
    }
    let stale: Vec<_> = reviewed.difference(&seen).collect();
    assert!(
        unreviewed.is_empty() && stale.is_empty(),
        "default-profile errors not reviewed (a false positive to fix, or a true positive to list with a reason):\n{}\nlisted but no longer reported: {stale:?}",
        unreviewed.join("\n")
    );
}

#[test]
fn strict_profile_report_is_the_spec_literal_view() {
    let Some(dir) = prose_test_support::corpus_dir() else {
        return;
    };
    let diags = check(&dir, "strict");
    expect_test::expect_file!["corpus-diagnostics/strict.txt"].assert_eq(&render(&diags));
}
