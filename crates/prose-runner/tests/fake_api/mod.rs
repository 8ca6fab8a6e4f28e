//! A fake model server on 127.0.0.1 for the backends' tests: it records
//! every request and answers what the test says, in the wire formats of
//! the Anthropic Messages API (plain and streamed, as the Claude CLI wants
//! it), the OpenAI chat completions API, and the OpenAI Responses API
//! (streamed, as the Codex CLI wants it). It can also fail: an HTTP error,
//! an answer cut off in the middle, or no answer at all.

#![allow(dead_code)]

pub mod cli;

use std::{
    collections::VecDeque,
    sync::{Arc, Mutex},
};

use axum::{
    Router,
    body::{Body, Bytes},
    extract::Request,
    http::{HeaderValue, StatusCode},
    response::Response,
};
use serde_json::{Value, json};

/// One request the server received.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: String,
    /// The path and query (`/v1/messages?beta=true`).
    pub path: String,
    pub headers: Vec<(String, String)>,
    /// The body as JSON (`Null` when it is not JSON).
    pub body: Value,
    pub raw: String,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The names of the tools the request declares.
    pub fn tool_names(&self) -> Vec<String> {
        self.body["tools"]
            .as_array()
            .map(|ts| {
                ts.iter()
                    .filter_map(|t| t["name"].as_str().or(t["function"]["name"].as_str()))
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// What the server answers.
#[derive(Debug, Clone)]
pub enum Reply {
    /// A JSON body with this status.
    Json(u16, Value),
    /// The same, with extra headers (`Retry-After`).
    JsonWith(u16, Value, Vec<(&'static str, String)>),
    /// A server-sent event stream: `(event, data)` pairs.
    Sse(Vec<(String, Value)>),
    /// Status 200, this much of a body, then the connection breaks.
    Cut(String),
    /// Never answers.
    Hang,
}

type Handler = Arc<dyn Fn(&Recorded) -> Reply + Send + Sync>;

/// A running fake server; it stops when the test's runtime ends.
pub struct FakeServer {
    /// `http://127.0.0.1:PORT`
    pub url: String,
    log: Arc<Mutex<Vec<Recorded>>>,
}

impl FakeServer {
    /// Starts a server that answers every request with `handler`.
    pub async fn start(handler: impl Fn(&Recorded) -> Reply + Send + Sync + 'static) -> Self {
        let log: Arc<Mutex<Vec<Recorded>>> = Arc::default();
        let handler: Handler = Arc::new(handler);
        let app_log = log.clone();
        let app = Router::new().fallback(move |req: Request| {
            let log = app_log.clone();
            let handler = handler.clone();
            async move { answer(req, &log, &handler).await }
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind 127.0.0.1");
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        FakeServer { url, log }
    }

    /// A server that gives `replies` in order to the requests `is_main`
    /// picks (the last reply repeats), and `other` to the rest.
    pub async fn scripted(
        replies: Vec<Reply>,
        is_main: impl Fn(&Recorded) -> bool + Send + Sync + 'static,
        other: Reply,
    ) -> Self {
        let queue = Mutex::new(VecDeque::from(replies));
        FakeServer::start(move |r| {
            if !is_main(r) {
                return other.clone();
            }
            let mut q = queue.lock().unwrap();
            if q.len() > 1 {
                q.pop_front().unwrap()
            } else {
                q.front().cloned().unwrap_or(Reply::Hang)
            }
        })
        .await
    }

    /// Every request so far.
    pub fn requests(&self) -> Vec<Recorded> {
        self.log.lock().unwrap().clone()
    }
}

async fn answer(req: Request, log: &Mutex<Vec<Recorded>>, handler: &Handler) -> Response {
    let (parts, body) = req.into_parts();
    let bytes = axum::body::to_bytes(body, usize::MAX)
        .await
        .unwrap_or_default();
    let raw = String::from_utf8_lossy(&bytes).into_owned();
    let recorded = Recorded {
        method: parts.method.to_string(),
        path: parts
            .uri
            .path_and_query()
            .map_or_else(|| parts.uri.path().to_string(), |p| p.to_string()),
        headers: parts
            .headers
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_str().unwrap_or_default().to_string()))
            .collect(),
        body: serde_json::from_slice(&bytes).unwrap_or(Value::Null),
        raw,
    };
    let reply = handler(&recorded);
    log.lock().unwrap().push(recorded);
    match reply {
        Reply::Json(status, v) => json_response(status, &v, &[]),
        Reply::JsonWith(status, v, headers) => json_response(status, &v, &headers),
        Reply::Sse(events) => {
            let mut text = String::new();
            for (event, data) in events {
                text.push_str(&format!("event: {event}\ndata: {data}\n\n"));
            }
            let mut r = Response::new(Body::from(text));
            r.headers_mut().insert(
                "content-type",
                HeaderValue::from_static("text/event-stream"),
            );
            r
        }
        Reply::Cut(partial) => {
            // The headers and the first part go out; then the stream fails.
            let partial_is_sse = partial.starts_with("event: ");
            use futures::StreamExt;
            let first = futures::stream::iter([Ok::<_, std::io::Error>(Bytes::from(partial))]);
            let cut = futures::stream::once(async {
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                Err(std::io::Error::other("the fake server cuts the answer"))
            });
            let kind = if partial_is_sse {
                "text/event-stream"
            } else {
                "application/json"
            };
            let mut r = Response::new(Body::from_stream(first.chain(cut)));
            r.headers_mut()
                .insert("content-type", HeaderValue::from_static(kind));
            r
        }
        Reply::Hang => std::future::pending().await,
    }
}

fn json_response(status: u16, v: &Value, headers: &[(&'static str, String)]) -> Response {
    let mut r = Response::new(Body::from(v.to_string()));
    *r.status_mut() = StatusCode::from_u16(status).unwrap();
    r.headers_mut()
        .insert("content-type", HeaderValue::from_static("application/json"));
    for (k, v) in headers {
        r.headers_mut()
            .insert(*k, HeaderValue::from_str(v).unwrap());
    }
    r
}

/// The first `events` events of an event stream, then the connection
/// breaks.
pub fn cut_after(reply: &Reply, events: usize) -> Reply {
    let Reply::Sse(all) = reply else {
        panic!("not an event stream: {reply:?}");
    };
    Reply::Cut(
        all.iter()
            .take(events)
            .map(|(e, d)| format!("event: {e}\ndata: {d}\n\n"))
            .collect(),
    )
}

/// An error body as both APIs spell it.
pub fn error(status: u16, message: &str) -> Reply {
    Reply::Json(
        status,
        json!({"type": "error", "error": {"type": "api_error", "message": message}}),
    )
}

// ---- The Anthropic Messages API -------------------------------------------

/// A whole (not streamed) Messages answer with these content blocks.
pub fn anthropic_message(content: Value, stop_reason: &str) -> Reply {
    Reply::Json(
        200,
        json!({
            "id": "msg_fake",
            "type": "message",
            "role": "assistant",
            "model": "claude-fake",
            "content": content,
            "stop_reason": stop_reason,
            "usage": {"input_tokens": 11, "output_tokens": 7}
        }),
    )
}

pub fn anthropic_text(text: &str) -> Reply {
    anthropic_message(json!([{"type": "text", "text": text}]), "end_turn")
}

pub fn anthropic_tool_use(id: &str, name: &str, input: Value) -> Reply {
    anthropic_message(
        json!([{"type": "tool_use", "id": id, "name": name, "input": input}]),
        "tool_use",
    )
}

fn stream_events(block: Value, delta: Value, stop_reason: &str) -> Reply {
    let e = |t: &str, v: Value| (t.to_string(), v);
    Reply::Sse(vec![
        e(
            "message_start",
            json!({"type": "message_start", "message": {
                "id": "msg_fake", "type": "message", "role": "assistant", "model": "claude-fake",
                "content": [], "stop_reason": null, "stop_sequence": null,
                "usage": {"input_tokens": 11, "output_tokens": 1}
            }}),
        ),
        e(
            "content_block_start",
            json!({"type": "content_block_start", "index": 0, "content_block": block}),
        ),
        e(
            "content_block_delta",
            json!({"type": "content_block_delta", "index": 0, "delta": delta}),
        ),
        e(
            "content_block_stop",
            json!({"type": "content_block_stop", "index": 0}),
        ),
        e(
            "message_delta",
            json!({"type": "message_delta", "delta": {"stop_reason": stop_reason, "stop_sequence": null}, "usage": {"output_tokens": 7}}),
        ),
        e("message_stop", json!({"type": "message_stop"})),
    ])
}

/// A streamed Messages answer with one text block (what the Claude CLI
/// reads).
pub fn anthropic_stream_text(text: &str) -> Reply {
    stream_events(
        json!({"type": "text", "text": ""}),
        json!({"type": "text_delta", "text": text}),
        "end_turn",
    )
}

/// A streamed Messages answer that calls a tool.
pub fn anthropic_stream_tool_use(id: &str, name: &str, input: Value) -> Reply {
    stream_events(
        json!({"type": "tool_use", "id": id, "name": name, "input": {}}),
        json!({"type": "input_json_delta", "partial_json": input.to_string()}),
        "tool_use",
    )
}

// ---- The OpenAI chat completions API --------------------------------------

pub fn openai_message(message: Value, finish_reason: &str) -> Reply {
    Reply::Json(
        200,
        json!({
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "model": "fake",
            "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
            "usage": {"prompt_tokens": 13, "completion_tokens": 5, "total_tokens": 18}
        }),
    )
}

pub fn openai_text(text: &str) -> Reply {
    openai_message(json!({"role": "assistant", "content": text}), "stop")
}

pub fn openai_tool_call(id: &str, name: &str, arguments: Value) -> Reply {
    openai_message(
        json!({"role": "assistant", "content": null, "tool_calls": [
            {"id": id, "type": "function", "function": {"name": name, "arguments": arguments.to_string()}}
        ]}),
        "tool_calls",
    )
}

// ---- The OpenAI Responses API (Codex) -------------------------------------

fn responses_stream(item: Value, delta: Option<&str>) -> Reply {
    let e = |t: &str, mut v: Value| {
        v["type"] = json!(t);
        (t.to_string(), v)
    };
    let mut added = item.clone();
    if added["type"] == "message" {
        added["content"] = json!([]);
    }
    let mut events = vec![
        e(
            "response.created",
            json!({"response": {"id": "resp_fake", "status": "in_progress", "output": []}}),
        ),
        e(
            "response.output_item.added",
            json!({"output_index": 0, "item": added}),
        ),
    ];
    if let Some(d) = delta {
        events.push(e(
            "response.output_text.delta",
            json!({"output_index": 0, "content_index": 0, "item_id": item["id"], "delta": d}),
        ));
    }
    events.push(e(
        "response.output_item.done",
        json!({"output_index": 0, "item": item}),
    ));
    events.push(e(
        "response.completed",
        json!({"response": {"id": "resp_fake", "status": "completed", "output": [], "usage": {
            "input_tokens": 17, "output_tokens": 6, "total_tokens": 23,
            "input_tokens_details": {"cached_tokens": 0}, "output_tokens_details": {"reasoning_tokens": 0}
        }}}),
    ));
    Reply::Sse(events)
}

/// A streamed Responses answer with one message (what the Codex CLI reads).
pub fn responses_stream_text(text: &str) -> Reply {
    responses_stream(
        json!({"type": "message", "id": "msg_fake", "role": "assistant", "status": "completed",
               "content": [{"type": "output_text", "text": text, "annotations": []}]}),
        Some(text),
    )
}

/// A streamed Responses answer that calls a tool of an MCP server, as
/// Codex declares them: a function of the namespace `mcp__SERVER`.
pub fn responses_stream_mcp_call(
    call_id: &str,
    namespace: &str,
    name: &str,
    arguments: Value,
) -> Reply {
    responses_stream(
        json!({"type": "function_call", "id": format!("fc_{call_id}"), "call_id": call_id,
               "namespace": namespace, "name": name, "arguments": arguments.to_string()}),
        None,
    )
}

/// A streamed Responses answer that calls a function (Codex's
/// `exec_command` runs a shell command).
pub fn responses_stream_call(call_id: &str, name: &str, arguments: Value) -> Reply {
    responses_stream(
        json!({"type": "function_call", "id": format!("fc_{call_id}"), "call_id": call_id,
               "name": name, "arguments": arguments.to_string()}),
        None,
    )
}
