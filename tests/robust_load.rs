//! The language server under heavy input (issue 16): large and
//! pathological documents, cancelled work, edits while another document is
//! analysed, selection ranges by the thousand. Each test runs the real
//! binary over stdio and asserts what the server answers, with generous
//! timeouts: how fast it answers is measured by the benchmarks
//! (docs/performance/heavy-input.md), not here.

mod common;
#[path = "common/lsp.rs"]
mod lsp;
#[path = "../crates/prose-syntax/benches/program_gen/mod.rs"]
mod program_gen;

use std::{thread, time::Duration};

use common::{Sandbox, prose_bin};
use lsp::{LspClient, file_uri, pull_capabilities, with_code};
use serde_json::{Value, json};

/// A client that pulls diagnostics: no push runs keep the server busy,
/// so the CPU the server uses is the requests'.
fn pulling(sb: &Sandbox) -> LspClient {
    LspClient::started(prose_bin(), sb.path(), pull_capabilities())
}

fn pushing(sb: &Sandbox) -> LspClient {
    LspClient::started(prose_bin(), sb.path(), json!({}))
}

fn whole(uri: &str) -> Value {
    json!({
        "textDocument": { "uri": uri },
        "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 10000000, "character": 0 } },
        "context": { "diagnostics": [] },
    })
}

fn at(uri: &str, line: u32, character: u32) -> Value {
    json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } })
}

const SMALL: &str = "agent alpha:\n  model: opus\nsession: alpha\n  prompt: \"hi\"\n";

/// Renames the agent of [`SMALL`] (both places) to `name` (five letters).
fn rename(c: &mut LspClient, uri: &str, version: i64, name: &str) {
    c.change(uri, version, &[(0, 6, 0, 11, name), (2, 9, 2, 14, name)]);
}

/// The hover on the agent of `session:` (line 2) of [`SMALL`].
fn hover_text(c: &mut LspClient, uri: &str) -> String {
    let hover = c.call("textDocument/hover", at(uri, 2, 9));
    hover["contents"]["value"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// A whole-document code action on a large program is answered, with a
/// fix for each fixable diagnostic (it used to take a time quadratic in
/// the size of the file).
#[test]
fn a_whole_document_code_action_on_a_large_program() {
    let sb = Sandbox::new("robust-actions");
    let mut c = pulling(&sb);
    let uri = file_uri(&sb.path().join("big.prose"));
    let text = program_gen::program(1024 * 1024);
    c.open(&uri, 1, &text);
    let actions = c.call("textDocument/codeAction", whole(&uri));
    let actions = actions.as_array().expect("a list of actions");
    // Every unit of the generated program has duplicates to rename.
    let units = text.matches("===== unit").count();
    let renames = actions
        .iter()
        .filter(|a| a["title"].as_str().unwrap_or("").starts_with("Rename this"))
        .count();
    assert!(renames >= units, "{renames} renames for {units} units");
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

/// `$/cancelRequest` for that code action: answered `RequestCancelled`,
/// and the work stops (the server's CPU time stays flat afterwards); an
/// edit of another document and a hover on it are then answered.
#[test]
fn a_cancelled_code_action_stops_and_other_documents_are_answered() {
    let sb = Sandbox::new("robust-cancel-action");
    let mut c = pulling(&sb);
    let big = file_uri(&sb.path().join("big.prose"));
    let small = file_uri(&sb.path().join("small.prose"));
    c.open(&small, 1, SMALL);
    c.open(&big, 1, &program_gen::program(2 * 1024 * 1024));
    let id = c.request("textDocument/codeAction", whole(&big));
    thread::sleep(Duration::from_millis(200));
    c.notify("$/cancelRequest", json!({ "id": id }));
    let response = c.response(id);
    let cancelled = response["error"]["code"] == -32800;
    assert!(cancelled || response.get("result").is_some(), "{response}");
    if cancelled && let Some(before) = c.cpu_ticks() {
        // Had the analysis gone on, it would keep a core busy for seconds.
        thread::sleep(Duration::from_millis(1500));
        let spent = c.cpu_ticks().unwrap() - before;
        assert!(spent < 50, "{spent} CPU ticks after the cancellation");
    }
    rename(&mut c, &small, 2, "omega");
    let md = hover_text(&mut c, &small);
    assert!(md.contains("omega") && !md.contains("alpha"), "{md}");
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

/// Edits of a small document while a large one is being analysed: every
/// hover after an edit is answered, on the edited text.
#[test]
fn edits_of_one_document_are_answered_while_another_is_analysed() {
    let sb = Sandbox::new("robust-two-docs");
    let mut c = pushing(&sb);
    let big = file_uri(&sb.path().join("big.prose"));
    let small = file_uri(&sb.path().join("small.prose"));
    c.open(&small, 1, SMALL);
    c.open(&big, 1, &program_gen::program(1024 * 1024));
    for v in 2..12 {
        // Rename the agent back and forth.
        let (name, old) = if v % 2 == 0 {
            ("omega", "alpha")
        } else {
            ("alpha", "omega")
        };
        rename(&mut c, &small, v, name);
        let md = hover_text(&mut c, &small);
        assert!(md.contains(name) && !md.contains(old), "version {v}: {md}");
    }
    let p = c.diagnostics(&big, Some(1));
    assert!(!p["diagnostics"].as_array().unwrap().is_empty());
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

/// A 600 KB program with one parallel block binding the same name on every
/// line: diagnostics arrive, one E019 per repeated binding (the rule used
/// to compare every pair).
#[test]
fn many_duplicate_names_in_one_parallel_block() {
    let sb = Sandbox::new("robust-duplicates");
    let mut c = pushing(&sb);
    let uri = file_uri(&sb.path().join("dup.prose"));
    let lines = 600 * 1024 / 19;
    let mut text = String::from("parallel:\n");
    for _ in 0..lines {
        text.push_str("  a = session \"x\"\n");
    }
    c.open(&uri, 1, &text);
    let p = c.diagnostics(&uri, Some(1));
    assert_eq!(with_code(&p["diagnostics"], "E019").len(), lines - 1);
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

/// Whether each chain starts with a range holding its position and each
/// range holds the one before (what VS Code's expand selection checks).
fn check_chains(positions: &[Value], chains: &Value) {
    let pos = |p: &Value| {
        (
            p["line"].as_u64().unwrap(),
            p["character"].as_u64().unwrap(),
        )
    };
    let holds = |outer: &Value, inner_start: (u64, u64), inner_end: (u64, u64)| {
        pos(&outer["start"]) <= inner_start && inner_end <= pos(&outer["end"])
    };
    let chains = chains.as_array().expect("a list of chains");
    assert_eq!(chains.len(), positions.len());
    for (p, chain) in positions.iter().zip(chains) {
        let cursor = pos(p);
        let mut inner = (cursor, cursor);
        let mut range = chain;
        while !range.is_null() {
            assert!(
                holds(&range["range"], inner.0, inner.1),
                "{p}: {} does not hold {inner:?}",
                range["range"]
            );
            inner = (pos(&range["range"]["start"]), pos(&range["range"]["end"]));
            range = &range["parent"];
        }
    }
}

/// `selectionRange` with 2,001 positions over a large program: answered,
/// every chain valid (each position used to walk the whole file).
#[test]
fn selection_ranges_by_the_thousand() {
    let sb = Sandbox::new("robust-selection");
    let mut c = pulling(&sb);
    let uri = file_uri(&sb.path().join("big.prose"));
    let text = program_gen::program(512 * 1024);
    let lines: Vec<&str> = text.lines().collect();
    c.open(&uri, 1, &text);
    let positions: Vec<Value> = (0..2001)
        .map(|i| {
            let line = i * lines.len() / 2001;
            let character = (i * 7) % (lines[line].len() + 1);
            json!({ "line": line, "character": character })
        })
        .collect();
    let chains = c.call(
        "textDocument/selectionRange",
        json!({ "textDocument": { "uri": uri }, "positions": positions }),
    );
    check_chains(&positions, &chains);
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

/// Chains at the end of a file, on a blank, on an empty line, on a
/// discretion's `**` and before a BOM start with a range that holds the
/// cursor, and every range holds the one before.
#[test]
fn selection_ranges_hold_the_cursor_everywhere() {
    let sb = Sandbox::new("robust-selection-edges");
    let mut c = pulling(&sb);
    let hello = "# Hello World\n# The simplest OpenProse program - a single session\n\nsession \"Say hello and briefly introduce yourself\"\n";
    let uri = file_uri(&sb.path().join("hello.prose"));
    c.open(&uri, 1, hello);
    let eof = json!({ "line": 4, "character": 0 });
    let chains = c.call(
        "textDocument/selectionRange",
        json!({ "textDocument": { "uri": uri }, "positions": [eof] }),
    );
    check_chains(&[eof], &chains);

    let text = "\u{FEFF}agent a:\n  model: opus\n\n   \nif **ready**:\n  session: a\n";
    let uri = file_uri(&sb.path().join("edges.prose"));
    c.open(&uri, 1, text);
    let positions: Vec<Value> = [
        (0, 0),  // before the BOM
        (1, 1),  // in the indentation
        (2, 0),  // an empty line
        (3, 2),  // a line of blanks
        (4, 3),  // on `**`
        (4, 4),  // on the second `*`
        (4, 11), // on the closing `**`
        (6, 0),  // the end of the file
    ]
    .iter()
    .map(|&(line, character)| json!({ "line": line, "character": character }))
    .collect();
    let chains = c.call(
        "textDocument/selectionRange",
        json!({ "textDocument": { "uri": uri }, "positions": positions }),
    );
    check_chains(&positions, &chains);
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}
