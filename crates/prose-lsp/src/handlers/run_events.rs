//! What a run started from the editor sends to the client while it goes
//! on (docs/lsp.md, "Running programs"): every event as a
//! `prose/runEvent` notification, in order; `$/progress` on the token
//! `prose-run/<runId>` when the client supports it; program inputs as
//! `prose/inputRequest` requests.
//!
//! The runner calls its event sink on the run's own thread; the sink here
//! is a channel, and one task per run forwards the events to the client
//! through the async client handle, so a run never waits for the client
//! and never touches the server's state lock. The progress report has a
//! task of its own: the client's answer to `window/workDoneProgress/create`
//! never holds up the events.

use std::sync::Arc;

use futures::future::BoxFuture;
use ls_types::{
    NumberOrString, ProgressParams, ProgressParamsValue, WorkDoneProgress, WorkDoneProgressBegin,
    WorkDoneProgressEnd, WorkDoneProgressReport,
};
use prose_runner::{
    events::{Event, EventKind, RunStatus},
    input::{InputProvider, InputRequest},
    jobs::JobEvent,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use tokio::sync::{mpsc, watch};
use tower_lsp_server::Client;

use crate::server::Inner;

/// `prose/runEvent`: one event of a run, the object of docs/runner.md.
pub enum RunEventNotification {}

impl ls_types::notification::Notification for RunEventNotification {
    type Params = Value;
    const METHOD: &'static str = "prose/runEvent";
}

/// `prose/inputRequest` params.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InputRequestParams {
    pub run_id: String,
    pub name: String,
    pub description: String,
}

/// `prose/inputRequest` answer (`null`: declined).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct InputAnswer {
    pub value: String,
}

/// `prose/inputRequest`: a program input, asked of the client.
pub enum InputRequestMethod {}

impl ls_types::request::Request for InputRequestMethod {
    type Params = InputRequestParams;
    type Result = Option<InputAnswer>;
    const METHOD: &'static str = "prose/inputRequest";
}

/// The progress token of a run.
pub fn progress_token(run_id: &str) -> String {
    format!("prose-run/{run_id}")
}

/// Asks the client for inputs (`prose/inputRequest`). The runner polls the
/// answer on its own runtime; the request goes out on the server's.
pub struct EditorInput {
    pub client: Client,
    pub runtime: tokio::runtime::Handle,
}

impl InputProvider for EditorInput {
    fn ask(&self, request: InputRequest) -> BoxFuture<'static, Option<String>> {
        let client = self.client.clone();
        let asked = self.runtime.spawn(async move {
            client
                .send_request::<InputRequestMethod>(InputRequestParams {
                    run_id: request.run_id,
                    name: request.name,
                    description: request.description,
                })
                .await
        });
        Box::pin(async move {
            match asked.await {
                Ok(Ok(Some(answer))) => Some(answer.value),
                // Declined, failed or unanswerable: the run is cancelled.
                _ => None,
            }
        })
    }
}

/// Forwards a run's events to the client until the run ends (the runner
/// drops the sending side), then marks it done and forgets it.
pub async fn forward(
    inner: Arc<Inner>,
    run_id: String,
    title: String,
    mut events: mpsc::UnboundedReceiver<Event>,
    progress: bool,
    done: watch::Sender<bool>,
) {
    let updates = progress.then(|| {
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(report_progress(inner.clone(), run_id.clone(), title, rx));
        tx
    });
    while let Some(event) = events.recv().await {
        if matches!(event.kind, EventKind::RunFinished { .. }) {
            // Its state is written: from now on it is not running (a
            // cancel that follows `run_finished` finds nothing to stop).
            inner.runs.finished(&run_id);
        }
        inner
            .client
            .send_notification::<RunEventNotification>(event.to_json())
            .await;
        if let Some(updates) = &updates
            && let Some(update) = progress_update(&event)
        {
            let _ = updates.send(update);
        }
    }
    inner.runs.finished(&run_id);
    let _ = done.send(true);
}

/// What a run's progress shows next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProgressUpdate {
    Report(String),
    End(String),
}

/// The progress update an event makes, if any: a report per finished
/// session (`s2@5 finished: research`) and per step of a job task
/// (`✓ availability condition: ...`, `s3@78 driving called
/// job_boolean_false: ...`, `↻ RetryWithUserPrompt: attempt 2 of 4`), the
/// end with the run's status.
pub fn progress_update(event: &Event) -> Option<ProgressUpdate> {
    match &event.kind {
        EventKind::SessionFinished { binding, .. } | EventKind::SessionReused { binding, .. } => {
            let session = event.session_id.as_deref().unwrap_or("a session");
            let verb = if matches!(event.kind, EventKind::SessionReused { .. }) {
                "reused"
            } else {
                "finished"
            };
            Some(ProgressUpdate::Report(if binding.is_empty() {
                format!("{session} {verb}")
            } else {
                format!("{session} {verb}: {binding}")
            }))
        }
        // A task's availability and criteria checks, its retries and its
        // tools, as `prose jobs run` shows them.
        EventKind::Job(job) => match job {
            JobEvent::TaskStarted { .. } | JobEvent::TaskFinished { .. } => None,
            _ => Some(ProgressUpdate::Report(
                prose_runner::jobs::describe(event, job).trim().to_string(),
            )),
        },
        EventKind::RunFinished { status, error, .. } => {
            Some(ProgressUpdate::End(match (status, error) {
                (RunStatus::Failed, Some(e)) => format!("failed: {e}"),
                (status, _) => status.as_str().to_string(),
            }))
        }
        _ => None,
    }
}

async fn send_progress(client: &Client, token: &str, value: WorkDoneProgress) {
    client
        .send_notification::<ls_types::notification::Progress>(ProgressParams {
            token: NumberOrString::String(token.to_string()),
            value: ProgressParamsValue::WorkDone(value),
        })
        .await;
}

/// Creates the run's progress (`window/workDoneProgress/create`), begins
/// it (`Running hello.prose`, cancellable), reports, ends. A client that
/// refuses the token gets no progress.
async fn report_progress(
    inner: Arc<Inner>,
    run_id: String,
    title: String,
    mut updates: mpsc::UnboundedReceiver<ProgressUpdate>,
) {
    let token = progress_token(&run_id);
    inner.runs.set_token(&run_id, &token);
    let created = inner
        .client
        .create_work_done_progress(NumberOrString::String(token.clone()))
        .await;
    if created.is_err() {
        while updates.recv().await.is_some() {}
        return;
    }
    let begin = WorkDoneProgressBegin {
        title,
        cancellable: Some(true),
        message: Some(format!("run {run_id}")),
        percentage: None,
    };
    send_progress(&inner.client, &token, WorkDoneProgress::Begin(begin)).await;
    let mut ended = false;
    while let Some(update) = updates.recv().await {
        match update {
            ProgressUpdate::Report(message) if !ended => {
                let report = WorkDoneProgressReport {
                    cancellable: Some(true),
                    message: Some(message),
                    percentage: None,
                };
                send_progress(&inner.client, &token, WorkDoneProgress::Report(report)).await;
            }
            ProgressUpdate::End(message) if !ended => {
                ended = true;
                let end = WorkDoneProgressEnd {
                    message: Some(message),
                };
                send_progress(&inner.client, &token, WorkDoneProgress::End(end)).await;
            }
            _ => {}
        }
    }
    if !ended {
        // The run stopped without its last event (the runner failed).
        let end = WorkDoneProgressEnd {
            message: Some("stopped".into()),
        };
        send_progress(&inner.client, &token, WorkDoneProgress::End(end)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use prose_runner::backend::RequestKind;

    fn event(session: Option<&str>, kind: EventKind) -> Event {
        Event {
            run_id: "r".into(),
            seq: 0,
            time: String::new(),
            session_id: session.map(str::to_string),
            branch: None,
            kind,
        }
    }

    #[test]
    fn finished_sessions_report_and_the_end_says_how_it_ended() {
        let finished = |binding: &str| {
            event(
                Some("s2@5"),
                EventKind::SessionFinished {
                    kind: RequestKind::Session,
                    duration_ms: 1,
                    output_excerpt: String::new(),
                    binding: binding.into(),
                },
            )
        };
        assert_eq!(
            progress_update(&finished("research")),
            Some(ProgressUpdate::Report("s2@5 finished: research".into()))
        );
        assert_eq!(
            progress_update(&finished("")),
            Some(ProgressUpdate::Report("s2@5 finished".into()))
        );
        let end = |status, error: Option<&str>| {
            progress_update(&event(
                None,
                EventKind::RunFinished {
                    status,
                    duration_ms: 1,
                    outputs: Default::default(),
                    error: error.map(str::to_string),
                },
            ))
        };
        assert_eq!(
            end(RunStatus::Failed, Some("line 3: boom")),
            Some(ProgressUpdate::End("failed: line 3: boom".into()))
        );
        assert_eq!(
            end(RunStatus::Cancelled, Some("Ctrl-C")),
            Some(ProgressUpdate::End("cancelled".into()))
        );
        assert_eq!(
            progress_update(&event(
                None,
                EventKind::Warning {
                    message: "w".into()
                }
            )),
            None
        );
    }

    #[test]
    fn the_steps_of_a_job_task_report_and_its_start_and_end_do_not() {
        let job = |session: Option<&str>, j: JobEvent| {
            progress_update(&event(session, EventKind::Job(j)))
        };
        assert_eq!(
            job(
                Some("s3@78"),
                JobEvent::ToolCalled {
                    name: "job_boolean_false".into(),
                    argument: "design.md has only its headings\nmore".into(),
                    role: prose_runner::backend::JobRole::Driving,
                }
            ),
            Some(ProgressUpdate::Report(
                "s3@78 driving called job_boolean_false: design.md has only its headings".into()
            ))
        );
        assert_eq!(
            job(
                None,
                JobEvent::AvailabilityChecked {
                    check: "condition",
                    result: true,
                    reason: "the story is there".into(),
                }
            ),
            Some(ProgressUpdate::Report(
                "✓ availability condition: the story is there".into()
            ))
        );
        assert_eq!(
            job(
                None,
                JobEvent::Retry {
                    action: "RetryWithNewSession",
                    attempt: 2,
                    max_attempts: 3,
                    reason: "unmet".into(),
                }
            ),
            Some(ProgressUpdate::Report(
                "↻ RetryWithNewSession: attempt 2 of 3".into()
            ))
        );
        assert_eq!(
            job(
                None,
                JobEvent::TaskFinished {
                    task: "t".into(),
                    outcome: prose_runner::jobs::TaskOutcome::Succeeded,
                    reason: "done".into(),
                    variables: Default::default(),
                }
            ),
            None
        );
    }
}
