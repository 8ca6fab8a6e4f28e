//! What `prose run` shows while a program runs, from its events: on a
//! terminal, a spinner per running session (parallel branches side by
//! side) with its elapsed time, replaced by a line with the first line of
//! its output when it finishes; elsewhere, plain lines.

use std::{collections::HashMap, io::Write, sync::Mutex, time::Duration};

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use prose_runner::events::{Event, EventKind, EventSink};

/// The display of a run on stderr.
pub struct Progress {
    bars: Option<MultiProgress>,
    running: Mutex<HashMap<String, ProgressBar>>,
    /// Plain lines go here when there are no bars.
    plain: Mutex<Box<dyn Write + Send>>,
}

fn first_line(s: &str) -> &str {
    s.lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim()
}

fn seconds(ms: u64) -> String {
    format!("{:.1}s", ms as f64 / 1000.0)
}

impl Progress {
    /// Spinners when `terminal`, else plain lines on stderr.
    pub fn new(terminal: bool) -> Self {
        Progress {
            bars: terminal.then(|| MultiProgress::with_draw_target(ProgressDrawTarget::stderr())),
            running: Mutex::default(),
            plain: Mutex::new(Box::new(std::io::stderr())),
        }
    }

    /// Plain lines into `out` (tests).
    pub fn plain_into(out: Box<dyn Write + Send>) -> Self {
        Progress {
            bars: None,
            running: Mutex::default(),
            plain: Mutex::new(out),
        }
    }

    /// Prints a line above the spinners (or as a plain line).
    pub fn line(&self, text: &str) {
        match &self.bars {
            Some(m) => {
                let _ = m.println(text);
            }
            None => {
                let mut out = self.plain.lock().unwrap_or_else(|e| e.into_inner());
                let _ = writeln!(out, "{text}");
                let _ = out.flush();
            }
        }
    }

    /// Runs `f` with the spinners hidden (to ask the user something).
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.bars {
            Some(m) => m.suspend(f),
            None => f(),
        }
    }

    /// Removes what is left of the spinners.
    pub fn finish(&self) {
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        for (_, bar) in running.drain() {
            bar.finish_and_clear();
        }
    }

    fn who(e: &Event, agent: &str, binding: &str) -> String {
        let mut s = e.session_id.clone().unwrap_or_default();
        if !agent.is_empty() {
            s.push_str(&format!(" {agent}"));
        }
        if !binding.is_empty() {
            s.push_str(&format!(" -> {binding}"));
        }
        if let Some(b) = &e.branch {
            s.push_str(&format!(" [{b}]"));
        }
        s
    }

    fn started(&self, e: &Event, text: String) {
        let Some(m) = &self.bars else {
            self.line(&format!("… {text}"));
            return;
        };
        let bar = m.add(ProgressBar::new_spinner());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {elapsed:>4} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar.set_message(text);
        bar.enable_steady_tick(Duration::from_millis(120));
        let id = e.session_id.clone().unwrap_or_default();
        self.running
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id, bar);
    }

    fn ended(&self, e: &Event, text: String) {
        let id = e.session_id.clone().unwrap_or_default();
        if let Some(bar) = self
            .running
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&id)
        {
            bar.finish_and_clear();
            if let Some(m) = &self.bars {
                m.remove(&bar);
            }
        }
        self.line(&text);
    }
}

impl EventSink for Progress {
    fn emit(&self, e: &Event) {
        match &e.kind {
            EventKind::RunStarted {
                program,
                backend,
                resumed,
                ..
            } => {
                let verb = if *resumed { "resuming" } else { "running" };
                self.line(&format!(
                    "{verb} {program} with the {backend} backend (run {})",
                    e.run_id
                ));
            }
            EventKind::SessionStarted {
                kind,
                agent,
                binding,
                line,
                prompt_excerpt,
                role,
                step,
                ..
            } => {
                if !role.is_empty() {
                    // A job task's session: which, and which of its prompts.
                    let text = format!("{} {role}: {step} (line {line})", Self::who(e, "", ""));
                    self.started(e, text);
                    return;
                }
                let what = match kind {
                    prose_runner::backend::RequestKind::Session => {
                        first_line(prompt_excerpt).to_string()
                    }
                    other => format!("{other} (line {line})"),
                };
                self.started(e, format!("{}: {what}", Self::who(e, agent, binding)));
            }
            EventKind::SessionFinished {
                duration_ms,
                output_excerpt,
                binding,
                kind,
                ..
            } => {
                let who = Self::who(e, "", binding);
                let out = match kind {
                    prose_runner::backend::RequestKind::Session => {
                        first_line(output_excerpt).to_string()
                    }
                    _ => format!("answered {}", first_line(output_excerpt)),
                };
                self.ended(e, format!("✓ {who} ({}): {out}", seconds(*duration_ms)));
            }
            EventKind::SessionFailed {
                error,
                attempt,
                will_retry,
                duration_ms,
                ..
            } => {
                let who = Self::who(e, "", "");
                let again = if *will_retry { ", retrying" } else { "" };
                let text = format!(
                    "✗ {who} attempt {attempt} ({}): {}{again}",
                    seconds(*duration_ms),
                    first_line(error)
                );
                if *will_retry {
                    self.line(&text);
                } else {
                    self.ended(e, text);
                }
            }
            EventKind::SessionReused {
                binding,
                output_excerpt,
                ..
            } => {
                self.line(&format!(
                    "↺ {} (from the journal): {}",
                    Self::who(e, "", binding),
                    first_line(output_excerpt)
                ));
            }
            EventKind::ConditionEvaluated {
                condition,
                result,
                line,
            } => {
                self.line(&format!(
                    "? line {line}: **{}** is {result}",
                    first_line(condition)
                ));
            }
            EventKind::ChoiceMade { option, line, .. } => {
                self.line(&format!("? line {line}: chose {option:?}"));
            }
            EventKind::Warning { message } => self.line(&format!("warning: {message}")),
            EventKind::Error { message, .. } => self.line(&format!("error: {message}")),
            EventKind::Cancelled { reason } => self.line(&format!("cancelled: {reason}")),
            EventKind::InputReceived { name, .. } => self.line(&format!("input {name} received")),
            EventKind::Job(job) => self.line(&prose_runner::jobs::describe(e, job)),
            EventKind::RunFinished { .. }
            | EventKind::BindingWritten { .. }
            | EventKind::BranchStarted { .. }
            | EventKind::BranchFinished { .. }
            | EventKind::InputRequested { .. } => {}
        }
    }
}

/// Sends every event to several sinks.
pub struct Tee(pub Vec<std::sync::Arc<dyn EventSink>>);

impl EventSink for Tee {
    fn emit(&self, event: &Event) {
        for s in &self.0 {
            s.emit(event);
        }
    }
}
