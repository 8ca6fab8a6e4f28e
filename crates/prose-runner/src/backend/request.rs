//! What the runner asks of a backend, and what a backend answers.
//!
//! These types know nothing of OpenProse's syntax: a request is a prompt with
//! its parts, an identity and some policy (model, permissions, tools,
//! timeout). Job entries (seed 002) build the same requests.

use std::{fmt, path::PathBuf, time::Duration};

use serde::{Deserialize, Serialize};

use super::permissions::Permissions;

/// What a request is for. `PROSE_KIND` of the `command` backend; `kind` of
/// the session events.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RequestKind {
    /// A session: the answer is free text (the output of the session).
    Session,
    /// A discretion condition (`if **...**`, `loop until **...**`): the
    /// answer is `true` or `false` (see [`crate::answer::read_condition`]).
    Condition,
    /// A `choice`: the answer is the label of one of
    /// [`BackendRequest::choices`].
    Choice,
    /// Any other decision the runner cannot make deterministically (for
    /// example whether a `filter` body's answer means keep): the answer is
    /// `true` or `false`, read like a condition.
    Judgement,
}

impl RequestKind {
    pub fn as_str(self) -> &'static str {
        match self {
            RequestKind::Session => "session",
            RequestKind::Condition => "condition",
            RequestKind::Choice => "choice",
            RequestKind::Judgement => "judgement",
        }
    }
}

impl fmt::Display for RequestKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Whether a request starts a new conversation or continues one.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum SessionMode {
    /// A new conversation: a bare session, a stateless agent, or `session:`
    /// of a persistent agent (which starts its memory afresh).
    #[default]
    New,
    /// `resume:` of a persistent agent (or a job task's next turn): the
    /// conversation named by [`SessionIdentity::key`] goes on.
    Resume,
}

/// The identity of the conversation a request belongs to.
///
/// The runner keeps persistent agents' memory itself (it puts the memory
/// into the prompt, see [`PromptParts::memory`]), so every backend works
/// without any session support. A backend with native sessions (the Claude
/// CLI's `--session-id` / `--resume`) may additionally keep its own: it
/// returns a [`BackendResponse::session_handle`], the runner stores it with
/// the agent's memory, and hands it back in [`SessionIdentity::handle`] on
/// the next `Resume` of the same key.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct SessionIdentity {
    pub mode: SessionMode,
    /// A stable name for the conversation across requests and runs, e.g.
    /// `agent:captain@run` or `agent:advisor@project`; `None` for one-off
    /// requests.
    pub key: Option<String>,
    /// What the backend returned as `session_handle` the last time this
    /// conversation was used, if anything.
    pub handle: Option<String>,
}

/// One binding handed to a session as context.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContextItem {
    /// The variable name (`research`, `result.findings`, `item`).
    pub name: String,
    /// Its value as text.
    pub text: String,
    /// Its binding file relative to the run directory, when it has one
    /// (`bindings/research.md`); backends with file access may point the
    /// agent at it instead of inlining the text.
    pub path: Option<String>,
}

/// The parts a prompt is made of, kept apart for backends that place them
/// differently (a system prompt, for instance); [`BackendRequest::prompt`]
/// is their documented rendering (docs/runner.md, "The prompt").
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct PromptParts {
    /// The task: the session's prompt after interpolation (or the question
    /// of a condition, choice or judgement).
    pub task: String,
    /// The agent's `prompt:` (system context), when the session has an agent
    /// with a prompt.
    pub system: Option<String>,
    /// A persistent agent's memory, on `resume:`.
    pub memory: Option<String>,
    /// Context bindings, in the order the program lists them.
    pub context: Vec<ContextItem>,
}

/// A model, as the program names it and as the backend will be asked for it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct ModelChoice {
    /// The alias after the precedence of session and agent properties
    /// (`sonnet`, `opus`, `haiku`, or whatever the program wrote); `None`
    /// when neither the session nor its agent names one and no default is
    /// configured.
    pub alias: Option<String>,
    /// The backend's model name for the alias, from the configuration's
    /// model map for this backend, else the backend's own default mapping
    /// ([`super::Backend::default_model_name`]); `None` leaves the choice to
    /// the backend.
    pub name: Option<String>,
}

/// A tool the model may call (job tasks declare `job_boolean_true` and the
/// like). OpenProse sessions declare none.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolDefinition {
    pub name: String,
    pub description: String,
    /// A JSON Schema object for the arguments.
    pub parameters: serde_json::Value,
}

/// A tool call the model made while answering.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolCall {
    /// The backend's id of the call, when it has one.
    pub id: Option<String>,
    /// The tool's name; empty for a line of a tool calls file that could
    /// not be read (its text is then the `arguments` string), see
    /// [`ToolChannel::read_calls`].
    pub name: String,
    pub arguments: serde_json::Value,
}

/// How an agent that runs in a process of its own (the `claude`, `codex`
/// and `command` backends) reports its tool calls to the runner: each call
/// is one JSON line appended to [`Self::calls_file`], which the backend
/// reads when the request ends (see [`super::tools`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolChannel {
    /// Where calls go, one JSON object per line:
    /// `{"name": "job_boolean_true", "arguments": {"argument": "..."}}`.
    pub calls_file: PathBuf,
    /// The program and arguments of a stdio MCP server that offers
    /// [`BackendRequest::tools`] and writes each call to `calls_file`
    /// (`prose jobs mcp --tools FILE --calls FILE`); the agent CLIs start
    /// it. `None` when the host has no such server.
    pub server: Option<Vec<String>>,
}

/// Which of a job task's sessions a request is for (seed 002): the task
/// session does the task's work, the driving session decides conditions.
/// With the single-model option both are one conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JobRole {
    /// A condition of `availability` or `criteria`.
    Driving,
    /// The task's prompt, or the prompt of a retry.
    Task,
}

impl JobRole {
    pub fn as_str(self) -> &'static str {
        match self {
            JobRole::Driving => "driving",
            JobRole::Task => "task",
        }
    }
}

impl fmt::Display for JobRole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a request of a job task is (`None` for OpenProse requests).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobRequest {
    /// The task's name in the entry.
    pub task: String,
    pub role: JobRole,
}

/// One request to a backend.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BackendRequest {
    /// The run's id (`20260115-143052-a7b3c9`).
    pub run_id: String,
    /// The session's id in the run (`s4@12`), stable across a resume.
    pub session_id: String,
    pub kind: RequestKind,
    /// The agent's name; `None` for a bare session and for conditions,
    /// choices and judgements.
    pub agent: Option<String>,
    pub model: ModelChoice,
    pub identity: SessionIdentity,
    /// The full prompt: [`Self::parts`] rendered in the documented layout.
    /// This is what the `command` backend writes to stdin, and what a
    /// backend without a separate system prompt sends.
    pub prompt: String,
    pub parts: PromptParts,
    /// For [`RequestKind::Choice`]: the option labels, in program order.
    pub choices: Vec<String>,
    /// The agent's `permissions:`; empty means no restriction was written.
    pub permissions: Permissions,
    /// The agent's `skills:`.
    pub skills: Vec<String>,
    /// The binding the output goes to (`research`, `anon_003`,
    /// `result__43`); `None` when the answer is not bound (conditions,
    /// choices, judgements).
    pub binding: Option<String>,
    /// Tools the model may call (empty for OpenProse sessions).
    pub tools: Vec<ToolDefinition>,
    /// Where an agent in another process reports calls of [`Self::tools`]
    /// (`None` when the request offers no tools).
    pub tool_channel: Option<ToolChannel>,
    /// The job task and session the request belongs to; `None` for
    /// OpenProse requests.
    pub job: Option<JobRequest>,
    /// How long the request may take, all attempts of the backend included;
    /// the backend kills what it started when it passes.
    pub timeout: Duration,
    /// 1 for the first attempt; retries and re-asks count up.
    pub attempt: u32,
    /// The directory the session works in (the workspace root).
    pub working_dir: PathBuf,
    /// The run's directory (`.prose/runs/{id}`), absolute.
    pub run_dir: PathBuf,
}

/// What a backend answered.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct BackendResponse {
    /// The answer text (the runner trims it).
    pub text: String,
    /// Tool calls the model made, in order.
    pub tool_calls: Vec<ToolCall>,
    /// The backend's own handle of the conversation (see
    /// [`SessionIdentity`]), to be handed back on the next `Resume`.
    pub session_handle: Option<String>,
    /// Token counts and cost, when the backend reports them.
    pub usage: Option<Usage>,
}

impl BackendResponse {
    /// A plain text answer.
    pub fn text(text: impl Into<String>) -> Self {
        BackendResponse {
            text: text.into(),
            ..Default::default()
        }
    }
}

/// Resource use of one request.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Usage {
    pub input_tokens: Option<u64>,
    pub output_tokens: Option<u64>,
    pub cost_usd: Option<f64>,
}

/// Why a request failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BackendErrorKind {
    /// The backend ran and reported a failure (non-zero exit, HTTP error,
    /// an error result). The program's error handling applies: `retry`,
    /// `catch`, parallel failure policies.
    Failed,
    /// The request took longer than its timeout; what it started was
    /// killed. Handled like `Failed`.
    Timeout,
    /// The run was cancelled; what the request started was killed. Never
    /// retried or caught.
    Cancelled,
    /// The backend cannot run at all (not installed, not implemented, not
    /// configured, a missing API key). Handled like `Failed` by the
    /// program, but reported before the run when it can be known then.
    Unavailable,
}

/// A failed request: a kind and a message for people. The message never
/// holds secrets (a backend that echoes a server's error must strip keys).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BackendError {
    pub kind: BackendErrorKind,
    pub message: String,
}

impl BackendError {
    pub fn failed(message: impl Into<String>) -> Self {
        Self::new(BackendErrorKind::Failed, message)
    }
    pub fn timeout(message: impl Into<String>) -> Self {
        Self::new(BackendErrorKind::Timeout, message)
    }
    pub fn cancelled() -> Self {
        Self::new(BackendErrorKind::Cancelled, "cancelled")
    }
    pub fn unavailable(message: impl Into<String>) -> Self {
        Self::new(BackendErrorKind::Unavailable, message)
    }
    pub fn new(kind: BackendErrorKind, message: impl Into<String>) -> Self {
        BackendError {
            kind,
            message: message.into(),
        }
    }
}

impl fmt::Display for BackendError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for BackendError {}
