//! The language server under heavy input, memory rows of issue 16: closing
//! documents gives their memory back, and very large documents (ten million
//! empty lines, 16 MB of real programs) are answered. Each test runs the
//! real binary over stdio. The resident memory a test reads comes from
//! `/proc` (Linux; elsewhere only the answers are checked); the bounds are
//! generous (a debug build on a busy machine): the figures of a release
//! build are in docs/performance/heavy-input.md.

mod common;
#[path = "common/lsp.rs"]
mod lsp;

use common::{Sandbox, prose_bin};
use lsp::{LspClient, file_uri, pull_capabilities};
use serde_json::{Value, json};

/// A client that pulls diagnostics: the server analyses a document when
/// asked, and a test knows when that is done.
fn pulling(sb: &Sandbox) -> LspClient {
    LspClient::started(prose_bin(), sb.path(), pull_capabilities())
}

/// The pulled diagnostics of `uri`.
fn pull(c: &mut LspClient, uri: &str) -> Value {
    let report = c.call_retrying(
        "textDocument/diagnostic",
        json!({ "textDocument": { "uri": uri } }),
    );
    report["items"].clone()
}

fn close(c: &mut LspClient, uri: &str) {
    c.notify(
        "textDocument/didClose",
        json!({ "textDocument": { "uri": uri } }),
    );
}

/// A program of about 2 KB, different for each `n` (its names too).
fn small_program(n: usize) -> String {
    let mut text = String::new();
    let mut i = 0;
    while text.len() < 2048 {
        text.push_str(&format!(
            "# document {n}, part {i}\nagent writer_{n}_{i}:\n  model: sonnet\n  prompt: \"You write part {i} of {n}\"\n\nlet draft_{n}_{i} = session: writer_{n}_{i}\n  prompt: \"Write part {i}\"\n  context: {{ previous_{n} }}\n\n"
        ));
        i += 1;
    }
    text
}

/// The server's resident memory in MiB after `rounds` documents were
/// opened, analysed and closed (`reuse`: all under one URI).
fn open_and_close(c: &mut LspClient, sb: &Sandbox, from: usize, rounds: usize, reuse: bool) {
    for n in from..from + rounds {
        let name = if reuse {
            "same.prose".to_string()
        } else {
            format!("doc{n}.prose")
        };
        let uri = if n % 2 == 0 {
            file_uri(&sb.path().join(name))
        } else {
            // Untitled documents too: they are never on disk.
            format!("untitled:Untitled-{n}")
        };
        c.open(&uri, 1, &small_program(n));
        let items = pull(c, &uri);
        // `previous_{n}` is not defined in any of them.
        assert!(
            items.as_array().is_some_and(|a| !a.is_empty()),
            "{uri}: {items}"
        );
        close(c, &uri);
    }
    // Everything sent so far is handled before the next request.
    let symbols = c.call("workspace/symbol", json!({ "query": "writer_" }));
    assert!(symbols.is_array(), "{symbols}");
}

/// How much the resident memory may grow over the measured documents.
/// (A release build grows a few MB: docs/performance/heavy-input.md.
/// Before the fix, the same test grew by about 85 MB.)
const GROWTH_MIB: u64 = 40;

fn flat_after_thousands(reuse: bool) {
    let sb = Sandbox::new(if reuse {
        "robust-reopen"
    } else {
        "robust-open-close"
    });
    let mut c = pulling(&sb);
    // Warm up: allocator pools, interned names, the rules' caches.
    open_and_close(&mut c, &sb, 0, 300, reuse);
    let before = c.memory_mib();
    open_and_close(&mut c, &sb, 300, 3000, reuse);
    let after = c.memory_mib();
    if let (Some((before, _)), Some((after, _))) = (before, after) {
        eprintln!("resident memory: {before} MiB -> {after} MiB");
        assert!(
            after <= before + GROWTH_MIB,
            "resident memory grew from {before} to {after} MiB"
        );
    }
    // Closed means gone: the last one is not open any more.
    let last = c.call(
        "prose/debug/documentText",
        json!({ "textDocument": { "uri": "untitled:Untitled-3299" } }),
    );
    assert_eq!(last, Value::Null);
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

/// Opening, analysing and closing 3,000 distinct documents (on disk and
/// untitled) leaves the resident memory flat.
#[test]
fn open_and_close_three_thousand_documents() {
    flat_after_thousands(false);
}

/// Reopening one URI 3,000 times (a new text each time) too.
#[test]
fn reopen_one_uri_three_thousand_times() {
    flat_after_thousands(true);
}

/// Ten million empty lines: analysed and answered (diagnostics, a hover,
/// folding ranges), and an edit after it applies.
#[test]
fn ten_million_empty_lines() {
    let sb = Sandbox::new("robust-newlines");
    let mut c = pulling(&sb);
    let uri = file_uri(&sb.path().join("empty.prose"));
    let text = "\n".repeat(10_000_000);
    c.open(&uri, 1, &text);
    let items = pull(&mut c, &uri);
    assert_eq!(items, json!([]));
    let hover = c.call(
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri }, "position": { "line": 5_000_000, "character": 0 } }),
    );
    assert_eq!(hover, Value::Null);
    c.change(&uri, 2, &[(9_999_999, 0, 9_999_999, 0, "session \"end\"")]);
    assert!(c.document_text(&uri).ends_with("\nsession \"end\"\n"));
    let items = pull(&mut c, &uri);
    assert_eq!(items, json!([]));
    if let Some((_, peak)) = c.memory_mib() {
        eprintln!("peak resident memory: {peak} MiB");
    }
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

/// 16 MB of real programs in four documents: every one analysed, and the
/// programs' own diagnostics are there.
#[test]
fn sixteen_megabytes_of_real_programs() {
    let Some(corpus) = prose_test_support::corpus_dir() else {
        return;
    };
    let programs: Vec<String> = prose_test_support::prose_files(&corpus)
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .collect();
    assert!(!programs.is_empty());
    let sb = Sandbox::new("robust-real-16mb");
    let mut c = pulling(&sb);
    let mut uris = Vec::new();
    for d in 0..4 {
        let mut text = String::new();
        let mut i = d;
        while text.len() < 4 * 1024 * 1024 {
            text.push_str(&programs[i % programs.len()]);
            text.push('\n');
            i += 1;
        }
        let uri = file_uri(&sb.path().join(format!("real{d}.prose")));
        c.open(&uri, 1, &text);
        uris.push(uri);
    }
    for uri in &uris {
        let items = pull(&mut c, uri);
        // Programs pasted one after another define the same names again.
        assert!(
            items.as_array().is_some_and(|a| !a.is_empty()),
            "{uri}: no diagnostics"
        );
    }
    if let Some((_, peak)) = c.memory_mib() {
        eprintln!("peak resident memory: {peak} MiB");
    }
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}
