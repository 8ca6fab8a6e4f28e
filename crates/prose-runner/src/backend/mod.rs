//! Agent backends: what answers the runner's requests.
//!
//! Every backend implements one trait, [`Backend`]. The interpreter builds a
//! [`BackendRequest`] for each session, condition, choice and judgement and
//! awaits [`Backend::call`]; it never knows which backend answers.
//!
//! | backend | file | what it runs |
//! |---|---|---|
//! | `mock` | `mock.rs` | nothing: scripted answers from a file, else an echo (offline, deterministic; docs, demos and tests) |
//! | `command` | `command.rs` | any program, once per request, prompt on stdin (the fixed contract of docs/runner.md) |
//! | `claude` | `claude.rs` | the Claude Code CLI in print mode (`claude -p`) |
//! | `codex` | `codex.rs` | the Codex CLI (`codex exec`) |
//! | `openai` | `openai.rs` | an OpenAI-compatible HTTP endpoint (llama.cpp, vLLM, Ollama, ...) |
//! | `anthropic` | `anthropic.rs` | the Anthropic Messages API |
//!
//! What several backends share: [`cli`] (running an agent CLI, its
//! environment), [`http`] (keys, requests, tool-call rounds and
//! conversations of the HTTP APIs), [`env`] (the environment they read,
//! and keeping secrets out of what they return), [`handle`] (session
//! handles).
//!
//! [`registry`] turns a [`BackendKind`] and the [`crate::config::RunnerConfig`]
//! into an `Arc<dyn Backend>`, and picks the backend when none is configured.
//!
//! # Writing a backend
//!
//! - [`Backend::call`] answers one request. It must stop promptly when the
//!   `cancel` token fires, and when [`BackendRequest::timeout`] passes,
//!   killing whatever it started (use [`process::run_process`] for child
//!   processes: no shell, a process group killed on timeout, cancel and
//!   drop, a minimal environment). It returns the answer text untrimmed;
//!   the runner trims it and reads conditions and choices
//!   ([`crate::answer`]).
//! - Errors are [`BackendError`]s: `Failed` and `Timeout` go through the
//!   program's error handling (retry, catch, parallel policies),
//!   `Cancelled` ends the run, `Unavailable` says the backend cannot work
//!   at all. Messages are for people and never contain secrets.
//! - The runner may call a backend concurrently (parallel branches): `call`
//!   takes `&self`.
//! - [`Backend::enforces`] says which permission rules the backend applies
//!   to every request; the run refuses to start when an agent has a
//!   restrictive rule its backend does not enforce
//!   (see [`permissions`]).
//! - Secrets (API keys) are read from the environment at the moment of the
//!   request, by the variable name the configuration gives; they never go
//!   into a request, a response, an error message or a log.
//! - Persistent agents: the runner keeps their memory and puts it into the
//!   prompt, so a backend needs no session support. One with native
//!   sessions can use [`SessionIdentity`] and return a
//!   [`BackendResponse::session_handle`], prefixed with its name
//!   ([`handle`]) so that another backend never takes it for its own.
//! - Tool calls: job tasks pass [`BackendRequest::tools`]; every backend
//!   offers them to its model and returns the calls it made, in order, in
//!   [`BackendResponse::tool_calls`], answering each call with `ok` so the
//!   model can finish. The HTTP backends declare them natively; the mock
//!   scripts them; an agent in a process of its own reports them through
//!   the request's [`ToolChannel`] (an MCP server for the agent CLIs, a
//!   file for `command`; see [`tools`]).
//! - Conversations: a backend that keeps a conversation itself across
//!   requests with the same [`SessionIdentity::key`] says so with
//!   [`Backend::keeps_conversations`]; for the others, a job task's runner
//!   puts the conversation so far into the prompt.

pub mod anthropic;
pub mod claude;
pub mod cli;
pub mod codex;
pub mod command;
pub mod env;
pub mod handle;
pub mod http;
pub mod mock;
pub mod openai;
pub mod permissions;
pub mod process;
pub mod registry;
mod request;
pub mod tools;

pub use permissions::{
    PermissionKind, PermissionRule, PermissionValue, Permissions, UnenforcedPermission,
};
pub use registry::{BackendKind, SelectError, create_backend, select_backend};
pub use request::{
    BackendError, BackendErrorKind, BackendRequest, BackendResponse, ContextItem, JobRequest,
    JobRole, ModelChoice, PromptParts, RequestKind, SessionIdentity, SessionMode, ToolCall,
    ToolChannel, ToolDefinition, Usage,
};
pub use tokio_util::sync::CancellationToken;

use futures::future::BoxFuture;

/// The answer to one request, or why there is none.
pub type BackendResult = Result<BackendResponse, BackendError>;

/// Asks `backend`, and stops a backend that ignores its timeout a little
/// after it (5 s): what the runner uses for every request.
pub async fn call_guarded(
    backend: &dyn Backend,
    request: &BackendRequest,
    cancel: &CancellationToken,
) -> BackendResult {
    let guard = request.timeout + std::time::Duration::from_secs(5);
    tokio::select! {
        r = backend.call(request, cancel) => r,
        () = tokio::time::sleep(guard) => Err(BackendError::timeout(format!(
            "the `{}` backend did not answer within {}",
            backend.name(),
            humantime::format_duration(request.timeout)
        ))),
    }
}

impl ModelChoice {
    /// The model for `alias`: the configuration's name for it on `kind`,
    /// else `backend`'s own ([`Backend::default_model_name`]).
    pub fn resolve(
        alias: Option<String>,
        backend: &dyn Backend,
        kind: Option<BackendKind>,
        config: &crate::config::RunnerConfig,
    ) -> ModelChoice {
        ModelChoice {
            name: alias.as_deref().and_then(|a| {
                kind.and_then(|k| config.model_name(k, a))
                    .or_else(|| backend.default_model_name(a))
            }),
            alias,
        }
    }
}

/// Something that answers the runner's requests. See the module docs.
pub trait Backend: Send + Sync {
    /// The name used in configuration, events and messages (`mock`,
    /// `command`, `claude`, `codex`, `openai`, `anthropic`).
    fn name(&self) -> &str;

    /// Answers one request. Returns `Err(BackendError::cancelled())` soon
    /// after `cancel` fires, and a `Timeout` error when the request's
    /// timeout passes; in both cases nothing the call started is left
    /// running. Dropping the future must also stop what it started.
    fn call<'a>(
        &'a self,
        request: &'a BackendRequest,
        cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, BackendResult>;

    /// Whether every request this backend runs is held to `rule` (see
    /// [`permissions`]). Only restrictive rules are asked about.
    fn enforces(&self, rule: &PermissionRule) -> bool;

    /// The backend's own model name for an alias (`sonnet`, `opus`,
    /// `haiku`), used when the configuration maps none. `None` leaves the
    /// model to the backend's default.
    fn default_model_name(&self, alias: &str) -> Option<String> {
        let _ = alias;
        None
    }

    /// Checks, before the run starts, that the backend can work at all (its
    /// executable exists, its key variable is set, its configuration is
    /// complete), so a run does not fail at its first session. Must not
    /// call a model.
    fn preflight(&self) -> Result<(), BackendError> {
        Ok(())
    }

    /// Whether the backend keeps a conversation itself, so that a request
    /// that resumes [`SessionIdentity::key`] goes on where the previous one
    /// stopped (the agent CLIs' sessions, the HTTP backends' handles).
    /// When it does not, a job task's runner puts the conversation so far
    /// into the prompt.
    fn keeps_conversations(&self) -> bool {
        false
    }
}
