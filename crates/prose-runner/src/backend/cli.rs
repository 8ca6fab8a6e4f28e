//! What the agent CLI backends (`claude`, `codex`) share: the executable
//! and its extra arguments, the child's environment, running it, and
//! messages for its failures.
//!
//! ```toml
//! [runner.claude]          # or [runner.codex]
//! executable = "claude"    # default: the backend's name, found on PATH
//! args = ["--max-budget-usd", "5"]
//! ```
//!
//! The CLI runs through [`super::process::run_process`]: never through a
//! shell, in the workspace root, with the request's timeout, its process
//! group killed on timeout and cancel, the prompt on stdin. Its environment
//! is the minimal one of every child
//! ([`super::process::base_environment`]), the variables named by
//! `[runner] env`, and the CLI's own variables: those whose names start
//! with the backend's prefixes (`ANTHROPIC_` and `CLAUDE_` for `claude`,
//! `CODEX_` and `OPENAI_` for `codex`), so a CLI finds its key and its
//! settings as it would in the user's shell. Nothing the CLI prints reaches
//! the runner's state before [`super::env::redact`] has hidden the values
//! of the secret-looking variables passed to it.

use super::{
    BackendError, BackendRequest, CancellationToken,
    command::stderr_tail,
    env::{Env, redact, secret_values},
    process::{ProcessOutput, ProcessSpec, base_environment, find_executable, run_process},
    registry::BackendKind,
};
use crate::config::RunnerConfig;

/// How to run one agent CLI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliSettings {
    /// The backend (for messages).
    pub kind: BackendKind,
    /// The program: a name found on PATH, or a path.
    pub executable: String,
    /// Extra arguments, before the backend's own.
    pub args: Vec<String>,
    /// `[runner] env`: variables passed through by name.
    pub passthrough: Vec<String>,
    /// The CLI's own variable prefixes.
    pub prefixes: &'static [&'static str],
    /// The environment read (the process's plus overrides).
    pub env: Env,
}

impl CliSettings {
    /// `[runner.<kind>]` and `[runner] env`.
    pub fn from_config(
        config: &RunnerConfig,
        kind: BackendKind,
        prefixes: &'static [&'static str],
    ) -> Self {
        let table = config.backend_settings(kind);
        CliSettings {
            kind,
            executable: table
                .executable
                .map_or_else(|| kind.as_str().to_string(), |e| e.value),
            args: table.args.map(|a| a.value).unwrap_or_default(),
            passthrough: config.env.iter().map(|e| e.value.clone()).collect(),
            prefixes,
            env: Env::default(),
        }
    }

    /// The child's environment: minimal, the passthrough, the CLI's own
    /// variables, then the overrides (which always pass).
    pub fn environment(&self) -> Vec<(String, String)> {
        let mut env = base_environment(&self.passthrough);
        env.retain(|(k, _)| !k.starts_with("PROSE_"));
        let mut set = |k: &str, v: &str| match env.iter_mut().find(|(n, _)| n == k) {
            Some(slot) => slot.1 = v.to_string(),
            None => env.push((k.to_string(), v.to_string())),
        };
        for (k, v) in self.env.with_prefixes(self.prefixes) {
            set(&k, &v);
        }
        for (k, v) in self.env.overrides() {
            set(k, v);
        }
        env.sort();
        env
    }

    /// The executable can be found.
    pub fn preflight(&self, what: &str, install: &str) -> Result<(), BackendError> {
        if find_executable(&self.executable).is_some() {
            return Ok(());
        }
        Err(BackendError::unavailable(format!(
            "{what} (`{}`) was not found on PATH; install it ({install}), or set `executable` in [runner.{}]",
            self.executable, self.kind
        )))
    }

    /// Runs the CLI once with `args` after the configured ones, `stdin` on
    /// its standard input.
    pub async fn run(
        &self,
        args: Vec<String>,
        stdin: &str,
        request: &BackendRequest,
        cancel: &CancellationToken,
    ) -> Result<Ran, BackendError> {
        let env = self.environment();
        let secrets = secret_values(&env);
        let spec = ProcessSpec {
            program: self.executable.clone(),
            args,
            stdin: stdin.to_string(),
            env,
            cwd: Some(request.working_dir.clone()),
            timeout: request.timeout,
        };
        let output = run_process(&spec, cancel).await.map_err(|mut e| {
            e.message = redact(&e.message, &secrets);
            e
        })?;
        Ok(Ran {
            program: self.executable.clone(),
            output,
            secrets,
        })
    }
}

/// A finished CLI process.
#[derive(Debug, Clone)]
pub struct Ran {
    pub program: String,
    pub output: ProcessOutput,
    /// The secret values its environment held.
    pub secrets: Vec<String>,
}

impl Ran {
    /// `text` without secrets.
    pub fn clean(&self, text: &str) -> String {
        redact(text, &self.secrets)
    }

    /// A failed request: the exit status and the end of stderr (else of
    /// stdout), without secrets.
    pub fn failure(&self) -> BackendError {
        let status = match self.output.code {
            Some(c) => format!("exit status {c}"),
            None => "a signal".to_string(),
        };
        let mut tail = stderr_tail(&self.output.stderr);
        if tail.is_empty() {
            tail = stderr_tail(&self.output.stdout);
        }
        let message = if tail.is_empty() {
            format!("`{}` failed with {status}", self.program)
        } else {
            format!("`{}` failed with {status}: {tail}", self.program)
        };
        BackendError::failed(self.clean(&message))
    }
}

/// The operations a `filesystem: [...]` list allows when it lists
/// operations rather than paths, as real programs write it
/// (`filesystem: ["read"]`, `["read", "write"]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileOperations {
    pub read: bool,
    pub write: bool,
}

/// `Some` when every item of the list is `read`, `write` or `execute`
/// (ignoring case); `None` for a list of paths.
pub fn filesystem_operations(items: &[String]) -> Option<FileOperations> {
    let ops: Vec<String> = items
        .iter()
        .map(|i| i.trim().to_ascii_lowercase())
        .collect();
    let known = ["read", "write", "execute"];
    if ops.is_empty() || !ops.iter().all(|o| known.contains(&o.as_str())) {
        return None;
    }
    Some(FileOperations {
        read: ops.iter().any(|o| o == "read"),
        write: ops.iter().any(|o| o == "write"),
    })
}

/// The settings of `kind` with `args`, for the backends' unit tests.
#[cfg(test)]
pub(crate) fn test_settings(
    kind: BackendKind,
    prefixes: &'static [&'static str],
    args: &[&str],
) -> CliSettings {
    let mut cli = CliSettings::from_config(&RunnerConfig::default(), kind, prefixes);
    cli.args = args.iter().map(|a| a.to_string()).collect();
    cli
}

/// A request for the backends' unit tests.
#[cfg(test)]
pub(crate) fn test_request(task: &str, rules: &[(&str, super::PermissionValue)]) -> BackendRequest {
    use super::{PermissionKind, PermissionRule, Permissions, PromptParts, RequestKind};
    BackendRequest {
        run_id: "20260101-000000-abcdef".into(),
        session_id: "s1@1".into(),
        kind: RequestKind::Session,
        agent: Some("worker".into()),
        model: super::ModelChoice::default(),
        identity: super::SessionIdentity::default(),
        prompt: task.into(),
        parts: PromptParts {
            task: task.into(),
            ..Default::default()
        },
        choices: vec![],
        permissions: Permissions {
            rules: rules
                .iter()
                .map(|(k, v)| PermissionRule::new(PermissionKind::parse(k), v.clone()))
                .collect(),
        },
        skills: vec![],
        binding: Some("result".into()),
        tools: vec![],
        tool_channel: None,
        job: None,
        timeout: std::time::Duration::from_secs(30),
        attempt: 1,
        working_dir: ".".into(),
        run_dir: ".".into(),
    }
}

/// `request` offering two job tools through an MCP server, for the
/// backends' unit tests.
#[cfg(test)]
pub(crate) fn with_tools(mut request: BackendRequest) -> BackendRequest {
    request.tools = ["job_boolean_true", "job_boolean_false"]
        .map(|name| super::ToolDefinition {
            name: name.into(),
            description: String::new(),
            parameters: serde_json::json!({}),
        })
        .into();
    request.tool_channel = Some(super::ToolChannel {
        calls_file: "/run/tools/s1.jsonl".into(),
        server: Some(
            [
                "/bin/prose",
                "jobs",
                "mcp",
                "--calls",
                "/run/tools/s1.jsonl",
            ]
            .map(str::to_string)
            .into(),
        ),
    });
    request
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_environment_keeps_the_cli_variables_and_overrides() {
        let cli = CliSettings {
            kind: BackendKind::Claude,
            executable: "claude".into(),
            args: vec![],
            passthrough: vec!["PROSE_TEST_CLI_NOT_SET".into()],
            prefixes: &["PROSE_TEST_CLI_"],
            env: Env::with_overrides(vec![
                ("PROSE_TEST_CLI_KEY".into(), "sk-abcdefgh".into()),
                ("HOME".into(), "/tmp/agent-home".into()),
                ("UNRELATED_TOKEN".into(), "given on purpose".into()),
            ]),
        };
        let env = cli.environment();
        let get = |k: &str| env.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
        assert_eq!(get("PROSE_TEST_CLI_KEY"), Some("sk-abcdefgh"));
        assert_eq!(get("HOME"), Some("/tmp/agent-home"));
        assert_eq!(get("UNRELATED_TOKEN"), Some("given on purpose"));
        assert!(get("PATH").is_some());
        assert_eq!(get("PROSE_TEST_CLI_NOT_SET"), None);
        assert_eq!(secret_values(&env), ["given on purpose", "sk-abcdefgh"]);
    }

    #[test]
    fn failures_name_the_status_and_hide_secrets() {
        let ran = Ran {
            program: "claude".into(),
            output: ProcessOutput {
                code: Some(1),
                stdout: "No conversation found\n".into(),
                stderr: String::new(),
            },
            secrets: vec!["sk-abcdefgh".into()],
        };
        assert_eq!(
            ran.failure().message,
            "`claude` failed with exit status 1: No conversation found"
        );
        let ran = Ran {
            output: ProcessOutput {
                code: None,
                stdout: String::new(),
                stderr: "bad key sk-abcdefgh\n".into(),
            },
            ..ran
        };
        assert_eq!(
            ran.failure().message,
            "`claude` failed with a signal: bad key [redacted]"
        );
    }

    #[test]
    fn filesystem_lists_of_operations() {
        let ops = |items: &[&str]| {
            filesystem_operations(&items.iter().map(|s| s.to_string()).collect::<Vec<_>>())
        };
        assert_eq!(
            ops(&["read"]),
            Some(FileOperations {
                read: true,
                write: false
            })
        );
        assert_eq!(
            ops(&["Read", "write"]),
            Some(FileOperations {
                read: true,
                write: true
            })
        );
        assert_eq!(ops(&["read", "src/"]), None);
        assert_eq!(ops(&[]), None);
    }

    #[test]
    fn a_missing_executable_says_how_to_install_it() {
        let cli =
            CliSettings::from_config(&RunnerConfig::default(), BackendKind::Codex, &["CODEX_"]);
        assert_eq!(cli.executable, "codex");
        let cli = CliSettings {
            executable: "/nonexistent/codex".into(),
            ..cli
        };
        let e = cli
            .preflight("the Codex CLI", "npm install -g @openai/codex")
            .unwrap_err();
        assert_eq!(
            e.message,
            "the Codex CLI (`/nonexistent/codex`) was not found on PATH; install it (npm install -g @openai/codex), or set `executable` in [runner.codex]"
        );
    }
}
