//! The official OpenProse example corpus, parsed with `prose-syntax`.
//!
//! Set `PROSE_CORPUS` to the corpus directory (relative paths are taken from
//! the workspace root; unset, the test skips, or fails when `CI` is set), e.g.
//! `PROSE_CORPUS=../shared/corpus/openprose-examples cargo test -p prose-e2e --test corpus`.
//! Every `*.prose` file below it must parse losslessly, and the syntax errors
//! must be exactly the reviewed true positives listed in
//! `tests/corpus-syntax-true-positives.txt`: an error that is not listed is a
//! parser regression (or a new program to review), and a listed error that no
//! longer occurs must be removed from the list.

use std::{collections::BTreeMap, fmt::Write as _, fs, path::Path};

const LIST: &str = "tests/corpus-syntax-true-positives.txt";

/// `(relative path, line, code)`: one syntax error location.
type Key = (String, usize, String);

fn workspace_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `path` relative to `base`, with `/` separators on every platform.
fn relative(path: &Path, base: &Path) -> String {
    let rel = path.strip_prefix(base).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// 1-based line and column (in characters) of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// Parses the reviewed list: `path:line CODE reason`, `#` comments, blank lines.
fn read_list() -> BTreeMap<Key, String> {
    let path = workspace_root().join(LIST);
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {LIST}: {e}"));
    let mut list = BTreeMap::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = || {
            panic!(
                "{LIST}:{}: expected `path:line CODE reason`, got {raw:?}",
                i + 1
            )
        };
        let mut parts = line.splitn(3, ' ');
        let (Some(location), Some(code), Some(reason)) = (parts.next(), parts.next(), parts.next())
        else {
            bad()
        };
        let Some((file, line_no)) = location.rsplit_once(':') else {
            bad()
        };
        let Ok(line_no) = line_no.parse::<usize>() else {
            bad()
        };
        if !(code.len() == 4 && code.starts_with('E')) || reason.trim().is_empty() {
            bad();
        }
        let key = (file.to_string(), line_no, code.to_string());
        if list.insert(key, reason.trim().to_string()).is_some() {
            panic!("{LIST}:{}: duplicate entry {location} {code}", i + 1);
        }
    }
    list
}

#[test]
fn corpus_syntax_errors_are_the_reviewed_true_positives() {
    let Some(dir) = prose_test_support::corpus_dir() else {
        return;
    };
    let files = prose_test_support::prose_files(&dir);

    // Every error found, by location; one list entry covers all errors of
    // its code on its line.
    let mut found: BTreeMap<Key, Vec<String>> = BTreeMap::new();
    let mut not_lossless = Vec::new();
    for path in &files {
        let rel = relative(path, &dir);
        let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {rel}: {e}"));
        let parse = prose_syntax::parse(&text);
        if parse.syntax_node().text().to_string() != text {
            not_lossless.push(rel.clone());
        }
        for e in parse.errors() {
            let (line, col) = line_col(&text, usize::from(e.range.start()));
            let code = e.code.as_str().to_string();
            found
                .entry((rel.clone(), line, code))
                .or_default()
                .push(format!(
                    "{rel}:{line}:{col}: {} {}",
                    e.code.as_str(),
                    e.message
                ));
        }
    }
    assert!(
        not_lossless.is_empty(),
        "the tree's text differs from the source for: {}",
        not_lossless.join(", ")
    );

    let list = read_list();
    let mut report = String::new();
    let unexpected: Vec<_> = found
        .iter()
        .filter(|(k, _)| !list.contains_key(*k))
        .collect();
    if !unexpected.is_empty() {
        let _ = writeln!(
            report,
            "{} unexpected syntax error location(s) (fix the parser, or review and add to {LIST}):",
            unexpected.len()
        );
        for (_, messages) in unexpected {
            for m in messages {
                let _ = writeln!(report, "  {m}");
            }
        }
    }
    let gone: Vec<_> = list
        .iter()
        .filter(|(k, _)| !found.contains_key(*k))
        .collect();
    if !gone.is_empty() {
        let _ = writeln!(
            report,
            "{} listed error(s) no longer reported (remove them from {LIST}):",
            gone.len()
        );
        for ((file, line, code), reason) in gone {
            let _ = writeln!(report, "  {file}:{line} {code} {reason}");
        }
    }
    assert!(report.is_empty(), "{report}");
    println!(
        "{} corpus files parsed; {} reviewed true-positive error location(s) found as listed",
        files.len(),
        list.len()
    );
}
