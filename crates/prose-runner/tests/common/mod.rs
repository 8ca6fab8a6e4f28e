//! Running programs against the mock backend in a scratch workspace.

#![allow(dead_code)]

use std::{
    path::{Path, PathBuf},
    sync::{Arc, Mutex},
    time::Duration,
};

use prose_runner::{
    backend::{
        Backend, BackendRequest,
        mock::{MockBackend, MockScript},
    },
    clock::FakeClock,
    events::Event,
    run::{RunOptions, RunOutcome, StartError, prepare, start},
};

/// A finished run and what it did.
pub struct Ran {
    pub outcome: RunOutcome,
    pub calls: Vec<BackendRequest>,
    pub events: Vec<Event>,
    pub clock: FakeClock,
    pub root: tempfile::TempDir,
}

impl Ran {
    /// One line per backend call: `kind binding: task` (the task's first
    /// line), in the order the calls were made.
    pub fn call_lines(&self) -> Vec<String> {
        call_lines(&self.calls)
    }

    /// The value in a binding file of the run (`research`, `anon_001`).
    pub fn binding(&self, name: &str) -> String {
        let path = self
            .outcome
            .run_dir
            .join("bindings")
            .join(format!("{name}.md"));
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        value_of(&text)
    }

    /// The names of the binding files, sorted.
    pub fn binding_files(&self) -> Vec<String> {
        files(&self.outcome.run_dir.join("bindings"))
    }

    /// Event types in order (`session_started`, ...), without the run's
    /// start and end.
    pub fn event_types(&self) -> Vec<String> {
        self.events
            .iter()
            .map(|e| e.kind.type_name().to_string())
            .collect()
    }

    pub fn output(&self, name: &str) -> String {
        self.outcome
            .outputs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.to_text())
            .unwrap_or_else(|| panic!("no output {name}: {:?}", self.outcome.outputs))
    }

    pub fn warnings(&self) -> Vec<String> {
        self.events
            .iter()
            .filter_map(|e| match &e.kind {
                prose_runner::events::EventKind::Warning { message } => Some(message.clone()),
                _ => None,
            })
            .collect()
    }
}

pub fn call_lines(calls: &[BackendRequest]) -> Vec<String> {
    calls
        .iter()
        .map(|c| {
            let who = c.binding.clone().unwrap_or_default();
            let task = c.parts.task.lines().next().unwrap_or("").to_string();
            if who.is_empty() {
                format!("{} {task}", c.kind)
            } else {
                format!("{} {who}: {task}", c.kind)
            }
        })
        .collect()
}

pub fn files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter(|n| !n.starts_with('.'))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// The value part of a binding file (after the `---` line).
pub fn value_of(binding_file: &str) -> String {
    let (_, value) = binding_file
        .split_once("\n---\n\n")
        .unwrap_or_else(|| panic!("not a binding file: {binding_file}"));
    value.strip_suffix('\n').unwrap_or(value).to_string()
}

pub fn mock(script: &str) -> MockBackend {
    MockBackend::new(MockScript::parse(script).expect("a valid mock script"))
}

/// Options for a run of `src` in `root` with `backend`.
pub fn options(src: &str, root: &Path, backend: Arc<dyn Backend>) -> RunOptions {
    let mut o = RunOptions::new(root.join("main.prose"), src, root);
    o.backend = Some(backend);
    o.clock = Arc::new(FakeClock::new());
    o.durable = false;
    o.retry_base = Duration::from_secs(1);
    o
}

/// Runs `src` with the mock `script`, inputs given, to the end.
pub async fn run(src: &str, script: &str) -> Ran {
    run_with(src, mock(script), &[]).await
}

pub async fn run_with(src: &str, mock: MockBackend, inputs: &[(&str, &str)]) -> Ran {
    let root = tempfile::tempdir().unwrap();
    let mut o = options(src, root.path(), Arc::new(mock.clone()));
    let clock = FakeClock::new();
    o.clock = Arc::new(clock.clone());
    for (k, v) in inputs {
        o.inputs.insert(k.to_string(), v.to_string());
    }
    let (outcome, events) = run_options(o)
        .await
        .unwrap_or_else(|e| panic!("{e}: {e:?}"));
    Ran {
        outcome,
        calls: mock.calls(),
        events,
        clock,
        root,
    }
}

/// Runs prepared options to the end, collecting the events.
pub async fn run_options(o: RunOptions) -> Result<(RunOutcome, Vec<Event>), StartError> {
    let prepared = prepare(o)?;
    let events: Arc<Mutex<Vec<Event>>> = Arc::default();
    let sink = events.clone();
    let handle = start(
        prepared,
        Arc::new(move |e: &Event| sink.lock().unwrap().push(e.clone())),
        None,
    );
    let outcome = handle.wait().await;
    let events = events.lock().unwrap().clone();
    Ok((outcome, events))
}

pub fn path(p: &Path) -> PathBuf {
    p.to_path_buf()
}
