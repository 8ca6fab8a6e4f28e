//! The `command` backend: any program, once per request.
//!
//! The contract (docs/runner.md, "The command backend"; fixed — variables
//! may be added, never changed): `--backend command --command 'PROGRAM
//! ARGS...'`. The command line is split as a shell would split it (quotes,
//! backslashes) but never run through a shell. For every request PROGRAM
//! starts with the full prompt on stdin and these environment variables:
//!
//! | variable | value |
//! |---|---|
//! | `PROSE_RUN_ID` | the run's id |
//! | `PROSE_KIND` | `session`, `condition`, `choice` or `judgement` |
//! | `PROSE_AGENT` | the agent's name, empty for a bare session |
//! | `PROSE_MODEL` | the resolved model alias (empty when none) |
//! | `PROSE_BINDING` | the binding the output goes to, empty if none |
//! | `PROSE_SESSION_ID` | the session's id in the run (`s4@12`) |
//! | `PROSE_ATTEMPT` | 1 for the first attempt, then 2, 3, ... |
//! | `PROSE_CHOICES` | for a choice: the option labels, one per line |
//! | `PROSE_CONVERSATION` | the conversation the request belongs to (the same value on each request of one); empty for a one-off request |
//! | `PROSE_SESSION_MODE` | `new` for the first request of a conversation (and one-off requests), `resume` for the next ones |
//! | `PROSE_TASK` | a job task's name; empty outside job tasks |
//! | `PROSE_ROLE` | a job task's session: `task` or `driving`; empty outside job tasks |
//! | `PROSE_TOOLS` | the tools the request offers, one name per line; empty when none |
//! | `PROSE_TOOLS_FILE` | where a tool call is reported (see [`super::tools`]); empty when no tools are offered |
//!
//! plus the minimal environment of every child
//! ([`super::process::base_environment`]) and `[runner] env`. Its trimmed
//! stdout is the answer; a non-zero exit status fails the request, with
//! stderr in the message. The command cannot enforce permissions.

use std::sync::Arc;

use futures::future::BoxFuture;

use super::{
    Backend, BackendError, BackendRequest, BackendResponse, BackendResult, CancellationToken,
    PermissionRule, SessionMode,
    process::{ProcessSpec, base_environment, run_process},
    tools,
};
use crate::config::RunnerConfig;

/// At most this much of stderr goes into an error message (its end).
const STDERR_IN_MESSAGE: usize = 2000;

/// The command backend.
#[derive(Debug, Clone)]
pub struct CommandBackend {
    program: String,
    args: Vec<String>,
    passthrough: Vec<String>,
}

impl CommandBackend {
    /// Splits `command_line` like a shell (no expansion of any kind).
    pub fn new(command_line: &str, passthrough: Vec<String>) -> Result<Self, BackendError> {
        let argv = shlex::split(command_line).ok_or_else(|| {
            BackendError::unavailable(format!(
                "cannot split the command `{command_line}`: unbalanced quotes or a trailing backslash"
            ))
        })?;
        let mut argv = argv.into_iter();
        let program = argv
            .next()
            .ok_or_else(|| BackendError::unavailable("the command is empty"))?;
        Ok(CommandBackend {
            program,
            args: argv.collect(),
            passthrough,
        })
    }

    /// The environment of one request's process.
    fn env(&self, r: &BackendRequest) -> Vec<(String, String)> {
        let mut env = base_environment(&self.passthrough);
        env.retain(|(k, _)| !k.starts_with("PROSE_"));
        let opt = |v: &Option<String>| v.clone().unwrap_or_default();
        env.extend([
            ("PROSE_RUN_ID".to_string(), r.run_id.clone()),
            ("PROSE_KIND".to_string(), r.kind.as_str().to_string()),
            ("PROSE_AGENT".to_string(), opt(&r.agent)),
            ("PROSE_MODEL".to_string(), opt(&r.model.alias)),
            ("PROSE_BINDING".to_string(), opt(&r.binding)),
            ("PROSE_SESSION_ID".to_string(), r.session_id.clone()),
            ("PROSE_ATTEMPT".to_string(), r.attempt.to_string()),
            ("PROSE_CHOICES".to_string(), r.choices.join("\n")),
            ("PROSE_CONVERSATION".to_string(), opt(&r.identity.key)),
            (
                "PROSE_SESSION_MODE".to_string(),
                match r.identity.mode {
                    SessionMode::New => "new",
                    SessionMode::Resume => "resume",
                }
                .to_string(),
            ),
            (
                "PROSE_TASK".to_string(),
                r.job.as_ref().map(|j| j.task.clone()).unwrap_or_default(),
            ),
            (
                "PROSE_ROLE".to_string(),
                r.job
                    .as_ref()
                    .map(|j| j.role.as_str().to_string())
                    .unwrap_or_default(),
            ),
            (
                tools::TOOLS_VAR.to_string(),
                r.tools
                    .iter()
                    .map(|t| t.name.as_str())
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
            (
                tools::TOOLS_FILE_VAR.to_string(),
                r.tool_channel
                    .as_ref()
                    .filter(|_| !r.tools.is_empty())
                    .map(|c| c.calls_file.display().to_string())
                    .unwrap_or_default(),
            ),
        ]);
        env
    }
}

/// The end of `stderr`, trimmed, at most [`STDERR_IN_MESSAGE`] bytes.
pub(crate) fn stderr_tail(stderr: &str) -> &str {
    let t = stderr.trim();
    let mut start = t.len().saturating_sub(STDERR_IN_MESSAGE);
    while !t.is_char_boundary(start) {
        start += 1;
    }
    &t[start..]
}

impl Backend for CommandBackend {
    fn name(&self) -> &str {
        "command"
    }

    fn call<'a>(
        &'a self,
        request: &'a BackendRequest,
        cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, BackendResult> {
        Box::pin(async move {
            let spec = ProcessSpec {
                program: self.program.clone(),
                args: self.args.clone(),
                stdin: request.prompt.clone(),
                env: self.env(request),
                cwd: Some(request.working_dir.clone()),
                timeout: request.timeout,
            };
            tools::reset_calls(request);
            let out = run_process(&spec, cancel).await?;
            if !out.success() {
                let status = match out.code {
                    Some(c) => format!("exit status {c}"),
                    None => "a signal".to_string(),
                };
                let tail = stderr_tail(&out.stderr);
                let message = if tail.is_empty() {
                    format!("`{}` failed with {status}", self.program)
                } else {
                    format!("`{}` failed with {status}: {tail}", self.program)
                };
                return Err(BackendError::failed(message));
            }
            Ok(BackendResponse {
                tool_calls: tools::reported_calls(request),
                ..BackendResponse::text(out.stdout)
            })
        })
    }

    fn enforces(&self, _rule: &PermissionRule) -> bool {
        false
    }

    fn preflight(&self) -> Result<(), BackendError> {
        if super::process::find_executable(&self.program).is_none() {
            return Err(BackendError::unavailable(format!(
                "the command `{}` was not found (give a path, or put it on PATH)",
                self.program
            )));
        }
        Ok(())
    }
}

/// Builds the backend from `[runner] command` / `--command`.
pub(crate) fn create(config: &RunnerConfig) -> Result<Arc<dyn Backend>, BackendError> {
    let line = config.command.as_ref().ok_or_else(|| {
        BackendError::unavailable(
            "the `command` backend needs a command: `--command 'PROGRAM ARGS...'` or `command = \"...\"` in the [runner] table of prose.toml",
        )
    })?;
    let passthrough = config.env.iter().map(|e| e.value.clone()).collect();
    Ok(Arc::new(CommandBackend::new(&line.value, passthrough)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_like_a_shell_without_one() {
        let b = CommandBackend::new(r#"agent --say "two words" 'a $(b)' c\ d"#, vec![]).unwrap();
        assert_eq!(b.program, "agent");
        assert_eq!(b.args, ["--say", "two words", "a $(b)", "c d"]);
        assert!(CommandBackend::new("agent \"open", vec![]).is_err());
        assert!(CommandBackend::new("   ", vec![]).is_err());
    }

    #[test]
    fn stderr_tail_keeps_the_end() {
        let long = format!("{}é end", "x".repeat(3000));
        let tail = stderr_tail(&long);
        assert!(tail.len() <= STDERR_IN_MESSAGE + 1);
        assert!(tail.ends_with("é end"));
    }
}
