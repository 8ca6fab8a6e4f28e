//! Sessions and rounds of a task run.
//!
//! A **round** is one prompt sent to a session and everything the agent
//! does until it answers: one backend request (an agent CLI's whole run,
//! every tool call included; an HTTP backend's request with all its rounds
//! of tool calls). Before it is sent, the prompt is expanded with the
//! runtime variables' current values (`expandPromptDynamic`); when it
//! answers, its tool calls are applied to the variables in order and
//! reported (`tool_called`).
//!
//! A **session** is a conversation: the task session goes on from round
//! to round (the next round resumes it: [`SessionMode::Resume`] with the
//! conversation's key and the backend's last handle). Backends that keep
//! no conversation (`command`, `mock`) get the earlier rounds in the
//! prompt instead, as the context `conversation so far`. A double-model
//! driving session is one-off: each condition is a new session.
//!
//! Every finished round is committed to the journal (its answer, its tool
//! calls, the session handle) under its place in the run (`job:r{n}`), so a
//! resumed run answers it from there, reapplies its tool calls, and goes
//! on where it stopped.

use std::{path::PathBuf, sync::Arc};

use crate::{
    backend::{
        Backend, BackendErrorKind, BackendKind, BackendRequest, CancellationToken, ContextItem,
        JobRequest, JobRole, ModelChoice, Permissions, PromptParts, RequestKind, SessionIdentity,
        SessionMode, ToolCall, ToolChannel, ToolDefinition, tools::mcp::ServerArgs,
    },
    config::RunnerConfig,
    events::{EventBus, EventKind, excerpt, now_rfc3339},
    state::{JournalEntry, RunStore},
};

use super::{
    JobEvent, TaskOutcome,
    plan::PromptStep,
    state::TaskState,
    tools::{Applied, Variables},
};

/// A conversation with the backend.
#[derive(Debug, Clone, Default)]
pub(crate) struct Conversation {
    /// A stable name across its rounds; `None` for a one-off session.
    pub key: Option<String>,
    /// The backend's handle after the last round.
    pub handle: Option<String>,
    /// The model id.
    pub model: Option<String>,
    /// The earlier rounds: (prompt, answer).
    pub rounds: Vec<(String, String)>,
}

impl Conversation {
    pub fn new(key: Option<String>, model: Option<String>) -> Self {
        Conversation {
            key,
            model,
            ..Conversation::default()
        }
    }

    fn identity(&self) -> SessionIdentity {
        match &self.key {
            None => SessionIdentity::default(),
            Some(k) => SessionIdentity {
                mode: if self.rounds.is_empty() {
                    SessionMode::New
                } else {
                    SessionMode::Resume
                },
                key: Some(k.clone()),
                handle: self.handle.clone(),
            },
        }
    }

    fn record(&mut self, prompt: &str, answer: &str, handle: Option<String>) {
        self.rounds.push((prompt.to_string(), answer.to_string()));
        if handle.is_some() {
            self.handle = handle;
        }
    }

    /// The earlier rounds, for a backend that does not keep them.
    fn transcript(&self) -> String {
        let mut s = String::new();
        for (i, (prompt, answer)) in self.rounds.iter().enumerate() {
            if !s.is_empty() {
                s.push_str("\n\n");
            }
            s.push_str(&format!(
                "### Prompt {n}\n\n{}\n\n### Answer {n}\n\n{}",
                prompt.trim_end(),
                answer.trim_end(),
                n = i + 1
            ));
        }
        s
    }
}

/// A round's answer.
#[derive(Debug, Clone)]
pub(crate) struct Round {
    pub calls: Vec<ToolCall>,
}

/// Why a task stops before it ends by itself.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Stop {
    Cancelled,
    /// The task ends with this outcome, for this reason.
    End(TaskOutcome, String),
}

/// Everything a task run shares.
pub(crate) struct TaskRun {
    pub backend: Arc<dyn Backend>,
    pub backend_kind: Option<BackendKind>,
    pub config: RunnerConfig,
    pub events: EventBus,
    pub store: RunStore,
    pub cancel: CancellationToken,
    /// The workspace root, where sessions work.
    pub root: PathBuf,
    pub task: String,
    pub tools: Vec<ToolDefinition>,
    /// The tool definitions, written for the MCP server.
    pub tools_file: PathBuf,
    /// The command that starts the MCP server (`prose jobs mcp`).
    pub tool_server: Option<Vec<String>>,
    pub vars: Variables,
    /// Rounds so far (made or replayed): the next one's journal key is
    /// `job:r{requests + 1}`.
    pub requests: u64,
    /// The last session number used.
    pub sessions: u64,
    pub state: TaskState,
}

impl TaskRun {
    pub fn emit(&self, session: Option<&str>, kind: EventKind) {
        self.events.emit(session, None, kind);
    }

    pub fn emit_job(&self, session: Option<&str>, event: JobEvent) {
        self.emit(session, EventKind::Job(event));
    }

    pub fn warn(&self, message: String) {
        self.emit(None, EventKind::Warning { message });
    }

    /// Sends `step` (dynamically expanded, then `note` appended) to the
    /// session `conv` as `role`; applies and reports its tool calls.
    pub async fn round(
        &mut self,
        conv: &mut Conversation,
        role: JobRole,
        step: &PromptStep,
        note: Option<&str>,
    ) -> Result<Round, Stop> {
        if self.cancel.is_cancelled() {
            return Err(Stop::Cancelled);
        }
        let mut text = prose_jobs::expand_prompt_dynamic(
            &step.code_path,
            std::slice::from_ref(&step.text),
            &self.vars.values(),
        )
        .map_err(|e| Stop::End(TaskOutcome::Error, e.to_string()))?;
        if let Some(n) = note {
            text.push_str(n);
        }
        self.requests += 1;
        let key = format!("job:r{}", self.requests);
        if let Some(entry) = self
            .store
            .journal
            .get(&key)
            .filter(|e| e.kind == RequestKind::Session.as_str() && e.task == text)
        {
            self.emit(
                Some(&entry.id),
                EventKind::SessionReused {
                    kind: RequestKind::Session,
                    binding: String::new(),
                    output_excerpt: excerpt(&entry.output),
                },
            );
            conv.record(&text, &entry.output, entry.session_handle.clone());
            self.state
                .round(&entry.id, role, &text, Some(&entry.output));
            self.apply_calls(&entry.id, role, &entry.tool_calls);
            return Ok(Round {
                calls: entry.tool_calls,
            });
        }

        self.sessions += 1;
        let id = format!("s{}@{}", self.sessions, step.line);
        let request = self.request(conv, role, &id, &text);
        self.emit(
            Some(&id),
            EventKind::SessionStarted {
                kind: RequestKind::Session,
                agent: String::new(),
                model: conv.model.clone().unwrap_or_default(),
                binding: String::new(),
                line: step.line,
                prompt_excerpt: excerpt(&text),
                role: role.as_str().to_string(),
                step: step.step.clone(),
            },
        );
        self.state.round(&id, role, &text, None);
        self.state.write(&self.store, &self.vars);
        let started = std::time::Instant::now();
        let result =
            crate::backend::call_guarded(self.backend.as_ref(), &request, &self.cancel).await;
        let duration_ms = started.elapsed().as_millis() as u64;
        let response = match result {
            Ok(r) => r,
            Err(e) => {
                let cancelled = e.kind == BackendErrorKind::Cancelled || self.cancel.is_cancelled();
                let error = if cancelled {
                    "cancelled".to_string()
                } else {
                    e.message.clone()
                };
                self.emit(
                    Some(&id),
                    EventKind::SessionFailed {
                        kind: RequestKind::Session,
                        duration_ms,
                        error,
                        attempt: 1,
                        will_retry: false,
                    },
                );
                return Err(if cancelled {
                    Stop::Cancelled
                } else {
                    Stop::End(
                        TaskOutcome::SessionFailed,
                        format!("session {id} failed: {}", e.message),
                    )
                });
            }
        };
        let answer = response.text.trim().to_string();
        let entry = JournalEntry {
            key,
            id: id.clone(),
            kind: RequestKind::Session.as_str().to_string(),
            agent: None,
            binding: None,
            task: text.clone(),
            output: answer.clone(),
            memory: None,
            session_handle: response.session_handle.clone(),
            time: now_rfc3339(),
            tool_calls: response.tool_calls.clone(),
        };
        if let Err(e) = self.store.journal.put(entry) {
            return Err(Stop::End(
                TaskOutcome::Error,
                format!("cannot record session {id}: {e}"),
            ));
        }
        self.emit(
            Some(&id),
            EventKind::SessionFinished {
                kind: RequestKind::Session,
                duration_ms,
                output_excerpt: excerpt(&answer),
                binding: String::new(),
            },
        );
        conv.record(&text, &answer, response.session_handle);
        self.state.round(&id, role, &text, Some(&answer));
        self.apply_calls(&id, role, &response.tool_calls);
        Ok(Round {
            calls: response.tool_calls,
        })
    }

    /// The backend request of one round.
    fn request(&self, conv: &Conversation, role: JobRole, id: &str, text: &str) -> BackendRequest {
        let mut parts = PromptParts {
            task: text.to_string(),
            ..PromptParts::default()
        };
        if conv.key.is_some() && !conv.rounds.is_empty() && !self.backend.keeps_conversations() {
            parts.context.push(ContextItem {
                name: "conversation so far".into(),
                text: conv.transcript(),
                path: None,
            });
        }
        let calls_file = self
            .store
            .dir
            .join("tools")
            .join(format!("{}.jsonl", id.split('@').next().unwrap_or(id)));
        let server = self.tool_server.as_ref().map(|command| {
            let mut argv = command.clone();
            argv.extend(
                ServerArgs {
                    tools: self.tools_file.clone(),
                    calls: calls_file.clone(),
                }
                .to_args(),
            );
            argv
        });
        let model = ModelChoice::resolve(
            conv.model.clone(),
            self.backend.as_ref(),
            self.backend_kind,
            &self.config,
        );
        BackendRequest {
            run_id: self.store.run_id.clone(),
            session_id: id.to_string(),
            kind: RequestKind::Session,
            agent: None,
            model,
            identity: conv.identity(),
            prompt: crate::interp::prompt::render(&parts),
            parts,
            choices: Vec::new(),
            permissions: Permissions::default(),
            skills: Vec::new(),
            binding: None,
            tools: self.tools.clone(),
            tool_channel: Some(ToolChannel { calls_file, server }),
            job: Some(JobRequest {
                task: self.task.clone(),
                role,
            }),
            timeout: self.config.timeout.value,
            attempt: 1,
            working_dir: self.root.clone(),
            run_dir: self.store.dir.clone(),
        }
    }

    /// Applies a round's tool calls to the runtime variables, in order,
    /// and reports each.
    fn apply_calls(&mut self, id: &str, role: JobRole, calls: &[ToolCall]) {
        for call in calls {
            match self.vars.apply(call) {
                Applied::Tool { name, argument } => self.emit_job(
                    Some(id),
                    JobEvent::ToolCalled {
                        name,
                        argument: excerpt(&argument),
                        role,
                    },
                ),
                Applied::Unknown { name } if name.is_empty() => self.warn(format!(
                    "session {id} reported a tool call that could not be read: {}",
                    call.arguments
                )),
                Applied::Unknown { name } => self.warn(format!(
                    "session {id} called `{name}`, which is not one of the job tools; it was ignored"
                )),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_conversation_resumes_after_its_first_round() {
        let mut c = Conversation::new(Some("job:t#1".into()), None);
        assert_eq!(c.identity().mode, SessionMode::New);
        c.record("Do it.", "Done.", Some("claude:abc".into()));
        c.record("Check it.", "Checked.", None);
        let id = c.identity();
        assert_eq!(id.mode, SessionMode::Resume);
        assert_eq!(id.handle.as_deref(), Some("claude:abc"));
        assert_eq!(
            c.transcript(),
            "### Prompt 1\n\nDo it.\n\n### Answer 1\n\nDone.\n\n### Prompt 2\n\nCheck it.\n\n### Answer 2\n\nChecked."
        );
        let once = Conversation::new(None, Some("m".into()));
        assert_eq!(once.identity(), SessionIdentity::default());
    }
}
