//! `state.md` of a task run: where the run is, for people. It is rewritten
//! (atomically) when a round starts and when the task ends; resuming needs
//! only the journal.
//!
//! ```text
//! # Task run 20260115-143052-a7b3c9
//!
//! - entry: docs/examples/scrum.jobs.json
//! - task: plan-task (model option: double)
//! - status: running
//!
//! ## Rounds
//!
//! - s1@84 driving: Answer with a tool call: ... → The story is there.
//! - s2@80 task: Follow ... (running)
//!
//! ## Runtime variables
//!
//! - $reported-true-reason: story.md has a title and three paragraphs
//! ```

use std::fmt::Write;

use super::tools::Variables;
use crate::{backend::JobRole, events::excerpt, state::RunStore};

/// What `state.md` shows.
#[derive(Debug, Clone, Default)]
pub(crate) struct TaskState {
    pub run_id: String,
    pub entry: String,
    pub task: String,
    pub mode: String,
    pub status: String,
    /// (session id, role, prompt's first line, answer's first line or
    /// `None` while it runs).
    rounds: Vec<(String, JobRole, String, Option<String>)>,
}

fn first_line(s: &str) -> String {
    excerpt(
        s.lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("")
            .trim(),
    )
}

impl TaskState {
    pub fn new(run_id: &str, entry: &str, task: &str, mode: &str) -> Self {
        TaskState {
            run_id: run_id.to_string(),
            entry: entry.to_string(),
            task: task.to_string(),
            mode: mode.to_string(),
            status: "running".into(),
            rounds: Vec::new(),
        }
    }

    /// A round started (`answer: None`) or answered.
    pub fn round(&mut self, id: &str, role: JobRole, prompt: &str, answer: Option<&str>) {
        let answer = answer.map(first_line);
        match self.rounds.iter_mut().find(|r| r.0 == id) {
            Some(r) => r.3 = answer,
            None => self
                .rounds
                .push((id.to_string(), role, first_line(prompt), answer)),
        }
    }

    pub fn render(&self, vars: &Variables) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "# Task run {}\n", self.run_id);
        let _ = writeln!(s, "- entry: {}", self.entry);
        let _ = writeln!(s, "- task: {} (model option: {})", self.task, self.mode);
        let _ = writeln!(s, "- status: {}", self.status);
        if !self.rounds.is_empty() {
            let _ = writeln!(s, "\n## Rounds\n");
            for (id, role, prompt, answer) in &self.rounds {
                let _ = match answer {
                    Some(a) => writeln!(s, "- {id} {role}: {prompt} → {a}"),
                    None => writeln!(s, "- {id} {role}: {prompt} (running)"),
                };
            }
        }
        let mut vars = vars.iter().peekable();
        if vars.peek().is_some() {
            let _ = writeln!(s, "\n## Runtime variables\n");
            for (k, v) in vars {
                let _ = writeln!(s, "- ${k}: {}", first_line(v));
            }
        }
        s
    }

    /// Rewrites `state.md` (a failure to write it does not stop the run).
    pub fn write(&self, store: &RunStore, vars: &Variables) {
        let _ = store.write("state.md", self.render(vars).as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_and_variables() {
        let mut st = TaskState::new("20260101-000000-abcdef", "a.jobs.json", "plan", "double");
        st.round("s1@4", JobRole::Driving, "\nIs it ready?\nmore", None);
        st.round("s1@4", JobRole::Driving, "", Some("Yes."));
        st.round("s2@3", JobRole::Task, "Plan it.", None);
        let vars = Variables::with_user_input(Some("a cache"));
        expect_test::expect![[r#"
            # Task run 20260101-000000-abcdef

            - entry: a.jobs.json
            - task: plan (model option: double)
            - status: running

            ## Rounds

            - s1@4 driving: Is it ready? → Yes.
            - s2@3 task: Plan it. (running)

            ## Runtime variables

            - $user-input: a cache
        "#]]
        .assert_eq(&st.render(&vars));
    }
}
