//! The language server under hostile input, transport rows: what a client
//! (or an attacker) can send at the framing and JSON-RPC level. Each test
//! runs the real binary over stdio and checks that the server answers,
//! stays up, and answers what follows (issue 16's table and issue 13's
//! mis-framed messages).

mod common;
#[path = "common/lsp.rs"]
mod lsp;

use common::{Sandbox, prose_bin};
use lsp::{LspClient, file_uri, frame};
use serde_json::{Value, json};

fn started(sb: &Sandbox, caps: Value) -> LspClient {
    let mut c = LspClient::spawn(prose_bin(), &["lsp"], sb.path());
    c.initialize(sb.path(), caps, Value::Null);
    c
}

/// The server answers a request as usual.
fn answers(c: &mut LspClient) {
    let symbols = c.call("workspace/symbol", json!({ "query": "nothing" }));
    assert_eq!(symbols, json!([]), "{symbols}");
}

#[test]
fn a_content_length_of_a_petabyte_is_refused() {
    let sb = Sandbox::new("robust-cap");
    let mut c = started(&sb, json!({}));
    c.send_raw(b"Content-Length: 1000000000000000\r\n\r\n");
    answers(&mut c);
    assert!(
        c.stderr()
            .contains("refused a message of 1000000000000000 bytes")
    );
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn a_content_length_of_u64_max_is_refused() {
    let sb = Sandbox::new("robust-cap-max");
    let mut c = started(&sb, json!({}));
    c.send_raw(b"Content-Length: 18446744073709551615\r\n\r\n{\"jsonrpc\":\"2.0\"}");
    answers(&mut c);
    c.send_raw(b"Content-Length: 99999999999999999999999999\r\n\r\n");
    answers(&mut c);
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn ids_outside_i64_are_answered_with_a_null_id() {
    let sb = Sandbox::new("robust-ids");
    let mut c = started(&sb, json!({}));
    for id in ["18446744073709551616", "9223372036854775808", "1e300"] {
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"workspace/symbol","params":{{"query":""}}}}"#
        );
        c.send_raw(&frame(body.len(), &body));
        let r = c.response_where(|m| m["id"].is_null());
        assert_eq!(r["error"]["code"], -32600, "{id}: {r}");
        answers(&mut c);
    }
    // The extremes that do fit are echoed.
    for id in [i64::MIN, i64::MAX] {
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"workspace/symbol","params":{{"query":""}}}}"#
        );
        c.send_raw(&frame(body.len(), &body));
        let r = c.response_where(|m| m["id"] == json!(id));
        assert_eq!(r["result"], json!([]), "{r}");
    }
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

/// A client that never answers `client/registerCapability` and then goes
/// away: the end of stdin ends the server (status 1: no `shutdown`).
#[test]
fn stdin_closed_while_the_server_waits_for_the_client_ends_it() {
    let sb = Sandbox::new("robust-eof");
    let mut c = LspClient::spawn(prose_bin(), &["lsp"], sb.path());
    c.unanswered = vec!["client/registerCapability"];
    c.initialize(
        sb.path(),
        json!({ "workspace": { "didChangeWatchedFiles": { "dynamicRegistration": true } } }),
        Value::Null,
    );
    c.server_request("client/registerCapability");
    c.close_stdin();
    assert_eq!(c.wait_exit().code(), Some(1));
}

#[test]
fn unknown_dollar_requests_are_answered_method_not_found() {
    let sb = Sandbox::new("robust-dollar");
    let mut c = started(&sb, json!({}));
    let id = c.request("$/someUnknownRequest", json!({}));
    let r = c.response(id);
    assert_eq!(r["error"]["code"], -32601, "{r}");
    // `$/` notifications are ignored; `$/cancelRequest` still works.
    c.notify("$/someUnknownNotification", json!({}));
    c.notify("$/cancelRequest", json!({ "id": 12345 }));
    answers(&mut c);
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

/// Issue 13: a `Content-Length` that disagrees with its body no longer
/// leaves the server deaf.
#[test]
fn mis_framed_messages_are_read_and_the_server_resynchronises() {
    let sb = Sandbox::new("robust-framing");
    let mut c = started(&sb, json!({}));
    // One byte too long, then a request: the body took the `C` of the
    // next header.
    c.send_raw(&frame(44, r#"{"jsonrpc":"2.0","id":9,"method":"foo/bar"}"#));
    answers(&mut c);
    assert_eq!(c.response(9)["error"]["code"], -32601);
    // One byte too long, and the client waits for the answer.
    c.send_raw(&frame(
        60,
        r#"{"jsonrpc":"2.0","id":10,"method":"workspace/symbol","params":{"query":""}}"#,
    ));
    assert_eq!(c.response(10)["result"], json!([]));
    // One byte too short.
    let body = r#"{"jsonrpc":"2.0","id":11,"method":"workspace/symbol","params":{"query":""}}"#;
    c.send_raw(&frame(body.len() - 1, body));
    assert_eq!(c.response(11)["result"], json!([]));
    // Characters counted instead of UTF-8 bytes: `é` is two bytes.
    let uri = file_uri(&sb.path().join("a.prose"));
    let open = json!({
        "jsonrpc": "2.0",
        "method": "textDocument/didOpen",
        "params": { "textDocument": {
            "uri": uri, "languageId": "prose", "version": 1, "text": "session \"café é\"\n"
        } },
    })
    .to_string();
    c.send_raw(&frame(open.chars().count(), &open));
    assert_eq!(c.document_text(&uri), "session \"café é\"\n");
    // Garbage between frames, and a header with no length.
    c.send_raw(b"}}garbage\r\n\r\nX-Garbage: 1\r\n\r\n");
    answers(&mut c);
    assert!(
        !c.stderr().contains("without Content-Length"),
        "{}",
        c.stderr()
    );
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

/// A `didChange` holding a lone surrogate (VS Code sends one when an edit
/// splits a surrogate pair) is applied, with U+FFFD in its place: the
/// client's and the server's documents stay the same length in UTF-16, so
/// the next edit applies where the client meant it.
#[test]
fn a_lone_surrogate_in_an_edit_is_applied_as_a_replacement_character() {
    let sb = Sandbox::new("robust-surrogate");
    let mut c = started(&sb, json!({}));
    let uri = file_uri(&sb.path().join("s.prose"));
    c.open(&uri, 1, "session \"a\"\n");
    let change = format!(
        r#"{{"jsonrpc":"2.0","method":"textDocument/didChange","params":{{"textDocument":{{"uri":"{uri}","version":2}},"contentChanges":[{{"range":{{"start":{{"line":0,"character":10}},"end":{{"line":0,"character":10}}}},"text":"\ud83d"}}]}}}}"#
    );
    c.send_raw(&frame(change.len(), &change));
    c.change(&uri, 3, &[(0, 11, 0, 11, "X")]);
    assert_eq!(c.document_text(&uri), "session \"a\u{FFFD}X\"\n");
    assert!(c.stderr().is_empty() || !c.stderr().contains("Parse error"));
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

/// A panic in a handler, or on the analysis thread a handler waits for, is
/// answered `InternalError` with the panic's message, and the server goes
/// on answering (issue 16: catch_unwind at the handler boundary).
#[test]
fn a_panic_in_a_handler_is_an_error_answer() {
    let sb = Sandbox::new("robust-panic");
    let mut c = started(&sb, json!({}));
    let uri = file_uri(&sb.path().join("a.prose"));
    c.open(&uri, 1, "session \"a\"\n");
    for place in ["handler", "analysis"] {
        let id = c.request("prose/debug/panic", json!({ "where": place }));
        let r = c.response(id);
        assert_eq!(r["error"]["code"], -32603, "{r}");
        let message = r["error"]["message"].as_str().unwrap();
        assert!(message.contains("a deliberate panic"), "{message}");
        assert!(message.contains(place), "{message}");
        answers(&mut c);
    }
    // The state is intact: edits apply, requests about them are answered.
    c.change(&uri, 2, &[(0, 9, 0, 10, "b")]);
    assert_eq!(c.document_text(&uri), "session \"b\"\n");
    assert!(c.stderr().contains("a deliberate panic in the handler"));
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

/// On Linux the server widens the pipe it writes to (to 1 MiB, where the
/// system allows it), so the diagnostics of a long program are written in
/// one go rather than in 64 KiB turns with the editor
/// (`transport::output::widen_pipe`).
#[test]
#[cfg(target_os = "linux")]
fn the_server_widens_the_pipe_it_writes_to() {
    use nix::fcntl::{FcntlArg, fcntl};
    use std::io::{Read, Write};
    use std::process::{Command, Stdio};
    let sb = Sandbox::new("robust-pipe");
    let mut child = Command::new(prose_bin())
        .arg("lsp")
        .current_dir(sb.path())
        .env("PROSE_HOME", sb.path().join(".home"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    assert_eq!(fcntl(&stdout, FcntlArg::F_GETPIPE_SZ).unwrap(), 64 * 1024);
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#;
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(&frame(body.len(), body)).unwrap();
    // The answer's first bytes: the server is serving, its output set up.
    let mut first = [0u8; 16];
    stdout.read_exact(&mut first).unwrap();
    assert_eq!(&first, b"Content-Length: ");
    let ceiling: i32 = std::fs::read_to_string("/proc/sys/fs/pipe-max-size")
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let size = fcntl(&stdout, FcntlArg::F_GETPIPE_SZ).unwrap();
    if ceiling >= 1 << 20 {
        assert_eq!(size, 1 << 20);
    } else {
        // Refused without privileges, granted with them.
        assert!(size == 64 * 1024 || size == 1 << 20, "{size}");
    }
    drop(stdin);
    child.wait().unwrap();
}
