//! The language server end to end: `e2e-prose lsp` (the same code as
//! `prose lsp` and `prose-lsp`) driven over stdio like an editor.

mod common;
#[path = "common/lsp.rs"]
mod lsp;

use std::time::Duration;

use common::{Sandbox, prose_bin};
use lsp::{LspClient, file_uri, with_code};
use serde_json::{Value, json};

fn start(sb: &Sandbox) -> LspClient {
    LspClient::spawn(prose_bin(), &["lsp"], sb.path())
}

/// Capabilities of a push-diagnostics client that watches files and
/// answers `workspace/configuration`.
fn editor_caps() -> Value {
    json!({
        "workspace": {
            "configuration": true,
            "didChangeWatchedFiles": { "dynamicRegistration": true }
        },
        "textDocument": { "publishDiagnostics": { "relatedInformation": true } }
    })
}

fn range(l1: u32, c1: u32, l2: u32, c2: u32) -> Value {
    json!({ "start": { "line": l1, "character": c1 }, "end": { "line": l2, "character": c2 } })
}

/// `(code, range)` of every diagnostic, for compact comparisons.
fn summary(items: &Value) -> Vec<(String, Value)> {
    let mut out: Vec<_> = items
        .as_array()
        .expect("an array of diagnostics")
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap_or("").to_string(),
                d["range"].clone(),
            )
        })
        .collect();
    out.sort_by_key(|(code, r)| (code.clone(), r.to_string()));
    out
}

const DUPLICATE: &str = "# 😀 emoji\n\
session \"😀 tell me about {missing}\"\n\
agent reviewer:\n  model: sonnet\n\n\
agent reviewer:\n  model: opus\n";

#[test]
fn initialize_negotiates_the_position_encoding() {
    let sb = Sandbox::new("lsp-init");
    let mut c = start(&sb);
    let r = c.initialize(sb.path(), json!({}), Value::Null);
    let caps = &r["capabilities"];
    assert_eq!(caps["positionEncoding"], "utf-16", "{r}");
    assert_eq!(caps["textDocumentSync"]["change"], 2, "incremental: {r}");
    assert_eq!(caps["textDocumentSync"]["openClose"], true);
    assert_eq!(caps["diagnosticProvider"]["identifier"], "prose");
    assert_eq!(caps["diagnosticProvider"]["interFileDependencies"], true);
    // Code lenses (Run program, tests/lsp_run.rs; a job task's expanded
    // prompt, tests/lsp_jobs.rs) and the server's commands.
    assert_eq!(caps["codeLensProvider"]["resolveProvider"], false);
    assert!(caps["executeCommandProvider"]["commands"].is_array());
    assert_eq!(r["serverInfo"]["name"], "prose-lsp");
    let status = c.shutdown_and_exit();
    assert_eq!(status.code(), Some(0));

    let mut c = start(&sb);
    let r = c.initialize(
        sb.path(),
        json!({ "general": { "positionEncodings": ["utf-32", "utf-8", "utf-16"] } }),
        Value::Null,
    );
    assert_eq!(r["capabilities"]["positionEncoding"], "utf-8", "{r}");
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn did_open_publishes_exact_diagnostics_in_utf16() {
    let sb = Sandbox::new("lsp-open");
    let mut c = start(&sb);
    c.initialize(sb.path(), editor_caps(), Value::Null);
    let uri = file_uri(&sb.path().join("dup.prose"));
    c.open(&uri, 7, DUPLICATE);
    let p = c.diagnostics(&uri, Some(7));
    let items = &p["diagnostics"];

    let dup = with_code(items, "E006");
    assert_eq!(dup.len(), 1, "{items}");
    let dup = dup[0];
    assert_eq!(dup["range"], range(5, 6, 5, 14));
    assert_eq!(dup["severity"], 1);
    assert_eq!(dup["source"], "prose");
    // No docs URL is configured: no link (tests/lsp_newcomer.rs has one).
    assert_eq!(dup.get("codeDescription"), None, "{dup}");
    assert_eq!(dup["message"], "Agent already defined: `reviewer`");
    let related = &dup["relatedInformation"][0];
    assert_eq!(related["location"]["uri"], uri.as_str());
    assert_eq!(related["location"]["range"], range(2, 6, 2, 14));

    // After "😀" (two UTF-16 units) on the same line.
    let undefined = with_code(items, "P101");
    assert_eq!(undefined.len(), 1, "{items}");
    assert_eq!(undefined[0]["range"], range(1, 27, 1, 34));
    assert_eq!(undefined[0]["severity"], 4);
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn utf8_positions_count_bytes() {
    let sb = Sandbox::new("lsp-utf8");
    let mut c = start(&sb);
    c.initialize(
        sb.path(),
        json!({ "general": { "positionEncodings": ["utf-8"] } }),
        Value::Null,
    );
    let uri = file_uri(&sb.path().join("dup.prose"));
    c.open(&uri, 1, DUPLICATE);
    let p = c.diagnostics(&uri, Some(1));
    let undefined = with_code(&p["diagnostics"], "P101");
    // "😀" is 4 bytes.
    assert_eq!(undefined[0]["range"], range(1, 29, 1, 36));

    // An edit in byte columns: replace "missing" with "topic2".
    c.change(&uri, 2, &[(1, 29, 1, 36, "topic2")]);
    let p = c.diagnostics(&uri, Some(2));
    let undefined = with_code(&p["diagnostics"], "P101");
    assert_eq!(undefined[0]["range"], range(1, 29, 1, 35));
    assert!(undefined[0]["message"].as_str().unwrap().contains("topic2"));
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn incremental_changes_apply_in_order_and_stale_versions_are_dropped() {
    let sb = Sandbox::new("lsp-change");
    let mut c = start(&sb);
    c.initialize(sb.path(), editor_caps(), Value::Null);
    let uri = file_uri(&sb.path().join("main.prose"));
    c.open(&uri, 1, "session \"hi\"\n");
    let p = c.diagnostics(&uri, Some(1));
    assert_eq!(p["diagnostics"], json!([]));

    // Two edits in one notification, applied one after the other.
    c.change(
        &uri,
        2,
        &[
            (1, 0, 1, 0, "agent reviewer:\n  model: opus\n"),
            (3, 0, 3, 0, "agent reviewer:\n  model: sonnet\n"),
        ],
    );
    let p = c.diagnostics(&uri, Some(2));
    assert_eq!(
        summary(&p["diagnostics"]),
        vec![("E006".to_string(), range(3, 6, 3, 14))]
    );

    // A line with a non-BMP character above moves the diagnostic down.
    c.change(&uri, 3, &[(0, 0, 0, 0, "# 😀\n")]);
    let p = c.diagnostics(&uri, Some(3));
    assert_eq!(
        summary(&p["diagnostics"]),
        vec![("E006".to_string(), range(4, 6, 4, 14))]
    );

    // Version 5 arrives before version 4: 4 is stale and dropped.
    c.change(&uri, 5, &[(0, 0, 1, 0, "")]);
    c.change(&uri, 4, &[(0, 0, 0, 0, "\n\n\n")]);
    let p = c.diagnostics(&uri, Some(5));
    assert_eq!(
        summary(&p["diagnostics"]),
        vec![("E006".to_string(), range(3, 6, 3, 14))]
    );
    let log = c.wait_notification("window/logMessage", |p| {
        p["message"]
            .as_str()
            .unwrap_or("")
            .contains("ignored version 4")
    });
    assert_eq!(log["type"], 2, "a warning");
    // The text is version 5's: a pull sees the same.
    let report = c.call(
        "textDocument/diagnostic",
        json!({ "textDocument": { "uri": uri } }),
    );
    assert_eq!(
        summary(&report["items"]),
        vec![("E006".to_string(), range(3, 6, 3, 14))]
    );
    assert!(
        c.try_wait_notification(
            "textDocument/publishDiagnostics",
            Duration::from_millis(300),
            |p| { p["version"] == 4 }
        )
        .is_none()
    );

    // Many quick edits: the last one wins.
    for v in 6..30 {
        c.change(&uri, v, &[(0, 0, 0, 0, "\n")]);
    }
    c.change(&uri, 30, &[(0, 0, 24, 0, "")]);
    let p = c.diagnostics(&uri, Some(30));
    assert_eq!(
        summary(&p["diagnostics"]),
        vec![("E006".to_string(), range(3, 6, 3, 14))]
    );
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

/// A long report is written by the server itself (not through a JSON
/// tree): the client still gets every item, the real result id, and
/// `unchanged` when it passes that id back.
#[test]
fn a_long_pulled_report_arrives_whole() {
    let sb = Sandbox::new("lsp-pull-long");
    let mut c = start(&sb);
    c.initialize(
        sb.path(),
        json!({ "textDocument": { "diagnostic": { "relatedDocumentSupport": false } } }),
        Value::Null,
    );
    let uri = file_uri(&sb.path().join("many.prose"));
    // 300 agents of one name: 299 E006, far past the stash threshold.
    let text: String = (0..300).map(|_| "agent a:\n  model: opus\n").collect();
    c.open(&uri, 1, &text);
    let params = json!({ "textDocument": { "uri": uri } });
    let first = c.call("textDocument/diagnostic", params.clone());
    assert_eq!(first["kind"], "full", "{first}");
    let e006 = with_code(&first["items"], "E006");
    assert_eq!(e006.len(), 299);
    assert_eq!(e006[0]["range"], range(2, 6, 2, 7));
    let id = first["resultId"].as_str().expect("a result id").to_string();
    assert!(!id.starts_with("prose-stash-"), "{id}");
    assert_eq!(id.len(), 16, "the report's hash: {id}");

    let again = c.call(
        "textDocument/diagnostic",
        json!({ "textDocument": { "uri": uri }, "previousResultId": id }),
    );
    assert_eq!(again, json!({ "kind": "unchanged", "resultId": id }));
    // Asked again without the id: the same full report, from a new stash.
    assert_eq!(c.call("textDocument/diagnostic", params), first);
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn pull_diagnostics_with_result_ids() {
    let sb = Sandbox::new("lsp-pull");
    let mut c = start(&sb);
    c.initialize(
        sb.path(),
        json!({ "textDocument": { "diagnostic": { "relatedDocumentSupport": false } } }),
        Value::Null,
    );
    let uri = file_uri(&sb.path().join("dup.prose"));
    c.open(&uri, 1, DUPLICATE);
    let params = json!({ "textDocument": { "uri": uri } });
    let first = c.call("textDocument/diagnostic", params.clone());
    assert_eq!(first["kind"], "full", "{first}");
    assert_eq!(with_code(&first["items"], "E006").len(), 1);
    let id = first["resultId"].as_str().expect("a result id").to_string();

    let again = c.call(
        "textDocument/diagnostic",
        json!({ "textDocument": { "uri": uri }, "previousResultId": id }),
    );
    assert_eq!(again, json!({ "kind": "unchanged", "resultId": id }));

    // Rename the second agent: no E006 any more, a new result id.
    c.change(&uri, 2, &[(5, 6, 5, 14, "critic")]);
    let after = c.call(
        "textDocument/diagnostic",
        json!({ "textDocument": { "uri": uri }, "previousResultId": id }),
    );
    assert_eq!(after["kind"], "full");
    assert!(with_code(&after["items"], "E006").is_empty(), "{after}");
    assert_ne!(after["resultId"], json!(id));

    // A pulling client gets no pushes.
    assert!(
        c.try_wait_notification(
            "textDocument/publishDiagnostics",
            Duration::from_millis(300),
            |_| true
        )
        .is_none()
    );
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn bad_requests_get_errors_and_the_server_lives_on() {
    let sb = Sandbox::new("lsp-errors");
    sb.write("latin1.prose", b"session \"caf\xe9\"\n");
    let mut c = start(&sb);

    // Before `initialize`: "server not initialized".
    let id = c.request(
        "textDocument/diagnostic",
        json!({ "textDocument": { "uri": "file:///x.prose" } }),
    );
    assert_eq!(c.response(id)["error"]["code"], -32002);

    c.initialize(sb.path(), editor_caps(), Value::Null);
    let uri = file_uri(&sb.path().join("a.prose"));
    c.open(&uri, 1, DUPLICATE);
    c.diagnostics(&uri, Some(1));

    // An unknown document.
    let id = c.request(
        "textDocument/diagnostic",
        json!({ "textDocument": { "uri": file_uri(&sb.path().join("nowhere.prose")) } }),
    );
    let r = c.response(id);
    assert_eq!(r["error"]["code"], -32602, "{r}");
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap()
            .contains("unknown document")
    );

    // A second `initialize` is refused.
    let id = c.request("initialize", json!({ "capabilities": {} }));
    assert_eq!(c.response(id)["error"]["code"], -32600);

    // A file on disk that is not UTF-8 is not loaded: unknown too.
    let id = c.request(
        "textDocument/diagnostic",
        json!({ "textDocument": { "uri": file_uri(&sb.path().join("latin1.prose")) } }),
    );
    assert_eq!(c.response(id)["error"]["code"], -32602);

    // Malformed params, an unknown method, a body that is not JSON.
    let id = c.request("textDocument/diagnostic", json!({ "textDocument": 42 }));
    assert_eq!(c.response(id)["error"]["code"], -32602);
    let id = c.request("prose/noSuchMethod", json!({}));
    assert_eq!(c.response(id)["error"]["code"], -32601);
    c.send_raw(b"Content-Length: 6\r\n\r\n{oops}");
    let r = c.response_where(|m| m["id"].is_null());
    assert_eq!(r["error"]["code"], -32700, "{r}");
    c.send_raw(b"Content-Length: 36\r\n\r\n{\"jsonrpc\":\"1.0\",\"id\":99,\"method\":1}");
    assert_eq!(c.response(99)["error"]["code"], -32600);
    c.send_raw(b"X-Garbage: yes\r\n\r\n");
    let id = c.request(
        "textDocument/diagnostic",
        json!({ "textDocument": { "uri": uri } }),
    );
    let r = c.response(id);
    assert_eq!(r["result"]["kind"], "full", "still answering: {r}");

    // Notifications about documents that are not open are ignored.
    c.change(
        &file_uri(&sb.path().join("closed.prose")),
        2,
        &[(0, 0, 0, 0, "x")],
    );
    c.notify(
        "textDocument/didClose",
        json!({ "textDocument": { "uri": file_uri(&sb.path().join("closed.prose")) } }),
    );
    // Edits far past the end are clamped, not a crash.
    c.change(
        &uri,
        2,
        &[(999, 999, 1000, 5, "\nagent reviewer:\n  model: opus\n")],
    );
    let p = c.diagnostics(&uri, Some(2));
    assert_eq!(with_code(&p["diagnostics"], "E006").len(), 2, "{p}");

    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn exit_without_shutdown_is_status_1() {
    let sb = Sandbox::new("lsp-exit");
    let mut c = start(&sb);
    c.initialize(sb.path(), json!({}), Value::Null);
    c.notify("exit", Value::Null);
    assert_eq!(c.wait_exit().code(), Some(1));
}

/// A client that never answers the server's `workspace/configuration`:
/// the handler waiting for it must not keep the process alive after `exit`.
#[test]
fn exit_is_prompt_while_a_request_to_the_client_is_unanswered() {
    let sb = Sandbox::new("lsp-exit-pending");
    let mut c = start(&sb);
    c.unanswered = vec!["workspace/configuration"];
    c.initialize(sb.path(), editor_caps(), Value::Null);
    c.server_request("workspace/configuration");
    c.call("shutdown", Value::Null);
    c.notify("exit", Value::Null);
    let started = std::time::Instant::now();
    let status = c.wait_exit();
    assert_eq!(status.code(), Some(0));
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "exit took {:?}",
        started.elapsed()
    );
}

#[test]
fn oversized_documents_are_reported_not_analysed() {
    let sb = Sandbox::new("lsp-big");
    let mut c = start(&sb);
    c.initialize(sb.path(), editor_caps(), Value::Null);
    let uri = file_uri(&sb.path().join("big.prose"));
    let big = "# padding\n".repeat(1_100_000); // 11 MB
    c.open(&uri, 1, &big);
    let p = c.diagnostics(&uri, Some(1));
    let items = p["diagnostics"].as_array().unwrap();
    assert_eq!(items.len(), 1, "{p}");
    assert!(
        items[0]["message"]
            .as_str()
            .unwrap()
            .contains("not analysed"),
        "{p}"
    );
    // Shrunk under the limit: analysed again.
    c.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri, "version": 2 }, "contentChanges": [{ "text": DUPLICATE }] }),
    );
    let p = c.diagnostics(&uri, Some(2));
    assert_eq!(with_code(&p["diagnostics"], "E006").len(), 1, "{p}");
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

const IMPORTED_TOPIC: &str =
    "input topic: \"What to research\"\noutput findings = session \"Research {topic}\"\n";
const IMPORTED_SUBJECT: &str =
    "input subject: \"What to research\"\noutput findings = session \"Research {subject}\"\n";
const MAIN: &str =
    "use \"@alice/research\"\nlet result = research(subject: \"quantum computing\")\n";
const PROGRAM: &str = ".prose/imports/alice--research/program.prose";
const MEMORY: &str = ".prose/agents/advisor/memory.md";

#[test]
fn workspace_files_config_and_watched_changes() {
    let sb = Sandbox::new("lsp-workspace");
    sb.write("prose.toml", "[severity]\nE027 = \"warning\"\n")
        .write(PROGRAM, IMPORTED_TOPIC)
        .write(MEMORY, "notes\n")
        .write("main.prose", MAIN)
        .write(
            "mem.prose",
            "agent advisor:\n  persist: project\nsession: advisor\n",
        );
    let mut c = start(&sb);
    c.initialize(sb.path(), editor_caps(), Value::Null);

    // The imported program is found in the workspace; prose.toml applies.
    let main = file_uri(&sb.path().join("main.prose"));
    c.open(&main, 1, MAIN);
    let p = c.diagnostics(&main, Some(1));
    let items = &p["diagnostics"];
    assert_eq!(with_code(items, "E026").len(), 1, "{items}");
    let unknown = with_code(items, "E027");
    assert_eq!(unknown.len(), 1, "{items}");
    assert_eq!(unknown[0]["severity"], 2, "E027 = warning in prose.toml");
    assert_eq!(unknown[0]["range"], range(1, 22, 1, 29));

    // The server registered its file watchers.
    let registration = c
        .server_requests
        .iter()
        .find(|r| r["method"] == "client/registerCapability")
        .expect("a registration")
        .clone();
    let watchers = &registration["params"]["registrations"][0]["registerOptions"]["watchers"];
    let globs: Vec<&str> = watchers
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["globPattern"].as_str().unwrap())
        .collect();
    // The home's `.prose` as an absolute glob: this client has no
    // `relativePatternSupport`.
    let home_glob = format!("{}/{}/.prose/**", sb.path().display(), lsp::NO_HOME);
    assert_eq!(
        globs,
        ["**/*.prose", "**/prose.toml", "**/memory.md", &home_glob]
    );

    // The imported program changes on disk.
    sb.write(PROGRAM, IMPORTED_SUBJECT);
    let program = file_uri(&sb.path().join(PROGRAM));
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": program, "type": 2 }] }),
    );
    c.wait_notification("textDocument/publishDiagnostics", |p| {
        p["uri"] == main.as_str() && p["diagnostics"] == json!([])
    });

    // Opened and edited in the editor, the program is the editor's text;
    // closed, it is the disk's again.
    c.open(&program, 1, IMPORTED_TOPIC);
    c.wait_notification("textDocument/publishDiagnostics", |p| {
        p["uri"] == main.as_str() && !with_code(&p["diagnostics"], "E027").is_empty()
    });
    c.notify(
        "textDocument/didClose",
        json!({ "textDocument": { "uri": program } }),
    );
    c.wait_notification("textDocument/publishDiagnostics", |p| {
        p["uri"] == program.as_str() && p["diagnostics"] == json!([])
    });
    c.wait_notification("textDocument/publishDiagnostics", |p| {
        p["uri"] == main.as_str() && p["diagnostics"] == json!([])
    });

    // The memory file exists: W011 (a hint in the default profile).
    let mem = file_uri(&sb.path().join("mem.prose"));
    c.open(
        &mem,
        1,
        "agent advisor:\n  persist: project\nsession: advisor\n",
    );
    let p = c.diagnostics(&mem, Some(1));
    let w011 = with_code(&p["diagnostics"], "W011");
    assert_eq!(w011.len(), 1, "{p}");
    assert_eq!(w011[0]["severity"], 4);

    // Editor settings (workspace/configuration) lay over prose.toml.
    c.settings = json!({ "profile": "strict" });
    c.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": null }),
    );
    c.wait_notification("textDocument/publishDiagnostics", |p| {
        p["uri"] == mem.as_str()
            && with_code(&p["diagnostics"], "W011")
                .first()
                .map(|d| d["severity"].clone())
                == Some(json!(2))
    });

    // The memory file is deleted.
    std::fs::remove_file(sb.path().join(MEMORY)).unwrap();
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": file_uri(&sb.path().join(MEMORY)), "type": 3 }] }),
    );
    c.wait_notification("textDocument/publishDiagnostics", |p| {
        p["uri"] == mem.as_str() && with_code(&p["diagnostics"], "W011").is_empty()
    });

    // prose.toml changes: E027 becomes an error again... but `subject` is
    // declared now, so make main wrong again first.
    c.change(&main, 2, &[(1, 22, 1, 29, "subjekt")]);
    let p = c.diagnostics(&main, Some(2));
    assert_eq!(with_code(&p["diagnostics"], "E027")[0]["severity"], 2);
    sb.write("prose.toml", "[severity]\nE027 = \"info\"\n");
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": file_uri(&sb.path().join("prose.toml")), "type": 2 }] }),
    );
    c.wait_notification("textDocument/publishDiagnostics", |p| {
        p["uri"] == main.as_str()
            && with_code(&p["diagnostics"], "E027")
                .first()
                .map(|d| d["severity"].clone())
                == Some(json!(3))
    });
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn initialization_options_and_a_broken_prose_toml() {
    let sb = Sandbox::new("lsp-options");
    sb.write("prose.toml", "profil = \"strict\"\n");
    let mut c = start(&sb);
    c.initialize(
        sb.path(),
        json!({}),
        json!({ "severity": { "E006": "off" }, "profile": "bogus" }),
    );
    // Bad settings first, then the broken file.
    c.wait_notification("window/showMessage", |p| {
        p["message"].as_str().unwrap_or("").contains("bogus")
    });
    let message = c.wait_notification("window/showMessage", |p| {
        p["message"].as_str().unwrap_or("").contains("prose.toml")
    });
    assert_eq!(message["type"], 2, "a warning: {message}");
    assert!(
        message["message"]
            .as_str()
            .unwrap()
            .contains("default configuration")
    );

    let uri = file_uri(&sb.path().join("dup.prose"));
    c.open(&uri, 1, DUPLICATE);
    let p = c.diagnostics(&uri, Some(1));
    assert!(
        with_code(&p["diagnostics"], "E006").is_empty(),
        "E006 is off: {p}"
    );
    assert_eq!(with_code(&p["diagnostics"], "P101").len(), 1, "{p}");
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn unchanged_diagnostics_of_other_documents_are_not_re_sent() {
    let sb = Sandbox::new("lsp-unchanged");
    let mut c = start(&sb);
    c.initialize(sb.path(), editor_caps(), Value::Null);
    let a = file_uri(&sb.path().join("a.prose"));
    let b = file_uri(&sb.path().join("b.prose"));
    c.open(&a, 1, DUPLICATE);
    c.diagnostics(&a, Some(1));
    c.open(&b, 1, DUPLICATE);
    c.diagnostics(&b, Some(1));
    // Editing `a` re-checks `b` too, whose diagnostics did not change.
    c.change(&a, 2, &[(0, 0, 0, 0, "# a comment\n")]);
    let p = c.diagnostics(&a, Some(2));
    assert_eq!(
        with_code(&p["diagnostics"], "E006")[0]["range"],
        range(6, 6, 6, 14)
    );
    assert!(
        c.try_wait_notification(
            "textDocument/publishDiagnostics",
            Duration::from_secs(1),
            |p| p["uri"] == b.as_str()
        )
        .is_none(),
        "b was sent again"
    );
    // Closing clears the document's diagnostics.
    c.notify(
        "textDocument/didClose",
        json!({ "textDocument": { "uri": b } }),
    );
    let p = c.diagnostics(&b, None);
    assert_eq!(p["diagnostics"], json!([]));
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

/// `(code, message, LSP range)` of every diagnostic of `list`, sorted;
/// `range` turns a diagnostic's range into an LSP one.
fn code_message_range(
    list: &Value,
    range: impl Fn(&Value) -> Value,
) -> Vec<(String, String, Value)> {
    let mut out: Vec<_> = list
        .as_array()
        .expect("an array of diagnostics")
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["message"].as_str().unwrap().to_string(),
                range(&d["range"]),
            )
        })
        .collect();
    out.sort_by_key(|(c, m, r)| (c.clone(), m.clone(), r.to_string()));
    out
}

/// A long program (re-parsed per statement, its names replayed, its
/// statement rules kept per statement, its file-wide rules computed on the
/// fork of the run): what the server publishes is what `prose check`
/// reports, when opened and after edits in a prompt, of a duplicate and of
/// a loop's body.
#[test]
fn a_long_programs_diagnostics_are_the_checkers() {
    let unit = "agent writer:\n  model: sonnet\n  prompt: \"Write well.\"\n\n\
let draft = session: writr\n  prompt: \"Draft {topic}\"\n\n\
for item in items:\n  session \"Review {item}\"\n  let draft = session \"again\"\n\n\
parallel:\n  a = session \"x\"\n  a = session \"y\"\n\n";
    let mut text = unit.repeat(160);
    assert!(text.len() > 32 * 1024);
    let sb = Sandbox::new("lsp-long-program");
    let mut c = start(&sb);
    c.initialize(sb.path(), json!({}), Value::Null);
    let uri = file_uri(&sb.path().join("long.prose"));
    // (code, message, LSP range) of what `prose check` reports on `text`.
    let checked = |text: &str| -> Vec<(String, String, Value)> {
        sb.write("long.prose", text);
        let run = sb.prose(&["check", "--format", "json", "long.prose"]);
        let v: Value = serde_json::from_str(&run.stdout).expect("a JSON report");
        let pos = |p: &Value| {
            json!({ "line": p["line"].as_u64().unwrap() - 1,
                    "character": p["column"].as_u64().unwrap() - 1 })
        };
        code_message_range(
            &v["diagnostics"],
            |r| json!({ "start": pos(&r["start"]), "end": pos(&r["end"]) }),
        )
    };
    let published = |d: &Value| code_message_range(&d["diagnostics"], Value::clone);
    c.open(&uri, 1, &text);
    let first = published(&c.diagnostics(&uri, Some(1)));
    let expected = checked(&text);
    assert!(expected.len() > 500, "{} diagnostics", expected.len());
    let codes: std::collections::BTreeSet<_> = expected.iter().map(|d| d.0.as_str()).collect();
    // Findings of several rule groups: an unknown agent, a duplicate
    // variable.
    assert!(
        codes.contains("E007") && codes.contains("E019"),
        "{codes:?}"
    );
    assert_eq!(first, expected);
    // Typing in a prompt, removing a line of a duplicate, shadowing a loop
    // variable: line 3 + 15k is `  prompt: "Write well."`.
    let edits: [(u32, u32, u32, u32, &str); 3] = [
        (2 + 15 * 50, 17, 2 + 15 * 50, 17, "very "),
        (13 + 15 * 100, 0, 14 + 15 * 100, 0, ""),
        (
            8 + 15 * 150,
            0,
            8 + 15 * 150,
            0,
            "  let item = session \"shadow\"\n",
        ),
    ];
    for (i, (l1, c1, l2, c2, new)) in edits.into_iter().enumerate() {
        let version = 2 + i as i64;
        // The same edit on the text.
        let offset = |line: u32, col: u32| -> usize {
            text.split_inclusive('\n')
                .take(line as usize)
                .map(str::len)
                .sum::<usize>()
                + col as usize
        };
        let (from, to) = (offset(l1, c1), offset(l2, c2));
        text.replace_range(from..to, new);
        c.change(&uri, version, &[(l1, c1, l2, c2, new)]);
        let got = published(&c.diagnostics(&uri, Some(version)));
        assert_eq!(got, checked(&text), "edit {i}");
    }
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}
