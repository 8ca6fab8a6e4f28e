//! Run state on disk, in the runtime's own layout (state-filesystem.md):
//!
//! ```text
//! .prose/runs/{YYYYMMDD}-{HHMMSS}-{random6}/
//! ├── program.prose        the program as it was when the run started
//! ├── run.json             what the run was started with, and its status
//! ├── state.md             where the run is (for people; refreshed while it runs)
//! ├── events.jsonl         every event of the run, appended
//! ├── journal/             one record per finished backend request and answered input
//! ├── bindings/{name}.md   every binding (`{name}__{execution_id}.md` in blocks, `anon_NNN.md`)
//! ├── agents/{name}/       memory of `persist: true` agents
//! └── imports/{handle}--{slug}/   runs of invoked programs, the same layout
//! ```
//!
//! **Crash safety.** Every file except `events.jsonl` is written atomically:
//! a temporary file in the same directory, fsync, rename, fsync of the
//! directory. A finished backend request is *committed* by its journal
//! record, written before anything else is done with its answer, so
//! `kill -9` at any instant loses at most requests that had not finished.
//! A resume runs the program again from the start against the journal:
//! every request whose record exists is answered from it (same session id,
//! no backend call), so the run retraces the same path and goes on where it
//! stopped. Bindings, memory files and `state.md` are rewritten on the way.

mod atomic;
mod journal;
pub mod memory;
mod meta;
pub mod state_md;

use std::{
    io,
    path::{Path, PathBuf},
};

pub use atomic::write_atomic;
pub use journal::{Journal, JournalEntry, MemoryRecord};
pub use meta::{RunMeta, TaskMeta, new_run_id, runs_dir};

/// A program run's copy of its program.
pub const PROGRAM_FILE: &str = "program.prose";

/// A run's directory and how to write into it.
#[derive(Debug)]
pub struct RunStore {
    pub run_id: String,
    /// The run directory, absolute.
    pub dir: PathBuf,
    /// Whether writes are fsynced (always, except in benchmarks).
    pub durable: bool,
    pub journal: Journal,
}

impl RunStore {
    /// Creates the directory of a new run under `{root}/.prose/runs/`, with
    /// `program.prose` and `run.json`.
    pub fn create(
        root: &Path,
        program: &str,
        meta: &mut RunMeta,
        durable: bool,
    ) -> io::Result<Self> {
        Self::create_with(root, PROGRAM_FILE, program, meta, durable)
    }

    /// Creates the directory of a new run with its own copy of what it runs
    /// in `file` (`program.prose`, or a job task's `entry.jobs.json`) and
    /// `run.json`.
    pub fn create_with(
        root: &Path,
        file: &str,
        text: &str,
        meta: &mut RunMeta,
        durable: bool,
    ) -> io::Result<Self> {
        let runs = runs_dir(root);
        std::fs::create_dir_all(&runs)?;
        // A fresh id; on the (unlikely) collision, another one.
        let (run_id, dir) = loop {
            let id = new_run_id();
            let dir = runs.join(&id);
            match std::fs::create_dir(&dir) {
                Ok(()) => break (id, dir),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        };
        let dir = std::path::absolute(&dir).unwrap_or(dir);
        meta.run_id = run_id.clone();
        let store = RunStore {
            run_id,
            journal: Journal::new(dir.join("journal"), durable),
            dir,
            durable,
        };
        store.write(file, text.as_bytes())?;
        store.write_meta(meta)?;
        Ok(store)
    }

    /// Opens an existing run to resume it: its store, its `run.json` and
    /// its `program.prose`.
    pub fn open(root: &Path, run_id: &str, durable: bool) -> io::Result<(Self, RunMeta, String)> {
        Self::open_with(root, run_id, PROGRAM_FILE, durable)
    }

    /// Opens an existing run to resume it: its store, its `run.json` and
    /// its copy of what it runs (`file`, as given to [`Self::create_with`]).
    pub fn open_with(
        root: &Path,
        run_id: &str,
        file: &str,
        durable: bool,
    ) -> io::Result<(Self, RunMeta, String)> {
        let valid = !run_id.is_empty()
            && run_id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        let dir = runs_dir(root).join(run_id);
        if !valid || !dir.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!("no run `{run_id}` in {}", runs_dir(root).display()),
            ));
        }
        let dir = std::path::absolute(&dir).unwrap_or(dir);
        let meta = RunMeta::read(&dir.join("run.json"))?;
        let program = std::fs::read_to_string(dir.join(file)).map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("run `{run_id}` has no {file}: it is not a run of this kind"),
            )
        })?;
        let journal = Journal::load(dir.join("journal"), durable)?;
        Ok((
            RunStore {
                run_id: run_id.to_string(),
                dir,
                durable,
                journal,
            },
            meta,
            program,
        ))
    }

    /// Writes `rel` (relative to the run directory) atomically, creating
    /// its directory.
    pub fn write(&self, rel: &str, bytes: &[u8]) -> io::Result<()> {
        write_atomic(&self.dir.join(rel), bytes, self.durable)
    }

    /// Rewrites `run.json`.
    pub fn write_meta(&self, meta: &RunMeta) -> io::Result<()> {
        self.write("run.json", meta.to_json().as_bytes())
    }

    /// The run's event log.
    pub fn events_log(&self) -> PathBuf {
        self.dir.join("events.jsonl")
    }

    /// The run's event bus, numbering on from the log of a previous
    /// attempt, and the highest session number used so far (in the log or
    /// the journal): a resumed run goes on after both.
    pub fn event_bus(
        &self,
        sink: std::sync::Arc<dyn crate::events::EventSink>,
    ) -> (crate::events::EventBus, u64) {
        let log = self.events_log();
        let (next_seq, max_logged) = crate::events::scan_log(&log);
        let bus = crate::events::EventBus::new(&self.run_id, next_seq, Some(&log), sink);
        (bus, max_logged.max(self.journal.max_session_number()))
    }
}
