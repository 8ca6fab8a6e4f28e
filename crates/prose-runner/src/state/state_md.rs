//! `state.md`: where the run is, for people (state-filesystem.md's format:
//! the program with annotations, the sessions running, an index of bindings
//! and agents, the call stack).
//!
//! It is informational: a resume reads the journal, not this file. It is
//! rewritten atomically by a background task at most every
//! [`FLUSH_EVERY`] while the run changes, and once more when it ends.

use std::{
    collections::BTreeMap,
    fmt::Write,
    sync::{
        Mutex,
        atomic::{AtomicBool, Ordering},
    },
    time::Duration,
};

/// How often a changed `state.md` is rewritten.
pub const FLUSH_EVERY: Duration = Duration::from_millis(250);

/// A session being run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Running {
    pub line: u32,
    pub kind: String,
    pub agent: String,
    pub binding: String,
}

/// One row of the bindings index.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BindingRow {
    pub name: String,
    pub kind: String,
    /// Relative to the run directory.
    pub path: String,
    pub execution_id: Option<u64>,
}

/// What `state.md` shows.
#[derive(Debug, Clone, Default)]
pub struct StateModel {
    pub run_id: String,
    pub program: String,
    pub started: String,
    pub updated: String,
    pub status: String,
    pub source: String,
    /// Line -> annotation of finished work (`--> bindings/x.md`).
    pub done: BTreeMap<u32, String>,
    pub running: BTreeMap<String, Running>,
    /// By path.
    pub bindings: BTreeMap<String, BindingRow>,
    /// Name -> (scope, path).
    pub agents: BTreeMap<String, (String, String)>,
    /// Execution id -> (block, depth).
    pub frames: BTreeMap<u64, (String, u32)>,
}

/// The model behind a lock, with a dirty flag for the flusher.
#[derive(Debug, Default)]
pub struct StateDoc {
    model: Mutex<StateModel>,
    dirty: AtomicBool,
}

impl StateDoc {
    pub fn new(model: StateModel) -> Self {
        StateDoc {
            model: Mutex::new(model),
            dirty: AtomicBool::new(true),
        }
    }

    /// Changes the model and marks it for the next flush.
    pub fn update(&self, f: impl FnOnce(&mut StateModel)) {
        let mut m = self.model.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut m);
        self.dirty.store(true, Ordering::Release);
    }

    /// The rendered document if it changed since the last call.
    pub fn take_if_dirty(&self) -> Option<String> {
        if !self.dirty.swap(false, Ordering::AcqRel) {
            return None;
        }
        let mut m = self.model.lock().unwrap_or_else(|e| e.into_inner());
        m.updated = crate::events::now_rfc3339();
        Some(render(&m))
    }
}

/// Renders `state.md`.
pub fn render(m: &StateModel) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# Execution State\n");
    let _ = writeln!(s, "run: {}", m.run_id);
    let _ = writeln!(s, "program: {}", m.program);
    let _ = writeln!(s, "status: {}", m.status);
    let _ = writeln!(s, "started: {}", m.started);
    let _ = writeln!(s, "updated: {}\n", m.updated);

    let _ = writeln!(s, "## Execution Trace\n\n```prose");
    let executing: BTreeMap<u32, &str> = m
        .running
        .values()
        .map(|r| (r.line, "<-- EXECUTING"))
        .collect();
    let width = m.source.lines().map(str::len).max().unwrap_or(0).min(60);
    for (i, line) in m.source.lines().enumerate() {
        let n = i as u32 + 1;
        let note = executing
            .get(&n)
            .map(|s| s.to_string())
            .or_else(|| m.done.get(&n).cloned());
        match note {
            Some(note) => {
                let _ = writeln!(s, "{line:<width$}  # {note}");
            }
            None => {
                let _ = writeln!(s, "{line}");
            }
        }
    }
    let _ = writeln!(s, "```\n");

    if !m.running.is_empty() {
        let _ = writeln!(
            s,
            "## Running\n\n| Session | Line | Kind | Agent | Binding |\n|---|---|---|---|---|"
        );
        for (id, r) in &m.running {
            let _ = writeln!(
                s,
                "| {id} | {} | {} | {} | {} |",
                r.line, r.kind, r.agent, r.binding
            );
        }
        let _ = writeln!(s);
    }

    let _ = writeln!(
        s,
        "## Index\n\n### Bindings\n\n| Name | Kind | Path | Execution ID |\n|---|---|---|---|"
    );
    for b in m.bindings.values() {
        let eid = b
            .execution_id
            .map_or_else(|| "(root)".to_string(), |e| e.to_string());
        let _ = writeln!(s, "| {} | {} | {} | {eid} |", b.name, b.kind, b.path);
    }
    if !m.agents.is_empty() {
        let _ = writeln!(s, "\n### Agents\n\n| Name | Scope | Path |\n|---|---|---|");
        for (name, (scope, path)) in &m.agents {
            let _ = writeln!(s, "| {name} | {scope} | {path} |");
        }
    }
    if !m.frames.is_empty() {
        let _ = writeln!(
            s,
            "\n## Call Stack\n\n| execution_id | block | depth | status |\n|---|---|---|---|"
        );
        for (eid, (block, depth)) in m.frames.iter().rev() {
            let _ = writeln!(s, "| {eid} | {block} | {depth} | executing |");
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_annotations_and_index() {
        let mut m = StateModel {
            run_id: "20260101-000000-abcdef".into(),
            program: "p.prose".into(),
            started: "S".into(),
            updated: "U".into(),
            status: "running".into(),
            source: "let a = session \"A\"\nsession \"B\"\n".into(),
            ..Default::default()
        };
        m.done.insert(1, "--> bindings/a.md".into());
        m.running.insert(
            "s2@2".into(),
            Running {
                line: 2,
                kind: "session".into(),
                agent: String::new(),
                binding: "anon_002".into(),
            },
        );
        m.bindings.insert(
            "bindings/a.md".into(),
            BindingRow {
                name: "a".into(),
                kind: "let".into(),
                path: "bindings/a.md".into(),
                execution_id: None,
            },
        );
        expect_test::expect![[r#"
            # Execution State

            run: 20260101-000000-abcdef
            program: p.prose
            status: running
            started: S
            updated: U

            ## Execution Trace

            ```prose
            let a = session "A"  # --> bindings/a.md
            session "B"          # <-- EXECUTING
            ```

            ## Running

            | Session | Line | Kind | Agent | Binding |
            |---|---|---|---|---|
            | s2@2 | 2 | session |  | anon_002 |

            ## Index

            ### Bindings

            | Name | Kind | Path | Execution ID |
            |---|---|---|---|
            | a | let | bindings/a.md | (root) |
        "#]]
        .assert_eq(&render(&m));
    }
}
