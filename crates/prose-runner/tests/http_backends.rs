//! The `anthropic` and `openai` backends against a fake API server on
//! 127.0.0.1 started by each test: what the server receives (the prompt,
//! its context, the system prompt, the model, the key, the tools), answers
//! becoming bindings, tool calls, persistent agents' conversations, and
//! every way an API fails (an HTTP error, a cut answer, rate limits, no
//! key, no answer in time, a cancelled run). No key ever reaches the run's
//! directory.

mod backend_run;
mod common;
mod fake_api;
mod http_api;

use std::{
    path::Path,
    sync::Arc,
    time::{Duration, Instant},
};

use backend_run::{binding, failures, files_containing, run_in};
use fake_api::Reply;
use http_api::{Api, BOTH, KEY, KEY_VAR, server};
use prose_runner::{
    backend::{
        Backend, BackendErrorKind, CancellationToken, ToolCall, ToolDefinition, anthropic,
        http::HttpSettings,
        openai::{self, OpenAiBackend},
    },
    config::{Origin, RunnerConfig, Sourced},
    events::{Event, RunStatus},
    run::{RunOutcome, StartError},
};
use serde_json::json;

async fn run(
    src: &str,
    backend: Arc<dyn Backend>,
    config: RunnerConfig,
) -> (RunOutcome, Vec<Event>, tempfile::TempDir) {
    let root = tempfile::tempdir().unwrap();
    let (outcome, events) = run_in(src, backend, config, root.path()).await;
    (outcome, events, root)
}

const WRITER: &str = r#"agent writer:
  model: opus
  prompt: "You write tersely."

let research = session "Find facts about tides"
let draft = session: writer
  prompt: "Draft a paragraph"
  context: research
"#;

#[tokio::test]
async fn answers_become_bindings_and_the_server_gets_the_prompt_context_and_key() {
    for api in BOTH {
        let srv = server(vec![
            api.text("Tides follow the moon."),
            api.text("The moon pulls the sea, twice a day."),
        ])
        .await;
        let (outcome, _, root) = run(WRITER, api.backend(&srv), RunnerConfig::default()).await;
        assert_eq!(
            outcome.status,
            RunStatus::Succeeded,
            "{api:?}: {:?}",
            outcome.error
        );
        assert_eq!(binding(&outcome, "research"), "Tides follow the moon.");
        assert_eq!(
            binding(&outcome, "draft"),
            "The moon pulls the sea, twice a day."
        );

        let reqs = srv.requests();
        assert_eq!(reqs.len(), 2, "{api:?}");
        for r in &reqs {
            assert_eq!((r.method.as_str(), r.path.as_str()), ("POST", api.path()));
            assert_eq!(api.key_sent(r).as_deref(), Some(KEY), "{api:?}");
        }
        let (system, lines) = api.conversation(&reqs[0]);
        assert_eq!(system, None);
        assert_eq!(lines, ["user: Find facts about tides"]);
        let (system, lines) = api.conversation(&reqs[1]);
        assert_eq!(system.as_deref(), Some("You write tersely."), "{api:?}");
        assert_eq!(
            lines,
            ["user: Draft a paragraph\n\n## Context: research\n\nTides follow the moon."]
        );
        match api {
            Api::Anthropic => {
                assert_eq!(reqs[0].header("anthropic-version"), Some("2023-06-01"));
                assert_eq!(reqs[0].body["model"], anthropic::DEFAULT_MODEL);
                assert_eq!(reqs[1].body["model"], "claude-opus-4-5");
                assert_eq!(reqs[1].body["max_tokens"], anthropic::MAX_TOKENS);
            }
            Api::OpenAi => {
                // No model configured, `opus` unmapped: the server's own.
                assert!(reqs[1].body.get("model").is_none(), "{}", reqs[1].body);
            }
        }
        assert_eq!(files_containing(root.path(), KEY), Vec::<String>::new());
    }
}

#[tokio::test]
async fn models_come_from_the_configuration() {
    let mut config = RunnerConfig::default();
    config.apply(
        &prose_ide::Config::from_toml(
            "[runner.openai]\nmodel = \"llama-8b\"\nmodels = { opus = \"llama-70b\" }\n[runner.anthropic]\nmodels = { opus = \"claude-opus-4-1\" }\n",
        )
        .unwrap()
        .runner,
        &Origin::Default,
        Path::new("/"),
    );
    for (api, bare, opus) in [
        (Api::OpenAi, json!("llama-8b"), json!("llama-70b")),
        (
            Api::Anthropic,
            json!(anthropic::DEFAULT_MODEL),
            json!("claude-opus-4-1"),
        ),
    ] {
        let srv = server(vec![api.text("ok")]).await;
        // The backend's own `model` setting is read from its table: build
        // it from the same configuration.
        let backend = match api {
            Api::OpenAi => {
                let mut table = config.backend_settings(prose_runner::backend::BackendKind::Openai);
                table.base_url = Some(Sourced::new(api.base_url(&srv), Origin::Default));
                Arc::new(
                    OpenAiBackend::new(HttpSettings::new(
                        &table,
                        openai::DEFAULT_BASE_URL,
                        openai::DEFAULT_KEY_ENV,
                    ))
                    .unwrap(),
                ) as Arc<dyn Backend>
            }
            Api::Anthropic => api.backend(&srv),
        };
        let (outcome, _, _root) = run(WRITER, backend, config.clone()).await;
        assert_eq!(
            outcome.status,
            RunStatus::Succeeded,
            "{api:?}: {:?}",
            outcome.error
        );
        let reqs = srv.requests();
        assert_eq!(reqs[0].body["model"], bare, "{api:?}");
        assert_eq!(reqs[1].body["model"], opus, "{api:?}");
    }
}

fn tools() -> Vec<ToolDefinition> {
    vec![
        ToolDefinition {
            name: "job_boolean_true".into(),
            description: "The condition holds.".into(),
            parameters: json!({"type": "object", "properties": {"reason": {"type": "string"}}, "required": ["reason"]}),
        },
        ToolDefinition {
            name: "job_boolean_false".into(),
            description: "The condition does not hold.".into(),
            parameters: json!({"type": "object", "properties": {"reason": {"type": "string"}}}),
        },
    ]
}

fn request(task: &str) -> prose_runner::backend::BackendRequest {
    prose_runner::backend::BackendRequest {
        run_id: "20260101-000000-abcdef".into(),
        session_id: "s1@1".into(),
        kind: prose_runner::backend::RequestKind::Session,
        agent: None,
        model: Default::default(),
        identity: Default::default(),
        prompt: task.into(),
        parts: prose_runner::backend::PromptParts {
            task: task.into(),
            ..Default::default()
        },
        choices: vec![],
        permissions: Default::default(),
        skills: vec![],
        binding: None,
        tools: vec![],
        tool_channel: None,
        job: None,
        timeout: Duration::from_secs(60),
        attempt: 1,
        working_dir: ".".into(),
        run_dir: ".".into(),
    }
}

#[tokio::test]
async fn tool_calls_are_declared_returned_and_answered_with_ok() {
    for api in BOTH {
        let srv = server(vec![
            api.tool_call(
                "call_1",
                "job_boolean_true",
                json!({"reason": "all tests pass"}),
            ),
            api.tool_call(
                "call_2",
                "job_boolean_false",
                json!({"reason": "second thoughts"}),
            ),
            api.text("Done."),
        ])
        .await;
        let mut req = request("Check the build");
        req.tools = tools();
        let resp = api
            .backend(&srv)
            .call(&req, &CancellationToken::new())
            .await
            .unwrap();
        assert_eq!(resp.text, "Done.");
        assert_eq!(
            resp.tool_calls,
            [
                ToolCall {
                    id: Some("call_1".into()),
                    name: "job_boolean_true".into(),
                    arguments: json!({"reason": "all tests pass"}),
                },
                ToolCall {
                    id: Some("call_2".into()),
                    name: "job_boolean_false".into(),
                    arguments: json!({"reason": "second thoughts"}),
                },
            ],
            "{api:?}"
        );
        let usage = resp.usage.unwrap();
        assert!(usage.input_tokens.unwrap() > 0 && usage.output_tokens.unwrap() > 0);
        assert_eq!(resp.session_handle, None, "a one-off request keeps nothing");

        let reqs = srv.requests();
        assert_eq!(reqs.len(), 3, "{api:?}");
        for r in &reqs {
            assert_eq!(r.tool_names(), ["job_boolean_true", "job_boolean_false"]);
        }
        match api {
            Api::Anthropic => {
                assert_eq!(
                    reqs[0].body["tools"][0]["input_schema"]["required"],
                    json!(["reason"])
                );
                let last = &reqs[2].body["messages"];
                assert_eq!(last[1]["content"][0]["type"], "tool_use");
                assert_eq!(
                    last[2],
                    json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "call_1", "content": "ok"}]})
                );
                assert_eq!(last[4]["content"][0]["tool_use_id"], "call_2");
            }
            Api::OpenAi => {
                assert_eq!(reqs[0].body["tools"][0]["type"], "function");
                let last = &reqs[2].body["messages"];
                assert_eq!(last[1]["tool_calls"][0]["id"], "call_1");
                assert_eq!(
                    last[2],
                    json!({"role": "tool", "tool_call_id": "call_1", "content": "ok"})
                );
                assert_eq!(last[4]["tool_call_id"], "call_2");
            }
        }
    }
}

#[tokio::test]
async fn a_model_that_never_stops_calling_tools_fails() {
    let api = Api::OpenAi;
    let srv = server(vec![api.tool_call("c", "job_boolean_true", json!({}))]).await;
    let mut req = request("Loop");
    req.tools = tools();
    let e = api
        .backend(&srv)
        .call(&req, &CancellationToken::new())
        .await
        .unwrap_err();
    assert_eq!(e.kind, BackendErrorKind::Failed);
    assert!(
        e.message.contains("still calling tools after 16 rounds"),
        "{e}"
    );
}

#[tokio::test]
async fn an_http_error_fails_the_session_and_retry_and_catch_apply() {
    for api in BOTH {
        // Retry: a 500, then an answer.
        let srv = server(vec![
            fake_api::error(500, "model exploded"),
            api.text("recovered"),
        ])
        .await;
        let src = "let x = session \"Flaky\"\n  retry: 1\n";
        let (outcome, events, _root) = run(src, api.backend(&srv), RunnerConfig::default()).await;
        assert_eq!(
            outcome.status,
            RunStatus::Succeeded,
            "{api:?}: {:?} {:?}",
            outcome.error,
            failures(&events)
        );
        assert_eq!(binding(&outcome, "x"), "recovered");
        let name = match api {
            Api::Anthropic => "the Anthropic API",
            Api::OpenAi => "the OpenAI-compatible API",
        };
        assert_eq!(
            failures(&events),
            [(format!("{name} answered HTTP 500: model exploded"), 1, true)]
        );

        // Catch: it keeps failing.
        let srv = server(vec![
            fake_api::error(401, &format!("invalid key {KEY}")),
            api.text("handled"),
        ])
        .await;
        let src =
            "try:\n  session \"Doomed\"\ncatch as err:\n  let handled = session \"Handle {err}\"\n";
        let (outcome, _, root) = run(src, api.backend(&srv), RunnerConfig::default()).await;
        assert_eq!(outcome.status, RunStatus::Succeeded, "{api:?}");
        let reqs = srv.requests();
        let (_, lines) = api.conversation(&reqs[1]);
        assert!(
            lines[0].contains(&format!("{name} answered HTTP 401: invalid key [redacted]")),
            "{lines:?}"
        );
        assert_eq!(files_containing(root.path(), KEY), Vec::<String>::new());
    }
}

#[tokio::test]
async fn a_cut_answer_and_a_garbled_one_fail_the_session() {
    for api in BOTH {
        for (reply, expected) in [
            (
                Reply::Cut("{\"id\": \"msg_1\", \"content\": [".into()),
                "then the answer broke off",
            ),
            (
                Reply::Json(200, json!({"unexpected": true})),
                "answered in an unexpected shape",
            ),
        ] {
            let srv = server(vec![reply]).await;
            let (outcome, events, _root) = run(
                "session \"Hello\"\n",
                api.backend(&srv),
                RunnerConfig::default(),
            )
            .await;
            assert_eq!(outcome.status, RunStatus::Failed, "{api:?}");
            let f = failures(&events);
            assert_eq!(f.len(), 1);
            assert!(f[0].0.contains(expected), "{api:?}: {}", f[0].0);
        }
    }
}

#[tokio::test]
async fn rate_limits_are_retried_as_the_server_asks() {
    for api in BOTH {
        let busy = Reply::JsonWith(
            429,
            json!({"error": {"message": "slow down"}}),
            vec![("retry-after", "0".into())],
        );
        let srv = server(vec![busy.clone(), busy, api.text("finally")]).await;
        let (outcome, events, _root) = run(
            "let x = session \"Hello\"\n",
            api.backend(&srv),
            RunnerConfig::default(),
        )
        .await;
        assert_eq!(outcome.status, RunStatus::Succeeded, "{api:?}");
        assert_eq!(binding(&outcome, "x"), "finally");
        assert_eq!(srv.requests().len(), 3);
        assert_eq!(failures(&events), []);

        // Three times busy is a failed session, with the server's message.
        let srv = server(vec![Reply::JsonWith(
            529,
            json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
            vec![("retry-after", "0".into())],
        )])
        .await;
        let (outcome, events, _root) = run(
            "session \"Hello\"\n",
            api.backend(&srv),
            RunnerConfig::default(),
        )
        .await;
        assert_eq!(outcome.status, RunStatus::Failed);
        assert_eq!(srv.requests().len(), 3);
        assert!(
            failures(&events)[0]
                .0
                .ends_with("answered HTTP 529: Overloaded")
        );
    }
}

#[tokio::test]
async fn the_anthropic_backend_lowers_max_tokens_to_the_models_limit() {
    let srv = server(vec![
        fake_api::error(
            400,
            "max_tokens: 16384 > 4096, which is the maximum allowed number of output tokens for claude-3-haiku-20240307",
        ),
        fake_api::anthropic_text("short"),
    ])
    .await;
    let resp = Api::Anthropic
        .backend(&srv)
        .call(&request("Hi"), &CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(resp.text, "short");
    let reqs = srv.requests();
    assert_eq!(reqs[0].body["max_tokens"], 16384);
    assert_eq!(reqs[1].body["max_tokens"], 4096);
}

#[tokio::test]
async fn a_missing_key_stops_the_run_before_it_starts() {
    for api in BOTH {
        let srv = server(vec![api.text("never")]).await;
        let root = tempfile::tempdir().unwrap();
        let o = common::options(
            "session \"Hi\"\n",
            root.path(),
            api.backend_with(&srv, None),
        );
        let Err(StartError::Usage(message)) = common::run_options(o).await else {
            panic!("{api:?}: the run started");
        };
        assert!(
            message.contains(&format!("the API key variable `{KEY_VAR}` is not set")),
            "{message}"
        );
        assert!(srv.requests().is_empty());
    }
}

#[tokio::test]
async fn no_answer_in_time_is_a_timeout_and_cancel_stops_the_request() {
    for api in BOTH {
        let srv = server(vec![Reply::Hang]).await;
        let backend = api.backend(&srv);
        let mut req = request("Think forever");
        req.timeout = Duration::from_millis(300);
        let e = backend
            .call(&req, &CancellationToken::new())
            .await
            .unwrap_err();
        assert_eq!(e.kind, BackendErrorKind::Timeout, "{api:?}: {e}");

        req.timeout = Duration::from_secs(600);
        let cancel = CancellationToken::new();
        let c = cancel.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(200)).await;
            c.cancel();
        });
        let started = Instant::now();
        let e = backend.call(&req, &cancel).await.unwrap_err();
        assert_eq!(e.kind, BackendErrorKind::Cancelled);
        assert!(started.elapsed() < Duration::from_secs(60));
    }
}

#[tokio::test]
async fn a_session_timeout_property_bounds_the_request() {
    let srv = server(vec![Reply::Hang]).await;
    let (outcome, events, _root) = run(
        "session \"Slow\"\n  timeout: 1\n",
        Api::OpenAi.backend(&srv),
        RunnerConfig::default(),
    )
    .await;
    assert_eq!(outcome.status, RunStatus::Failed);
    assert!(
        failures(&events)[0].0.contains("did not answer in time"),
        "{:?}",
        failures(&events)
    );
}

const CAPTAIN: &str = r#"agent captain:
  persist: project
  prompt: "You lead the crew."

session: captain
  prompt: "Plan the voyage"
resume: captain
  prompt: "Report progress"
"#;

#[tokio::test]
async fn persistent_agents_resume_their_conversation_across_runs() {
    for api in BOTH {
        let srv = server(vec![
            api.text("Plan: sail north."),
            api.text("Progress: halfway."),
            api.text("Arrived."),
        ])
        .await;
        let root = tempfile::tempdir().unwrap();
        let (outcome, _) = run_in(
            CAPTAIN,
            api.backend(&srv),
            RunnerConfig::default(),
            root.path(),
        )
        .await;
        assert_eq!(
            outcome.status,
            RunStatus::Succeeded,
            "{api:?}: {:?}",
            outcome.error
        );
        let reqs = srv.requests();
        let (system, lines) = api.conversation(&reqs[1]);
        assert_eq!(system.as_deref(), Some("You lead the crew."));
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert_eq!(lines[0], "user: Plan the voyage");
        assert_eq!(lines[1], "assistant: Plan: sail north.");
        assert!(
            lines[2].starts_with("user: Report progress\n\n## Memory\n\n"),
            "{}",
            lines[2]
        );

        // A later run of another program resumes the same conversation.
        let (outcome, _) = run_in(
            "agent captain:\n  persist: project\n  prompt: \"You lead the crew.\"\n\nresume: captain\n  prompt: \"Where are we?\"\n",
            api.backend(&srv),
            RunnerConfig::default(),
            root.path(),
        )
        .await;
        assert_eq!(outcome.status, RunStatus::Succeeded);
        let (_, lines) = api.conversation(&srv.requests()[2]);
        assert_eq!(lines.len(), 5, "{lines:?}");
        assert_eq!(lines[3], "assistant: Progress: halfway.");
        assert!(lines[4].starts_with("user: Where are we?"));
        assert_eq!(files_containing(root.path(), KEY), Vec::<String>::new());
    }
}

#[tokio::test]
async fn a_conversation_of_another_backend_is_not_resumed() {
    let srv = server(vec![
        Api::OpenAi.text("Plan."),
        Api::Anthropic.text("Fresh start."),
    ])
    .await;
    let root = tempfile::tempdir().unwrap();
    let captain = "agent captain:\n  persist: project\n  prompt: \"Lead.\"\n\n";
    for (api, statement) in [
        (Api::OpenAi, "session: captain\n  prompt: \"Plan\"\n"),
        (Api::Anthropic, "resume: captain\n  prompt: \"Go on\"\n"),
    ] {
        let src = format!("{captain}{statement}");
        let (outcome, _) = run_in(
            &src,
            api.backend(&srv),
            RunnerConfig::default(),
            root.path(),
        )
        .await;
        assert_eq!(outcome.status, RunStatus::Succeeded, "{api:?}");
        let handle =
            std::fs::read_to_string(root.path().join(".prose/agents/captain/session-handle"))
                .unwrap();
        let prefix = if api == Api::OpenAi {
            "openai:{"
        } else {
            "anthropic:{"
        };
        assert!(handle.starts_with(prefix), "{handle}");
    }
    let (_, lines) = Api::Anthropic.conversation(&srv.requests()[1]);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("user: Go on\n\n## Memory"),
        "{lines:?}"
    );
}

#[tokio::test]
async fn a_key_echoed_in_an_answer_is_redacted() {
    let srv = server(vec![Api::Anthropic.text(&format!("my key is {KEY}!"))]).await;
    let (outcome, events, root) = run(
        "let x = session \"Leak\"\n",
        Api::Anthropic.backend(&srv),
        RunnerConfig::default(),
    )
    .await;
    assert_eq!(binding(&outcome, "x"), "my key is [redacted]!");
    assert!(
        events
            .iter()
            .all(|e| !e.to_json().to_string().contains(KEY))
    );
    assert_eq!(files_containing(root.path(), KEY), Vec::<String>::new());
}
