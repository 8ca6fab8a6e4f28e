//! The `anthropic` and `openai` backends pointed at a fake API server
//! (`fake_api`), for the tests that hold for both: building the backend
//! with a key, their replies, what a request carried. The test file
//! declares `mod fake_api;` too.

#![allow(dead_code)]

use std::sync::Arc;

use prose_runner::{
    backend::{
        Backend,
        anthropic::{self, AnthropicBackend},
        http::HttpSettings,
        openai::{self, OpenAiBackend},
    },
    config::{BackendSettings, Origin, Sourced},
};
use serde_json::Value;

use super::fake_api::{self, FakeServer, Recorded, Reply};

pub const KEY: &str = "sk-test-SECRET-7f3a9c0d";
pub const KEY_VAR: &str = "PROSE_TEST_HTTP_KEY";

/// The two HTTP APIs, for tests that hold for both.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Api {
    Anthropic,
    OpenAi,
}

pub const BOTH: [Api; 2] = [Api::Anthropic, Api::OpenAi];

impl Api {
    pub fn backend(self, server: &FakeServer) -> Arc<dyn Backend> {
        self.backend_with(server, Some(KEY))
    }

    pub fn backend_with(self, server: &FakeServer, key: Option<&str>) -> Arc<dyn Backend> {
        let table = BackendSettings {
            base_url: Some(Sourced::new(self.base_url(server), Origin::Default)),
            api_key_env: Some(Sourced::new(KEY_VAR.to_string(), Origin::Default)),
            ..Default::default()
        };
        let env: Vec<(String, String)> = key
            .map(|k| vec![(KEY_VAR.to_string(), k.to_string())])
            .unwrap_or_default();
        match self {
            Api::Anthropic => Arc::new(
                AnthropicBackend::new(HttpSettings::new(
                    &table,
                    anthropic::DEFAULT_BASE_URL,
                    anthropic::DEFAULT_KEY_ENV,
                ))
                .unwrap()
                .with_env(env),
            ),
            Api::OpenAi => Arc::new(
                OpenAiBackend::new(HttpSettings::new(
                    &table,
                    openai::DEFAULT_BASE_URL,
                    openai::DEFAULT_KEY_ENV,
                ))
                .unwrap()
                .with_env(env),
            ),
        }
    }

    pub fn base_url(self, server: &FakeServer) -> String {
        match self {
            Api::Anthropic => server.url.clone(),
            Api::OpenAi => format!("{}/v1", server.url),
        }
    }

    pub fn path(self) -> &'static str {
        match self {
            Api::Anthropic => "/v1/messages",
            Api::OpenAi => "/v1/chat/completions",
        }
    }

    pub fn text(self, text: &str) -> Reply {
        match self {
            Api::Anthropic => fake_api::anthropic_text(text),
            Api::OpenAi => fake_api::openai_text(text),
        }
    }

    pub fn tool_call(self, id: &str, name: &str, args: Value) -> Reply {
        match self {
            Api::Anthropic => fake_api::anthropic_tool_use(id, name, args),
            Api::OpenAi => fake_api::openai_tool_call(id, name, args),
        }
    }

    /// The key as the request carried it.
    pub fn key_sent(self, r: &Recorded) -> Option<String> {
        match self {
            Api::Anthropic => r.header("x-api-key").map(str::to_string),
            Api::OpenAi => r
                .header("authorization")
                .and_then(|a| a.strip_prefix("Bearer "))
                .map(str::to_string),
        }
    }

    /// The system prompt and the other messages as `role: text` lines.
    pub fn conversation(self, r: &Recorded) -> (Option<String>, Vec<String>) {
        let mut system = r.body["system"].as_str().map(str::to_string);
        let mut lines = Vec::new();
        for m in r.body["messages"].as_array().unwrap() {
            let role = m["role"].as_str().unwrap();
            let text = match &m["content"] {
                Value::String(s) => s.clone(),
                Value::Array(parts) => parts
                    .iter()
                    .map(|p| {
                        p["text"]
                            .as_str()
                            .map(str::to_string)
                            .unwrap_or_else(|| p.to_string())
                    })
                    .collect::<Vec<_>>()
                    .join(" "),
                Value::Null => String::new(),
                other => other.to_string(),
            };
            if role == "system" {
                system = Some(text);
            } else {
                lines.push(format!("{role}: {text}"));
            }
        }
        (system, lines)
    }
}

/// A server answering `replies` in order (the last repeats).
pub async fn server(replies: Vec<Reply>) -> FakeServer {
    FakeServer::scripted(replies, |_| true, Reply::Hang).await
}
