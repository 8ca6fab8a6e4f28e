//! Tool calls from agents that run in a process of their own.
//!
//! The HTTP backends declare a request's [`super::ToolDefinition`]s to the
//! model and get its calls back in the API's answer; the mock scripts
//! them. The `claude`, `codex` and `command` backends run a program
//! instead, so a call has to travel back to the runner some other way: the
//! runner names a **calls file** ([`ToolChannel::calls_file`], one per
//! request, in the run's directory) and every call is appended to it as
//! one JSON line:
//!
//! ```json
//! {"name": "job_boolean_true", "arguments": {"argument": "plan.md lists three steps"}}
//! ```
//!
//! - The agent CLIs reach the tools over MCP: they start the runner's
//!   stdio MCP server ([`mcp`], `prose jobs mcp --tools FILE --calls
//!   FILE`), which offers the tools and appends each call the model makes.
//! - A `command` program gets the file's path in `PROSE_TOOLS_FILE` and the
//!   names of the tools in `PROSE_TOOLS`; it runs `prose jobs tool NAME
//!   ARGUMENT` ([`report_call`]) or appends the line itself.
//!
//! When the program has exited, the backend reads the file
//! ([`ToolChannel::read_calls`]) and returns the calls, in order, in
//! [`super::BackendResponse::tool_calls`], as every backend does. A file
//! is a good fit here: the calls of one request are needed only when the
//! request ends, appending a short line is atomic, nothing listens on a
//! socket, and the file stays in the run's directory as a record.

pub mod mcp;

use std::{
    io::{self, Read, Write},
    path::Path,
};

use serde_json::{Value, json};

use super::{ToolCall, ToolChannel, ToolDefinition};

/// At most this much of a calls file is read.
pub const MAX_CALLS_FILE: u64 = 4 * 1024 * 1024;

/// At most this many calls of one request are kept.
pub const MAX_CALLS: usize = 1000;

/// The environment variable that names the calls file (the `command`
/// backend, `prose jobs tool`).
pub const TOOLS_FILE_VAR: &str = "PROSE_TOOLS_FILE";

/// The environment variable listing the tools a request offers, one name
/// per line.
pub const TOOLS_VAR: &str = "PROSE_TOOLS";

/// The MCP server a request's tools are offered through: its program and
/// arguments, when the request offers tools and has a server.
pub fn mcp_server(request: &super::BackendRequest) -> Option<(&str, &[String])> {
    if request.tools.is_empty() {
        return None;
    }
    let argv = request.tool_channel.as_ref()?.server.as_ref()?;
    let (program, args) = argv.split_first()?;
    Some((program.as_str(), args))
}

/// What the request's tools are called by the agent CLIs: `mcp__prose__NAME`.
pub fn mcp_tool_names(request: &super::BackendRequest) -> Vec<String> {
    request
        .tools
        .iter()
        .map(|t| format!("mcp__{}__{}", mcp::SERVER_NAME, t.name))
        .collect()
}

/// Empties the request's calls file before its program starts.
pub fn reset_calls(request: &super::BackendRequest) {
    if let Some(c) = &request.tool_channel {
        c.reset();
    }
}

/// The calls the request's program reported, when it offers tools.
pub fn reported_calls(request: &super::BackendRequest) -> Vec<ToolCall> {
    match &request.tool_channel {
        Some(c) if !request.tools.is_empty() => c.read_calls(),
        _ => Vec::new(),
    }
}

impl ToolChannel {
    /// Empties the calls file before a program starts, so that only this
    /// run of it counts (a backend that runs its program twice for one
    /// request, such as `claude` after a lost conversation).
    pub fn reset(&self) {
        let _ = std::fs::remove_file(&self.calls_file);
    }

    /// The calls in the file, in the order they were appended. A line that
    /// is not a call is returned as a call with an empty name and the
    /// line (its first 200 characters) as its arguments, for the runner to
    /// report; a missing file has no calls.
    pub fn read_calls(&self) -> Vec<ToolCall> {
        let Ok(file) = std::fs::File::open(&self.calls_file) else {
            return Vec::new();
        };
        let mut text = String::new();
        let mut bytes = Vec::new();
        if file.take(MAX_CALLS_FILE).read_to_end(&mut bytes).is_ok() {
            text = String::from_utf8_lossy(&bytes).into_owned();
        }
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .take(MAX_CALLS)
            .map(parse_line)
            .collect()
    }
}

/// One line of a calls file.
fn parse_line(line: &str) -> ToolCall {
    let unreadable = || ToolCall {
        id: None,
        name: String::new(),
        arguments: Value::String(crate::events::excerpt(line.trim())),
    };
    let Ok(v) = serde_json::from_str::<Value>(line.trim()) else {
        return unreadable();
    };
    match v.get("name").and_then(Value::as_str) {
        Some(name) if !name.is_empty() => ToolCall {
            id: v.get("id").and_then(Value::as_str).map(str::to_string),
            name: name.to_string(),
            arguments: v.get("arguments").cloned().unwrap_or_else(|| json!({})),
        },
        _ => unreadable(),
    }
}

/// Appends one call to `file`, in a single write (appends of a short line
/// do not interleave), and flushes it to disk.
pub fn append_call(file: &Path, name: &str, arguments: &Value) -> io::Result<()> {
    let line = format!("{}\n", json!({"name": name, "arguments": arguments}));
    let open = || {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(file)
    };
    let mut f = match open() {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            if let Some(dir) = file.parent() {
                std::fs::create_dir_all(dir)?;
            }
            open()?
        }
        other => other?,
    };
    f.write_all(line.as_bytes())?;
    f.sync_data()
}

/// Why `prose jobs tool` could not report a call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportError(pub String);

impl std::fmt::Display for ReportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// `prose jobs tool NAME ARGUMENT`: reports a call of `name` from a
/// `command` program, through the file its environment names
/// (`get(PROSE_TOOLS_FILE)`), after checking that the request offers that
/// tool (`get(PROSE_TOOLS)`). The argument is sent as `{"argument": ...}`,
/// the schema of every job tool.
pub fn report_call(
    name: &str,
    argument: &str,
    get: impl Fn(&str) -> Option<String>,
) -> Result<(), ReportError> {
    let file = get(TOOLS_FILE_VAR).filter(|f| !f.is_empty()).ok_or_else(|| {
        ReportError(format!(
            "`{TOOLS_FILE_VAR}` is not set: `prose jobs tool` reports a tool call of a job task's session, from the program the `command` backend runs"
        ))
    })?;
    let offered = get(TOOLS_VAR).unwrap_or_default();
    let names: Vec<&str> = offered.lines().filter(|l| !l.is_empty()).collect();
    if !names.contains(&name) {
        return Err(ReportError(if names.is_empty() {
            format!("this request offers no tools, so `{name}` cannot be called")
        } else {
            format!(
                "`{name}` is not a tool of this request; it offers {}",
                names.join(", ")
            )
        }));
    }
    append_call(Path::new(&file), name, &json!({ "argument": argument }))
        .map_err(|e| ReportError(format!("cannot write to {file}: {e}")))
}

/// Writes the tool definitions the MCP server offers (a JSON array).
pub fn write_definitions(file: &Path, tools: &[ToolDefinition]) -> io::Result<()> {
    let text = serde_json::to_string_pretty(tools).map_err(io::Error::other)?;
    crate::state::write_atomic(file, text.as_bytes(), false)
}

/// Reads the tool definitions written by [`write_definitions`].
pub fn read_definitions(file: &Path) -> Result<Vec<ToolDefinition>, String> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", file.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn channel(dir: &Path) -> ToolChannel {
        ToolChannel {
            calls_file: dir.join("s1.jsonl"),
            server: None,
        }
    }

    #[test]
    fn calls_come_back_in_order_and_garbage_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let c = channel(&dir.path().join("tools"));
        assert_eq!(c.read_calls(), vec![]);
        append_call(
            &c.calls_file,
            "job_boolean_false",
            &json!({"argument": "no"}),
        )
        .unwrap();
        append_call(
            &c.calls_file,
            "job_boolean_true",
            &json!({"argument": "yes"}),
        )
        .unwrap();
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&c.calls_file)
            .unwrap();
        writeln!(f, "\nnot json\n{{\"arguments\": {{}}}}").unwrap();
        let calls = c.read_calls();
        let names: Vec<&str> = calls.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["job_boolean_false", "job_boolean_true", "", ""]);
        assert_eq!(calls[1].arguments, json!({"argument": "yes"}));
        assert_eq!(calls[2].arguments, json!("not json"));
        c.reset();
        assert_eq!(c.read_calls(), vec![]);
    }

    #[test]
    fn the_helper_checks_its_environment_and_the_tool() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("calls.jsonl");
        let env = |tools: &'static str| {
            let file = file.display().to_string();
            move |k: &str| match k {
                TOOLS_FILE_VAR => Some(file.clone()),
                TOOLS_VAR => Some(tools.to_string()),
                _ => None,
            }
        };
        let e = report_call("job_boolean_true", "x", |_| None).unwrap_err();
        assert!(e.0.starts_with("`PROSE_TOOLS_FILE` is not set"), "{e}");
        let e = report_call(
            "job_boolean_tru",
            "x",
            env("job_boolean_true\njob_boolean_false"),
        )
        .unwrap_err();
        assert_eq!(
            e.0,
            "`job_boolean_tru` is not a tool of this request; it offers job_boolean_true, job_boolean_false"
        );
        let e = report_call("job_boolean_true", "x", env("")).unwrap_err();
        assert_eq!(
            e.0,
            "this request offers no tools, so `job_boolean_true` cannot be called"
        );
        report_call("job_boolean_true", "two\nlines", env("job_boolean_true")).unwrap();
        let calls = channel(dir.path()).read_calls();
        assert_eq!(calls, vec![]);
        let calls = ToolChannel {
            calls_file: file,
            server: None,
        }
        .read_calls();
        assert_eq!(calls.len(), 1);
        assert_eq!(calls[0].arguments, json!({"argument": "two\nlines"}));
    }
}
