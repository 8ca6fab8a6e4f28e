//! Fuzzes `prose_syntax::parse` with the invariants of `tests/proptest.rs`:
//! no panic, a lossless tree, errors inside the text on char boundaries,
//! and work bounded by the input length.
#![no_main]

use libfuzzer_sys::fuzz_target;
use prose_syntax::{NodeOrToken, WalkEvent, parse};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let parse = parse(&text);
    let root = parse.syntax_node();
    assert_eq!(usize::from(root.text_range().end()), text.len());
    assert!(root.text() == text.as_ref(), "the tree is not lossless");

    for e in parse.errors() {
        let (start, end) = (usize::from(e.range.start()), usize::from(e.range.end()));
        assert!(start <= end && end <= text.len(), "error out of range: {e}");
        assert!(
            text.is_char_boundary(start) && text.is_char_boundary(end),
            "error range not on char boundaries: {e}"
        );
    }

    let (mut tokens, mut nodes, mut depth, mut max_depth) = (0usize, 0usize, 0usize, 0usize);
    for event in root.preorder_with_tokens() {
        match event {
            WalkEvent::Enter(NodeOrToken::Token(t)) => {
                tokens += 1;
                assert!(!t.text().is_empty(), "empty token {t:?}");
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
    assert!(
        tokens <= text.len(),
        "{tokens} tokens for {} bytes",
        text.len()
    );
    assert!(nodes <= 4 * tokens + 1, "{nodes} nodes for {tokens} tokens");
    assert!(parse.errors().len() <= text.len() + 1);
    assert!(max_depth <= 1000, "tree depth {max_depth}");
});
