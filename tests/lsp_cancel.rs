//! `$/cancelRequest` end to end: a cancelled request is answered with
//! `RequestCancelled` (`-32800`), or with its result when it finished
//! first; its analysis stops (on Linux the test reads the server's CPU time
//! to check that it went idle); and the server answers what follows as
//! before.

mod common;
#[path = "common/lsp.rs"]
mod lsp;

use std::{fs, thread, time::Duration};

use common::{Sandbox, prose_bin};
use lsp::{LspClient, file_uri};
use serde_json::{Value, json};

/// JSON-RPC `RequestCancelled`.
const REQUEST_CANCELLED: i64 = -32800;

/// A program of `n` agents named `a{tag}_{i}`, each with a session reading
/// the previous result.
fn program(tag: &str, n: usize) -> String {
    (0..n)
        .map(|i| {
            let prev = i.saturating_sub(1);
            format!(
                "agent a{tag}_{i}:\n  model: opus\n  prompt: \"Agent {i}\"\n\n\
                 let r{i} = session: a{tag}_{i}\n  prompt: \"Do {i} with {{r{prev}}}\"\n\n"
            )
        })
        .collect()
}

fn at(uri: &str, line: u32, character: u32) -> Value {
    json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } })
}

/// Sends `method` and cancels it at once; true if it was cancelled, false
/// if it answered first (with a result).
fn request_and_cancel(c: &mut LspClient, method: &str, params: Value) -> bool {
    let id = c.request(method, params);
    c.notify("$/cancelRequest", json!({ "id": id }));
    let response = c.response(id);
    match response.get("error") {
        Some(error) => {
            assert_eq!(error["code"], REQUEST_CANCELLED, "{method}: {response}");
            true
        }
        None => {
            assert!(response.get("result").is_some(), "{method}: {response}");
            false
        }
    }
}

#[test]
fn cancelled_requests_stop_and_the_server_answers_what_follows() {
    let sb = Sandbox::new("lsp-cancel");
    // 300 programs: resolving them all for the first workspace symbol
    // query takes seconds in a debug build.
    for f in 0..300 {
        fs::write(
            sb.path().join(format!("p{f:03}.prose")),
            program(&f.to_string(), 40),
        )
        .unwrap();
    }
    let mut c = LspClient::spawn(prose_bin(), &["lsp"], sb.path());
    // A client that pulls diagnostics: no push runs keep the server busy.
    c.initialize(
        sb.path(),
        json!({ "textDocument": { "diagnostic": { "relatedDocumentSupport": false } } }),
        Value::Null,
    );

    let query = json!({ "query": "a150_7" });
    let cancelled = request_and_cancel(&mut c, "workspace/symbol", query.clone());
    if cancelled && let Some(before) = c.cpu_ticks() {
        // Had the analysis gone on, it would keep a core busy for seconds.
        thread::sleep(Duration::from_millis(1500));
        let spent = c.cpu_ticks().unwrap() - before;
        assert!(
            spent < 50,
            "the server used {spent} CPU ticks after the request was cancelled"
        );
    }

    // A pull, cancelled at once.
    let uri = file_uri(&sb.path().join("open.prose"));
    let mut text = program("x", 300);
    text.push_str("agent ax_0:\n  model: sonnet\n");
    c.open(&uri, 1, &text);
    let pull = json!({ "textDocument": { "uri": uri } });
    request_and_cancel(&mut c, "textDocument/diagnostic", pull.clone());

    // The server is healthy: a hover (`ax_1` in `let r1 = session: ax_1`)...
    let hover_params = at(&uri, 11, 19);
    let hover = c.call("textDocument/hover", hover_params.clone());
    let md = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(md.contains("ax_1") && md.contains("opus"), "{hover}");
    // ... the pull, complete ...
    let report = c.call("textDocument/diagnostic", pull);
    assert_eq!(report["kind"], "full", "{report}");
    let items = report["items"].as_array().unwrap();
    assert!(items.iter().any(|d| d["code"] == "E006"), "{report}");
    // ... and the workspace symbols, complete.
    let symbols = c.call("workspace/symbol", query);
    let names: Vec<&str> = symbols
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names.first(), Some(&"a150_7"), "{symbols}");

    // Cancelling a request already answered changes nothing.
    let id = c.request("textDocument/hover", hover_params.clone());
    let answered = c.response(id);
    c.notify("$/cancelRequest", json!({ "id": id }));
    assert_eq!(answered["result"], hover);
    assert_eq!(c.call("textDocument/hover", hover_params), hover);

    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}
