//! The journal: one record per finished backend request and per answered
//! input, keyed by the request's place in the execution (see
//! `interp::Cx::key`), so a resumed run finds the answers of the requests
//! it already made.

use std::{collections::HashMap, io, path::PathBuf, sync::Mutex};

use serde::{Deserialize, Serialize};

use super::write_atomic;

/// What a persistent agent's session wrote to its memory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemoryRecord {
    /// The agent's memory directory, absolute.
    pub dir: PathBuf,
    pub agent: String,
    /// The segment number (`captain-003.md` is 3).
    pub segment: u32,
    /// The session started the memory afresh (`session:`), rather than
    /// continuing it (`resume:`).
    pub fresh: bool,
}

/// One finished request (or answered input).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JournalEntry {
    /// The request's place in the execution.
    pub key: String,
    /// The session id (`s4@12`), or `input:{name}`.
    pub id: String,
    /// `session`, `condition`, `choice`, `judgement` or `input`.
    pub kind: String,
    pub agent: Option<String>,
    pub binding: Option<String>,
    /// The task text the request was made with (for people reading it).
    pub task: String,
    /// The answer, trimmed.
    pub output: String,
    pub memory: Option<MemoryRecord>,
    pub session_handle: Option<String>,
    pub time: String,
    /// The tool calls the request made (job tasks), reapplied on resume.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<crate::backend::ToolCall>,
}

impl JournalEntry {
    /// The record of input `name` answered with `answer`.
    pub fn input(
        key: String,
        name: &str,
        binding: Option<String>,
        task: String,
        answer: &str,
    ) -> Self {
        JournalEntry {
            key,
            id: format!("input:{name}"),
            kind: "input".into(),
            agent: None,
            binding,
            task,
            output: answer.to_string(),
            memory: None,
            session_handle: None,
            time: crate::events::now_rfc3339(),
            tool_calls: Vec::new(),
        }
    }
}

/// The journal of a run: in memory, and one file per record on disk.
#[derive(Debug)]
pub struct Journal {
    dir: PathBuf,
    durable: bool,
    entries: Mutex<HashMap<String, JournalEntry>>,
}

impl Journal {
    pub fn new(dir: PathBuf, durable: bool) -> Self {
        Journal {
            dir,
            durable,
            entries: Mutex::new(HashMap::new()),
        }
    }

    /// Loads every record of a run. A record that cannot be read (only a
    /// file written by something else can be partial) is skipped.
    pub fn load(dir: PathBuf, durable: bool) -> io::Result<Self> {
        let mut entries = HashMap::new();
        if dir.is_dir() {
            for e in std::fs::read_dir(&dir)? {
                let path = e?.path();
                if path.extension().is_none_or(|x| x != "json") {
                    continue;
                }
                let Ok(text) = std::fs::read_to_string(&path) else {
                    continue;
                };
                if let Ok(entry) = serde_json::from_str::<JournalEntry>(&text) {
                    entries.insert(entry.key.clone(), entry);
                }
            }
        }
        Ok(Journal {
            dir,
            durable,
            entries: Mutex::new(entries),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, JournalEntry>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn get(&self, key: &str) -> Option<JournalEntry> {
        self.lock().get(key).cloned()
    }

    /// The answer recorded for input `name`, if it was asked before.
    pub fn get_input(&self, name: &str) -> Option<JournalEntry> {
        let id = format!("input:{name}");
        self.lock().values().find(|e| e.id == id).cloned()
    }

    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The highest session number recorded.
    pub fn max_session_number(&self) -> u64 {
        self.lock()
            .values()
            .filter_map(|e| crate::events::session_number(&e.id))
            .max()
            .unwrap_or(0)
    }

    /// Commits a record: on disk (atomically) first, then in memory.
    pub fn put(&self, entry: JournalEntry) -> io::Result<()> {
        let file = if crate::events::session_number(&entry.id).is_some() {
            format!("{}.json", entry.id.split('@').next().unwrap_or("s"))
        } else {
            format!("input-{:016x}.json", fnv(&entry.key))
        };
        let text = serde_json::to_string_pretty(&entry).map_err(io::Error::other)?;
        write_atomic(&self.dir.join(file), text.as_bytes(), self.durable)?;
        self.lock().insert(entry.key.clone(), entry);
        Ok(())
    }
}

/// FNV-1a, for stable file names of input records.
fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf29ce484222325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100000001b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: &str, id: &str) -> JournalEntry {
        JournalEntry {
            key: key.into(),
            id: id.into(),
            kind: "session".into(),
            agent: None,
            binding: Some("x".into()),
            task: "t".into(),
            output: "out".into(),
            memory: None,
            session_handle: None,
            time: "2026-01-01T00:00:00.000Z".into(),
            tool_calls: Vec::new(),
        }
    }

    #[test]
    fn records_survive_a_reload() {
        let dir = tempfile::tempdir().unwrap();
        let j = Journal::new(dir.path().join("journal"), true);
        j.put(entry("/12", "s1@12")).unwrap();
        j.put(entry("/15", "s7@15")).unwrap();
        j.put(entry("input:/3", "input:topic")).unwrap();
        std::fs::write(dir.path().join("journal/garbage.json"), "{\"key\": ").unwrap();
        let again = Journal::load(dir.path().join("journal"), true).unwrap();
        assert_eq!(again.len(), 3);
        assert_eq!(again.get("/15").unwrap().id, "s7@15");
        assert_eq!(again.max_session_number(), 7);
        assert!(again.get("/99").is_none());
    }
}
