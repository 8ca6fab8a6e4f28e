//! The runner's MCP server: offers a request's tools to an agent CLI and
//! writes each call the model makes to the request's calls file.
//!
//! The `claude` and `codex` backends hand its command line to the CLI
//! (`claude --mcp-config`, codex's `mcp_servers` configuration), and the
//! CLI starts it as a child of its own, speaking JSON-RPC 2.0 on stdio,
//! one message per line (the MCP stdio transport). `prose jobs mcp
//! --tools FILE --calls FILE` runs it; another binary that embeds the
//! runner can run it with [`main`].
//!
//! It is small on purpose: a server with tools only. It answers
//! `initialize` (with the client's protocol version when it is one it
//! knows, else its newest), `ping`, `tools/list` and `tools/call`, ignores
//! notifications, and answers any other request with "method not found"
//! (-32601), a line that is not JSON with a parse error (-32700), a call
//! of a tool it does not offer with -32602. A call is appended to the
//! calls file before it is answered (`ok`), so when the CLI has exited,
//! every call it made is in the file.

use std::{
    io::{self, BufRead, Write},
    path::{Path, PathBuf},
};

use serde_json::{Value, json};

use super::{append_call, read_definitions};
use crate::backend::ToolDefinition;

/// The protocol versions this server speaks (tools only; they agree on
/// everything it uses).
pub const PROTOCOL_VERSIONS: [&str; 4] = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

/// The name the agent CLIs know the server by: its tools are
/// `mcp__prose__NAME` to them.
pub const SERVER_NAME: &str = "prose";

/// Serves `tools` on `input`/`output` until the input ends, appending
/// every call to `calls_file`.
pub fn serve(
    input: impl BufRead,
    mut output: impl Write,
    tools: &[ToolDefinition],
    calls_file: &Path,
) -> io::Result<()> {
    for line in input.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let answer = match serde_json::from_str::<Value>(&line) {
            Ok(Value::Array(batch)) => {
                let answers: Vec<Value> = batch
                    .iter()
                    .filter_map(|m| handle(m, tools, calls_file))
                    .collect();
                (!answers.is_empty()).then_some(Value::Array(answers))
            }
            Ok(message) => handle(&message, tools, calls_file),
            Err(e) => Some(error(Value::Null, -32700, &format!("parse error: {e}"))),
        };
        if let Some(a) = answer {
            writeln!(output, "{a}")?;
            output.flush()?;
        }
    }
    Ok(())
}

fn error(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

fn result(id: Value, result: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "result": result})
}

/// The answer to one message; `None` for notifications.
fn handle(message: &Value, tools: &[ToolDefinition], calls_file: &Path) -> Option<Value> {
    let id = message.get("id").cloned()?;
    let method = message.get("method").and_then(Value::as_str).unwrap_or("");
    let params = message.get("params").cloned().unwrap_or(Value::Null);
    Some(match method {
        "initialize" => {
            let asked = params.get("protocolVersion").and_then(Value::as_str);
            let version = asked
                .filter(|v| PROTOCOL_VERSIONS.contains(v))
                .unwrap_or(PROTOCOL_VERSIONS[0]);
            result(
                id,
                json!({
                    "protocolVersion": version,
                    "capabilities": {"tools": {"listChanged": false}},
                    "serverInfo": {"name": SERVER_NAME, "version": env!("CARGO_PKG_VERSION")},
                    "instructions": "Tools of the runner: call them to report what the prompt asks you to report."
                }),
            )
        }
        "ping" => result(id, json!({})),
        "tools/list" => result(
            id,
            json!({"tools": tools.iter().map(|t| json!({
                "name": t.name,
                "description": t.description,
                "inputSchema": t.parameters,
            })).collect::<Vec<_>>()}),
        ),
        "tools/call" => {
            let name = params.get("name").and_then(Value::as_str).unwrap_or("");
            if !tools.iter().any(|t| t.name == name) {
                return Some(error(id, -32602, &format!("unknown tool: {name}")));
            }
            let arguments = params.get("arguments").cloned().unwrap_or(json!({}));
            match append_call(calls_file, name, &arguments) {
                Ok(()) => result(
                    id,
                    json!({"content": [{"type": "text", "text": "ok"}], "isError": false}),
                ),
                Err(e) => result(
                    id,
                    json!({"content": [{"type": "text", "text": format!("the runner could not record the call: {e}")}], "isError": true}),
                ),
            }
        }
        _ => error(id, -32601, &format!("method not found: {method}")),
    })
}

/// The options of the server's command line: `--tools FILE --calls FILE`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServerArgs {
    /// The tool definitions (a JSON array of [`ToolDefinition`]).
    pub tools: PathBuf,
    /// Where calls go.
    pub calls: PathBuf,
}

impl ServerArgs {
    /// The arguments that follow the server's command (`prose jobs mcp`).
    pub fn to_args(&self) -> Vec<String> {
        vec![
            "--tools".into(),
            self.tools.display().to_string(),
            "--calls".into(),
            self.calls.display().to_string(),
        ]
    }
}

impl ServerArgs {
    /// Reads `--tools FILE --calls FILE` (in either order).
    pub fn parse(args: &[String]) -> Result<ServerArgs, String> {
        let (mut tools, mut calls) = (None, None);
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let slot = match a.as_str() {
                "--tools" => &mut tools,
                "--calls" => &mut calls,
                other => return Err(format!("unexpected argument `{other}`")),
            };
            *slot = Some(PathBuf::from(
                it.next().ok_or_else(|| format!("`{a}` needs a file"))?,
            ));
        }
        Ok(ServerArgs {
            tools: tools.ok_or("`--tools FILE` is missing")?,
            calls: calls.ok_or("`--calls FILE` is missing")?,
        })
    }
}

/// For a binary that embeds the runner and is given as the tool server
/// (`[its path, "jobs", "mcp"]`): when its arguments (after the program
/// name) are `jobs mcp ...`, runs the server and returns how that went;
/// otherwise `None`, for the binary to go on as usual.
pub fn run_if_asked(args: &[String]) -> Option<Result<(), String>> {
    match args {
        [jobs, mcp, rest @ ..] if jobs == "jobs" && mcp == "mcp" => {
            Some(ServerArgs::parse(rest).and_then(|a| main(&a)))
        }
        _ => None,
    }
}

/// Runs the server on this process's stdio; the body of `prose jobs mcp`.
/// A problem is returned for the caller to print on stderr (stdout is the
/// protocol's).
pub fn main(args: &ServerArgs) -> Result<(), String> {
    let tools = read_definitions(&args.tools)?;
    let stdin = io::stdin();
    let stdout = io::stdout();
    serve(stdin.lock(), stdout.lock(), &tools, &args.calls).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::ToolChannel;

    fn tools() -> Vec<ToolDefinition> {
        vec![ToolDefinition {
            name: "job_boolean_true".into(),
            description: "The condition holds.".into(),
            parameters: json!({"type": "object", "properties": {"argument": {"type": "string"}}}),
        }]
    }

    fn session(lines: &[&str], calls: &Path) -> Vec<Value> {
        let input = lines.join("\n");
        let mut out = Vec::new();
        serve(input.as_bytes(), &mut out, &tools(), calls).unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }

    #[test]
    fn a_client_lists_and_calls_the_tools() {
        let dir = tempfile::tempdir().unwrap();
        let calls = dir.path().join("calls.jsonl");
        let answers = session(
            &[
                r#"{"jsonrpc":"2.0","id":"probe","method":"server/discover","params":{}}"#,
                r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{}}}"#,
                r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
                r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
                r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"job_boolean_true","arguments":{"argument":"done"}}}"#,
                r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"rm_rf","arguments":{}}}"#,
                "{not json",
                r#"[{"jsonrpc":"2.0","id":4,"method":"ping"}]"#,
            ],
            &calls,
        );
        assert_eq!(answers.len(), 7, "{answers:#?}");
        assert_eq!(answers[0]["error"]["code"], -32601);
        assert_eq!(answers[1]["result"]["protocolVersion"], "2025-06-18");
        assert_eq!(answers[1]["result"]["serverInfo"]["name"], "prose");
        assert_eq!(answers[2]["result"]["tools"][0]["name"], "job_boolean_true");
        assert_eq!(
            answers[2]["result"]["tools"][0]["inputSchema"]["type"],
            "object"
        );
        assert_eq!(answers[3]["result"]["content"][0]["text"], "ok");
        assert_eq!(answers[4]["error"]["code"], -32602);
        assert_eq!(answers[5]["error"]["code"], -32700);
        assert_eq!(answers[5]["id"], Value::Null);
        assert_eq!(answers[6][0]["result"], json!({}));
        let recorded = ToolChannel {
            calls_file: calls,
            server: None,
        }
        .read_calls();
        assert_eq!(recorded.len(), 1);
        assert_eq!(recorded[0].name, "job_boolean_true");
        assert_eq!(recorded[0].arguments, json!({"argument": "done"}));
    }

    #[test]
    fn the_command_line_round_trips() {
        let a = ServerArgs {
            tools: "/r/tools.json".into(),
            calls: "/r/s1.jsonl".into(),
        };
        assert_eq!(ServerArgs::parse(&a.to_args()), Ok(a));
        let words = |s: &str| s.split(' ').map(str::to_string).collect::<Vec<_>>();
        assert_eq!(
            ServerArgs::parse(&words("--calls c")),
            Err("`--tools FILE` is missing".into())
        );
        assert_eq!(
            ServerArgs::parse(&words("--tools")),
            Err("`--tools` needs a file".into())
        );
        assert!(run_if_asked(&words("lsp --stdio")).is_none());
        assert_eq!(
            run_if_asked(&words("jobs mcp --nope")),
            Some(Err("unexpected argument `--nope`".into()))
        );
    }

    #[test]
    fn an_unknown_protocol_version_gets_the_newest() {
        let dir = tempfile::tempdir().unwrap();
        let answers = session(
            &[
                r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2099-01-01"}}"#,
            ],
            &dir.path().join("c"),
        );
        assert_eq!(
            answers[0]["result"]["protocolVersion"],
            PROTOCOL_VERSIONS[0]
        );
    }
}
