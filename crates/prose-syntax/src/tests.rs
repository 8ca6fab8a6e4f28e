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

#[path = "../benches/program_gen/mod.rs"]
mod program_gen;

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

/// Builds the tree of `text` three ways: straight from the parser (what a
/// parse does), and by replaying the parser's events with the crate's tree
/// builder and with rowan's `GreenNodeBuilder`: the trees and errors must
/// be equal.
fn check_tree_builders(text: &str) {
    let never = &crate::interrupt::never;
    let interrupt = crate::interrupt::Interrupt::new(never);
    let mut lexed = crate::lexer::lex(text);
    let (tokens, _) =
        crate::layout::layout_in_place(&mut lexed.kinds, &lexed.starts, text, &interrupt);
    let (events, mut errors) = {
        let interrupt = crate::interrupt::Interrupt::new(never);
        crate::parser::parse(text, &tokens, &lexed.starts, &interrupt)
    };
    let (reference_events, mut reference_errors) = {
        let interrupt = crate::interrupt::Interrupt::new(never);
        crate::parser::parse(text, &tokens, &lexed.starts, &interrupt)
    };
    let green = crate::parser::build_tree(text, &lexed, events, &mut errors, &interrupt);
    let reference =
        crate::parser::build_tree_with_rowan(text, &lexed, reference_events, &mut reference_errors);
    assert_eq!(green.to_string(), text, "not lossless: {text:?}");
    assert!(green == reference, "the trees differ: {text:?}");
    assert_eq!(errors, reference_errors, "{text:?}");
    let (direct, direct_errors) =
        crate::parser::parse_tree(text, &lexed, &tokens, &interrupt, false);
    assert!(direct == green, "the direct tree differs: {text:?}");
    assert_eq!(direct_errors, errors, "{text:?}");
}

#[test]
fn tree_builder_matches_rowan() {
    for dir in ["ok", "err"] {
        for path in prose_files(dir) {
            check_tree_builders(&fs::read_to_string(path).unwrap());
        }
    }
    check_tree_builders("");
    check_tree_builders(&program_gen::program(300_000));
    check_tree_builders(&program_gen::garbage(1 << 20));
    // Deeper than the tree keeps, in both directions.
    check_tree_builders(&format!("let x = a{}\n", " + a".repeat(3000)));
    check_tree_builders(&format!("let x = {}\n", "[".repeat(3000)));
    // Random soups of statement pieces: many small repeated subtrees.
    const PIECES: &[&str] = &[
        "let ",
        "x",
        "y",
        " = ",
        "session ",
        "\"a {b}\"",
        "\"\"\"t\"\"\"",
        ": ",
        "\n",
        "\n  ",
        "\n    ",
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        ", ",
        " + ",
        " -> ",
        " | map: ",
        "**d**",
        "if ",
        "else",
        "# c",
        "\t",
        "\r\n",
        "1",
        "2.5",
        "@",
        "é",
        "agent ",
        "prompt",
        "parallel:",
    ];
    for text in soups(0x2545_f491_4f6c_dd1d, 500, 200, PIECES) {
        check_tree_builders(&text);
    }
}

/// The next number of a xorshift sequence (the tests' random inputs).
pub(crate) fn next_random(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

/// `count` random soups of `pieces` from `seed`, each of fewer than
/// `max_pieces` pieces.
pub(crate) fn soups(seed: u64, count: usize, max_pieces: u64, pieces: &[&str]) -> Vec<String> {
    let mut state = seed;
    (0..count)
        .map(|_| {
            let mut text = String::new();
            for _ in 0..(state % max_pieces) {
                text.push_str(pieces[(next_random(&mut state) % pieces.len() as u64) as usize]);
            }
            text
        })
        .collect()
}

/// The programs of both corpora (when `PROSE_CORPUS` is set), built
/// straight from the parser and by replaying events.
#[test]
fn tree_builders_agree_on_the_corpora() {
    let Some(official) = prose_test_support::corpus_dir() else {
        return;
    };
    let mut files = prose_test_support::prose_files(&official);
    if let Some(history) = official.parent().map(|p| p.join("openprose-history"))
        && history.is_dir()
    {
        files.extend(prose_test_support::prose_files(&history));
    }
    for path in files {
        check_tree_builders(&fs::read_to_string(path).unwrap());
    }
}

/// A node that wraps a preceding one more than 65 535 events long (the
/// forward parent no longer fits its event, see `parser::Events`).
#[test]
fn far_forward_parent() {
    let array = format!("[{}a]", "a, ".repeat(30_000));
    let text = format!("let x = {array} + 1\n");
    let parse = crate::parse(&text);
    assert!(parse.errors().is_empty(), "{:?}", parse.errors());
    assert_eq!(parse.syntax_node().text().to_string(), text);
    let binary = parse
        .syntax_node()
        .descendants()
        .find(|n| n.kind() == crate::SyntaxKind::BINARY_EXPR)
        .expect("a binary expression");
    let lhs = binary.first_child().expect("its left operand");
    assert_eq!(lhs.kind(), crate::SyntaxKind::ARRAY_EXPR);
    assert_eq!(lhs.text().to_string(), array);
    check_tree_builders(&text);
}
