//! `prose-lsp jobs mcp`: the `prose-lsp` binary is the MCP server of the
//! job tools for the task runs it starts (the `claude` and `codex`
//! backends start `<this executable> jobs mcp --tools FILE --calls FILE`),
//! as `prose jobs mcp` is for `prose jobs run`.

use std::{
    io::Write,
    process::{Command, Stdio},
};

use prose_runner::backend::tools::write_definitions;
use serde_json::{Value, json};

fn prose_lsp() -> Command {
    Command::new(env!("CARGO_BIN_EXE_prose-lsp"))
}

#[test]
fn prose_lsp_serves_the_job_tools_and_records_their_calls() {
    let dir = tempfile::tempdir().unwrap();
    let (tools, calls) = (
        dir.path().join("tools.json"),
        dir.path().join("calls.jsonl"),
    );
    write_definitions(&tools, &prose_runner::jobs::tools::definitions()).unwrap();
    let mut child = prose_lsp()
        .args(["jobs", "mcp", "--tools"])
        .arg(&tools)
        .arg("--calls")
        .arg(&calls)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let messages = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "job_boolean_true", "arguments": {"argument": "it holds"}}}),
    ];
    let mut stdin = child.stdin.take().unwrap();
    for m in &messages {
        writeln!(stdin, "{m}").unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answers: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), 3, "{answers:?}");
    assert_eq!(answers[0]["result"]["protocolVersion"], "2025-06-18");
    assert_eq!(answers[0]["result"]["serverInfo"]["name"], "prose");
    let names: Vec<&str> = answers[1]["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "job_prepare_document",
            "job_boolean_true",
            "job_boolean_false",
            "job_prerequisite_failed"
        ]
    );
    assert_eq!(answers[2]["result"]["content"][0]["text"], "ok");
    assert_eq!(
        std::fs::read_to_string(&calls).unwrap(),
        "{\"arguments\":{\"argument\":\"it holds\"},\"name\":\"job_boolean_true\"}\n"
    );
}

#[test]
fn bad_arguments_of_jobs_mcp_are_an_error_and_the_help_names_it() {
    let out = prose_lsp()
        .args(["jobs", "mcp", "--tools"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "prose-lsp jobs mcp: `--tools` needs a file\n"
    );
    let help = prose_lsp().arg("--help").output().unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    assert!(
        help.contains("prose-lsp jobs mcp --tools FILE --calls FILE"),
        "{help}"
    );
}
