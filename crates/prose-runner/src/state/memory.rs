//! Persistent agents' memory, where the runtime keeps it:
//! `persist: true` in the run (`agents/{name}/`), `project` in
//! `.prose/agents/{name}/`, `user` in `~/.prose/agents/{name}/`, a path in
//! that directory.
//!
//! Backends answer in print mode and cannot be trusted to write files, so
//! the runner keeps the memory itself: after each session of a persistent
//! agent it writes a segment `{name}-NNN.md` (the time, the task, the
//! answer) and rewrites `memory.md` from the latest segments. `resume:`
//! puts `memory.md` into the prompt; `session:` does not, and restarts
//! `memory.md` from its own segment (older segments stay as history).
//! Everything here is idempotent for a given segment, so a resume can
//! redo it safely.

use std::{
    io,
    path::{Path, PathBuf},
};

use super::write_atomic;
use crate::events::excerpt;

/// How many recent segments `memory.md` holds.
pub const MEMORY_SEGMENTS: u32 = 3;

/// At most this many characters of an answer go into a segment's summary
/// in `memory.md` (the segment file keeps it whole).
pub const MEMORY_ANSWER_CHARS: usize = 4000;

/// The file of segment `n`: `captain-003.md` (4 digits past 999).
pub fn segment_file(dir: &Path, agent: &str, n: u32) -> PathBuf {
    dir.join(format!("{agent}-{n:03}.md"))
}

/// The next free segment number in `dir`.
pub fn next_segment(dir: &Path, agent: &str) -> u32 {
    let prefix = format!("{agent}-");
    let max = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_prefix(&prefix)?
                .strip_suffix(".md")?
                .parse::<u32>()
                .ok()
        })
        .max()
        .unwrap_or(0);
    max + 1
}

/// `memory.md` of an agent, if it exists.
pub fn read_memory(dir: &Path) -> Option<String> {
    std::fs::read_to_string(dir.join("memory.md")).ok()
}

/// Writes segment `n` (unless it exists) and rewrites `memory.md` from the
/// latest segments, starting at `first` (the segment of the last fresh
/// `session:`).
pub fn record_segment(
    dir: &Path,
    agent: &str,
    n: u32,
    first: u32,
    task: &str,
    answer: &str,
    time: &str,
    durable: bool,
) -> io::Result<()> {
    let seg = segment_file(dir, agent, n);
    if !seg.exists() {
        let text = format!(
            "# Segment {n:03}\n\ntimestamp: {time}\nprompt: {:?}\n\n## Answer\n\n{answer}\n",
            excerpt(task)
        );
        write_atomic(&seg, text.as_bytes(), durable)?;
    }
    let from = first.max(n.saturating_sub(MEMORY_SEGMENTS - 1)).max(1);
    let mut memory = format!("# Agent Memory: {agent}\n");
    for k in from..=n {
        let Ok(text) = std::fs::read_to_string(segment_file(dir, agent, k)) else {
            continue;
        };
        memory.push_str(&format!("\n## Segment {k:03}\n\n"));
        let body = text.split_once("\n\n").map_or(text.as_str(), |(_, b)| b);
        let body: String = body.chars().take(MEMORY_ANSWER_CHARS).collect();
        memory.push_str(body.trim());
        memory.push('\n');
    }
    write_atomic(&dir.join("memory.md"), memory.as_bytes(), durable)?;
    // Where the current memory starts, so later segments know.
    write_atomic(
        &dir.join(".memory-start"),
        first.to_string().as_bytes(),
        durable,
    )
}

/// The first segment of the current memory (see [`record_segment`]).
pub fn memory_start(dir: &Path) -> u32 {
    std::fs::read_to_string(dir.join(".memory-start"))
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_number_on_and_memory_keeps_the_latest() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().join("captain");
        assert_eq!(next_segment(&d, "captain"), 1);
        for n in 1..=4 {
            record_segment(
                &d,
                "captain",
                n,
                1,
                &format!("task {n}"),
                &format!("answer {n}"),
                "T",
                false,
            )
            .unwrap();
        }
        assert_eq!(next_segment(&d, "captain"), 5);
        let memory = read_memory(&d).unwrap();
        assert!(!memory.contains("answer 1"), "{memory}");
        assert!(
            memory.contains("## Segment 002") && memory.contains("answer 4"),
            "{memory}"
        );
        // A fresh `session:` restarts the memory at its segment.
        record_segment(&d, "captain", 5, 5, "fresh", "anew", "T", false).unwrap();
        let memory = read_memory(&d).unwrap();
        assert!(
            memory.contains("anew") && !memory.contains("answer 4"),
            "{memory}"
        );
        assert_eq!(memory_start(&d), 5);
        // Idempotent: redoing a segment changes nothing.
        record_segment(&d, "captain", 5, 5, "other", "other", "T", false).unwrap();
        assert!(read_memory(&d).unwrap().contains("anew"));
        assert!(segment_file(&d, "captain", 1000).ends_with("captain-1000.md"));
    }
}
