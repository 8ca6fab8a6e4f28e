//! The `openai` backend: any OpenAI-compatible chat completions endpoint
//! (OpenAI, llama.cpp's server, vLLM, Ollama, LM Studio, ...).
//!
//! ```toml
//! [runner.openai]
//! base_url = "http://127.0.0.1:8080/v1"   # default https://api.openai.com/v1
//! api_key_env = "LLAMA_KEY"               # default OPENAI_API_KEY, for the default URL only
//! model = "llama-3.1-8b"                  # when the session's alias maps to none
//! models = { opus = "llama-3.1-70b" }
//! ```
//!
//! One `POST {base_url}/chat/completions` per round (not streamed), with
//! `Authorization: Bearer KEY` when there is a key, the agent's prompt as
//! a `system` message, the rest of the prompt as the `user` message, and
//! the request's tools as `tools` (`type: function`). `tool_calls` in the
//! answer become the answer's tool calls, each answered with a `tool`
//! message `ok`. See [`super::http`] for keys, retries, timeouts and
//! persistent agents.
//!
//! Aliases have no built-in names here (an OpenAI-compatible server may
//! serve any model): `sonnet`, `opus` and `haiku` map through `models`,
//! else to `model`; another alias is sent as written. With neither, the
//! request names no model (llama.cpp serves its one model); the vendor's
//! own URL needs one, so preflight asks for `model` there.
//!
//! The API runs no tools of its own here, so every permission rule holds.

use std::sync::Arc;

use futures::future::BoxFuture;
use serde_json::{Value, json};

use super::{
    Backend, BackendError, BackendRequest, BackendResult, CancellationToken, PermissionRule,
    ToolCall,
    env::Env,
    http::{self, Api, Dialect, HttpSettings, Reply},
    registry::BackendKind,
};
use crate::config::RunnerConfig;

/// The API's URL when none is configured.
pub const DEFAULT_BASE_URL: &str = "https://api.openai.com/v1";

/// The key's variable for the default URL.
pub const DEFAULT_KEY_ENV: &str = "OPENAI_API_KEY";

/// The aliases programs write; they mean nothing to an OpenAI-compatible
/// server, so they are only sent when the configuration maps them.
pub(crate) const ALIASES: [&str; 3] = ["sonnet", "opus", "haiku"];

/// The `openai` backend.
pub struct OpenAiBackend {
    settings: HttpSettings,
    client: reqwest::Client,
    /// Whether the configuration maps any alias (`models`).
    has_models: bool,
}

impl OpenAiBackend {
    pub fn new(settings: HttpSettings) -> Result<Self, BackendError> {
        let client = http::client(&settings.base_url)?;
        Ok(OpenAiBackend {
            settings,
            client,
            has_models: false,
        })
    }

    /// Reads variables (the key) from `vars` before the process's
    /// environment (see [`Env`]).
    pub fn with_env(mut self, vars: Vec<(String, String)>) -> Self {
        self.settings.env = Env::with_overrides(vars);
        self
    }
}

struct ChatCompletions;

impl Dialect for ChatCompletions {
    fn api(&self) -> &'static str {
        "the OpenAI-compatible API"
    }

    fn backend(&self) -> &'static str {
        "openai"
    }

    fn body(&self, request: &BackendRequest, model: Option<&str>, messages: &[Value]) -> Value {
        let mut all = Vec::with_capacity(messages.len() + 1);
        if let Some(system) = &request.parts.system {
            all.push(json!({"role": "system", "content": system}));
        }
        all.extend(messages.iter().cloned());
        let mut body = json!({ "messages": all });
        if let Some(m) = model {
            body["model"] = json!(m);
        }
        if !request.tools.is_empty() {
            body["tools"] = request
                .tools
                .iter()
                .map(|t| {
                    json!({
                        "type": "function",
                        "function": {
                            "name": t.name,
                            "description": t.description,
                            "parameters": t.parameters,
                        }
                    })
                })
                .collect();
        }
        body
    }

    fn headers(&self, key: Option<String>) -> Vec<(&'static str, String)> {
        key.map(|k| ("authorization", format!("Bearer {k}")))
            .into_iter()
            .collect()
    }

    fn user_message(&self, text: &str) -> Value {
        json!({"role": "user", "content": text})
    }

    fn reply(&self, answer: &Value) -> Result<Reply, String> {
        let message = answer
            .pointer("/choices/0/message")
            .ok_or("no `choices[0].message`")?;
        // A string, or (some servers) a list of parts.
        let text = match message.get("content") {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Array(parts)) => parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect(),
            _ => String::new(),
        };
        let tool_calls = message
            .get("tool_calls")
            .and_then(Value::as_array)
            .map(|calls| {
                calls
                    .iter()
                    .map(|c| {
                        let f = &c["function"];
                        // Arguments are a JSON text; one that does not parse
                        // is kept as the text.
                        let arguments = match &f["arguments"] {
                            Value::String(s) => {
                                serde_json::from_str(s).unwrap_or_else(|_| Value::String(s.clone()))
                            }
                            Value::Null => json!({}),
                            other => other.clone(),
                        };
                        ToolCall {
                            id: c["id"].as_str().map(str::to_string),
                            name: f["name"].as_str().unwrap_or_default().to_string(),
                            arguments,
                        }
                    })
                    .collect()
            })
            .unwrap_or_default();
        // Sent back as it came, minus what servers refuse to be sent.
        let mut back = json!({"role": "assistant", "content": message.get("content").cloned().unwrap_or(Value::Null)});
        if let Some(calls) = message.get("tool_calls").filter(|c| c.is_array()) {
            back["tool_calls"] = calls.clone();
        }
        let usage = answer.get("usage");
        let tokens = |k: &str| usage.and_then(|u| u.get(k)).and_then(Value::as_u64);
        Ok(Reply {
            message: back,
            text,
            tool_calls,
            input_tokens: tokens("prompt_tokens"),
            output_tokens: tokens("completion_tokens"),
        })
    }

    fn tool_results(&self, calls: &[ToolCall]) -> Vec<Value> {
        calls
            .iter()
            .map(|c| {
                json!({
                    "role": "tool",
                    "tool_call_id": c.id.clone().unwrap_or_default(),
                    "content": "ok",
                })
            })
            .collect()
    }
}

impl Backend for OpenAiBackend {
    fn name(&self) -> &str {
        "openai"
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
                dialect: &ChatCompletions,
                url: format!("{}/chat/completions", self.settings.base_url),
            }
            .answer(request, cancel),
        )
    }

    /// The model only answers: nothing it says is run.
    fn enforces(&self, _rule: &PermissionRule) -> bool {
        true
    }

    /// Any alias but `sonnet`, `opus` and `haiku` is sent as written.
    fn default_model_name(&self, alias: &str) -> Option<String> {
        (!ALIASES.contains(&alias)).then(|| alias.to_string())
    }

    fn preflight(&self) -> Result<(), BackendError> {
        self.settings.preflight()?;
        let vendor = self.settings.base_url == DEFAULT_BASE_URL;
        if vendor && self.settings.model.is_none() && !self.has_models {
            return Err(BackendError::unavailable(
                "the `openai` backend needs a model for the OpenAI API: set `model` (and `models` for sonnet, opus, haiku) in [runner.openai]",
            ));
        }
        Ok(())
    }
}

/// Builds the backend from `[runner.openai]`.
pub(crate) fn create(config: &RunnerConfig) -> Result<Arc<dyn Backend>, BackendError> {
    let table = config.backend_settings(BackendKind::Openai);
    let settings = HttpSettings::new(&table, DEFAULT_BASE_URL, DEFAULT_KEY_ENV);
    let mut backend = OpenAiBackend::new(settings)?;
    backend.has_models = !table.models.is_empty();
    Ok(Arc::new(backend))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_text_tool_calls_and_usage() {
        let r = ChatCompletions
            .reply(&json!({
                "choices": [{
                    "message": {
                        "role": "assistant",
                        "content": null,
                        "tool_calls": [
                            {"id": "call_1", "type": "function", "function": {"name": "job_prepare_document", "arguments": "{\"document\":\"a.md\"}"}},
                            {"id": "call_2", "type": "function", "function": {"name": "job_boolean_false", "arguments": "not json"}}
                        ]
                    },
                    "finish_reason": "tool_calls"
                }],
                "usage": {"prompt_tokens": 30, "completion_tokens": 4}
            }))
            .unwrap();
        assert_eq!(r.text, "");
        assert_eq!(r.tool_calls.len(), 2);
        assert_eq!(r.tool_calls[0].arguments, json!({"document": "a.md"}));
        assert_eq!(r.tool_calls[1].arguments, json!("not json"));
        assert_eq!((r.input_tokens, r.output_tokens), (Some(30), Some(4)));
        assert_eq!(r.message["tool_calls"][0]["id"], "call_1");
        assert_eq!(
            ChatCompletions.tool_results(&r.tool_calls)[1],
            json!({"role": "tool", "tool_call_id": "call_2", "content": "ok"})
        );

        let parts = ChatCompletions
            .reply(&json!({"choices": [{"message": {"content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}}]}))
            .unwrap();
        assert_eq!(parts.text, "ab");
        assert!(ChatCompletions.reply(&json!({"error": "x"})).is_err());
    }

    #[test]
    fn aliases_are_sent_only_when_mapped() {
        let table = crate::config::BackendSettings {
            base_url: Some(crate::config::Sourced::new(
                "http://127.0.0.1:9/v1".to_string(),
                crate::config::Origin::Default,
            )),
            ..Default::default()
        };
        let b = OpenAiBackend::new(HttpSettings::new(&table, DEFAULT_BASE_URL, DEFAULT_KEY_ENV))
            .unwrap();
        assert_eq!(b.default_model_name("sonnet"), None);
        assert_eq!(b.default_model_name("qwen2.5").as_deref(), Some("qwen2.5"));
        // A local server needs neither a key nor a model.
        assert!(b.preflight().is_ok());
    }

    #[test]
    fn the_vendor_url_needs_a_model() {
        let b = OpenAiBackend::new(HttpSettings::new(
            &Default::default(),
            DEFAULT_BASE_URL,
            DEFAULT_KEY_ENV,
        ))
        .unwrap()
        .with_env(vec![(DEFAULT_KEY_ENV.into(), "sk-test-123456".into())]);
        let e = b.preflight().unwrap_err();
        assert!(e.message.contains("needs a model"), "{e}");
    }
}
