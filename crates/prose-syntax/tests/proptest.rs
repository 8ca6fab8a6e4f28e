//! Property tests: whatever the input, parsing does not panic, the tree is
//! lossless, errors lie inside the text on char boundaries, and the work
//! done (tokens, nodes, errors, tree depth) is bounded linearly by the
//! input length.
//!
//! Inputs: random bytes, random strings over an alphabet rich in OpenProse
//! tokens, and corpus programs mutated by deleting, inserting and
//! duplicating ranges. The corpus is read from `$PROSE_CORPUS` (a relative
//! path is taken from the workspace root; see `prose-test-support`):
//! without it the corpus properties are skipped with a message, except in
//! CI, where they fail.

use std::sync::OnceLock;

use proptest::{prelude::*, sample::Index};
use prose_syntax::{NodeOrToken, WalkEvent, parse};

/// Checks every invariant of one parse; returns a description of the first
/// violation.
fn check_invariants(text: &str) -> Result<(), TestCaseError> {
    let parse = parse(text);
    let root = parse.syntax_node();
    prop_assert_eq!(usize::from(root.text_range().end()), text.len());
    let rebuilt = root.text().to_string();
    prop_assert!(rebuilt == text, "not lossless");

    for e in parse.errors() {
        let (start, end) = (usize::from(e.range.start()), usize::from(e.range.end()));
        prop_assert!(
            start <= end && end <= text.len(),
            "error out of range: {}",
            e
        );
        prop_assert!(
            text.is_char_boundary(start) && text.is_char_boundary(end),
            "error range not on char boundaries: {}",
            e
        );
    }

    let (mut tokens, mut nodes, mut depth, mut max_depth) = (0usize, 0usize, 0usize, 0usize);
    for event in root.preorder_with_tokens() {
        match event {
            WalkEvent::Enter(NodeOrToken::Token(t)) => {
                tokens += 1;
                prop_assert!(!t.text().is_empty(), "empty token {:?}", t);
            }
            WalkEvent::Enter(NodeOrToken::Node(_)) => {
                nodes += 1;
                depth += 1;
                max_depth = max_depth.max(depth);
            }
            WalkEvent::Leave(NodeOrToken::Node(_)) => depth -= 1,
            WalkEvent::Leave(NodeOrToken::Token(_)) => {}
        }
    }
    let len = text.len();
    prop_assert!(tokens <= len, "{} tokens for {} bytes", tokens, len);
    prop_assert!(
        nodes <= 4 * tokens + 1,
        "{} nodes for {} tokens",
        nodes,
        tokens
    );
    prop_assert!(
        parse.errors().len() <= len + 1,
        "{} errors for {} bytes",
        parse.errors().len(),
        len
    );
    prop_assert!(max_depth <= 1000, "tree depth {}", max_depth);
    Ok(())
}

/// Pieces of OpenProse: keywords, punctuation, quotes, discretion markers,
/// indentation, names, comments and a few awkward characters.
const ALPHABET: &[&str] = &[
    "session", "agent", "let", "const", "output", "input", "use", "parallel", "for", "in", "if",
    "elif", "else", "try", "catch", "finally", "loop", "until", "repeat", "as", "do", "block",
    "choice", "option", "map", "pmap", "resume", "x", "name_1", "on-fail", "42", ":", "=", ",",
    ".", "\"", "\"\"\"", "**", "***", "\n", "\n", "\n  ", "\n    ", "\r\n", " ", " ", "  ", "\t",
    "{", "}", "(", ")", "[", "]", "->", "|", "#", "# note", "\\", "{name}", "é", "\u{FEFF}", "?",
    "+", "-", "!",
];

fn alphabet_string(max_pieces: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(ALPHABET), 0..max_pieces).prop_map(|p| p.concat())
}

/// `default` cases, or `$PROPTEST_CASES` when set (to search longer).
fn cases(default: u32) -> ProptestConfig {
    let n = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default);
    ProptestConfig::with_cases(n)
}

// ---- random inputs -----------------------------------------------------------

proptest! {
    #![proptest_config(cases(512))]

    #[test]
    fn random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..512)) {
        check_invariants(&String::from_utf8_lossy(&bytes))?;
    }

    #[test]
    fn random_unicode(text in "\\PC{0,256}") {
        check_invariants(&text)?;
    }

    #[test]
    fn random_token_soup(text in alphabet_string(200)) {
        check_invariants(&text)?;
    }
}

// ---- mutated corpus programs ---------------------------------------------------

/// The corpus programs, read once; empty (after a message) without a
/// corpus outside CI.
fn corpus() -> &'static [String] {
    static CORPUS: OnceLock<Vec<String>> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let Some(dir) = prose_test_support::corpus_dir() else {
            return Vec::new();
        };
        prose_test_support::prose_files(&dir)
            .iter()
            .map(|p| std::fs::read_to_string(p).expect("a corpus program is UTF-8 text"))
            .collect()
    })
}

#[derive(Debug, Clone)]
enum Mutation {
    Delete { at: Index, len: usize },
    Insert { at: Index, text: String },
    Duplicate { from: Index, len: usize, to: Index },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<Index>(), 0..80usize).prop_map(|(at, len)| Mutation::Delete { at, len }),
        (any::<Index>(), alphabet_string(6)).prop_map(|(at, text)| Mutation::Insert { at, text }),
        (any::<Index>(), 0..200usize, any::<Index>())
            .prop_map(|(from, len, to)| Mutation::Duplicate { from, len, to }),
    ]
}

/// The char boundary at or before the position `index` picks in `text`.
fn boundary(text: &str, index: &Index) -> usize {
    let mut at = index.index(text.len() + 1);
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The char boundary at or before `at`, clamped to the text.
fn floor_boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn apply(text: &mut String, m: &Mutation) {
    match m {
        Mutation::Delete { at, len } => {
            let start = boundary(text, at);
            let end = floor_boundary(text, start + len);
            text.replace_range(start..end, "");
        }
        Mutation::Insert { at, text: piece } => {
            let at = boundary(text, at);
            text.insert_str(at, piece);
        }
        Mutation::Duplicate { from, len, to } => {
            let start = boundary(text, from);
            let end = floor_boundary(text, start + len);
            let piece = text[start..end].to_string();
            let to = boundary(text, to);
            text.insert_str(to, &piece);
        }
    }
}

#[test]
fn corpus_programs_satisfy_the_invariants() {
    for text in corpus() {
        check_invariants(text).unwrap();
    }
}

proptest! {
    #![proptest_config(cases(256))]

    #[test]
    fn mutated_corpus_programs(
        file in any::<Index>(),
        mutations in prop::collection::vec(mutation(), 1..8),
    ) {
        let corpus = corpus();
        if corpus.is_empty() {
            return Ok(());
        }
        let mut text = file.get(corpus).clone();
        for m in &mutations {
            apply(&mut text, m);
        }
        check_invariants(&text)?;
    }
}
