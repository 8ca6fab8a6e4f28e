//! Job tasks on the `anthropic` and `openai` backends, against a fake API
//! that answers with tool-use blocks: the job tools are declared natively
//! in every request, the model's calls come back as the answer's tool
//! calls (each answered `ok`) and set the runtime variables, the driving
//! and task sessions get their models, and the task session's retry goes
//! on in the same conversation (its earlier messages are sent again).

mod common;
mod fake_api;
mod http_api;
mod task_run;

use http_api::{Api, BOTH, server};
use prose_runner::{events::RunStatus, jobs::TaskOutcome};
use serde_json::{Value, json};
use task_run::{options, run_options};

const ENTRY: &str = r#"{
  "models": {"driving": "drive-model", "planning": "plan-model", "coding": "code-model", "reviewers": []},
  "promptVariables": {"ask": ["Answer with job_boolean_true or job_boolean_false."]},
  "grid": [],
  "tasks": {
    "plan": {
      "model": "planning",
      "prompt": ["Write the plan and report it."],
      "requireUserInput": false,
      "criteria": {
        "toolExecuted": ["job_prepare_document"],
        "runConditionInSameSession": false,
        "condition": ["$ask", "Is $reported-document complete?"],
        "failureAction": ["RetryWithUserPrompt", 1, ["Go on: $reported-false-reason"]]
      }
    }
  }
}"#;

/// The text of every message of a request, in order (tool results as
/// `tool_result: ...`).
fn texts(r: &fake_api::Recorded) -> Vec<String> {
    let mut out = Vec::new();
    for m in r.body["messages"].as_array().unwrap() {
        match &m["content"] {
            Value::String(s) => out.push(s.clone()),
            Value::Array(parts) => {
                for p in parts {
                    if let Some(t) = p["text"].as_str() {
                        out.push(t.to_string());
                    } else if p["type"] == "tool_result" {
                        out.push(format!("tool_result: {}", p["content"]));
                    }
                }
            }
            _ => {}
        }
        if m["role"] == "tool" {
            out.push(format!("tool_result: {}", m["content"]));
        }
    }
    out
}

#[tokio::test]
async fn the_http_backends_declare_the_job_tools_and_return_the_models_calls() {
    for api in BOTH {
        let srv = server(vec![
            // Attempt 1: the task session reports its document.
            api.tool_call("t1", "job_prepare_document", json!({"argument": "plan.md"})),
            api.text("I wrote plan.md."),
            // The driving session: not complete.
            api.tool_call(
                "t2",
                "job_boolean_false",
                json!({"argument": "the last step is missing"}),
            ),
            api.text("Not complete."),
            // Attempt 2, in the same task session.
            api.tool_call("t3", "job_prepare_document", json!({"argument": "plan.md"})),
            api.text("Added the last step."),
            // The driving session: complete.
            api.tool_call("t4", "job_boolean_true", json!({"argument": "four steps"})),
            api.text("Complete."),
        ])
        .await;
        let root = tempfile::tempdir().unwrap();
        let o = options(ENTRY, "plan", root.path(), api.backend(&srv));
        let (outcome, _events) = run_options(o, None).await.unwrap();
        assert_eq!(
            outcome.status,
            RunStatus::Succeeded,
            "{api:?}: {:?}",
            outcome.error
        );
        let var = |name: &str| {
            outcome
                .outputs
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.to_text())
        };
        assert_eq!(var("reported-document").as_deref(), Some("plan.md"));
        assert_eq!(var("reported-true-reason").as_deref(), Some("four steps"));

        let reqs = srv.requests();
        assert_eq!(reqs.len(), 8, "{api:?}");
        for r in &reqs {
            assert_eq!(
                r.tool_names(),
                prose_jobs::AVAILABLE_TOOLS,
                "{api:?}: every request declares the job tools"
            );
        }
        // Models: the task session's, the driving session's.
        let models: Vec<&Value> = reqs.iter().map(|r| &r.body["model"]).collect();
        assert_eq!(
            models,
            [
                "plan-model",
                "plan-model",
                "drive-model",
                "drive-model",
                "plan-model",
                "plan-model",
                "drive-model",
                "drive-model"
            ],
            "{api:?}"
        );
        // Each call was answered `ok` before the model finished.
        assert!(
            texts(&reqs[1]).iter().any(|t| t.contains("ok")),
            "{api:?}: {:?}",
            texts(&reqs[1])
        );
        // The condition was expanded with the document the task reported.
        assert!(
            texts(&reqs[2])[0].ends_with("Is plan.md complete?"),
            "{api:?}: {:?}",
            texts(&reqs[2])
        );
        // The retry goes on in the task session: its first message is the
        // task's prompt, its last the retry prompt with the false reason.
        let retry = texts(&reqs[4]);
        assert_eq!(retry[0], "Write the plan and report it.", "{api:?}");
        assert!(
            retry.contains(&"I wrote plan.md.".to_string()),
            "{api:?}: {retry:?}"
        );
        assert_eq!(
            retry.last().map(String::as_str),
            Some("Go on: the last step is missing"),
            "{api:?}: {retry:?}"
        );
    }
}

#[tokio::test]
async fn a_model_that_forgets_the_tool_fails_the_criteria_after_the_retries() {
    let api = Api::Anthropic;
    let srv = server(vec![api.text("I wrote it but reported nothing.")]).await;
    let root = tempfile::tempdir().unwrap();
    let o = options(ENTRY, "plan", root.path(), api.backend(&srv));
    let (outcome, events) = run_options(o, None).await.unwrap();
    assert_eq!(outcome.status, RunStatus::Failed);
    assert!(events.iter().any(|e| matches!(&e.kind,
        prose_runner::events::EventKind::Job(prose_runner::jobs::JobEvent::TaskFinished { outcome, .. })
            if *outcome == TaskOutcome::CriteriaUnmet)));
    // Two attempts, no condition asked (toolExecuted failed first); the
    // retry prompt quotes why, as job_boolean_false would have.
    let reqs = srv.requests();
    assert_eq!(reqs.len(), 2);
    assert_eq!(
        texts(&reqs[1]).last().map(String::as_str),
        Some(
            "Go on: the task session's last round did not call job_prepare_document\n\n(The previous attempt did not call job_prepare_document; call it before you finish.)"
        )
    );
    assert_eq!(
        outcome.error.as_deref(),
        Some(
            "criteria: toolExecuted: the task session's last round did not call job_prepare_document (after 2 attempts)"
        )
    );
}
