//! A small LSP client for the end-to-end tests: runs the server binary
//! (`e2e-prose lsp`) over stdio like an editor does, with `Content-Length`
//! framing. Every wait has a timeout, so a server that hangs fails the test
//! instead of blocking it.
//!
//! The server runs with `PROSE_HOME` inside the test's directory, so it
//! never looks at the real home. The client answers the server's requests
//! itself (`workspace/configuration` with [`LspClient::settings`], the
//! methods of [`LspClient::answers`] with their answer, everything else
//! with `null`) and keeps every notification it has not been asked for
//! yet, in order.

#![allow(dead_code)]

use std::{
    collections::VecDeque,
    io::{BufRead, BufReader, Read, Write},
    path::Path,
    process::{Child, ChildStdin, Command, ExitStatus, Stdio},
    sync::{
        Arc, Mutex,
        mpsc::{self, Receiver, RecvTimeoutError},
    },
    thread,
    time::{Duration, Instant},
};

use serde_json::{Value, json};

/// How long any single wait may take (debug builds on a busy machine).
pub const TIMEOUT: Duration = Duration::from_secs(60);

pub struct LspClient {
    child: Child,
    stdin: Option<ChildStdin>,
    /// Each message with when its last byte was read (before it was
    /// parsed).
    messages: Receiver<(Instant, Value)>,
    /// When the last message taken from the server arrived.
    arrived: Option<Instant>,
    stderr: Arc<Mutex<String>>,
    next_id: i64,
    /// Notifications (and unanswered messages) not consumed yet.
    queue: VecDeque<Value>,
    /// Requests the server sent to the client, in order.
    pub server_requests: Vec<Value>,
    /// The answer to `workspace/configuration` (for each item).
    pub settings: Value,
    /// Server requests left unanswered, by method (a client that hangs).
    pub unanswered: Vec<&'static str>,
    /// Answers to server requests by method (`window/showMessageRequest`,
    /// `prose/inputRequest`, ...); others get `null`.
    pub answers: Vec<(&'static str, Value)>,
}

/// Reads one framed message, with when its last byte was read (before it
/// was parsed); `None` at the end of the stream.
fn read_message(reader: &mut impl BufRead) -> Option<(Instant, Value)> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length:") {
            length = n.trim().parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    let arrived = Instant::now();
    Some((
        arrived,
        serde_json::from_slice(&body).expect("the server sends JSON"),
    ))
}

/// A whole frame of `body` with `Content-Length: length` (which a
/// malformed-input test may set wrong on purpose).
pub fn frame(length: usize, body: &str) -> Vec<u8> {
    let mut out = format!("Content-Length: {length}\r\n\r\n").into_bytes();
    out.extend_from_slice(body.as_bytes());
    out
}

/// The client capabilities of an editor that pulls diagnostics
/// (`textDocument/diagnostic`) instead of receiving them.
pub fn pull_capabilities() -> Value {
    json!({ "textDocument": { "diagnostic": { "relatedDocumentSupport": false } } })
}

/// Where [`LspClient::spawn`] points `PROSE_HOME` (under the working
/// directory, never created), so no test reads or watches the real `~/.prose`.
pub const NO_HOME: &str = ".prose-e2e-no-home";

impl LspClient {
    /// Starts `BIN ARGS` in `cwd`, with `PROSE_HOME` at `cwd/`[`NO_HOME`].
    pub fn spawn(bin: &Path, args: &[&str], cwd: &Path) -> LspClient {
        let home = cwd.join(NO_HOME);
        Self::spawn_with_home(bin, args, cwd, &home)
    }

    /// Starts `BIN lsp` in `cwd` and initializes it with `capabilities`.
    pub fn started(bin: &Path, cwd: &Path, capabilities: Value) -> LspClient {
        let mut c = Self::spawn(bin, &["lsp"], cwd);
        c.initialize(cwd, capabilities, Value::Null);
        c
    }

    /// Starts `BIN ARGS` in `cwd`, with `PROSE_HOME` (the directory whose
    /// `.prose` holds user-level state) at `home`.
    pub fn spawn_with_home(bin: &Path, args: &[&str], cwd: &Path, home: &Path) -> LspClient {
        let mut child = Command::new(bin)
            .args(args)
            .current_dir(cwd)
            .env("PROSE_HOME", home)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start the language server");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read_message(&mut reader) {
                if tx.send(message).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let sink = stderr.clone();
        let mut err = child.stderr.take().unwrap();
        thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        LspClient {
            stdin: child.stdin.take(),
            child,
            messages: rx,
            arrived: None,
            stderr,
            next_id: 1,
            queue: VecDeque::new(),
            server_requests: Vec::new(),
            settings: Value::Null,
            unanswered: Vec::new(),
            answers: Vec::new(),
        }
    }

    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// Closes the server's stdin (a client that went away).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The server's text of an open document (`prose/debug/documentText`).
    pub fn document_text(&mut self, uri: &str) -> String {
        let r = self.call(
            "prose/debug/documentText",
            json!({ "textDocument": { "uri": uri } }),
        );
        r["text"]
            .as_str()
            .unwrap_or_else(|| panic!("{uri} is not open: {r}"))
            .to_string()
    }

    /// Writes raw bytes (for malformed-input tests).
    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(bytes).expect("write to the server");
        stdin.flush().expect("flush to the server");
    }

    pub fn send(&mut self, message: &Value) {
        let body = message.to_string();
        self.send_raw(&frame(body.len(), &body));
    }

    /// Sends a request; returns its id.
    pub fn request(&mut self, method: &str, params: Value) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        id
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// The next message from the server, answering server requests on the
    /// way; `None` once `deadline` passes.
    fn next_message(&mut self, deadline: Instant) -> Option<Value> {
        loop {
            let message = self.next_any(deadline)?;
            if !is_request(&message) {
                return Some(message);
            }
        }
    }

    /// The next message from the server, of any kind: a request from the
    /// server is answered and recorded in `server_requests` first.
    fn next_any(&mut self, deadline: Instant) -> Option<Value> {
        let left = deadline.saturating_duration_since(Instant::now());
        let message = match self.messages.recv_timeout(left) {
            Ok((arrived, m)) => {
                self.arrived = Some(arrived);
                m
            }
            Err(RecvTimeoutError::Timeout) => return None,
            Err(RecvTimeoutError::Disconnected) => {
                // Let the stderr thread catch up before reporting.
                thread::sleep(Duration::from_millis(100));
                panic!("the server closed stdout; stderr:\n{}", self.stderr())
            }
        };
        if is_request(&message) {
            self.answer(&message);
            self.server_requests.push(message.clone());
        }
        Some(message)
    }

    fn answer(&mut self, request: &Value) {
        if let Some(method) = request["method"].as_str()
            && self.unanswered.contains(&method)
        {
            return;
        }
        let result = match request["method"].as_str() {
            Some("workspace/configuration") => {
                let n = request["params"]["items"].as_array().map_or(1, Vec::len);
                Value::Array(vec![self.settings.clone(); n])
            }
            Some(method) => self
                .answers
                .iter()
                .find(|(m, _)| *m == method)
                .map_or(Value::Null, |(_, answer)| answer.clone()),
            None => Value::Null,
        };
        let id = request["id"].clone();
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "result": result }));
    }

    /// Waits for the response to request `id` (a whole message: `result`
    /// or `error`).
    pub fn response(&mut self, id: i64) -> Value {
        self.response_where(|m| m["id"] == json!(id))
    }

    /// Waits for a response (a message without `method`) matching `pred`.
    pub fn response_where(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + TIMEOUT;
        let matches = |m: &Value| m.get("method").is_none() && pred(m);
        if let Some(i) = self.queue.iter().position(matches) {
            return self.queue.remove(i).unwrap();
        }
        loop {
            let Some(message) = self.next_message(deadline) else {
                panic!(
                    "no matching response within {TIMEOUT:?}; stderr:\n{}",
                    self.stderr()
                );
            };
            if matches(&message) {
                return message;
            }
            self.queue.push_back(message);
        }
    }

    /// Waits until the server has sent a request `method` (answered by
    /// the client); returns the first one.
    pub fn server_request(&mut self, method: &str) -> Value {
        self.server_request_where(method, |_| true)
    }

    /// Waits until the server has sent a request `method` whose params
    /// satisfy `pred`; returns the first one.
    pub fn server_request_where(&mut self, method: &str, pred: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(r) = self
                .server_requests
                .iter()
                .find(|r| r["method"] == method && pred(&r["params"]))
            {
                return r.clone();
            }
            let Some(message) = self.next_any(deadline) else {
                panic!(
                    "no {method} request within {TIMEOUT:?}; stderr:\n{}",
                    self.stderr()
                );
            };
            if !is_request(&message) {
                self.queue.push_back(message);
            }
        }
    }

    /// Sends a request and returns its `result`, failing on an error.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.request(method, params);
        let response = self.response(id);
        assert!(
            response.get("error").is_none(),
            "{method} failed: {response}"
        );
        response["result"].clone()
    }

    /// Like [`LspClient::call`], asking again when the answer is
    /// `ContentModified` (a workspace load may cancel a snapshot).
    pub fn call_retrying(&mut self, method: &str, params: Value) -> Value {
        for _ in 0..20 {
            let id = self.request(method, params.clone());
            let response = self.response(id);
            if response["error"]["code"] == -32801 {
                continue;
            }
            assert!(
                response.get("error").is_none(),
                "{method} failed: {response}"
            );
            return response["result"].clone();
        }
        panic!("{method}: content modified 20 times");
    }

    /// Waits for a notification `method` whose params satisfy `pred`;
    /// earlier notifications that do not match are dropped.
    pub fn wait_notification(&mut self, method: &str, pred: impl Fn(&Value) -> bool) -> Value {
        self.try_wait_notification(method, TIMEOUT, pred)
            .unwrap_or_else(|| {
                panic!(
                    "no matching {method} within {TIMEOUT:?}; stderr:\n{}",
                    self.stderr()
                )
            })
    }

    /// Like [`LspClient::wait_notification`], `None` after `timeout`.
    /// Notifications of `method` that come before the match are dropped;
    /// other messages stay queued for later waits.
    pub fn try_wait_notification(
        &mut self,
        method: &str,
        timeout: Duration,
        pred: impl Fn(&Value) -> bool,
    ) -> Option<Value> {
        let deadline = Instant::now() + timeout;
        let mut i = 0;
        while i < self.queue.len() {
            if self.queue[i]["method"] == method {
                let mut message = self.queue.remove(i).unwrap();
                if pred(&message["params"]) {
                    return Some(message["params"].take());
                }
            } else {
                i += 1;
            }
        }
        loop {
            let mut message = self.next_message(deadline)?;
            if message["method"] == method {
                if pred(&message["params"]) {
                    // Taken, not cloned: a long list's copy would count
                    // in the benchmarks' latencies.
                    return Some(message["params"].take());
                }
            } else {
                self.queue.push_back(message);
            }
        }
    }

    /// Collects the notifications of `methods` (whole messages, in the
    /// order they came) until one satisfies `last`; other messages stay
    /// queued for later waits.
    pub fn collect_notifications(
        &mut self,
        methods: &[&str],
        last: impl Fn(&Value) -> bool,
    ) -> Vec<Value> {
        let deadline = Instant::now() + TIMEOUT;
        let wanted = |m: &Value| methods.contains(&m["method"].as_str().unwrap_or_default());
        let mut out = Vec::new();
        let mut i = 0;
        while i < self.queue.len() {
            if wanted(&self.queue[i]) {
                let message = self.queue.remove(i).unwrap();
                let done = last(&message);
                out.push(message);
                if done {
                    return out;
                }
            } else {
                i += 1;
            }
        }
        loop {
            let Some(message) = self.next_message(deadline) else {
                panic!(
                    "no end of {methods:?} within {TIMEOUT:?}; got {out:?}; stderr:\n{}",
                    self.stderr()
                );
            };
            if wanted(&message) {
                let done = last(&message);
                out.push(message);
                if done {
                    return out;
                }
            } else {
                self.queue.push_back(message);
            }
        }
    }

    /// Waits for the diagnostics of `uri` at `version` (`None`: any).
    pub fn diagnostics(&mut self, uri: &str, version: Option<i64>) -> Value {
        self.wait_notification("textDocument/publishDiagnostics", |p| {
            p["uri"] == uri && (version.is_none() || p["version"] == json!(version))
        })
    }

    /// [`LspClient::diagnostics`] of a version not published yet (so that
    /// they come from the server, not from the messages queued earlier),
    /// with when the publication's last byte was read: a benchmark's clock
    /// stops there, before the client parses the message (the server's
    /// latency, not the client's JSON parser).
    pub fn diagnostics_arrival(&mut self, uri: &str, version: Option<i64>) -> (Value, Instant) {
        let published = self.diagnostics(uri, version);
        (
            published,
            self.arrived.expect("a message came from the server"),
        )
    }

    /// `initialize` + `initialized`; returns the `initialize` result.
    pub fn initialize(&mut self, root: &Path, capabilities: Value, options: Value) -> Value {
        let root_uri = file_uri(root);
        let result = self.call(
            "initialize",
            json!({
                "processId": null,
                "rootUri": root_uri,
                "workspaceFolders": [{ "uri": root_uri, "name": "ws" }],
                "capabilities": capabilities,
                "initializationOptions": options,
            }),
        );
        self.notify("initialized", json!({}));
        result
    }

    pub fn open(&mut self, uri: &str, version: i64, text: &str) {
        self.open_as(uri, "prose", version, text);
    }

    /// `didOpen` with the editor's language id (`prose-dialect`, `json`,
    /// `markdown`, ...).
    pub fn open_as(&mut self, uri: &str, language_id: &str, version: i64, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": language_id, "version": version, "text": text } }),
        );
    }

    /// One `didChange` with one ranged edit per `(start line, start col,
    /// end line, end col, text)`.
    pub fn change(&mut self, uri: &str, version: i64, edits: &[(u32, u32, u32, u32, &str)]) {
        let changes: Vec<Value> = edits
            .iter()
            .map(|&(l1, c1, l2, c2, text)| {
                json!({
                    "range": { "start": { "line": l1, "character": c1 }, "end": { "line": l2, "character": c2 } },
                    "text": text,
                })
            })
            .collect();
        self.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": changes }),
        );
    }

    /// `shutdown` then `exit`; returns the exit status.
    pub fn shutdown_and_exit(mut self) -> ExitStatus {
        self.call("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        self.wait_exit()
    }

    /// Waits for the process to end (failing after the timeout).
    pub fn wait_exit(&mut self) -> ExitStatus {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait for the server") {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "the server did not exit within {TIMEOUT:?}"
            );
            thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The server's resident memory now and at its peak, in MiB
    /// (`VmRSS`, `VmHWM`; Linux only).
    pub fn memory_mib(&self) -> Option<(u64, u64)> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid())).ok()?;
        let field = |name: &str| -> Option<u64> {
            let line = status.lines().find(|l| l.starts_with(name))?;
            Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? / 1024)
        };
        Some((field("VmRSS:")?, field("VmHWM:")?))
    }

    /// User + system CPU time of the server, in clock ticks (Linux only).
    pub fn cpu_ticks(&self) -> Option<u64> {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.pid())).ok()?;
        // The fields after the command name (which may hold spaces): state
        // is field 3, utime field 14, stime field 15.
        let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
        let utime: u64 = fields.get(11)?.parse().ok()?;
        let stime: u64 = fields.get(12)?.parse().ok()?;
        Some(utime + stime)
    }
}

impl Drop for LspClient {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Whether a message is a request (from the server, when received).
fn is_request(message: &Value) -> bool {
    message.get("method").is_some() && message.get("id").is_some()
}

/// The `file:` URI of an absolute path (percent-encoding what needs it).
pub fn file_uri(path: &Path) -> String {
    let mut out = String::from("file://");
    for b in path.to_str().expect("UTF-8 path").bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The diagnostics of `items` (a publish's or a report's) with code `code`.
pub fn with_code<'a>(items: &'a Value, code: &str) -> Vec<&'a Value> {
    items
        .as_array()
        .expect("an array of diagnostics")
        .iter()
        .filter(|d| d["code"] == code)
        .collect()
}

/// The params of a request at a position of `uri`.
pub fn at(uri: &str, line: u32, character: u32) -> Value {
    json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } })
}

/// An LSP range.
pub fn range(l1: u32, c1: u32, l2: u32, c2: u32) -> Value {
    json!({ "start": { "line": l1, "character": c1 }, "end": { "line": l2, "character": c2 } })
}

/// The absolute `(line, column, length, type name)` of the delta-encoded
/// semantic tokens of `result`, named by `legend`.
pub fn decode_tokens(result: &Value, legend: &Value) -> Vec<(u32, u32, u32, String)> {
    let data: Vec<u32> = result["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|n| n.as_u64().unwrap() as u32)
        .collect();
    assert_eq!(data.len() % 5, 0);
    let (mut line, mut col) = (0, 0);
    data.chunks(5)
        .map(|t| {
            if t[0] > 0 {
                line += t[0];
                col = t[1];
            } else {
                col += t[1];
            }
            let kind = legend["tokenTypes"][t[3] as usize].as_str().unwrap();
            (line, col, t[2], kind.to_string())
        })
        .collect()
}

/// The `key` string of each item of the array `items` (labels, names).
pub fn strings<'a>(items: &'a Value, key: &str) -> Vec<&'a str> {
    items
        .as_array()
        .expect("an array")
        .iter()
        .map(|i| i[key].as_str().expect("a string"))
        .collect()
}
