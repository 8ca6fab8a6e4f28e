//! Backend requests: sessions, conditions, choices and judgements.
//!
//! Every request goes through [`Interp::ask`]: the journal first (a resumed
//! run reuses a finished request's answer), then the backend with retries,
//! backoff, the re-ask of an unreadable answer, the concurrency limit, the
//! timeout and cancellation; the journal record is written before the
//! answer is used.

use std::{path::PathBuf, time::Duration};

use super::{Cx, Exec, Fail, Interp, RunError, prompt};
use crate::{
    answer::{read_choice, read_condition},
    backend::{
        BackendErrorKind, BackendRequest, ContextItem, ModelChoice, Permissions, PromptParts,
        RequestKind, SessionIdentity, SessionMode,
    },
    events::{EventKind, excerpt, now_rfc3339},
    ir::{Agent, Backoff, Expr, Persist, Props, SessionSpec, Site},
    state::{JournalEntry, MemoryRecord, memory, state_md::Running},
    value::Value,
};

/// The longest backoff delay.
pub const MAX_BACKOFF: Duration = Duration::from_secs(60);

/// How an answer must read.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Expect {
    Text,
    Bool,
    Label(Vec<String>),
}

/// One request to make.
pub(crate) struct Ask {
    pub kind: RequestKind,
    pub site: Site,
    pub key: String,
    pub agent: Option<String>,
    pub model: Option<String>,
    pub identity: SessionIdentity,
    pub parts: PromptParts,
    pub permissions: Permissions,
    pub skills: Vec<String>,
    /// The binding of a session's output; `None` makes an `anon_NNN` one.
    pub binding: Option<String>,
    pub retry: u32,
    pub backoff: Backoff,
    pub timeout: Duration,
    pub expect: Expect,
    /// A persistent agent's memory: (directory, agent, fresh).
    pub memory: Option<(PathBuf, String, bool)>,
}

/// A request's answer.
pub(crate) struct Answer {
    pub text: String,
    pub id: String,
    pub binding: Option<String>,
}

/// Reports a session that ends without an answer because its future was
/// dropped (a parallel branch another branch made unnecessary).
struct InFlight<'a> {
    interp: &'a Interp,
    cx: &'a Cx,
    id: String,
    kind: RequestKind,
    started: std::time::Instant,
    attempt: u32,
    done: bool,
}

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.interp.state.update(|m| {
            m.running.remove(&self.id);
        });
        if !self.done {
            self.interp.emit(
                self.cx,
                Some(&self.id),
                EventKind::SessionFailed {
                    kind: self.kind,
                    duration_ms: self.started.elapsed().as_millis() as u64,
                    error: "cancelled".into(),
                    attempt: self.attempt,
                    will_retry: false,
                },
            );
        }
    }
}

impl Interp {
    /// Runs a session (or `resume:`); returns its output.
    pub(crate) async fn session(
        &self,
        s: &SessionSpec,
        cx: &Cx,
        binding: Option<&str>,
        extra_context: Option<ContextItem>,
    ) -> Exec<String> {
        let program = &cx.frame.module.program;
        let agent: Option<&Agent> = match &s.agent {
            Some(name) => match program.agents.get(name) {
                Some(a) => Some(a),
                None => {
                    let e = RunError::new(format!("agent `{name}` is not defined"), s.site);
                    return Err(self.raise(cx, e));
                }
            },
            None => None,
        };
        let empty = Props::default();
        let ap = agent.map_or(&empty, |a| &a.props);
        let sp = &s.props;

        // The task: the session's own prompt (inline, then `prompt:`); the
        // agent's prompt is then system context. Without one, the agent's
        // prompt is the task.
        let own: Vec<String> = [s.inline_prompt.as_ref(), sp.prompt.as_ref()]
            .into_iter()
            .flatten()
            .map(|t| self.interpolate(t, cx))
            .collect();
        let agent_prompt = ap.prompt.as_ref().map(|t| self.interpolate(t, cx));
        let (task, system) = if own.is_empty() {
            (agent_prompt.unwrap_or_default(), None)
        } else {
            (own.join("\n\n"), agent_prompt)
        };

        let mut context = match sp.context.as_ref().or(ap.context.as_ref()) {
            Some(e) => self.context_items(e, cx).await?,
            None => Vec::new(),
        };
        context.extend(extra_context);

        let memory = match (&ap.persist, agent) {
            (Some(persist), Some(a)) => Some((self.memory_dir(persist, &a.name), a.name.clone())),
            _ => None,
        };
        let (identity, memory_text) = match &memory {
            Some((dir, name)) => {
                let key = format!("agent:{name}@{}", dir.display());
                let handle = std::fs::read_to_string(dir.join("session-handle")).ok();
                if s.resume {
                    let text = memory::read_memory(dir);
                    if text.is_none() {
                        self.warn(cx, &format!("line {}: `resume: {name}` found no memory yet; the session starts without one", s.site.line));
                    }
                    (
                        SessionIdentity {
                            mode: SessionMode::Resume,
                            key: Some(key),
                            handle,
                        },
                        text,
                    )
                } else {
                    (
                        SessionIdentity {
                            mode: SessionMode::New,
                            key: Some(key),
                            handle: None,
                        },
                        None,
                    )
                }
            }
            None => (SessionIdentity::default(), None),
        };
        if s.resume && memory.is_none() {
            let name = s.agent.clone().unwrap_or_default();
            let e = RunError::new(
                format!("`resume: {name}` needs a persistent agent (`persist:`)"),
                s.site,
            );
            return Err(self.raise(cx, e));
        }

        let retry = match sp.retry.as_ref().or(ap.retry.as_ref()) {
            Some(e) => {
                let v = self.eval(e, cx).await?;
                v.as_number().map_or(0, |n| n.max(0.0) as u32)
            }
            None => 0,
        };
        // Bound by the caller (`let x = session ...`), else by the session
        // itself: its name (`session review: agent`) or `anon_NNN`.
        let binds_itself = binding.is_none();
        let binding = binding.or(s.name.as_deref()).map(str::to_string);
        let ask = Ask {
            kind: RequestKind::Session,
            site: s.site,
            key: cx.key("s", s.site),
            agent: agent.map(|a| a.name.clone()),
            model: sp.model.clone().or_else(|| ap.model.clone()),
            identity,
            parts: PromptParts {
                task,
                system,
                memory: memory_text,
                context,
            },
            permissions: sp
                .permissions
                .clone()
                .or_else(|| ap.permissions.clone())
                .unwrap_or_default(),
            skills: sp
                .skills
                .clone()
                .or_else(|| ap.skills.clone())
                .unwrap_or_default(),
            binding: binding.clone(),
            retry,
            backoff: sp.backoff.or(ap.backoff).unwrap_or_default(),
            timeout: sp
                .timeout_ms
                .or(ap.timeout_ms)
                .map_or(self.config.timeout.value, Duration::from_millis),
            expect: Expect::Text,
            memory: memory.map(|(dir, name)| (dir, name, !s.resume)),
        };
        let answer = self.ask(ask, cx).await?;
        let label = answer.binding.clone().unwrap_or_default();
        cx.frame.remember_output(&label, &answer.text);
        if binds_itself && let Some(own) = &answer.binding {
            let name = own.split("__").next().unwrap_or(own);
            let stmt = super::Stmt {
                kind: crate::ir::StmtKind::Nop,
                site: s.site,
                text: s.text.clone(),
            };
            self.declare(
                cx,
                name,
                Value::text(answer.text.as_str()),
                "let",
                false,
                &stmt,
            );
        }
        Ok(answer.text)
    }

    /// The context items of a `context:` expression.
    pub(crate) async fn context_items(&self, e: &Expr, cx: &Cx) -> Exec<Vec<ContextItem>> {
        let parts: Vec<(String, &Expr)> = match e {
            Expr::Array(items) => items.iter().map(|i| (i.context_name(), i)).collect(),
            Expr::Object(fields) => fields.iter().map(|(k, v)| (k.clone(), v)).collect(),
            other => vec![(other.context_name(), other)],
        };
        let mut out = Vec::with_capacity(parts.len());
        for (name, expr) in parts {
            let value = self.eval(expr, cx).await?;
            let path = match expr {
                Expr::Name(n) => cx.lookup_var(n).and_then(|v| v.file),
                _ => None,
            };
            out.push(ContextItem {
                name,
                text: value.to_text(),
                path,
            });
        }
        Ok(out)
    }

    /// Where a persistent agent keeps its memory.
    pub(crate) fn memory_dir(&self, persist: &Persist, agent: &str) -> PathBuf {
        match persist {
            Persist::Run => self.store.dir.join("agents").join(agent),
            Persist::Project => self.root.join(".prose").join("agents").join(agent),
            Persist::User => self
                .home
                .clone()
                .unwrap_or_else(|| self.root.clone())
                .join(".prose")
                .join("agents")
                .join(agent),
            Persist::Path(p) => self.root.join(p),
        }
    }

    /// The recent outputs of the frame, as context for a decision.
    fn recent_context(&self, cx: &Cx) -> Vec<ContextItem> {
        cx.frame
            .recent_outputs()
            .into_iter()
            .map(|(name, text)| ContextItem {
                name: if name.is_empty() {
                    "previous".into()
                } else {
                    name
                },
                text,
                path: None,
            })
            .collect()
    }

    /// A discretion condition, decided by the backend.
    pub(crate) async fn discretion(&self, text: &str, site: Site, cx: &Cx) -> Exec<bool> {
        let answer = self
            .ask(
                self.decision(
                    RequestKind::Condition,
                    prompt::condition_task(text),
                    "c",
                    site,
                    cx,
                    Expect::Bool,
                ),
                cx,
            )
            .await?;
        let result = read_condition(&answer.text).unwrap_or(false);
        self.emit(
            cx,
            Some(&answer.id),
            EventKind::ConditionEvaluated {
                condition: text.to_string(),
                result,
                line: site.line,
            },
        );
        Ok(result)
    }

    /// A choice among labels; returns the chosen index.
    pub(crate) async fn choose(
        &self,
        criteria: &str,
        labels: &[String],
        site: Site,
        cx: &Cx,
    ) -> Exec<usize> {
        let ask = self.decision(
            RequestKind::Choice,
            prompt::choice_task(criteria, labels),
            "k",
            site,
            cx,
            Expect::Label(labels.to_vec()),
        );
        let answer = self.ask(ask, cx).await?;
        let i = read_choice(&answer.text, labels).unwrap_or(0);
        self.emit(
            cx,
            Some(&answer.id),
            EventKind::ChoiceMade {
                criteria: criteria.to_string(),
                option: labels.get(i).cloned().unwrap_or_default(),
                line: site.line,
            },
        );
        Ok(i)
    }

    /// Whether a filter body's answer means keep, when it does not read as
    /// yes or no itself.
    pub(crate) async fn judge(&self, item: &str, answer: &str, site: Site, cx: &Cx) -> Exec<bool> {
        let ask = self.decision(
            RequestKind::Judgement,
            prompt::judgement_task(item, answer),
            "j",
            site,
            cx,
            Expect::Bool,
        );
        let a = self.ask(ask, cx).await?;
        Ok(read_condition(&a.text).unwrap_or(false))
    }

    fn decision(
        &self,
        kind: RequestKind,
        task: String,
        what: &str,
        site: Site,
        cx: &Cx,
        expect: Expect,
    ) -> Ask {
        Ask {
            kind,
            site,
            key: cx.key(what, site),
            agent: None,
            model: None,
            identity: SessionIdentity::default(),
            parts: PromptParts {
                task,
                context: self.recent_context(cx),
                ..Default::default()
            },
            permissions: Permissions::default(),
            skills: Vec::new(),
            binding: None,
            retry: 0,
            backoff: Backoff::None,
            timeout: self.config.timeout.value,
            expect,
            memory: None,
        }
    }

    /// The delay before retry number `attempt` (1-based).
    pub(crate) fn backoff_delay(&self, backoff: Backoff, attempt: u32) -> Duration {
        match backoff {
            Backoff::None => Duration::ZERO,
            Backoff::Linear => self.retry_base,
            Backoff::Exponential => self
                .retry_base
                .saturating_mul(1u32 << (attempt.saturating_sub(1)).min(16))
                .min(MAX_BACKOFF),
        }
    }

    /// Makes a request (or finds its answer in the journal).
    pub(crate) async fn ask(&self, mut ask: Ask, cx: &Cx) -> Exec<Answer> {
        self.check_cancel()?;
        if let Some(entry) = self.store.journal.get(&ask.key)
            && entry.kind == ask.kind.as_str()
        {
            self.emit(
                cx,
                Some(&entry.id),
                EventKind::SessionReused {
                    kind: ask.kind,
                    binding: entry.binding.clone().unwrap_or_default(),
                    output_excerpt: excerpt(&entry.output),
                },
            );
            if let Some(m) = &entry.memory {
                self.apply_memory(m, &entry.task, &entry.output, &entry.time);
            }
            return Ok(Answer {
                text: entry.output,
                id: entry.id,
                binding: entry.binding,
            });
        }

        let n = self.next_session();
        let id = format!("s{n}@{}", ask.site.line);
        let eid = cx.frame.eid;
        let scoped = |name: String| {
            if eid == 0 {
                name
            } else {
                format!("{name}__{eid}")
            }
        };
        let binding = match ask.kind {
            RequestKind::Session => Some(scoped(
                ask.binding
                    .clone()
                    .unwrap_or_else(|| format!("anon_{n:03}")),
            )),
            _ => None,
        };
        let alias = ask
            .model
            .clone()
            .or_else(|| self.config.model.as_ref().map(|m| m.value.clone()));
        let model = ModelChoice::resolve(
            alias,
            self.backend.as_ref(),
            self.backend_kind,
            &self.config,
        );
        let choices = match &ask.expect {
            Expect::Label(l) => l.clone(),
            _ => Vec::new(),
        };
        self.state.update(|m| {
            m.running.insert(
                id.clone(),
                Running {
                    line: ask.site.line,
                    kind: ask.kind.as_str().into(),
                    agent: ask.agent.clone().unwrap_or_default(),
                    binding: binding.clone().unwrap_or_default(),
                },
            );
        });
        self.emit(
            cx,
            Some(&id),
            EventKind::SessionStarted {
                kind: ask.kind,
                agent: ask.agent.clone().unwrap_or_default(),
                model: model.alias.clone().unwrap_or_default(),
                binding: binding.clone().unwrap_or_default(),
                line: ask.site.line,
                prompt_excerpt: excerpt(&ask.parts.task),
                role: String::new(),
                step: String::new(),
            },
        );
        let mut flight = InFlight {
            interp: self,
            cx,
            id: id.clone(),
            kind: ask.kind,
            started: std::time::Instant::now(),
            attempt: 1,
            done: false,
        };
        let attempts = ask.retry.saturating_add(1);
        let mut tries = 1u32;
        let mut reasked = false;
        let task = ask.parts.task.clone();
        let (text, handle) = loop {
            let request = BackendRequest {
                run_id: self.store.run_id.clone(),
                session_id: id.clone(),
                kind: ask.kind,
                agent: ask.agent.clone(),
                model: model.clone(),
                identity: ask.identity.clone(),
                prompt: prompt::render(&ask.parts),
                parts: ask.parts.clone(),
                choices: choices.clone(),
                permissions: ask.permissions.clone(),
                skills: ask.skills.clone(),
                binding: binding.clone(),
                tools: Vec::new(),
                tool_channel: None,
                job: None,
                timeout: ask.timeout,
                attempt: flight.attempt,
                working_dir: self.root.clone(),
                run_dir: self.store.dir.clone(),
            };
            let result = {
                let _permit = match &self.limiter {
                    Some(l) => Some(l.acquire().await.map_err(|_| Fail::Cancelled)?),
                    None => None,
                };
                crate::backend::call_guarded(self.backend.as_ref(), &request, &self.cancel).await
            };
            let failure = match result {
                Ok(resp) => {
                    let text = resp.text.trim().to_string();
                    let readable = match &ask.expect {
                        Expect::Text => true,
                        Expect::Bool => read_condition(&text).is_some(),
                        Expect::Label(l) => read_choice(&text, l).is_some(),
                    };
                    if readable {
                        break (text, resp.session_handle);
                    }
                    let message = format!(
                        "could not read the answer to this {} as {}: {:?}",
                        ask.kind,
                        if matches!(ask.expect, Expect::Bool) {
                            "true or false"
                        } else {
                            "one of the options"
                        },
                        excerpt(&text)
                    );
                    if !reasked {
                        reasked = true;
                        ask.parts.task = format!("{task}{}", prompt::reask_note(ask.kind, &text));
                        self.emit(
                            cx,
                            Some(&id),
                            EventKind::SessionFailed {
                                kind: ask.kind,
                                duration_ms: flight.started.elapsed().as_millis() as u64,
                                error: message,
                                attempt: flight.attempt,
                                will_retry: true,
                            },
                        );
                        flight.attempt += 1;
                        continue;
                    }
                    message
                }
                Err(e) if e.kind == BackendErrorKind::Cancelled || self.cancel.is_cancelled() => {
                    return Err(Fail::Cancelled);
                }
                Err(e) => e.message,
            };
            let will_retry = tries < attempts;
            self.emit(
                cx,
                Some(&id),
                EventKind::SessionFailed {
                    kind: ask.kind,
                    duration_ms: flight.started.elapsed().as_millis() as u64,
                    error: failure.clone(),
                    attempt: flight.attempt,
                    will_retry,
                },
            );
            if !will_retry {
                flight.done = true;
                let e = RunError::new(format!("{} {id} failed: {failure}", ask.kind), ask.site);
                return Err(self.raise(cx, e));
            }
            let delay = self.backoff_delay(ask.backoff, tries);
            if !delay.is_zero() {
                tokio::select! {
                    () = self.clock.sleep(delay) => {}
                    () = self.cancel.cancelled() => return Err(Fail::Cancelled),
                }
            }
            tries += 1;
            flight.attempt += 1;
        };

        let time = now_rfc3339();
        let memory = ask.memory.as_ref().map(|(dir, agent, fresh)| MemoryRecord {
            dir: dir.clone(),
            agent: agent.clone(),
            segment: 0,
            fresh: *fresh,
        });
        // The memory segment number is taken under the agent's lock.
        let lock = memory.as_ref().map(|m| self.memory_lock(&m.dir));
        let _held = match &lock {
            Some(l) => Some(l.lock().await),
            None => None,
        };
        let memory = memory.map(|mut m| {
            m.segment = memory::next_segment(&m.dir, &m.agent);
            m
        });
        let entry = JournalEntry {
            key: ask.key.clone(),
            id: id.clone(),
            kind: ask.kind.as_str().to_string(),
            agent: ask.agent.clone(),
            binding: binding.clone(),
            task: task.clone(),
            output: text.clone(),
            memory: memory.clone(),
            session_handle: handle.clone(),
            time: time.clone(),
            tool_calls: Vec::new(),
        };
        if let Err(e) = self.store.journal.put(entry) {
            flight.done = true;
            let e = RunError::new(format!("cannot record session {id}: {e}"), ask.site);
            return Err(self.raise(cx, e));
        }
        if let Some(m) = &memory {
            self.apply_memory(m, &task, &text, &time);
            if let Some(h) = &handle {
                let _ = crate::state::write_atomic(
                    &m.dir.join("session-handle"),
                    h.as_bytes(),
                    self.store.durable,
                );
            }
        }
        flight.done = true;
        self.emit(
            cx,
            Some(&id),
            EventKind::SessionFinished {
                kind: ask.kind,
                duration_ms: flight.started.elapsed().as_millis() as u64,
                output_excerpt: excerpt(&text),
                binding: binding.clone().unwrap_or_default(),
            },
        );
        Ok(Answer { text, id, binding })
    }

    fn memory_lock(&self, dir: &std::path::Path) -> std::sync::Arc<tokio::sync::Mutex<()>> {
        let mut locks = self.memory_locks.lock().unwrap_or_else(|e| e.into_inner());
        locks.entry(dir.to_path_buf()).or_default().clone()
    }

    /// Writes a session's memory segment and `memory.md` (idempotent).
    fn apply_memory(&self, m: &MemoryRecord, task: &str, output: &str, time: &str) {
        let seg = memory::Segment {
            agent: &m.agent,
            n: m.segment,
            fresh: m.fresh,
            task,
            answer: output,
            time,
        };
        let _ = memory::record_segment(&m.dir, seg, self.store.durable);
        let scope = m.dir.display().to_string();
        self.state.update(|s| {
            s.agents
                .insert(m.agent.clone(), ("persistent".into(), scope));
        });
    }
}
