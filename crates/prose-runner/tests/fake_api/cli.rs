//! The real agent CLIs against the fake server: which CLI is installed,
//! which of its requests are the conversation's, and the answers the fake
//! model gives each. A test adds its own methods to [`Cli`] (how it builds
//! a backend or a command line for the CLI).

use std::path::PathBuf;

use serde_json::json;

use super::{FakeServer, Recorded, Reply};

/// The agent CLIs the runner drives.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Cli {
    Claude,
    Codex,
}

/// The CLIs that are installed (see [`Cli::installed`]).
pub fn installed() -> Vec<Cli> {
    [Cli::Claude, Cli::Codex]
        .into_iter()
        .filter(|c| c.installed().is_some())
        .collect()
}

impl Cli {
    pub fn name(self) -> &'static str {
        match self {
            Cli::Claude => "claude",
            Cli::Codex => "codex",
        }
    }

    /// The CLI's path on PATH, or `None` (and a note) when it is not
    /// installed; under `CI=true` a missing CLI fails the test.
    pub fn installed(self) -> Option<PathBuf> {
        let name = self.name();
        let found = std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|d| d.join(name))
                .find(|p| p.is_file())
        });
        if found.is_some() {
            return found;
        }
        let hint = format!(
            "`{name}` is not on PATH: install the pinned CLIs as .ci/run does (npm install --prefix DIR @anthropic-ai/claude-code@2.1.332 @openai/codex@0.169.0) and put DIR/node_modules/.bin on PATH"
        );
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("{hint}");
        }
        eprintln!("skipped: {hint}");
        None
    }

    /// Whether a request is part of the conversation (the Claude CLI also
    /// makes side requests, which declare no tools).
    pub fn is_main(self, r: &Recorded) -> bool {
        match self {
            Cli::Claude => r.method == "POST" && !r.tool_names().is_empty(),
            Cli::Codex => r.method == "POST" && r.path.ends_with("/responses"),
        }
    }

    /// A server that gives `replies` in order to the conversation.
    pub async fn server(self, replies: Vec<Reply>) -> FakeServer {
        let other = match self {
            Cli::Claude => super::anthropic_stream_text("side answer"),
            Cli::Codex => Reply::Json(200, json!({"data": [], "models": []})),
        };
        let main = move |r: &Recorded| self.is_main(r);
        FakeServer::scripted(replies, main, other).await
    }

    /// The model answers `text`.
    pub fn text(self, text: &str) -> Reply {
        match self {
            Cli::Claude => super::anthropic_stream_text(text),
            Cli::Codex => super::responses_stream_text(text),
        }
    }

    /// The requests of the conversation, in order.
    pub fn main_requests(self, srv: &FakeServer) -> Vec<Recorded> {
        srv.requests()
            .into_iter()
            .filter(|r| self.is_main(r))
            .collect()
    }
}
