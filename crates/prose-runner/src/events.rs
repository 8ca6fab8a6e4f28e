//! Run events: the contract of docs/runner.md ("Events", version 1).
//!
//! The runner emits [`Event`]s through an [`EventBus`], which numbers them
//! (`seq`), stamps them (`time`), appends them to the run's `events.jsonl`
//! and hands them to the caller's [`EventSink`] (the CLI's display or
//! `--events jsonl`, the language server's `prose/runEvent`). [`Event::to_json`]
//! is the wire form.

use std::{
    collections::BTreeMap,
    io::Write,
    path::Path,
    sync::{Arc, Mutex},
    time::SystemTime,
};

use serde_json::{Map, Value as Json, json};

use crate::backend::RequestKind;

/// The version of the event schema.
pub const EVENT_VERSION: u32 = 1;

/// At most this many characters of a text go into an excerpt.
pub const EXCERPT_CHARS: usize = 200;

/// The first [`EXCERPT_CHARS`] characters of `text`, `…` appended when cut.
pub fn excerpt(text: &str) -> String {
    match text.char_indices().nth(EXCERPT_CHARS) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// The excerpts of a run's outputs (`run_finished`'s `outputs`).
pub fn output_excerpts(outputs: &[(String, crate::value::Value)]) -> BTreeMap<String, String> {
    outputs
        .iter()
        .map(|(k, v)| (k.clone(), excerpt(&v.to_text())))
        .collect()
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunStatus {
    Succeeded,
    Failed,
    Cancelled,
}

impl RunStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            RunStatus::Succeeded => "succeeded",
            RunStatus::Failed => "failed",
            RunStatus::Cancelled => "cancelled",
        }
    }
}

/// How a parallel branch ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BranchStatus {
    Ok,
    Failed,
    Skipped,
}

impl BranchStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            BranchStatus::Ok => "ok",
            BranchStatus::Failed => "failed",
            BranchStatus::Skipped => "skipped",
        }
    }
}

/// What happened (the `type` and its own fields).
#[derive(Debug, Clone, PartialEq)]
pub enum EventKind {
    RunStarted {
        program: String,
        run_dir: String,
        backend: String,
        resumed: bool,
        dry_run: bool,
        inputs: BTreeMap<String, String>,
    },
    InputRequested {
        name: String,
        description: String,
    },
    InputReceived {
        name: String,
        excerpt: String,
    },
    SessionStarted {
        kind: RequestKind,
        agent: String,
        model: String,
        binding: String,
        line: u32,
        prompt_excerpt: String,
        /// A job task's session (`task`, `driving`); empty for programs,
        /// and then left out of the JSON.
        role: String,
        /// A job task's prompt: where it is in the task (`prompt`,
        /// `availability.condition`, `criteria.condition`,
        /// `criteria.failureAction[2]`); empty for programs, and then left
        /// out of the JSON.
        step: String,
    },
    SessionFinished {
        kind: RequestKind,
        duration_ms: u64,
        output_excerpt: String,
        binding: String,
    },
    SessionFailed {
        kind: RequestKind,
        duration_ms: u64,
        error: String,
        attempt: u32,
        will_retry: bool,
    },
    SessionReused {
        kind: RequestKind,
        binding: String,
        output_excerpt: String,
    },
    BindingWritten {
        name: String,
        path: String,
        excerpt: String,
    },
    ConditionEvaluated {
        condition: String,
        result: bool,
        line: u32,
    },
    ChoiceMade {
        criteria: String,
        option: String,
        line: u32,
    },
    BranchStarted {
        name: String,
    },
    BranchFinished {
        name: String,
        status: BranchStatus,
    },
    Warning {
        message: String,
    },
    Error {
        message: String,
        line: Option<u32>,
    },
    Cancelled {
        reason: String,
    },
    RunFinished {
        status: RunStatus,
        duration_ms: u64,
        outputs: BTreeMap<String, String>,
        error: Option<String>,
    },
    /// An event of a job task (`task_started`, `tool_called`, ...).
    Job(crate::jobs::JobEvent),
}

impl EventKind {
    /// The `type` field.
    pub fn type_name(&self) -> &'static str {
        match self {
            EventKind::RunStarted { .. } => "run_started",
            EventKind::InputRequested { .. } => "input_requested",
            EventKind::InputReceived { .. } => "input_received",
            EventKind::SessionStarted { .. } => "session_started",
            EventKind::SessionFinished { .. } => "session_finished",
            EventKind::SessionFailed { .. } => "session_failed",
            EventKind::SessionReused { .. } => "session_reused",
            EventKind::BindingWritten { .. } => "binding_written",
            EventKind::ConditionEvaluated { .. } => "condition_evaluated",
            EventKind::ChoiceMade { .. } => "choice_made",
            EventKind::BranchStarted { .. } => "branch_started",
            EventKind::BranchFinished { .. } => "branch_finished",
            EventKind::Warning { .. } => "warning",
            EventKind::Error { .. } => "error",
            EventKind::Cancelled { .. } => "cancelled",
            EventKind::RunFinished { .. } => "run_finished",
            EventKind::Job(j) => j.type_name(),
        }
    }

    fn fields(&self) -> Json {
        match self {
            EventKind::RunStarted {
                program,
                run_dir,
                backend,
                resumed,
                dry_run,
                inputs,
            } => json!({"program": program, "run_dir": run_dir, "backend": backend,
                "resumed": resumed, "dry_run": dry_run, "inputs": inputs}),
            EventKind::InputRequested { name, description } => {
                json!({"name": name, "description": description})
            }
            EventKind::InputReceived { name, excerpt } => json!({"name": name, "excerpt": excerpt}),
            EventKind::SessionStarted {
                kind,
                agent,
                model,
                binding,
                line,
                prompt_excerpt,
                role,
                step,
            } => {
                let mut v = json!({"kind": kind, "agent": agent, "model": model,
                    "binding": binding, "line": line, "prompt_excerpt": prompt_excerpt});
                if !role.is_empty() {
                    v["role"] = json!(role);
                }
                if !step.is_empty() {
                    v["step"] = json!(step);
                }
                v
            }
            EventKind::SessionFinished {
                kind,
                duration_ms,
                output_excerpt,
                binding,
            } => json!({"kind": kind, "duration_ms": duration_ms,
                "output_excerpt": output_excerpt, "binding": binding}),
            EventKind::SessionFailed {
                kind,
                duration_ms,
                error,
                attempt,
                will_retry,
            } => json!({"kind": kind, "duration_ms": duration_ms, "error": error,
                "attempt": attempt, "will_retry": will_retry}),
            EventKind::SessionReused {
                kind,
                binding,
                output_excerpt,
            } => json!({"kind": kind, "binding": binding, "output_excerpt": output_excerpt}),
            EventKind::BindingWritten {
                name,
                path,
                excerpt,
            } => json!({"name": name, "path": path, "excerpt": excerpt}),
            EventKind::ConditionEvaluated {
                condition,
                result,
                line,
            } => json!({"condition": condition, "result": result, "line": line}),
            EventKind::ChoiceMade {
                criteria,
                option,
                line,
            } => json!({"criteria": criteria, "option": option, "line": line}),
            EventKind::BranchStarted { name } => json!({"name": name}),
            EventKind::BranchFinished { name, status } => {
                json!({"name": name, "status": status.as_str()})
            }
            EventKind::Warning { message } => json!({"message": message}),
            EventKind::Error { message, line } => match line {
                Some(l) => json!({"message": message, "line": l}),
                None => json!({"message": message}),
            },
            EventKind::Cancelled { reason } => json!({"reason": reason}),
            EventKind::RunFinished {
                status,
                duration_ms,
                outputs,
                error,
            } => {
                let mut v = json!({"status": status.as_str(), "duration_ms": duration_ms,
                    "outputs": outputs});
                if let Some(e) = error {
                    v["error"] = json!(e);
                }
                v
            }
            EventKind::Job(j) => j.fields(),
        }
    }
}

/// One event with its common fields.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub run_id: String,
    pub seq: u64,
    /// RFC 3339 UTC with milliseconds.
    pub time: String,
    pub session_id: Option<String>,
    pub branch: Option<String>,
    pub kind: EventKind,
}

impl Event {
    /// The event as the JSON object of the contract.
    pub fn to_json(&self) -> Json {
        let mut m = Map::new();
        m.insert("version".into(), json!(EVENT_VERSION));
        m.insert("type".into(), json!(self.kind.type_name()));
        m.insert("run_id".into(), json!(self.run_id));
        m.insert("seq".into(), json!(self.seq));
        m.insert("time".into(), json!(self.time));
        if let Some(s) = &self.session_id {
            m.insert("session_id".into(), json!(s));
        }
        if let Some(b) = &self.branch {
            m.insert("branch".into(), json!(b));
        }
        if let Json::Object(fields) = self.kind.fields() {
            m.extend(fields);
        }
        Json::Object(m)
    }
}

/// Where events go: the caller's display, a JSON lines writer, a channel.
pub trait EventSink: Send + Sync {
    fn emit(&self, event: &Event);
}

impl<F: Fn(&Event) + Send + Sync> EventSink for F {
    fn emit(&self, event: &Event) {
        self(event)
    }
}

impl EventSink for tokio::sync::mpsc::UnboundedSender<Event> {
    fn emit(&self, event: &Event) {
        let _ = self.send(event.clone());
    }
}

/// Writes each event as one JSON line, flushed (`--events jsonl`).
pub struct JsonLinesSink<W: Write + Send>(pub Mutex<W>);

impl<W: Write + Send> EventSink for JsonLinesSink<W> {
    fn emit(&self, event: &Event) {
        let line = format!("{}\n", event.to_json());
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = w.write_all(line.as_bytes());
        let _ = w.flush();
    }
}

/// The current time as RFC 3339 UTC with milliseconds.
pub fn now_rfc3339() -> String {
    humantime::format_rfc3339_millis(SystemTime::now()).to_string()
}

/// Numbers, stamps, logs and delivers a run's events, in one order.
pub struct EventBus {
    run_id: String,
    inner: Mutex<BusInner>,
    sink: Arc<dyn EventSink>,
}

struct BusInner {
    next_seq: u64,
    log: Option<std::fs::File>,
}

impl EventBus {
    /// A bus whose numbering starts at `next_seq`, logging to `log` (the
    /// run's `events.jsonl`, appended).
    pub fn new(run_id: &str, next_seq: u64, log: Option<&Path>, sink: Arc<dyn EventSink>) -> Self {
        let log = log.and_then(|p| {
            let mut f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .read(true)
                .open(p)
                .ok()?;
            // A line torn by a crash is ended, so the next event starts a line.
            if ends_without_newline(&mut f) {
                let _ = f.write_all(b"\n");
            }
            Some(f)
        });
        EventBus {
            run_id: run_id.to_string(),
            inner: Mutex::new(BusInner { next_seq, log }),
            sink,
        }
    }

    /// Emits one event.
    pub fn emit(&self, session_id: Option<&str>, branch: Option<&str>, kind: EventKind) {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let event = Event {
            run_id: self.run_id.clone(),
            seq: inner.next_seq,
            time: now_rfc3339(),
            session_id: session_id.map(str::to_string),
            branch: branch.map(str::to_string),
            kind,
        };
        inner.next_seq += 1;
        if let Some(log) = &mut inner.log {
            // One write per line: a crash tears at most the last line.
            let line = format!("{}\n", event.to_json());
            let _ = log.write_all(line.as_bytes());
        }
        // Delivered under the lock: sinks see events in `seq` order.
        self.sink.emit(&event);
    }
}

fn ends_without_newline(f: &mut std::fs::File) -> bool {
    use std::io::{Read, Seek, SeekFrom};
    if f.seek(SeekFrom::End(-1)).is_err() {
        return false;
    }
    let mut last = [0u8];
    f.read_exact(&mut last).is_ok() && last[0] != b'\n'
}

/// What a run's `events.jsonl` says about the previous attempts: the next
/// `seq`, and the highest session number started.
pub fn scan_log(path: &Path) -> (u64, u64) {
    let Ok(text) = std::fs::read_to_string(path) else {
        return (0, 0);
    };
    let mut next_seq = 0;
    let mut max_session = 0;
    for line in text.lines() {
        // A torn last line (the runner was killed while writing) is skipped.
        let Ok(v) = serde_json::from_str::<Json>(line) else {
            continue;
        };
        if let Some(s) = v.get("seq").and_then(Json::as_u64) {
            next_seq = next_seq.max(s + 1);
        }
        if let Some(n) = v
            .get("session_id")
            .and_then(Json::as_str)
            .and_then(session_number)
        {
            max_session = max_session.max(n);
        }
    }
    (next_seq, max_session)
}

/// `N` of a session id `sN@line`.
pub fn session_number(id: &str) -> Option<u64> {
    id.strip_prefix('s')?.split('@').next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpts_cut_at_characters() {
        assert_eq!(excerpt("short"), "short");
        let long = "é".repeat(250);
        let e = excerpt(&long);
        assert_eq!(e.chars().count(), 201);
        assert!(e.ends_with('…'));
    }

    #[test]
    fn wire_form_has_the_common_fields() {
        let e = Event {
            run_id: "20260101-000000-abcdef".into(),
            seq: 7,
            time: "2026-01-01T00:00:00.000Z".into(),
            session_id: Some("s2@5".into()),
            branch: Some("p4.b1".into()),
            kind: EventKind::SessionFailed {
                kind: RequestKind::Condition,
                duration_ms: 12,
                error: "boom".into(),
                attempt: 1,
                will_retry: true,
            },
        };
        expect_test::expect![[r#"{"attempt":1,"branch":"p4.b1","duration_ms":12,"error":"boom","kind":"condition","run_id":"20260101-000000-abcdef","seq":7,"session_id":"s2@5","time":"2026-01-01T00:00:00.000Z","type":"session_failed","version":1,"will_retry":true}"#]]
        .assert_eq(&e.to_json().to_string());
    }

    #[test]
    fn the_log_tells_where_numbering_resumes() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("events.jsonl");
        std::fs::write(
            &log,
            "{\"seq\":0,\"type\":\"run_started\"}\n{\"seq\":1,\"session_id\":\"s3@4\"}\n{\"seq\":2,\"sess",
        )
        .unwrap();
        assert_eq!(scan_log(&log), (2, 3));
        assert_eq!(scan_log(&dir.path().join("none")), (0, 0));
    }
}
