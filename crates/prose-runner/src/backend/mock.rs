//! The `mock` backend: offline, deterministic, scripted.
//!
//! With no script, a session's answer is its task text (the session's
//! prompt after interpolation), a condition or judgement answers `false`,
//! a choice picks its first option. A script (TOML, `--mock-script FILE`
//! or `[runner.mock] script`) answers by rules, tried in order; the first
//! rule whose every given field matches answers:
//!
//! ```toml
//! log = "calls.jsonl"          # optional: one JSON line per request
//!
//! [[rule]]
//! binding = "research"         # match the binding name ...
//! answer = "Qubits, briefly."
//!
//! [[rule]]
//! agent = "writer"             # ... or the agent ...
//! answers = ["Draft 1", "Draft 2"]   # one per call, the last repeats
//!
//! [[rule]]
//! kind = "condition"           # session | condition | choice | judgement
//! prompt = "polished"          # ... or a piece of the task text
//! answers = ["false", "true"]
//!
//! [[rule]]
//! prompt = "flaky"
//! fail_times = 2               # fail the first 2 calls, then answer
//! fail = "HTTP 503"            # (without fail_times: always fail)
//! answer = "ok"
//! delay = "200ms"              # answer after a pause
//!
//! [[rule]]
//! task = "plan-task"           # job tasks: the task's name ...
//! role = "driving"             # ... and the session: task | driving
//! answers = ["Not yet.", "Yes."]
//! tools = [                    # the tool calls of each answer (the last repeats)
//!   [{ name = "job_boolean_false", argument = "plan.md is missing" }],
//!   [{ name = "job_boolean_true", argument = "plan.md has three steps" }],
//! ]
//! ```
//!
//! A rule's `tools` are returned as the answer's tool calls (only those
//! the request offers; the others are dropped, as a model could not call
//! them). The mock runs nothing, so it enforces every permission rule.

use std::{
    io::Write,
    path::{Path, PathBuf},
    sync::{Arc, Mutex},
    time::Duration,
};

use futures::future::BoxFuture;
use serde::Deserialize;

use super::{
    Backend, BackendError, BackendRequest, BackendResponse, BackendResult, CancellationToken,
    JobRole, PermissionRule, RequestKind, ToolCall,
};
use crate::config::RunnerConfig;

/// A parsed mock script.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MockScript {
    /// Where to log requests (relative to the script's directory).
    pub log: Option<PathBuf>,
    #[serde(default, rename = "rule")]
    pub rules: Vec<MockRule>,
}

/// One rule of a script: match fields, then what to answer.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MockRule {
    pub kind: Option<RequestKind>,
    pub binding: Option<String>,
    pub agent: Option<String>,
    /// A piece of the task text.
    pub prompt: Option<String>,
    pub answer: Option<String>,
    #[serde(default)]
    pub answers: Vec<String>,
    /// Fail with this message (always, or the first `fail_times` calls).
    pub fail: Option<String>,
    pub fail_times: Option<u32>,
    /// A pause before answering: `"200ms"`, `"2s"`.
    pub delay: Option<String>,
    /// A job task's name.
    pub task: Option<String>,
    /// A job task's session.
    pub role: Option<JobRole>,
    /// The tool calls of each answer (aligned with `answers`; the last
    /// repeats), each a list of calls.
    #[serde(default)]
    pub tools: Vec<Vec<MockToolCall>>,
}

/// A scripted tool call: `{ name = "job_boolean_true", argument = "why" }`
/// (the argument is sent as `{"argument": ...}`, the job tools' schema).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MockToolCall {
    pub name: String,
    #[serde(default)]
    pub argument: String,
}

impl MockRule {
    fn matches(&self, r: &BackendRequest) -> bool {
        self.kind.is_none_or(|k| k == r.kind)
            && self
                .binding
                .as_ref()
                .is_none_or(|b| r.binding.as_ref() == Some(b))
            && self
                .agent
                .as_ref()
                .is_none_or(|a| r.agent.as_ref() == Some(a))
            && self
                .prompt
                .as_ref()
                .is_none_or(|p| r.parts.task.contains(p.as_str()))
            && self
                .task
                .as_ref()
                .is_none_or(|t| r.job.as_ref().is_some_and(|j| &j.task == t))
            && self
                .role
                .is_none_or(|role| r.job.as_ref().is_some_and(|j| j.role == role))
    }
}

impl MockScript {
    /// Parses a script; errors name the problem.
    pub fn parse(text: &str) -> Result<MockScript, String> {
        let script: MockScript = toml::from_str(text).map_err(|e| e.to_string())?;
        for (i, rule) in script.rules.iter().enumerate() {
            if let Some(d) = &rule.delay
                && humantime::parse_duration(d).is_err()
            {
                return Err(format!(
                    "rule {}: `delay = \"{d}\"` is not a duration",
                    i + 1
                ));
            }
        }
        Ok(script)
    }

    /// Reads and parses a script file; a relative `log` is resolved against
    /// the file's directory.
    pub fn load(path: &Path) -> Result<MockScript, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the mock script {}: {e}", path.display()))?;
        let mut script =
            Self::parse(&text).map_err(|e| format!("mock script {}: {e}", path.display()))?;
        if let Some(log) = &script.log
            && let Some(dir) = path.parent()
        {
            script.log = Some(dir.join(log));
        }
        Ok(script)
    }
}

/// The mock backend. Cloning shares the call record.
#[derive(Debug, Clone, Default)]
pub struct MockBackend {
    script: Arc<MockScript>,
    state: Arc<Mutex<MockState>>,
}

#[derive(Debug, Default)]
struct MockState {
    /// Calls per rule so far.
    uses: Vec<u32>,
    calls: Vec<BackendRequest>,
}

impl MockBackend {
    pub fn new(script: MockScript) -> Self {
        let uses = vec![0; script.rules.len()];
        MockBackend {
            script: Arc::new(script),
            state: Arc::new(Mutex::new(MockState {
                uses,
                calls: Vec::new(),
            })),
        }
    }

    /// Every request received so far, in the order they arrived.
    pub fn calls(&self) -> Vec<BackendRequest> {
        self.lock().calls.clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, MockState> {
        // A panic elsewhere never leaves the record half-written.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The scripted outcome and delay for `r`, counting the use.
    fn decide(&self, r: &BackendRequest) -> (BackendResult, Option<Duration>) {
        let mut state = self.lock();
        state.calls.push(r.clone());
        let Some(i) = self.script.rules.iter().position(|rule| rule.matches(r)) else {
            return (Ok(BackendResponse::text(default_answer(r))), None);
        };
        let rule = &self.script.rules[i];
        let n = state.uses[i];
        state.uses[i] += 1;
        let delay = rule
            .delay
            .as_deref()
            .and_then(|d| humantime::parse_duration(d).ok());
        let fails = match rule.fail_times {
            Some(times) => n < times,
            None => rule.fail.is_some(),
        };
        if fails {
            let message = rule.fail.clone().unwrap_or_else(|| "mock failure".into());
            return (Err(BackendError::failed(message)), delay);
        }
        let k = n.saturating_sub(rule.fail_times.unwrap_or(0)) as usize;
        let answer = if rule.answers.is_empty() {
            rule.answer.clone().unwrap_or_else(|| default_answer(r))
        } else {
            rule.answers[k.min(rule.answers.len() - 1)].clone()
        };
        let tool_calls = match rule.tools.len() {
            0 => Vec::new(),
            len => rule.tools[k.min(len - 1)]
                .iter()
                .filter(|c| r.tools.iter().any(|t| t.name == c.name))
                .map(|c| ToolCall {
                    id: None,
                    name: c.name.clone(),
                    arguments: serde_json::json!({ "argument": c.argument }),
                })
                .collect(),
        };
        let response = BackendResponse {
            tool_calls,
            ..BackendResponse::text(answer)
        };
        (Ok(response), delay)
    }

    fn log(&self, r: &BackendRequest) {
        let Some(path) = &self.script.log else {
            return;
        };
        let line = serde_json::json!({
            "session_id": r.session_id,
            "kind": r.kind,
            "agent": r.agent,
            "binding": r.binding,
            "model": r.model.alias,
            "task": r.parts.task,
            "job": r.job,
        });
        if let Ok(mut f) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        {
            let _ = writeln!(f, "{line}");
        }
    }
}

/// What the mock answers without a matching rule.
fn default_answer(r: &BackendRequest) -> String {
    match r.kind {
        RequestKind::Session => r.parts.task.clone(),
        RequestKind::Condition | RequestKind::Judgement => "false".into(),
        RequestKind::Choice => r.choices.first().cloned().unwrap_or_default(),
    }
}

impl Backend for MockBackend {
    fn name(&self) -> &str {
        "mock"
    }

    fn call<'a>(
        &'a self,
        request: &'a BackendRequest,
        cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, BackendResult> {
        Box::pin(async move {
            self.log(request);
            let (outcome, delay) = self.decide(request);
            if let Some(d) = delay {
                tokio::select! {
                    () = cancel.cancelled() => return Err(BackendError::cancelled()),
                    () = tokio::time::sleep(d.min(request.timeout)) => {}
                }
                if d > request.timeout {
                    return Err(BackendError::timeout(
                        "the mock's delay is longer than the timeout",
                    ));
                }
            }
            if cancel.is_cancelled() {
                return Err(BackendError::cancelled());
            }
            outcome
        })
    }

    fn enforces(&self, _rule: &PermissionRule) -> bool {
        true
    }
}

/// Builds the mock from `[runner.mock] script` (or no script).
pub(crate) fn create(config: &RunnerConfig) -> Result<Arc<dyn Backend>, BackendError> {
    let settings = config.backend_settings(super::BackendKind::Mock);
    let script = match settings.script {
        Some(path) => MockScript::load(&path.value).map_err(BackendError::unavailable)?,
        None => MockScript::default(),
    };
    Ok(Arc::new(MockBackend::new(script)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{ModelChoice, Permissions, PromptParts, SessionIdentity};

    pub(crate) fn request(kind: RequestKind, task: &str) -> BackendRequest {
        BackendRequest {
            run_id: "20260101-000000-abcdef".into(),
            session_id: "s1@1".into(),
            kind,
            agent: None,
            model: ModelChoice::default(),
            identity: SessionIdentity::default(),
            prompt: task.into(),
            parts: PromptParts {
                task: task.into(),
                ..Default::default()
            },
            choices: vec!["A".into(), "B".into()],
            permissions: Permissions::default(),
            skills: vec![],
            binding: None,
            tools: vec![],
            tool_channel: None,
            job: None,
            timeout: Duration::from_secs(10),
            attempt: 1,
            working_dir: ".".into(),
            run_dir: ".".into(),
        }
    }

    async fn ask(m: &MockBackend, r: &BackendRequest) -> Result<String, String> {
        m.call(r, &CancellationToken::new())
            .await
            .map(|r| r.text)
            .map_err(|e| e.message)
    }

    #[tokio::test]
    async fn defaults_echo_and_say_false() {
        let m = MockBackend::new(MockScript::default());
        assert_eq!(
            ask(&m, &request(RequestKind::Session, "Say hi")).await,
            Ok("Say hi".into())
        );
        assert_eq!(
            ask(&m, &request(RequestKind::Condition, "done")).await,
            Ok("false".into())
        );
        assert_eq!(
            ask(&m, &request(RequestKind::Choice, "pick")).await,
            Ok("A".into())
        );
        assert_eq!(m.calls().len(), 3);
    }

    #[tokio::test]
    async fn rules_match_in_order_with_sequences_and_failures() {
        let script = MockScript::parse(
            r#"
[[rule]]
kind = "condition"
prompt = "polished"
answers = ["false", "true"]

[[rule]]
binding = "x"
answer = "bound"

[[rule]]
prompt = "flaky"
fail_times = 2
fail = "HTTP 503"
answer = "finally"
"#,
        )
        .unwrap();
        let m = MockBackend::new(script);
        let cond = request(RequestKind::Condition, "the draft is polished");
        assert_eq!(ask(&m, &cond).await, Ok("false".into()));
        assert_eq!(ask(&m, &cond).await, Ok("true".into()));
        assert_eq!(ask(&m, &cond).await, Ok("true".into()));
        let mut bound = request(RequestKind::Session, "anything");
        bound.binding = Some("x".into());
        assert_eq!(ask(&m, &bound).await, Ok("bound".into()));
        let flaky = request(RequestKind::Session, "a flaky call");
        assert_eq!(ask(&m, &flaky).await, Err("HTTP 503".into()));
        assert_eq!(ask(&m, &flaky).await, Err("HTTP 503".into()));
        assert_eq!(ask(&m, &flaky).await, Ok("finally".into()));
    }

    #[tokio::test]
    async fn job_rules_match_the_task_and_role_and_script_tool_calls() {
        use crate::backend::{JobRequest, ToolDefinition};
        let script = MockScript::parse(
            r#"
[[rule]]
task = "plan"
role = "driving"
answers = ["no", "yes"]
tools = [
  [{ name = "job_boolean_false", argument = "missing" }, { name = "not_offered" }],
  [{ name = "job_boolean_true", argument = "there" }],
]
"#,
        )
        .unwrap();
        let m = MockBackend::new(script);
        let mut r = request(RequestKind::Session, "Is the plan there?");
        let names = ["job_boolean_true", "job_boolean_false"];
        r.tools = names
            .iter()
            .map(|n| ToolDefinition {
                name: n.to_string(),
                description: String::new(),
                parameters: serde_json::json!({}),
            })
            .collect();
        let calls = |resp: BackendResponse| -> Vec<(String, serde_json::Value)> {
            resp.tool_calls
                .into_iter()
                .map(|c| (c.name, c.arguments["argument"].clone()))
                .collect()
        };
        // Not a job request: no match, the echo.
        let plain = m.call(&r, &CancellationToken::new()).await.unwrap();
        assert_eq!(plain.text, "Is the plan there?");
        assert!(plain.tool_calls.is_empty());
        r.job = Some(JobRequest {
            task: "plan".into(),
            role: JobRole::Task,
        });
        assert!(
            m.call(&r, &CancellationToken::new())
                .await
                .unwrap()
                .tool_calls
                .is_empty()
        );
        r.job.as_mut().unwrap().role = JobRole::Driving;
        let first = m.call(&r, &CancellationToken::new()).await.unwrap();
        assert_eq!(first.text, "no");
        assert_eq!(
            calls(first),
            [(
                "job_boolean_false".to_string(),
                serde_json::json!("missing")
            )]
        );
        for _ in 0..2 {
            let next = m.call(&r, &CancellationToken::new()).await.unwrap();
            assert_eq!(
                calls(next),
                [("job_boolean_true".to_string(), serde_json::json!("there"))]
            );
        }
    }

    #[test]
    fn script_errors_are_reported() {
        assert!(
            MockScript::parse("[[rule]]\nanswr = \"x\"\n")
                .unwrap_err()
                .contains("answr")
        );
        assert!(
            MockScript::parse("[[rule]]\ndelay = \"soon\"\n")
                .unwrap_err()
                .contains("not a duration")
        );
    }
}
