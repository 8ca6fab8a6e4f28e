//! The `claude` backend: the Claude Code CLI in print mode.
//!
//! For every request the runner starts
//!
//! ```text
//! claude -p [args from [runner.claude]] --output-format json [--model NAME]
//!        (--no-session-persistence | --session-id UUID | --resume ID)
//!        [--mcp-config JSON] [--strict-mcp-config] [--allowedTools RULE...]
//!        [--disallowedTools TOOL...]
//! ```
//!
//! in the workspace root with the whole prompt on stdin (never as an
//! argument: `--allowedTools` and `--disallowedTools` take any number of
//! values and would swallow it, and an argument is limited in size), and
//! reads the JSON object it prints: `result` is the answer, `is_error`
//! makes the request fail with the CLI's own message (`Not logged in ·
//! Please run /login`), `session_id` is the conversation, `usage` and
//! `total_cost_usd` the cost. See [`super::cli`] for the environment.
//!
//! **Models.** The CLI takes the aliases itself (`sonnet`, `opus`,
//! `haiku`) and full names, so an alias is passed as written unless
//! `models` maps it.
//!
//! **Persistent agents** keep one CLI conversation: a `session:` starts
//! one (`--session-id` with a new UUID), `resume:` continues it
//! (`--resume`); when the CLI no longer has it (another machine, another
//! workspace, deleted), a new one starts. The prompt still holds the
//! agent's memory, as with every backend. Other requests leave no session
//! behind (`--no-session-persistence`).
//!
//! **Permissions** map to the CLI's tool rules; see [`ToolRules`].
//!
//! **Tools** (job tasks): the runner's MCP server is handed to the CLI
//! with `--mcp-config '{"mcpServers":{"prose":{...}}}'`, and its tools are
//! pre-approved (`--allowedTools mcp__prose__NAME ...`: in print mode
//! nobody could approve a call). The calls arrive in the request's calls
//! file (see [`super::tools`]) and are returned with the answer.

use std::sync::Arc;

use futures::future::BoxFuture;
use serde_json::Value;

use super::{
    Backend, BackendError, BackendRequest, BackendResponse, BackendResult, CancellationToken,
    PermissionKind, PermissionRule, PermissionValue, Permissions, Usage,
    cli::{CliSettings, Ran, filesystem_operations},
    env::Env,
    handle,
    registry::BackendKind,
    tools,
};
use crate::config::RunnerConfig;

/// The CLI's own variables, passed to it (see [`super::cli`]).
pub const ENV_PREFIXES: &[&str] = &["ANTHROPIC_", "CLAUDE_"];

/// The tools that run commands.
const SHELL: &[&str] = &["Bash", "PowerShell"];
/// The tools that read files (the CLI offers Glob and Grep when there is
/// no shell).
const READ: &[&str] = &["Read", "Glob", "Grep"];
/// The tools that change files.
const WRITE: &[&str] = &["Edit", "Write", "NotebookEdit"];
/// The tools that reach the network.
const WEB: &[&str] = &["WebFetch", "WebSearch"];

/// What the CLI prints when `--resume` names a conversation it lacks.
const NO_CONVERSATION: &str = "No conversation found";

/// The `claude` backend.
#[derive(Debug, Clone)]
pub struct ClaudeBackend {
    cli: CliSettings,
}

/// How a request uses the CLI's conversations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionArg {
    /// A one-off request: nothing is kept.
    None,
    /// A new conversation with this id.
    New(String),
    /// Continue this conversation.
    Resume(String),
}

/// An agent's permission rules as the CLI's tool rules.
///
/// | rule | becomes |
/// |---|---|
/// | `bash: deny` | `--disallowedTools Bash PowerShell` |
/// | `execute: deny` | the same (commands are what executes files) |
/// | `write: deny` | `Edit Write NotebookEdit` and the shell disallowed |
/// | `read: deny` | `Read Glob Grep` and the shell disallowed |
/// | `filesystem: deny` | both of the above |
/// | `filesystem: ["read"]` | as `write: deny` (the list names the operations allowed: `read`, `write`) |
/// | `network: deny` | `WebFetch WebSearch` and the shell disallowed, and `--strict-mcp-config` (no MCP server but those of `args`) |
/// | `prompt` | as `deny` (nobody can answer a prompt) |
/// | `allow` | the tools pre-approved with `--allowedTools` (`bash: allow` → `Bash`, `write: allow` → `Edit Write NotebookEdit`, ...) |
///
/// A shell reads, writes and reaches the network, so every file and
/// network restriction takes the shell away too, and restrictions win
/// over `allow` (as the CLI's own deny rules win over its allow rules).
/// Disallowed tools are removed from the session and its subagents.
///
/// Not enforced: pattern lists (`read: ["*.md"]`, `write: ["docs/"]`,
/// `network: ["https://api.example.com/*"]`, `bash: ["git *"]`) — the
/// CLI's rules cannot say "only these": its deny rules win over its allow
/// rules, and reads need no rule at all — and `database` and unknown
/// types. With `--allow-unenforced-permissions` a pattern list is passed
/// as allow rules (`Read(*.md)`, `Edit(docs/**)` and `Write(docs/**)`,
/// `WebFetch(domain:api.example.com)`, `Bash(git *)`): what it lists is
/// pre-approved, the rest is left to the CLI's permission mode.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolRules {
    pub allowed: Vec<String>,
    pub disallowed: Vec<String>,
    pub strict_mcp: bool,
}

/// What one rule becomes.
#[derive(Debug, Default)]
struct Mapped {
    enforced: bool,
    allow: Vec<String>,
    deny: Vec<&'static str>,
    strict_mcp: bool,
}

fn tools(groups: &[&[&'static str]]) -> Vec<&'static str> {
    groups.iter().flat_map(|g| g.iter().copied()).collect()
}

fn names(groups: &[&[&'static str]]) -> Vec<String> {
    tools(groups).into_iter().map(str::to_string).collect()
}

/// A path pattern as the CLI's rules spell it: a directory covers what is
/// under it.
fn path_rule(pattern: &str) -> String {
    if pattern.ends_with('/') {
        format!("{pattern}**")
    } else {
        pattern.to_string()
    }
}

/// The host of a URL pattern (`https://api.example.com/*`).
fn host_of(pattern: &str) -> Option<String> {
    let with_scheme = if pattern.contains("://") {
        pattern.to_string()
    } else {
        format!("https://{pattern}")
    };
    reqwest::Url::parse(&with_scheme)
        .ok()?
        .host_str()
        .filter(|h| !h.contains('{') && !h.contains('*'))
        .map(str::to_string)
}

fn map_rule(rule: &PermissionRule) -> Mapped {
    use PermissionKind as K;
    use PermissionValue as V;
    let deny = |groups: &[&[&'static str]], strict_mcp| Mapped {
        enforced: true,
        deny: tools(groups),
        strict_mcp,
        ..Mapped::default()
    };
    let allow = |groups: &[&[&'static str]]| Mapped {
        enforced: true,
        allow: names(groups),
        ..Mapped::default()
    };
    let patterns = |allow: Vec<String>| Mapped {
        enforced: false,
        allow,
        ..Mapped::default()
    };
    match (&rule.kind, &rule.value) {
        (K::Bash | K::Execute, V::Deny | V::Prompt) => deny(&[SHELL], false),
        (K::Read, V::Deny | V::Prompt) => deny(&[READ, SHELL], false),
        (K::Write, V::Deny | V::Prompt) => deny(&[WRITE, SHELL], false),
        (K::Filesystem, V::Deny | V::Prompt) => deny(&[READ, WRITE, SHELL], false),
        (K::Network, V::Deny | V::Prompt) => deny(&[WEB, SHELL], true),
        (K::Bash, V::Allow) => allow(&[&["Bash"]]),
        (K::Read, V::Allow) => allow(&[READ]),
        (K::Write, V::Allow) => allow(&[WRITE]),
        (K::Filesystem, V::Allow) => allow(&[READ, WRITE]),
        (K::Network, V::Allow) => allow(&[WEB]),
        (K::Filesystem, V::Patterns(p)) => match filesystem_operations(p) {
            Some(ops) => {
                let mut m = Mapped {
                    enforced: true,
                    ..Mapped::default()
                };
                let (mut allowed, mut denied): (Vec<&[&'static str]>, Vec<&[&'static str]>) =
                    (vec![], vec![]);
                if ops.read {
                    allowed.push(READ)
                } else {
                    denied.push(READ)
                }
                if ops.write {
                    allowed.push(WRITE)
                } else {
                    denied.push(WRITE)
                }
                if !denied.is_empty() {
                    denied.push(SHELL);
                }
                m.allow = names(&allowed);
                m.deny = tools(&denied);
                m
            }
            None => patterns(Vec::new()),
        },
        (K::Bash, V::Patterns(p)) => patterns(p.iter().map(|p| format!("Bash({p})")).collect()),
        (K::Read, V::Patterns(p)) => patterns(
            p.iter()
                .map(|p| format!("Read({})", path_rule(p)))
                .collect(),
        ),
        (K::Write, V::Patterns(p)) => patterns(
            p.iter()
                .flat_map(|p| {
                    let p = path_rule(p);
                    [format!("Edit({p})"), format!("Write({p})")]
                })
                .collect(),
        ),
        (K::Network, V::Patterns(p)) => patterns(
            p.iter()
                .filter_map(|p| host_of(p))
                .map(|h| format!("WebFetch(domain:{h})"))
                .collect(),
        ),
        // Nothing to pre-approve; nothing the CLI can take away.
        (_, V::Allow) => Mapped {
            enforced: true,
            ..Mapped::default()
        },
        _ => patterns(Vec::new()),
    }
}

impl ToolRules {
    /// The CLI's rules for `permissions`.
    pub fn of(permissions: &Permissions) -> ToolRules {
        let mut out = ToolRules::default();
        let mut allowed: Vec<String> = Vec::new();
        for rule in &permissions.rules {
            let m = map_rule(rule);
            for d in m.deny {
                if !out.disallowed.iter().any(|x| x == d) {
                    out.disallowed.push(d.to_string());
                }
            }
            out.strict_mcp |= m.strict_mcp;
            for a in m.allow {
                if !allowed.contains(&a) {
                    allowed.push(a);
                }
            }
        }
        // Restrictions win: `Bash(git *)` goes when `Bash` is disallowed.
        out.allowed = allowed
            .into_iter()
            .filter(|a| {
                let tool = a.split('(').next().unwrap_or(a);
                !out.disallowed.iter().any(|d| d == tool)
            })
            .collect();
        out
    }

    /// Whether the CLI holds every request to `rule`.
    pub fn enforces(rule: &PermissionRule) -> bool {
        map_rule(rule).enforced
    }
}

impl ClaudeBackend {
    pub fn new(cli: CliSettings) -> Self {
        ClaudeBackend { cli }
    }

    /// Passes `vars` to the CLI (and reads them before the process's
    /// environment), e.g. `HOME`, `ANTHROPIC_BASE_URL`.
    pub fn with_env(mut self, vars: Vec<(String, String)>) -> Self {
        self.cli.env = Env::with_overrides(vars);
        self
    }

    /// The arguments after the executable for `request`.
    pub fn argv(&self, request: &BackendRequest, session: &SessionArg) -> Vec<String> {
        let mut args = vec!["-p".to_string()];
        args.extend(self.cli.args.iter().cloned());
        args.extend(["--output-format".into(), "json".into()]);
        if let Some(model) = &request.model.name {
            args.extend(["--model".into(), model.clone()]);
        }
        match session {
            SessionArg::None => args.push("--no-session-persistence".into()),
            SessionArg::New(id) => args.extend(["--session-id".into(), id.clone()]),
            SessionArg::Resume(id) => args.extend(["--resume".into(), id.clone()]),
        }
        let rules = ToolRules::of(&request.permissions);
        let mut allowed = rules.allowed;
        if let Some((program, server_args)) = tools::mcp_server(request) {
            let config = serde_json::json!({"mcpServers": {tools::mcp::SERVER_NAME: {
                "command": program,
                "args": server_args,
            }}});
            args.extend(["--mcp-config".into(), config.to_string()]);
            allowed.extend(tools::mcp_tool_names(request));
        }
        if rules.strict_mcp {
            args.push("--strict-mcp-config".into());
        }
        // Each takes every value up to the next option: last, then.
        if !allowed.is_empty() {
            args.push("--allowedTools".into());
            args.extend(allowed);
        }
        if !rules.disallowed.is_empty() {
            args.push("--disallowedTools".into());
            args.extend(rules.disallowed);
        }
        args
    }

    async fn run(
        &self,
        request: &BackendRequest,
        session: &SessionArg,
        cancel: &CancellationToken,
    ) -> Result<Ran, BackendError> {
        self.cli
            .run(
                self.argv(request, session),
                &request.prompt,
                request,
                cancel,
            )
            .await
    }
}

/// The JSON object the CLI printed: the whole output, else its last line
/// that is one.
fn result_object(stdout: &str) -> Option<Value> {
    let whole = serde_json::from_str::<Value>(stdout.trim()).ok();
    whole.filter(Value::is_object).or_else(|| {
        stdout
            .lines()
            .rev()
            .filter_map(|l| serde_json::from_str::<Value>(l.trim()).ok())
            .find(|v| v.get("type").and_then(Value::as_str) == Some("result"))
    })
}

/// Reads what the CLI printed.
fn response(ran: &Ran, keep_session: bool) -> BackendResult {
    let Some(result) = result_object(&ran.output.stdout) else {
        if !ran.output.success() {
            return Err(ran.failure());
        }
        return Err(BackendError::failed(ran.clean(&format!(
            "`{}` did not print the JSON result it should: {}",
            ran.program,
            super::command::stderr_tail(&ran.output.stdout)
        ))));
    };
    let text = result.get("result").and_then(Value::as_str);
    if result.get("is_error").and_then(Value::as_bool) == Some(true) {
        let why = text
            .filter(|t| !t.trim().is_empty())
            .or_else(|| result.get("subtype").and_then(Value::as_str))
            .unwrap_or("no message");
        return Err(BackendError::failed(ran.clean(&format!(
            "`{}` reported an error: {}",
            ran.program,
            why.trim()
        ))));
    }
    let usage = result.get("usage");
    let tokens = |k: &str| usage.and_then(|u| u.get(k)).and_then(Value::as_u64);
    Ok(BackendResponse {
        text: ran.clean(text.unwrap_or_default()),
        tool_calls: Vec::new(),
        session_handle: keep_session
            .then(|| result.get("session_id").and_then(Value::as_str))
            .flatten()
            .map(|id| handle::make("claude", id)),
        usage: Some(Usage {
            input_tokens: tokens("input_tokens"),
            output_tokens: tokens("output_tokens"),
            cost_usd: result.get("total_cost_usd").and_then(Value::as_f64),
        }),
    })
}

fn new_session_id() -> String {
    uuid::Uuid::new_v4().to_string()
}

impl Backend for ClaudeBackend {
    fn name(&self) -> &str {
        "claude"
    }

    fn keeps_conversations(&self) -> bool {
        true
    }

    fn call<'a>(
        &'a self,
        request: &'a BackendRequest,
        cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, BackendResult> {
        Box::pin(async move {
            let persistent = request.identity.key.is_some();
            let session = match handle::resumable(&request.identity, "claude") {
                _ if !persistent => SessionArg::None,
                Some(id) => SessionArg::Resume(id.to_string()),
                None => SessionArg::New(new_session_id()),
            };
            tools::reset_calls(request);
            let mut ran = self.run(request, &session, cancel).await?;
            if matches!(session, SessionArg::Resume(_))
                && !ran.output.success()
                && (ran.output.stdout.contains(NO_CONVERSATION)
                    || ran.output.stderr.contains(NO_CONVERSATION))
            {
                // The CLI lost the conversation: start another one.
                tools::reset_calls(request);
                ran = self
                    .run(request, &SessionArg::New(new_session_id()), cancel)
                    .await?;
            }
            let mut answer = response(&ran, persistent)?;
            answer.tool_calls = tools::reported_calls(request);
            Ok(answer)
        })
    }

    fn enforces(&self, rule: &PermissionRule) -> bool {
        ToolRules::enforces(rule)
    }

    fn default_model_name(&self, alias: &str) -> Option<String> {
        Some(alias.to_string())
    }

    fn preflight(&self) -> Result<(), BackendError> {
        self.cli.preflight(
            "the Claude Code CLI",
            "npm install -g @anthropic-ai/claude-code",
        )
    }
}

/// Builds the backend from `[runner.claude]`.
pub(crate) fn create(config: &RunnerConfig) -> Result<Arc<dyn Backend>, BackendError> {
    Ok(Arc::new(ClaudeBackend::new(CliSettings::from_config(
        config,
        BackendKind::Claude,
        ENV_PREFIXES,
    ))))
}

#[cfg(test)]
#[path = "claude_tests.rs"]
mod tests;
