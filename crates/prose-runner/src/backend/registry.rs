//! Choosing a backend and building it from the configuration.

use std::{fmt, sync::Arc};

use super::{Backend, BackendError, anthropic, claude, codex, command, mock, openai, process};
use crate::config::RunnerConfig;

/// The backends the runner knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BackendKind {
    Claude,
    Codex,
    Openai,
    Anthropic,
    Command,
    Mock,
}

impl BackendKind {
    pub const ALL: [BackendKind; 6] = [
        BackendKind::Claude,
        BackendKind::Codex,
        BackendKind::Openai,
        BackendKind::Anthropic,
        BackendKind::Command,
        BackendKind::Mock,
    ];

    pub fn parse(s: &str) -> Option<BackendKind> {
        Self::ALL.into_iter().find(|k| k.as_str() == s)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            BackendKind::Claude => "claude",
            BackendKind::Codex => "codex",
            BackendKind::Openai => "openai",
            BackendKind::Anthropic => "anthropic",
            BackendKind::Command => "command",
            BackendKind::Mock => "mock",
        }
    }

    /// One line for the list of backends in messages and help.
    pub fn describe(self) -> &'static str {
        match self {
            BackendKind::Claude => "the Claude Code CLI (`claude -p`)",
            BackendKind::Codex => "the Codex CLI (`codex exec`)",
            BackendKind::Openai => {
                "an OpenAI-compatible HTTP API (llama.cpp, vLLM, Ollama, ...); [runner.openai] base_url, api_key_env"
            }
            BackendKind::Anthropic => {
                "the Anthropic Messages API; key from $ANTHROPIC_API_KEY or [runner.anthropic] api_key_env"
            }
            BackendKind::Command => "any program, prompt on stdin: --command 'PROGRAM ARGS...'",
            BackendKind::Mock => {
                "offline scripted answers for demos and tests (--mock-script FILE)"
            }
        }
    }
}

impl fmt::Display for BackendKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// No backend could be chosen or built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelectError {
    pub message: String,
}

impl fmt::Display for SelectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SelectError {}

/// The text listing every backend and how to choose one.
pub fn backend_list() -> String {
    let mut s = String::from("backends:\n");
    for k in BackendKind::ALL {
        s.push_str(&format!("  {:<10} {}\n", k.as_str(), k.describe()));
    }
    s.push_str(
        "choose one with `prose run --backend NAME`, or `backend = \"NAME\"` in the [runner] table of prose.toml",
    );
    s
}

/// The backend to use: the configured one; with none configured, `claude`
/// when the Claude CLI is on PATH. Otherwise an error listing the backends
/// and how to choose one. The mock is never chosen silently.
pub fn select_backend(config: &RunnerConfig) -> Result<BackendKind, SelectError> {
    if let Some(b) = &config.backend {
        return Ok(b.value);
    }
    let claude = config
        .backend_settings(BackendKind::Claude)
        .executable
        .map_or_else(|| "claude".to_string(), |e| e.value);
    if process::find_executable(&claude).is_some() {
        return Ok(BackendKind::Claude);
    }
    Err(SelectError {
        message: format!(
            "no backend is configured and `claude` is not on PATH\n{}",
            backend_list()
        ),
    })
}

/// Builds the backend `kind` from the configuration. Fails when its
/// configuration is incomplete (the `command` backend without a command).
pub fn create_backend(
    kind: BackendKind,
    config: &RunnerConfig,
) -> Result<Arc<dyn Backend>, SelectError> {
    let built: Result<Arc<dyn Backend>, BackendError> = match kind {
        BackendKind::Mock => mock::create(config),
        BackendKind::Command => command::create(config),
        BackendKind::Claude => claude::create(config),
        BackendKind::Codex => codex::create(config),
        BackendKind::Openai => openai::create(config),
        BackendKind::Anthropic => anthropic::create(config),
    };
    built.map_err(|e| SelectError { message: e.message })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Origin, Sourced};

    #[test]
    fn names_round_trip() {
        for k in BackendKind::ALL {
            assert_eq!(BackendKind::parse(k.as_str()), Some(k));
        }
        assert_eq!(BackendKind::parse("gpt"), None);
        // The names prose-ide accepts in `[runner] backend` are these.
        let names: Vec<&str> = BackendKind::ALL.iter().map(|k| k.as_str()).collect();
        assert_eq!(names, prose_ide::config::runner::BACKENDS);
    }

    #[test]
    fn the_configured_backend_wins_and_none_never_means_mock() {
        let c = RunnerConfig {
            backend: Some(Sourced::new(BackendKind::Codex, Origin::CommandLine)),
            ..RunnerConfig::default()
        };
        assert_eq!(select_backend(&c), Ok(BackendKind::Codex));

        // With no backend configured and a `claude` that cannot be found,
        // the error lists every backend and how to choose.
        let mut c = RunnerConfig::default();
        c.apply(
            &prose_ide::Config::from_toml(
                "[runner.claude]\nexecutable = \"/nonexistent/claude-for-test\"\n",
            )
            .unwrap()
            .runner,
            &Origin::Default,
            std::path::Path::new("/"),
        );
        let e = select_backend(&c).unwrap_err().message;
        assert!(e.contains("no backend is configured"), "{e}");
        for k in BackendKind::ALL {
            assert!(e.contains(&format!("  {}", k.as_str())), "{e}");
        }
        assert!(e.contains("--backend NAME"), "{e}");
    }
}
