//! The language server with several workspace folders and the home's
//! `.prose`, end to end: every folder is a root with its own `prose.toml`
//! and `.prose/agents/`; folders come and go with
//! `workspace/didChangeWorkspaceFolders`; `~/.prose` (here `PROSE_HOME`,
//! inside the sandbox) is watched like the workspace.

mod common;
#[path = "common/lsp.rs"]
mod lsp;

use std::path::Path;

use common::{Sandbox, prose_bin};
use lsp::{LspClient, file_uri, with_code};
use serde_json::{Value, json};

/// A push-diagnostics client that watches files (with `RelativePattern`s
/// when `relative`) and answers `workspace/configuration`.
fn caps(relative: bool) -> Value {
    json!({
        "workspace": {
            "configuration": true,
            "workspaceFolders": true,
            "didChangeWatchedFiles": {
                "dynamicRegistration": true,
                "relativePatternSupport": relative
            }
        }
    })
}

fn folder(path: &Path) -> Value {
    json!({ "uri": file_uri(path), "name": path.file_name().unwrap().to_str().unwrap() })
}

/// Starts the server with `PROSE_HOME` at `sandbox/home` and the given
/// workspace folders.
fn start(sb: &Sandbox, folders: &[&str], relative: bool) -> LspClient {
    let mut c =
        LspClient::spawn_with_home(prose_bin(), &["lsp"], sb.path(), &sb.path().join("home"));
    let folders: Vec<Value> = folders.iter().map(|f| folder(&sb.path().join(f))).collect();
    c.call(
        "initialize",
        json!({
            "processId": null,
            "rootUri": folders[0]["uri"],
            "workspaceFolders": folders,
            "capabilities": caps(relative),
        }),
    );
    c.notify("initialized", json!({}));
    c
}

/// The severity of the one diagnostic `code` of a publish, `None` when absent.
fn severity(p: &Value, code: &str) -> Option<i64> {
    let found = with_code(&p["diagnostics"], code);
    assert!(found.len() <= 1, "{p}");
    found.first().map(|d| d["severity"].as_i64().unwrap())
}

/// A project-memory agent resumed before any session (E018 without its
/// memory file), and a duplicate agent (E006).
const PROGRAM: &str = "agent captain:\n  model: opus\n  persist: project\nresume: captain\n  prompt: \"Continue\"\nagent captain:\n  model: opus\n";
const MEMORY: &str = ".prose/agents/captain/memory.md";

#[test]
fn each_workspace_folder_is_a_root_with_its_own_prose_toml_and_memory() {
    let sb = Sandbox::new("lsp-roots");
    sb.write("a/prose.toml", "profile = \"strict\"\n")
        .write("b/prose.toml", "[severity]\nE006 = \"off\"\n")
        .write(&format!("b/{MEMORY}"), "notes\n");
    let mut c = start(&sb, &["a", "b"], false);

    // a: strict (E018 and E006 are errors), no memory file.
    let a = file_uri(&sb.path().join("a/main.prose"));
    c.open(&a, 1, PROGRAM);
    let p = c.diagnostics(&a, Some(1));
    assert_eq!(severity(&p, "E018"), Some(1), "{p}");
    assert_eq!(severity(&p, "E006"), Some(1), "{p}");
    // b: its memory file exists, its prose.toml turns E006 off.
    let b = file_uri(&sb.path().join("b/main.prose"));
    c.open(&b, 1, PROGRAM);
    let p = c.diagnostics(&b, Some(1));
    assert_eq!(severity(&p, "E018"), None, "{p}");
    assert_eq!(severity(&p, "E006"), None, "{p}");

    // The editor's settings lay over each folder's prose.toml.
    c.settings = json!({ "profile": "default" });
    c.notify(
        "workspace/didChangeConfiguration",
        json!({ "settings": null }),
    );
    c.wait_notification("textDocument/publishDiagnostics", |p| {
        p["uri"] == a.as_str() && severity(p, "E018") == Some(4)
    });

    // b's prose.toml changes: only b's setting moves.
    sb.write("b/prose.toml", "[severity]\nE006 = \"info\"\n");
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({ "changes": [{ "uri": file_uri(&sb.path().join("b/prose.toml")), "type": 2 }] }),
    );
    c.wait_notification("textDocument/publishDiagnostics", |p| {
        p["uri"] == b.as_str() && severity(p, "E006") == Some(3)
    });
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn an_added_workspace_folder_becomes_a_root() {
    let sb = Sandbox::new("lsp-roots-added");
    sb.mkdir("a")
        .write("b/prose.toml", "[severity]\nE006 = \"off\"\n")
        .write(&format!("b/{MEMORY}"), "notes\n");
    let mut c = start(&sb, &["a"], false);

    // Outside every folder: its own directory is its root, defaults apply.
    let uri = file_uri(&sb.path().join("b/sub/main.prose"));
    c.open(&uri, 1, PROGRAM);
    let p = c.diagnostics(&uri, Some(1));
    assert_eq!(severity(&p, "E018"), Some(4), "{p}");
    assert_eq!(severity(&p, "E006"), Some(1), "{p}");

    // b becomes a workspace folder: its prose.toml and memory apply.
    c.notify(
        "workspace/didChangeWorkspaceFolders",
        json!({ "event": { "added": [folder(&sb.path().join("b"))], "removed": [] } }),
    );
    c.wait_notification("textDocument/publishDiagnostics", |p| {
        p["uri"] == uri.as_str() && p["diagnostics"] == json!([])
    });

    // And when it is removed again, they no longer do.
    c.notify(
        "workspace/didChangeWorkspaceFolders",
        json!({ "event": { "added": [], "removed": [folder(&sb.path().join("b"))] } }),
    );
    c.wait_notification("textDocument/publishDiagnostics", |p| {
        p["uri"] == uri.as_str() && severity(p, "E018") == Some(4) && severity(p, "E006") == Some(1)
    });
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}

#[test]
fn the_home_prose_folder_is_watched() {
    let sb = Sandbox::new("lsp-roots-home");
    sb.mkdir("ws");
    let mut c = start(&sb, &["ws"], true);
    let home_state = sb.path().join("home/.prose");

    // The registration watches the home's `.prose`, relative to it.
    let registration = c.server_request("client/registerCapability");
    let registered = &registration["params"]["registrations"][0];
    assert_eq!(registered["method"], "workspace/didChangeWatchedFiles");
    let watchers = registered["registerOptions"]["watchers"]
        .as_array()
        .unwrap();
    assert!(
        watchers.contains(&json!({
            "globPattern": { "baseUri": file_uri(&home_state), "pattern": "**" }
        })),
        "{watchers:?}"
    );

    // A user-scope agent resumed: E018 until ~/.prose/agents/x/memory.md exists.
    let text = "agent x:\n  model: opus\n  persist: user\nresume: x\n  prompt: \"Continue\"\n\
                use \"@alice/research\"\nlet r = research(topic: \"q\")\n";
    let uri = file_uri(&sb.path().join("ws/main.prose"));
    c.open(&uri, 1, text);
    let p = c.diagnostics(&uri, Some(1));
    let e018 = with_code(&p["diagnostics"], "E018");
    assert_eq!(e018.len(), 1, "{p}");
    assert!(
        e018[0]["message"]
            .as_str()
            .unwrap()
            .contains("~/.prose/agents/x/memory.md"),
        "{p}"
    );
    assert_eq!(with_code(&p["diagnostics"], "E027").len(), 0, "{p}");

    let memory = home_state.join("agents/x/memory.md");
    let event =
        |path: &Path, typ: u32| json!({ "changes": [{ "uri": file_uri(path), "type": typ }] });
    sb.write("home/.prose/agents/x/memory.md", "notes\n");
    c.notify("workspace/didChangeWatchedFiles", event(&memory, 1));
    c.wait_notification("textDocument/publishDiagnostics", |p| {
        p["uri"] == uri.as_str() && with_code(&p["diagnostics"], "E018").is_empty()
    });

    std::fs::remove_file(&memory).unwrap();
    c.notify("workspace/didChangeWatchedFiles", event(&memory, 3));
    c.wait_notification("textDocument/publishDiagnostics", |p| {
        p["uri"] == uri.as_str() && with_code(&p["diagnostics"], "E018").len() == 1
    });

    // The user import cache: the program appears, its contract is checked.
    let program = home_state.join("imports/alice--research/program.prose");
    sb.write(
        "home/.prose/imports/alice--research/program.prose",
        "input subject: \"What\"\noutput findings = session \"Research {subject}\"\n",
    );
    c.notify("workspace/didChangeWatchedFiles", event(&program, 1));
    c.wait_notification("textDocument/publishDiagnostics", |p| {
        p["uri"] == uri.as_str() && with_code(&p["diagnostics"], "E027").len() == 1
    });
    assert_eq!(c.shutdown_and_exit().code(), Some(0));
}
