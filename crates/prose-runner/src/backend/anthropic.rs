//! The `anthropic` backend: the Anthropic Messages API over HTTP.
//!
//! ```toml
//! [runner.anthropic]
//! base_url = "https://api.anthropic.com"   # the default; `/v1/messages` is added
//! api_key_env = "ANTHROPIC_API_KEY"        # the default for the default URL
//! model = "claude-sonnet-4-5"              # when the session's alias maps to none
//! models = { opus = "claude-opus-4-5" }
//! ```
//!
//! One `POST {base_url}/v1/messages` per round (not streamed), with
//! `x-api-key`, `anthropic-version: 2023-06-01`, the agent's prompt as
//! `system`, the rest of the prompt as the user message, `max_tokens`
//! [`MAX_TOKENS`] (lowered once to what the API says when a model allows
//! fewer), and the request's tools as `tools`. `tool_use` blocks become
//! the answer's tool calls, each answered with a `tool_result` of `ok`.
//! See [`super::http`] for keys, retries, timeouts and persistent agents.
//!
//! The API runs no tools of its own here (the runner declares none for
//! sessions), so every permission rule holds: the model can only answer.

use std::sync::Arc;

use futures::future::BoxFuture;
use serde_json::{Value, json};

use super::{
    Backend, BackendError, BackendRequest, BackendResult, CancellationToken, PermissionRule,
    ToolCall,
    env::Env,
    http::{self, Api, Dialect, HttpFailure, HttpSettings, Reply},
    registry::BackendKind,
};
use crate::config::RunnerConfig;

/// The API's URL when none is configured.
pub const DEFAULT_BASE_URL: &str = "https://api.anthropic.com";

/// The key's variable for the default URL.
pub const DEFAULT_KEY_ENV: &str = "ANTHROPIC_API_KEY";

/// The API version header.
pub const API_VERSION: &str = "2023-06-01";

/// `max_tokens` of every request (a model with a lower limit gets its own,
/// from the API's error message).
pub const MAX_TOKENS: u64 = 16_384;

/// The built-in model names of the aliases.
pub const DEFAULT_MODELS: [(&str, &str); 3] = [
    ("sonnet", "claude-sonnet-4-5"),
    ("opus", "claude-opus-4-5"),
    ("haiku", "claude-haiku-4-5"),
];

/// The model of requests that name no alias and no configured model.
pub const DEFAULT_MODEL: &str = "claude-sonnet-4-5";

/// The `anthropic` backend.
pub struct AnthropicBackend {
    settings: HttpSettings,
    client: reqwest::Client,
}

impl AnthropicBackend {
    pub fn new(settings: HttpSettings) -> Result<Self, BackendError> {
        let client = http::client(&settings.base_url)?;
        Ok(AnthropicBackend { settings, client })
    }

    /// Reads variables (the key) from `vars` before the process's
    /// environment (see [`Env`]).
    pub fn with_env(mut self, vars: Vec<(String, String)>) -> Self {
        self.settings.env = Env::with_overrides(vars);
        self
    }

    fn url(&self) -> String {
        let base = &self.settings.base_url;
        if base.ends_with("/v1") {
            format!("{base}/messages")
        } else {
            format!("{base}/v1/messages")
        }
    }
}

struct Messages;

impl Dialect for Messages {
    fn api(&self) -> &'static str {
        "the Anthropic API"
    }

    fn backend(&self) -> &'static str {
        "anthropic"
    }

    fn body(&self, request: &BackendRequest, model: Option<&str>, messages: &[Value]) -> Value {
        let mut body = json!({
            "model": model.unwrap_or(DEFAULT_MODEL),
            "max_tokens": MAX_TOKENS,
            "messages": messages,
        });
        if let Some(system) = &request.parts.system {
            body["system"] = json!(system);
        }
        if !request.tools.is_empty() {
            body["tools"] = request
                .tools
                .iter()
                .map(|t| {
                    json!({
                        "name": t.name,
                        "description": t.description,
                        "input_schema": t.parameters,
                    })
                })
                .collect();
        }
        body
    }

    fn headers(&self, key: Option<String>) -> Vec<(&'static str, String)> {
        let mut headers = vec![("anthropic-version", API_VERSION.to_string())];
        headers.extend(key.map(|k| ("x-api-key", k)));
        headers
    }

    fn user_message(&self, text: &str) -> Value {
        json!({"role": "user", "content": text})
    }

    fn reply(&self, answer: &Value) -> Result<Reply, String> {
        let content = answer
            .get("content")
            .and_then(Value::as_array)
            .ok_or("no `content` list")?;
        let mut texts = Vec::new();
        let mut tool_calls = Vec::new();
        for block in content {
            match block.get("type").and_then(Value::as_str) {
                Some("text") => texts.push(block["text"].as_str().unwrap_or_default()),
                Some("tool_use") => tool_calls.push(ToolCall {
                    id: block["id"].as_str().map(str::to_string),
                    name: block["name"].as_str().unwrap_or_default().to_string(),
                    arguments: block.get("input").cloned().unwrap_or(json!({})),
                }),
                _ => {}
            }
        }
        let usage = answer.get("usage");
        let tokens = |k: &str| usage.and_then(|u| u.get(k)).and_then(Value::as_u64);
        Ok(Reply {
            message: json!({"role": "assistant", "content": content}),
            text: texts.concat(),
            tool_calls,
            input_tokens: tokens("input_tokens"),
            output_tokens: tokens("output_tokens"),
        })
    }

    fn tool_results(&self, calls: &[ToolCall]) -> Vec<Value> {
        let results: Vec<Value> = calls
            .iter()
            .map(|c| {
                json!({
                    "type": "tool_result",
                    "tool_use_id": c.id.clone().unwrap_or_default(),
                    "content": "ok",
                })
            })
            .collect();
        vec![json!({"role": "user", "content": results})]
    }

    fn recover(&self, failure: &HttpFailure, body: &mut Value) -> bool {
        match (failure.status, model_max_tokens(&failure.message)) {
            (400, Some(limit)) if limit > 0 && body["max_tokens"].as_u64() != Some(limit) => {
                body["max_tokens"] = json!(limit);
                true
            }
            _ => false,
        }
    }
}

/// The model's limit in the API's error about `max_tokens`: "max_tokens:
/// 16384 > 8192, which is the maximum allowed number of output tokens for
/// ...".
fn model_max_tokens(message: &str) -> Option<u64> {
    let rest = &message[message.find("max_tokens")?..];
    let (_, after) = rest.split_once('>')?;
    if !after.contains("maximum") {
        return None;
    }
    let digits: String = after
        .trim_start()
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

impl Backend for AnthropicBackend {
    fn name(&self) -> &str {
        "anthropic"
    }

    fn keeps_conversations(&self) -> bool {
        true
    }

    fn call<'a>(
        &'a self,
        request: &'a BackendRequest,
        cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, BackendResult> {
        Box::pin(
            Api {
                settings: &self.settings,
                client: &self.client,
                dialect: &Messages,
                url: self.url(),
            }
            .answer(request, cancel),
        )
    }

    /// The model only answers: nothing it says is run.
    fn enforces(&self, _rule: &PermissionRule) -> bool {
        true
    }

    fn default_model_name(&self, alias: &str) -> Option<String> {
        Some(
            DEFAULT_MODELS
                .iter()
                .find(|(a, _)| *a == alias)
                .map_or(alias, |(_, m)| m)
                .to_string(),
        )
    }

    fn preflight(&self) -> Result<(), BackendError> {
        self.settings.preflight()
    }
}

/// Builds the backend from `[runner.anthropic]`.
pub(crate) fn create(config: &RunnerConfig) -> Result<Arc<dyn Backend>, BackendError> {
    let settings = HttpSettings::new(
        &config.backend_settings(BackendKind::Anthropic),
        DEFAULT_BASE_URL,
        DEFAULT_KEY_ENV,
    );
    Ok(Arc::new(AnthropicBackend::new(settings)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_model_limit_from_the_api_error() {
        assert_eq!(
            model_max_tokens(
                "max_tokens: 16384 > 8192, which is the maximum allowed number of output tokens for claude-3-5-sonnet-20240620"
            ),
            Some(8192)
        );
        assert_eq!(model_max_tokens("max_tokens: must be positive"), None);
        assert_eq!(
            model_max_tokens("prompt is too long: 300000 > 200000 maximum"),
            None
        );
    }

    #[test]
    fn urls_and_default_models() {
        let mut s = HttpSettings::new(&Default::default(), DEFAULT_BASE_URL, DEFAULT_KEY_ENV);
        let b = AnthropicBackend::new(s.clone()).unwrap();
        assert_eq!(b.url(), "https://api.anthropic.com/v1/messages");
        s.base_url = "http://127.0.0.1:9/v1".into();
        assert_eq!(
            AnthropicBackend::new(s).unwrap().url(),
            "http://127.0.0.1:9/v1/messages"
        );
        assert_eq!(
            b.default_model_name("opus").as_deref(),
            Some("claude-opus-4-5")
        );
        assert_eq!(
            b.default_model_name("claude-3-5-haiku-latest").as_deref(),
            Some("claude-3-5-haiku-latest")
        );
    }

    #[test]
    fn reads_text_tool_use_and_usage() {
        let r = Messages
            .reply(&json!({
                "content": [
                    {"type": "text", "text": "Let me record that. "},
                    {"type": "tool_use", "id": "toolu_1", "name": "job_boolean_true", "input": {"reason": "done"}},
                    {"type": "thinking", "thinking": "..."}
                ],
                "stop_reason": "tool_use",
                "usage": {"input_tokens": 12, "output_tokens": 7}
            }))
            .unwrap();
        assert_eq!(r.text, "Let me record that. ");
        assert_eq!(
            r.tool_calls,
            [ToolCall {
                id: Some("toolu_1".into()),
                name: "job_boolean_true".into(),
                arguments: json!({"reason": "done"})
            }]
        );
        assert_eq!((r.input_tokens, r.output_tokens), (Some(12), Some(7)));
        assert_eq!(r.message["role"], "assistant");
        assert_eq!(
            Messages.tool_results(&r.tool_calls),
            [
                json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}]})
            ]
        );
        assert!(Messages.reply(&json!({"type": "error"})).is_err());
    }
}
