//! What the HTTP backends (`openai`, `anthropic`) share: their settings and
//! API key, one request with its timeout, cancellation and retries of
//! rate limits, error messages without secrets, the tool-call rounds, and
//! the conversation a persistent agent resumes.
//!
//! Each backend supplies a [`Dialect`]: how its API spells a request, an
//! answer, tool calls and tool results. [`converse`] does the rest.
//!
//! # Keys
//!
//! Keys come from the environment only, by variable name. With
//! `api_key_env` configured, that variable must be set. Without it, the
//! vendor's variable (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`) is used for
//! the vendor's own URL and required there; a custom `base_url` (a local
//! llama.cpp, a proxy) gets no key unless `api_key_env` names one, so a key
//! meant for the vendor never reaches another server.
//!
//! # Persistent agents
//!
//! A session of a persistent agent (`persist:`) returns its conversation
//! as the session handle (`openai:{"turns":[...]}`); the runner stores it
//! with the agent's memory and in the run's journal, and the agent's next
//! `resume:` sends it again before the new prompt. The conversation keeps
//! the latest [`HISTORY_TURNS`] requests and at most about
//! [`HISTORY_CHARS`] characters (whole requests are dropped, oldest
//! first; the latest is always kept).

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{
    BackendError, BackendRequest, BackendResponse, BackendResult, CancellationToken, ToolCall,
    Usage, env::Env, env::redact, handle,
};
use crate::config::BackendSettings;

/// Requests kept in a persistent agent's conversation.
pub const HISTORY_TURNS: usize = 8;

/// About this many characters of a persistent agent's conversation are
/// kept (its JSON, the latest request always).
pub const HISTORY_CHARS: usize = 200_000;

/// How many rounds of tool calls one request may take before it fails.
pub const MAX_TOOL_ROUNDS: usize = 16;

/// Attempts of one HTTP request when the server says it is rate limited or
/// overloaded (429, 503, 529).
pub const BUSY_ATTEMPTS: u32 = 3;

/// The longest wait before another attempt, whatever `Retry-After` says.
pub const MAX_BUSY_WAIT: Duration = Duration::from_secs(60);

/// How long connecting to the server may take.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);

/// At most this much of an error body goes into a message.
const ERROR_BODY_CHARS: usize = 1000;

/// Where the API key comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeySource {
    /// This variable must be set.
    Required(String),
    /// No key is sent.
    None,
}

/// A backend's resolved HTTP settings.
#[derive(Debug, Clone)]
pub struct HttpSettings {
    /// The base URL without a trailing slash.
    pub base_url: String,
    pub key: KeySource,
    /// The model of requests whose alias maps to none (`[runner.X] model`).
    pub model: Option<String>,
    pub env: Env,
}

impl HttpSettings {
    /// Resolves `[runner.<backend>]`: the vendor's URL and key variable
    /// unless configured (see the module docs for the key rule).
    pub fn new(settings: &BackendSettings, default_url: &str, default_key_env: &str) -> Self {
        let base_url = settings
            .base_url
            .as_ref()
            .map_or(default_url, |u| u.value.as_str())
            .trim_end_matches('/')
            .to_string();
        let key = match &settings.api_key_env {
            Some(var) => KeySource::Required(var.value.clone()),
            None if base_url == default_url.trim_end_matches('/') => {
                KeySource::Required(default_key_env.to_string())
            }
            None => KeySource::None,
        };
        HttpSettings {
            base_url,
            key,
            model: settings.model.as_ref().map(|m| m.value.clone()),
            env: Env::default(),
        }
    }

    /// The API key, or why there is none.
    pub fn key(&self) -> Result<Option<String>, BackendError> {
        match &self.key {
            KeySource::None => Ok(None),
            KeySource::Required(var) => self.env.get(var).map(Some).ok_or_else(|| {
                BackendError::unavailable(format!(
                    "the API key variable `{var}` is not set (set it in the environment, or name another with `api_key_env`)"
                ))
            }),
        }
    }

    /// Checks the URL and the key before a run.
    pub fn preflight(&self) -> Result<(), BackendError> {
        let url = reqwest::Url::parse(&self.base_url).map_err(|e| {
            BackendError::unavailable(format!("`base_url = \"{}\"`: {e}", self.base_url))
        })?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(BackendError::unavailable(format!(
                "`base_url = \"{}\"`: expected an http:// or https:// URL",
                self.base_url
            )));
        }
        self.key().map(|_| ())
    }
}

/// Builds the HTTP client: rustls with the ring provider, the system's
/// certificates, proxies from the environment except for loopback URLs.
pub fn client(base_url: &str) -> Result<reqwest::Client, BackendError> {
    // reqwest is built without a crypto provider of its own: use ring (an
    // embedder that installed another one keeps it).
    let _ = rustls::crypto::ring::default_provider().install_default();
    let mut builder = reqwest::Client::builder()
        .connect_timeout(CONNECT_TIMEOUT)
        .user_agent(concat!("prose-runner/", env!("CARGO_PKG_VERSION")));
    let loopback = reqwest::Url::parse(base_url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_string))
        .is_some_and(|h| h == "localhost" || h == "127.0.0.1" || h == "[::1]" || h == "::1");
    if loopback {
        builder = builder.no_proxy();
    }
    builder
        .build()
        .map_err(|e| BackendError::unavailable(format!("cannot set up the HTTP client: {e}")))
}

/// One POST of a JSON body, answered with a JSON body.
pub struct Post<'a> {
    pub client: &'a reqwest::Client,
    pub url: String,
    pub headers: Vec<(&'static str, String)>,
    /// The API's name for messages (`the Anthropic API`).
    pub api: &'a str,
    /// Values to keep out of messages (the key).
    pub secrets: &'a [String],
}

/// An HTTP error answer: its status and the server's message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpFailure {
    pub status: u16,
    pub message: String,
}

impl Post<'_> {
    /// Sends `body`, retrying 429, 503 and 529 answers (see
    /// [`BUSY_ATTEMPTS`]); fails at `deadline` or when `cancel` fires.
    /// `Err(Ok(failure))` is an HTTP error answer (for the caller to
    /// recover from, or not); `Err(Err(e))` is everything else.
    pub async fn send(
        &self,
        body: &Value,
        deadline: Instant,
        cancel: &CancellationToken,
    ) -> Result<Value, Result<HttpFailure, BackendError>> {
        let bytes =
            serde_json::to_vec(body).map_err(|e| Err(BackendError::failed(e.to_string())))?;
        let mut attempt = 1;
        loop {
            let mut req = self
                .client
                .post(&self.url)
                .header("content-type", "application/json")
                .body(bytes.clone());
            for (k, v) in &self.headers {
                req = req.header(*k, v);
            }
            let exchange = async {
                let resp = req.send().await.map_err(|e| {
                    let what = if e.is_connect() {
                        "cannot connect to"
                    } else {
                        "the connection broke off while asking"
                    };
                    BackendError::failed(redact(
                        &format!(
                            "{what} {} ({}): {}",
                            self.api,
                            shown_url(&self.url),
                            error_chain(&e.without_url())
                        ),
                        self.secrets,
                    ))
                })?;
                let status = resp.status().as_u16();
                let retry_after = resp
                    .headers()
                    .get("retry-after")
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.trim().parse::<u64>().ok())
                    .map(Duration::from_secs);
                let text = resp.bytes().await.map_err(|e| {
                    BackendError::failed(format!(
                        "{} answered HTTP {status}, then the answer broke off: {}",
                        self.api,
                        error_chain(&e.without_url())
                    ))
                })?;
                Ok::<_, BackendError>((status, retry_after, text))
            };
            let (status, retry_after, text) = bounded(exchange, deadline, cancel, self.api)
                .await
                .map_err(Err)?
                .map_err(Err)?;
            if (200..300).contains(&status) {
                return serde_json::from_slice(&text).map_err(|e| {
                    Err(BackendError::failed(format!(
                        "{} answered something that is not JSON ({e}): {}",
                        self.api,
                        redact(&excerpt(&String::from_utf8_lossy(&text)), self.secrets)
                    )))
                });
            }
            let message = redact(&error_message(&text), self.secrets);
            let busy = matches!(status, 429 | 503 | 529);
            if busy && attempt < BUSY_ATTEMPTS {
                let wait = retry_after
                    .unwrap_or(Duration::from_secs(2u64 << (attempt - 1)))
                    .min(MAX_BUSY_WAIT);
                if Instant::now() + wait < deadline {
                    tokio::select! {
                        () = tokio::time::sleep(wait) => {}
                        () = cancel.cancelled() => return Err(Err(BackendError::cancelled())),
                    }
                    attempt += 1;
                    continue;
                }
            }
            return Err(Ok(HttpFailure { status, message }));
        }
    }
}

impl HttpFailure {
    pub fn into_error(self, api: &str) -> BackendError {
        BackendError::failed(format!(
            "{api} answered HTTP {}: {}",
            self.status, self.message
        ))
    }
}

/// `url` without a user name or password in it.
fn shown_url(url: &str) -> String {
    match reqwest::Url::parse(url) {
        Ok(mut u) => {
            let _ = u.set_username("");
            let _ = u.set_password(None);
            u.to_string()
        }
        Err(_) => url.to_string(),
    }
}

/// Runs `fut` until `deadline`, or until `cancel` fires.
async fn bounded<T>(
    fut: impl std::future::Future<Output = T>,
    deadline: Instant,
    cancel: &CancellationToken,
    api: &str,
) -> Result<T, BackendError> {
    tokio::select! {
        biased;
        () = cancel.cancelled() => Err(BackendError::cancelled()),
        () = tokio::time::sleep_until(deadline.into()) => Err(BackendError::timeout(format!(
            "{api} did not answer in time; the request was stopped"
        ))),
        out = fut => Ok(out),
    }
}

/// An error and its causes, `: `-separated (reqwest's own message says
/// little: "error sending request").
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        let c = cause.to_string();
        if !s.contains(&c) {
            s.push_str(": ");
            s.push_str(&c);
        }
        source = cause.source();
    }
    s
}

/// The server's message in an error body: `error.message` (OpenAI,
/// Anthropic), `error` as a string (Ollama), `message`, else the body.
pub fn error_message(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    if let Ok(v) = serde_json::from_slice::<Value>(body) {
        let found = v
            .pointer("/error/message")
            .or_else(|| v.get("error").filter(|e| e.is_string()))
            .or_else(|| v.get("message"))
            .or_else(|| v.get("detail"))
            .and_then(Value::as_str);
        if let Some(m) = found {
            return excerpt(m);
        }
    }
    let t = text.trim();
    if t.is_empty() {
        "(no message)".to_string()
    } else {
        excerpt(t)
    }
}

fn excerpt(s: &str) -> String {
    let mut end = s.len().min(ERROR_BODY_CHARS);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    if end < s.len() {
        format!("{}…", &s[..end])
    } else {
        s.to_string()
    }
}

/// One answer of the model, read by a [`Dialect`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Reply {
    /// The assistant message to append to the conversation, as the API
    /// wants it sent back.
    pub message: Value,
    pub text: String,
    pub tool_calls: Vec<ToolCall>,
    pub input_tokens: Option<u64>,
    pub output_tokens: Option<u64>,
}

/// How one API spells things.
pub trait Dialect: Sync {
    /// The name for messages (`the Anthropic API`).
    fn api(&self) -> &'static str;
    /// The backend's name, the prefix of its session handles.
    fn backend(&self) -> &'static str;
    /// The request body for `messages` (the conversation so far).
    fn body(&self, request: &BackendRequest, model: Option<&str>, messages: &[Value]) -> Value;
    /// The headers of every request, with the key when there is one.
    fn headers(&self, key: Option<String>) -> Vec<(&'static str, String)>;
    /// The user message that carries the prompt.
    fn user_message(&self, text: &str) -> Value;
    /// Reads an answer.
    fn reply(&self, answer: &Value) -> Result<Reply, String>;
    /// The messages that answer `calls` (each with `ok`).
    fn tool_results(&self, calls: &[ToolCall]) -> Vec<Value>;
    /// A chance to recover from an HTTP error once (the Anthropic API's
    /// `max_tokens` limit): returns true when `body` was changed and the
    /// request should be sent again.
    fn recover(&self, failure: &HttpFailure, body: &mut Value) -> bool {
        let _ = (failure, body);
        false
    }
}

/// The conversation a persistent agent resumes: one list of messages per
/// request.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Conversation {
    pub turns: Vec<Vec<Value>>,
}

impl Conversation {
    /// The conversation `request` resumes, if it resumes one of this
    /// backend's (an unreadable handle starts afresh).
    pub fn resumed(request: &BackendRequest, backend: &str) -> Conversation {
        handle::resumable(&request.identity, backend)
            .and_then(|json| serde_json::from_str(json).ok())
            .unwrap_or_default()
    }

    pub fn messages(&self) -> impl Iterator<Item = &Value> {
        self.turns.iter().flatten()
    }

    /// Adds a turn and drops the oldest ones beyond the limits.
    pub fn push(&mut self, turn: Vec<Value>) {
        self.turns.push(turn);
        let size = |t: &Vec<Value>| t.iter().map(|m| m.to_string().len()).sum::<usize>();
        let mut total: usize = self.turns.iter().map(size).sum();
        while self.turns.len() > 1 && (self.turns.len() > HISTORY_TURNS || total > HISTORY_CHARS) {
            total -= size(&self.turns[0]);
            self.turns.remove(0);
        }
    }

    /// The session handle.
    pub fn handle(&self, backend: &str) -> String {
        handle::make(
            backend,
            &serde_json::to_string(self).unwrap_or_else(|_| "{}".into()),
        )
    }
}

/// One HTTP backend: its settings, client and dialect.
pub struct Api<'a> {
    pub settings: &'a HttpSettings,
    pub client: &'a reqwest::Client,
    pub dialect: &'a dyn Dialect,
    /// Where requests go.
    pub url: String,
}

impl Api<'_> {
    /// Answers `request`: sends the conversation (a resumed one first),
    /// answers tool calls with `ok` until the model answers without one,
    /// and returns the text of the last answer that has text, every tool
    /// call in order, the summed usage, and, for a persistent agent, the
    /// conversation as the session handle.
    pub async fn answer(
        self,
        request: &BackendRequest,
        cancel: &CancellationToken,
    ) -> BackendResult {
        let key = self.settings.key()?;
        let secrets: Vec<String> = key.iter().cloned().collect();
        let post = Post {
            client: self.client,
            url: self.url,
            headers: self.dialect.headers(key),
            api: self.dialect.api(),
            secrets: &secrets,
        };
        let model = model_for(request, self.settings);
        converse(&post, self.dialect, model, request, cancel).await
    }
}

async fn converse(
    post: &Post<'_>,
    dialect: &dyn Dialect,
    model: Option<&str>,
    request: &BackendRequest,
    cancel: &CancellationToken,
) -> BackendResult {
    let deadline = Instant::now() + request.timeout;
    let backend = dialect.backend();
    let api = dialect.api();
    let mut conversation = Conversation::resumed(request, backend);
    let mut turn = vec![dialect.user_message(&user_prompt(request))];
    let mut text = String::new();
    let mut calls = Vec::new();
    let mut usage = Usage::default();
    let mut recovered = false;
    let mut rounds = 0;
    loop {
        let messages: Vec<Value> = conversation.messages().chain(&turn).cloned().collect();
        let mut body = dialect.body(request, model, &messages);
        let answer = loop {
            match post.send(&body, deadline, cancel).await {
                Ok(v) => break v,
                Err(Ok(failure)) if !recovered && dialect.recover(&failure, &mut body) => {
                    recovered = true;
                }
                Err(Ok(failure)) => return Err(failure.into_error(api)),
                Err(Err(e)) => return Err(e),
            }
        };
        let reply = dialect.reply(&answer).map_err(|e| {
            BackendError::failed(format!(
                "{api} answered in an unexpected shape: {}",
                redact(&e, post.secrets)
            ))
        })?;
        add(&mut usage.input_tokens, reply.input_tokens);
        add(&mut usage.output_tokens, reply.output_tokens);
        if !reply.text.trim().is_empty() {
            text = reply.text.clone();
        }
        turn.push(reply.message);
        if reply.tool_calls.is_empty() {
            break;
        }
        rounds += 1;
        if rounds >= MAX_TOOL_ROUNDS {
            return Err(BackendError::failed(format!(
                "the model was still calling tools after {MAX_TOOL_ROUNDS} rounds; the request was stopped"
            )));
        }
        turn.extend(dialect.tool_results(&reply.tool_calls));
        calls.extend(reply.tool_calls);
    }
    let session_handle = request.identity.key.as_ref().map(|_| {
        conversation.push(turn);
        conversation.handle(backend)
    });
    Ok(BackendResponse {
        text: redact(&text, post.secrets),
        tool_calls: calls,
        session_handle,
        usage: Some(usage),
    })
}

fn add(sum: &mut Option<u64>, n: Option<u64>) {
    if let Some(n) = n {
        *sum = Some(sum.unwrap_or(0) + n);
    }
}

/// The model to ask for: the request's (the configuration's map or the
/// backend's default for its alias), else the backend's `model`.
fn model_for<'a>(request: &'a BackendRequest, settings: &'a HttpSettings) -> Option<&'a str> {
    request.model.name.as_deref().or(settings.model.as_deref())
}

/// The text of the user message: the prompt without the agent's prompt,
/// which goes into the API's system prompt.
fn user_prompt(request: &BackendRequest) -> String {
    if request.parts.system.is_none() {
        return request.prompt.clone();
    }
    let parts = super::PromptParts {
        system: None,
        ..request.parts.clone()
    };
    crate::interp::prompt::render(&parts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Origin, Sourced};
    use serde_json::json;

    fn settings(base: Option<&str>, key_env: Option<&str>) -> BackendSettings {
        BackendSettings {
            base_url: base.map(|b| Sourced::new(b.to_string(), Origin::Default)),
            api_key_env: key_env.map(|k| Sourced::new(k.to_string(), Origin::Default)),
            ..Default::default()
        }
    }

    #[test]
    fn the_vendor_key_goes_only_to_the_vendor() {
        let vendor = "https://api.example.com/v1";
        let s = HttpSettings::new(&settings(None, None), vendor, "EXAMPLE_KEY");
        assert_eq!(s.base_url, vendor);
        assert_eq!(s.key, KeySource::Required("EXAMPLE_KEY".into()));
        let s = HttpSettings::new(
            &settings(Some("https://api.example.com/v1/"), None),
            vendor,
            "K",
        );
        assert_eq!(s.key, KeySource::Required("K".into()));
        let s = HttpSettings::new(
            &settings(Some("http://127.0.0.1:8080/v1/"), None),
            vendor,
            "K",
        );
        assert_eq!(s.base_url, "http://127.0.0.1:8080/v1");
        assert_eq!(s.key, KeySource::None);
        let s = HttpSettings::new(
            &settings(Some("http://127.0.0.1:8080"), Some("LOCAL")),
            vendor,
            "K",
        );
        assert_eq!(s.key, KeySource::Required("LOCAL".into()));
    }

    #[test]
    fn missing_keys_and_bad_urls_are_unavailable_and_name_no_value() {
        let mut s = HttpSettings::new(
            &settings(None, Some("PROSE_TEST_KEY_NEVER_SET")),
            "https://x",
            "K",
        );
        let e = s.preflight().unwrap_err();
        assert_eq!(e.kind, super::super::BackendErrorKind::Unavailable);
        assert!(
            e.message.contains("`PROSE_TEST_KEY_NEVER_SET` is not set"),
            "{e}"
        );
        s.env = Env::with_overrides(vec![(
            "PROSE_TEST_KEY_NEVER_SET".into(),
            "sk-1234567".into(),
        )]);
        assert_eq!(s.key().unwrap().as_deref(), Some("sk-1234567"));
        assert!(s.preflight().is_ok());
        s.base_url = "ftp://x".into();
        assert!(s.preflight().unwrap_err().message.contains("http://"));
        s.base_url = "not a url".into();
        assert!(s.preflight().is_err());
    }

    #[test]
    fn urls_in_messages_lose_their_credentials() {
        assert_eq!(
            shown_url("https://me:pw@proxy.example/v1/messages"),
            "https://proxy.example/v1/messages"
        );
        assert_eq!(shown_url("not a url"), "not a url");
    }

    #[tokio::test]
    async fn nothing_listening_is_a_failure_that_names_the_url() {
        let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/v1/chat/completions", free.local_addr().unwrap());
        drop(free);
        let client = client(&url).unwrap();
        let post = Post {
            client: &client,
            url: url.clone(),
            headers: vec![],
            api: "the test API",
            secrets: &[],
        };
        let deadline = Instant::now() + Duration::from_secs(30);
        let Err(Err(e)) = post
            .send(&json!({}), deadline, &CancellationToken::new())
            .await
        else {
            panic!("an answer from nowhere");
        };
        assert_eq!(e.kind, super::super::BackendErrorKind::Failed);
        assert!(
            e.message
                .starts_with(&format!("cannot connect to the test API ({url}): ")),
            "{e}"
        );
    }

    #[test]
    fn error_messages_from_every_shape() {
        assert_eq!(
            error_message(br#"{"error":{"message":"bad key","type":"x"}}"#),
            "bad key"
        );
        assert_eq!(
            error_message(br#"{"error":"model not found"}"#),
            "model not found"
        );
        assert_eq!(error_message(br#"{"detail":"nope"}"#), "nope");
        assert_eq!(error_message(b"  upstream down \n"), "upstream down");
        assert_eq!(error_message(b""), "(no message)");
        let long = "é".repeat(2000);
        assert!(error_message(long.as_bytes()).ends_with('…'));
    }

    #[test]
    fn conversations_keep_the_latest_turns() {
        let mut c = Conversation::default();
        for i in 0..HISTORY_TURNS + 3 {
            c.push(vec![json!({"role": "user", "content": format!("q{i}")})]);
        }
        assert_eq!(c.turns.len(), HISTORY_TURNS);
        assert_eq!(c.turns[0][0]["content"], "q3");
        let big = "x".repeat(HISTORY_CHARS);
        c.push(vec![json!({"role": "user", "content": big})]);
        assert_eq!(c.turns.len(), 1, "the latest turn alone is over the limit");
        let h = c.handle("openai");
        assert!(h.starts_with("openai:{\"turns\":[[{"), "{}", &h[..40]);
    }
}
