//! The `codex` backend: the Codex CLI (`codex exec`).
//!
//! For every request the runner starts
//!
//! ```text
//! codex exec --json --skip-git-repo-check [--ephemeral] [-m NAME]
//!            [-c sandbox_mode="..."] [-c sandbox_workspace_write.network_access=...]
//!            [-c web_search="disabled"] [-c mcp_servers.prose.*=...]
//!            [args from [runner.codex]] [resume THREAD_ID] -
//! ```
//!
//! in the workspace root with the whole prompt on stdin (`-`), and reads
//! the JSON lines it prints: the last `item.completed` whose item is an
//! `agent_message` is the answer, `turn.failed` fails the request with
//! Codex's own message, `thread.started` names the conversation and
//! `turn.completed` has the usage. Informational `error` lines (Codex's
//! own retries: `Reconnecting... 1/5`) are only reported when the request
//! fails without a message of its own. See [`super::cli`] for the
//! environment (`CODEX_*` and `OPENAI_*` are passed; name the variable of
//! a custom provider's `env_key` in `[runner] env`).
//!
//! **Models.** `sonnet`, `opus` and `haiku` mean nothing to Codex: they
//! are passed (`-m`) only when `models` maps them; otherwise Codex's own
//! configured model answers. Any other alias is passed as written.
//!
//! **Persistent agents** keep one Codex thread: a `session:` starts one,
//! `resume:` continues it (`codex exec resume THREAD_ID`); when Codex no
//! longer has it, a new one starts. Other requests are `--ephemeral`.
//!
//! **Permissions** map to Codex's sandbox; see [`Sandbox`].
//!
//! **Tools** (job tasks): the runner's MCP server is configured with `-c
//! mcp_servers.prose.command=...`, `-c mcp_servers.prose.args=[...]` and
//! `-c mcp_servers.prose.default_tools_approval_mode="approve"` (without
//! approval in advance, `codex exec` refuses every call: "MCP tool call
//! requires approval"). The calls arrive in the request's calls file (see
//! [`super::tools`]) and are returned with the answer.

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
pub const ENV_PREFIXES: &[&str] = &["CODEX_", "OPENAI_"];

/// What Codex prints when `resume` names a thread it lacks.
const NO_THREAD: &str = "no rollout found";

/// Arguments that choose the sandbox themselves: with one of them in
/// `[runner.codex] args`, the runner's sandbox enforces nothing.
const SANDBOX_FLAGS: &[&str] = &[
    "-s",
    "--sandbox",
    "--dangerously-bypass-approvals-and-sandbox",
    "--approve-for-me",
    "--full-auto",
    "--yolo",
];

/// The `codex` backend.
#[derive(Debug, Clone)]
pub struct CodexBackend {
    cli: CliSettings,
}

/// Codex's sandbox modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum SandboxMode {
    ReadOnly,
    WorkspaceWrite,
}

impl SandboxMode {
    fn as_str(self) -> &'static str {
        match self {
            SandboxMode::ReadOnly => "read-only",
            SandboxMode::WorkspaceWrite => "workspace-write",
        }
    }
}

/// An agent's permission rules as Codex's sandbox.
///
/// | rule | becomes |
/// |---|---|
/// | `write: deny` | `sandbox_mode="read-only"` |
/// | `filesystem: ["read"]` | the same (the list names the operations allowed) |
/// | `network: deny` | a sandbox (`read-only`, or `workspace-write` when a rule allows writing) with `network_access=false`, and `web_search="disabled"` |
/// | `prompt` | as `deny` (nobody can answer a prompt) |
/// | `write: allow`, `filesystem: allow` or `["read", "write"]` | `sandbox_mode="workspace-write"` (unless a rule asks for `read-only`) |
/// | `network: allow` | `sandbox_workspace_write.network_access=true` |
///
/// The sandbox holds every command Codex runs, so these are enforced (as
/// far as the platform's sandbox works; under `read-only` a command that
/// writes fails with "Read-only file system"). With no rule about writing
/// or the network, the sandbox is Codex's own configuration (`codex exec`
/// defaults to `read-only`).
///
/// Not enforced: `bash`, `read` and `execute` restrictions (Codex always
/// has its shell, and the sandbox lets it read everything), `filesystem:
/// deny`, pattern lists (`write: ["docs/"]`: the sandbox writes to the
/// whole workspace or nothing), `database` and unknown types; nor anything
/// when `[runner.codex] args` choose the sandbox themselves (`-s`,
/// `--dangerously-bypass-approvals-and-sandbox`, ...). With
/// `--allow-unenforced-permissions`, a `write` pattern list runs with
/// `workspace-write`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sandbox {
    pub mode: Option<SandboxMode>,
    pub network_access: Option<bool>,
    pub web_search_disabled: bool,
}

/// What one rule asks of the sandbox.
#[derive(Debug, Default)]
struct Wish {
    enforced: bool,
    read_only: bool,
    writes: bool,
    network: Option<bool>,
}

fn wish(rule: &PermissionRule) -> Wish {
    use PermissionKind as K;
    use PermissionValue as V;
    let enforced = Wish {
        enforced: true,
        ..Wish::default()
    };
    match (&rule.kind, &rule.value) {
        (K::Write, V::Deny | V::Prompt) => Wish {
            read_only: true,
            ..enforced
        },
        (K::Network, V::Deny | V::Prompt) => Wish {
            network: Some(false),
            ..enforced
        },
        (K::Write | K::Filesystem, V::Allow) => Wish {
            writes: true,
            ..enforced
        },
        (K::Network, V::Allow) => Wish {
            network: Some(true),
            ..enforced
        },
        (K::Filesystem, V::Patterns(p)) => match filesystem_operations(p) {
            Some(ops) if ops.read => Wish {
                read_only: !ops.write,
                writes: ops.write,
                ..enforced
            },
            _ => Wish::default(),
        },
        (K::Write, V::Patterns(_)) => Wish {
            writes: true,
            ..Wish::default()
        },
        (_, V::Allow) => enforced,
        _ => Wish::default(),
    }
}

impl Sandbox {
    /// The sandbox for `permissions`.
    pub fn of(permissions: &Permissions) -> Sandbox {
        let wishes: Vec<Wish> = permissions.rules.iter().map(wish).collect();
        let read_only = wishes.iter().any(|w| w.read_only);
        let writes = wishes.iter().any(|w| w.writes);
        let network_denied = wishes.iter().any(|w| w.network == Some(false));
        let network_allowed = wishes.iter().any(|w| w.network == Some(true));
        let mode = if read_only {
            Some(SandboxMode::ReadOnly)
        } else if writes {
            Some(SandboxMode::WorkspaceWrite)
        } else if network_denied {
            Some(SandboxMode::ReadOnly)
        } else {
            None
        };
        Sandbox {
            mode,
            network_access: if network_denied {
                Some(false)
            } else if network_allowed {
                Some(true)
            } else {
                None
            },
            web_search_disabled: network_denied,
        }
    }

    /// `-c` overrides.
    pub fn config_args(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut set = |kv: String| {
            out.push("-c".to_string());
            out.push(kv);
        };
        if let Some(m) = self.mode {
            set(format!("sandbox_mode=\"{}\"", m.as_str()));
        }
        if let Some(n) = self.network_access {
            set(format!("sandbox_workspace_write.network_access={n}"));
        }
        if self.web_search_disabled {
            set("web_search=\"disabled\"".to_string());
        }
        out
    }
}

impl CodexBackend {
    pub fn new(cli: CliSettings) -> Self {
        CodexBackend { cli }
    }

    /// Passes `vars` to the CLI (and reads them before the process's
    /// environment), e.g. `CODEX_HOME`, a provider's key variable.
    pub fn with_env(mut self, vars: Vec<(String, String)>) -> Self {
        self.cli.env = Env::with_overrides(vars);
        self
    }

    /// Whether the configured arguments choose the sandbox themselves.
    fn args_choose_the_sandbox(&self) -> bool {
        self.cli.args.iter().any(|a| {
            SANDBOX_FLAGS
                .iter()
                .any(|f| a == f || a.starts_with(&format!("{f}=")))
                || (a.starts_with("-s") && a.len() > 2 && !a.starts_with("--"))
        })
    }

    /// The arguments after the executable for `request`: a new thread
    /// (kept when `keep`), or `resume` of `thread`.
    pub fn argv(&self, request: &BackendRequest, thread: Option<&str>, keep: bool) -> Vec<String> {
        let mut args: Vec<String> = ["exec", "--json", "--skip-git-repo-check"]
            .map(str::to_string)
            .into();
        if thread.is_none() && !keep {
            args.push("--ephemeral".into());
        }
        if let Some(model) = &request.model.name {
            args.extend(["-m".into(), model.clone()]);
        }
        args.extend(Sandbox::of(&request.permissions).config_args());
        if let Some((program, server_args)) = tools::mcp_server(request) {
            // TOML values; JSON's strings and arrays of strings are TOML too.
            let key = format!("mcp_servers.{}", tools::mcp::SERVER_NAME);
            let string = |s: &str| serde_json::Value::from(s).to_string();
            args.extend([
                "-c".into(),
                format!("{key}.command={}", string(program)),
                "-c".into(),
                format!("{key}.args={}", serde_json::json!(server_args)),
                "-c".into(),
                format!("{key}.default_tools_approval_mode=\"approve\""),
            ]);
        }
        args.extend(self.cli.args.iter().cloned());
        if let Some(t) = thread {
            args.extend(["resume".into(), t.to_string()]);
        }
        args.push("-".into());
        args
    }
}

/// What one `codex exec --json` printed.
#[derive(Debug, Default, PartialEq)]
struct Events {
    thread: Option<String>,
    answer: Option<String>,
    failed: Option<String>,
    last_error: Option<String>,
    usage: Option<Usage>,
}

fn events(stdout: &str) -> Events {
    let mut out = Events::default();
    for line in stdout.lines() {
        let Ok(v) = serde_json::from_str::<Value>(line.trim()) else {
            continue;
        };
        let text = |p: &str| v.pointer(p).and_then(Value::as_str).map(str::to_string);
        match v.get("type").and_then(Value::as_str) {
            Some("thread.started") => out.thread = text("/thread_id"),
            Some("item.completed") => match v.pointer("/item/type").and_then(Value::as_str) {
                Some("agent_message") => out.answer = text("/item/text"),
                Some("error") => out.last_error = text("/item/message"),
                _ => {}
            },
            Some("turn.failed") => {
                out.failed = text("/error/message").or(Some("the turn failed".into()));
            }
            Some("error") => out.last_error = text("/message"),
            Some("turn.completed") => {
                let n = |k: &str| v.pointer(&format!("/usage/{k}")).and_then(Value::as_u64);
                out.usage = Some(Usage {
                    input_tokens: n("input_tokens"),
                    output_tokens: n("output_tokens"),
                    cost_usd: None,
                });
            }
            _ => {}
        }
    }
    out
}

fn response(ran: &Ran, keep: bool) -> BackendResult {
    let ev = events(&ran.output.stdout);
    if let Some(why) = &ev.failed {
        return Err(BackendError::failed(
            ran.clean(&format!("`{}` reported an error: {why}", ran.program)),
        ));
    }
    if !ran.output.success() {
        let mut e = ran.failure();
        if ran.output.stderr.trim().is_empty()
            && let Some(last) = &ev.last_error
        {
            e.message = ran.clean(&format!("{}: {last}", e.message));
        }
        return Err(e);
    }
    Ok(BackendResponse {
        text: ran.clean(ev.answer.as_deref().unwrap_or_default()),
        tool_calls: Vec::new(),
        session_handle: keep
            .then_some(ev.thread)
            .flatten()
            .map(|t| handle::make("codex", &t)),
        usage: ev.usage,
    })
}

impl Backend for CodexBackend {
    fn name(&self) -> &str {
        "codex"
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
            let keep = request.identity.key.is_some();
            let thread = handle::resumable(&request.identity, "codex").filter(|_| keep);
            let run = |thread: Option<&str>| {
                let args = self.argv(request, thread, keep);
                async move { self.cli.run(args, &request.prompt, request, cancel).await }
            };
            tools::reset_calls(request);
            let mut ran = run(thread).await?;
            if thread.is_some() && !ran.output.success() && ran.output.stderr.contains(NO_THREAD) {
                // Codex lost the thread: start another one.
                tools::reset_calls(request);
                ran = run(None).await?;
            }
            let mut answer = response(&ran, keep)?;
            answer.tool_calls = tools::reported_calls(request);
            Ok(answer)
        })
    }

    fn enforces(&self, rule: &PermissionRule) -> bool {
        let w = wish(rule);
        w.enforced
            && (!(w.read_only || w.network == Some(false)) || !self.args_choose_the_sandbox())
    }

    fn default_model_name(&self, alias: &str) -> Option<String> {
        (!super::openai::ALIASES.contains(&alias)).then(|| alias.to_string())
    }

    fn preflight(&self) -> Result<(), BackendError> {
        self.cli
            .preflight("the Codex CLI", "npm install -g @openai/codex")
    }
}

/// Builds the backend from `[runner.codex]`.
pub(crate) fn create(config: &RunnerConfig) -> Result<Arc<dyn Backend>, BackendError> {
    Ok(Arc::new(CodexBackend::new(CliSettings::from_config(
        config,
        BackendKind::Codex,
        ENV_PREFIXES,
    ))))
}

#[cfg(test)]
#[path = "codex_tests.rs"]
mod tests;
