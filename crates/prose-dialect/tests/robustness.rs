//! Any input gives an answer: no panic, spans inside the text and on char
//! boundaries, actions in order, results that serialize; and pathological
//! inputs finish (the parser is linear, so a megabyte takes milliseconds;
//! the timeouts here are generous and only catch hangs).

use std::{sync::mpsc, thread, time::Duration};

use proptest::prelude::*;
use prose_dialect::{BlockRegistry, DialectParser, Document, Span, completion, hover};

fn parser() -> DialectParser {
    DialectParser::new()
        .with_registry(BlockRegistry::parse("project_notes\nnotes\n[context]\npersona\n").unwrap())
}

fn assert_span(text: &str, s: Span, what: &str) {
    assert!(
        s.start <= s.end && s.end <= text.len(),
        "{what} {s:?} out of {}",
        text.len()
    );
    assert!(
        text.is_char_boundary(s.start) && text.is_char_boundary(s.end),
        "{what} {s:?} not on char boundaries"
    );
}

/// Every invariant of a parsed document.
fn check_document(text: &str, doc: &Document) {
    let mut last_end = 0;
    for a in &doc.actions {
        assert_span(text, a.span, "action");
        assert!(
            a.span.start >= last_end,
            "actions overlap or are out of order"
        );
        last_end = a.span.end;
        for d in &a.diagnostics {
            assert_span(text, d.span, d.code);
            assert!(prose_dialect::diagnostics::code(d.code).is_some());
            if let Some(f) = &d.fix {
                assert_span(text, f.span, "fix");
            }
        }
        if let Some(action) = &a.action {
            for link in action.links() {
                assert_span(text, link.span, "link");
            }
        }
        serde_json::to_string(&a.action).expect("serializes");
        serde_json::to_string(&a.diagnostics).expect("serializes");
    }
    for t in &doc.tokens {
        assert_span(text, t.span, "token");
    }
    // In order and without overlap (LSP semantic tokens cannot overlap).
    for w in doc.tokens.windows(2) {
        assert!(
            w[0].span.end <= w[1].span.start,
            "{:?} then {:?}",
            w[0],
            w[1]
        );
    }
}

/// Text made mostly of the dialect's own characters.
fn dialect_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("/".to_string()),
        Just("/recall ".to_string()),
        Just("/batch {".to_string()),
        Just("}".to_string()),
        Just("\n".to_string()),
        Just("\r\n".to_string()),
        Just(" -> ".to_string()),
        Just("->".to_string()),
        Just("\"".to_string()),
        Just("\"\"\"".to_string()),
        Just("```".to_string()),
        Just("~~~".to_string()),
        Just("\n> ".to_string()),
        Just("@".to_string()),
        Just("@[".to_string()),
        Just("]".to_string()),
        Just(" ? ".to_string()),
        Just(" ! ".to_string()),
        Just(" . ".to_string()),
        Just(" ?ask".to_string()),
        Just("+ ".to_string()),
        Just("-".to_string()),
        Just("“".to_string()),
        Just("”".to_string()),
        Just("\\".to_string()),
        Just("é".to_string()),
        Just("😀".to_string()),
        Just("\u{feff}".to_string()),
        Just("\t".to_string()),
        "[a-z_]{1,8}",
        "[ -~]{0,6}",
        prop::sample::select(vec![
            "send",
            "reply",
            "post",
            "dm",
            "tell",
            "fetch",
            "web",
            "calc",
            "data",
            "approve",
            "deny",
            "escalate",
            "cancel",
            "halt",
            "uncertain",
            "context",
            "search",
            "remember",
            "archive",
            "get",
            "look up",
            "search web",
            "in archival",
            "always",
            "persona",
            "notes",
            "> 2 weeks",
            "role:user",
            "@last.output",
            "@user",
            "@agent",
            "https://x.y",
            "html",
            "continue",
            "list",
            "read",
            "patch",
            "append",
            "load",
            "swap",
        ])
        .prop_map(|s| format!(" {s} ")),
    ];
    prop::collection::vec(piece, 0..60).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    #[test]
    fn dialect_like_text_never_panics(text in dialect_text()) {
        let p = parser();
        let doc = p.parse_document(&text);
        check_document(&text, &doc);
        let parse = p.parse(&text);
        if let Some(a) = &parse.action {
            assert_span(&text, a.span, "parse");
        }
        // Hover and completion everywhere on a char boundary.
        for offset in (0..=text.len()).filter(|&i| text.is_char_boundary(i)).step_by(5) {
            if let Some(h) = hover::hover(&doc, offset) {
                assert_span(&text, h.span, "hover");
            }
            for c in completion::complete(&text, offset, p.registry()) {
                assert_span(&text, c.replace, "completion");
            }
        }
    }

    #[test]
    fn any_text_never_panics(text in any::<String>()) {
        let doc = parser().parse_document(&text);
        check_document(&text, &doc);
    }

    #[test]
    fn any_action_line_never_panics(rest in any::<String>()) {
        let text = format!("/{rest}");
        let doc = parser().parse_document(&text);
        check_document(&text, &doc);
        let _ = parser().parse(&text);
    }
}

/// Parses `text` on another thread; fails if it takes more than a minute.
fn finishes(name: &str, text: String) {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let doc = parser().parse_document(&text);
        check_document(&text, &doc);
        let _ = parser().parse(&text);
        tx.send(doc.actions.len()).unwrap();
    });
    rx.recv_timeout(Duration::from_secs(60))
        .unwrap_or_else(|_| panic!("{name}: no answer within a minute"));
}

#[test]
fn pathological_inputs_finish() {
    // A quarter of a megabyte: milliseconds when linear, hours if quadratic.
    let mb = 1 << 18;
    finishes("unclosed triple quotes", "/post x \"\"\" ".repeat(mb / 12));
    finishes(
        "unclosed strings on one line",
        format!("/reply {}", "\" ".repeat(mb / 2)),
    );
    finishes("unclosed fences", "/post x ```\n".repeat(mb / 12));
    finishes("inline fences", format!("/calc {}", "``` ".repeat(mb / 4)));
    finishes("unclosed @[", format!("/fetch {}", "@[ ".repeat(mb / 3)));
    finishes(
        "a long chain",
        format!("/recall x{}", " -> /calc 1".repeat(mb / 11)),
    );
    finishes("a chain over lines", "/recall x ->\n".repeat(mb / 13));
    finishes(
        "chain continuations",
        format!("/recall x\n{}", "-> /reply y\n".repeat(mb / 12)),
    );
    finishes("deep batches", "/batch {\n".repeat(mb / 9));
    finishes("closing braces", "}\n".repeat(mb / 2));
    finishes(
        "quote lines",
        format!("/post x\n{}", "> quoted\n".repeat(mb / 9)),
    );
    finishes("a huge verb", format!("/{}", "r".repeat(mb)));
    finishes(
        "a huge unknown verb line",
        format!("/{} x", "recal".repeat(mb / 5)),
    );
    finishes("many markers", format!("/reply x{}", " ?".repeat(mb / 2)));
    finishes("many words", format!("/search {}", "w ".repeat(mb / 2)));
    finishes(
        "many time filters",
        format!("/search {}", "> ".repeat(mb / 2)),
    );
    finishes(
        "many references",
        format!("/reply {}", "@last.output ".repeat(mb / 13)),
    );
    finishes("many actions", "/recall project_notes\n".repeat(mb / 22));
    finishes(
        "a long block name",
        format!("/recall read {}", "n".repeat(mb)),
    );
    finishes("no newline at all", "x".repeat(mb));
    finishes("only newlines", "\n".repeat(mb));
    finishes("crlf", "/reply a\r\n\r\r\n".repeat(mb / 12));
}

#[test]
fn every_prefix_of_a_rich_document_parses() {
    let text = "Intro.\n/recall meeting notes -> /summarize -> /tell @entropy\n/post bluesky \"\"\"\nmulti\n\"\"\" ?public\n/batch {\n  /recall project_notes\n  /fetch https://x.y html\n} -> /reply done .\n/post bluesky\n> quote\n/send @bluesky @at://did/x \"hi\" ?ask\n";
    for end in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
        let prefix = &text[..end];
        check_document(prefix, &parser().parse_document(prefix));
    }
}
