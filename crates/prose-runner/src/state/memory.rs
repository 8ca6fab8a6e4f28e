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

/// What a session did to an agent's memory.
#[derive(Debug, Clone, Copy)]
pub struct Segment<'a> {
    pub agent: &'a str,
    /// The segment number.
    pub n: u32,
    /// A `session:` (memory starts afresh) rather than a `resume:`.
    pub fresh: bool,
    pub task: &'a str,
    pub answer: &'a str,
    pub time: &'a str,
}

/// Writes segment `n` (unless it exists) and updates `memory.md`: a fresh
/// session restarts it with its own segment; a resumed one adds its
/// segment, keeping whatever the file held before its segments (memory
/// written by someone else) and the latest [`MEMORY_SEGMENTS`] segments.
/// Doing it twice for the same segment changes nothing.
pub fn record_segment(dir: &Path, seg: Segment<'_>, durable: bool) -> io::Result<()> {
    let file = segment_file(dir, seg.agent, seg.n);
    if !file.exists() {
        let text = format!(
            "# Segment {:03}\n\ntimestamp: {}\nprompt: {:?}\n\n## Answer\n\n{}\n",
            seg.n,
            seg.time,
            excerpt(seg.task),
            seg.answer
        );
        write_atomic(&file, text.as_bytes(), durable)?;
    }
    let old = if seg.fresh { None } else { read_memory(dir) };
    let old = old.unwrap_or_default();
    let heading = |n: u32| format!("\n## Segment {n:03}\n");
    if !seg.fresh && old.contains(&heading(seg.n)) {
        return Ok(());
    }
    let (preamble, rest) = match old.find("\n## Segment ") {
        Some(i) => (&old[..i], &old[i..]),
        None => (old.as_str(), ""),
    };
    let preamble = if preamble.trim().is_empty() {
        format!("# Agent Memory: {}\n", seg.agent)
    } else {
        preamble.trim_end().to_string() + "\n"
    };
    let mut sections: Vec<&str> = rest
        .split("\n## Segment ")
        .filter(|s| !s.trim().is_empty())
        .collect();
    let answer: String = seg.answer.chars().take(MEMORY_ANSWER_CHARS).collect();
    let own = format!(
        "{:03}\n\ntimestamp: {}\nprompt: {:?}\n\n{}\n",
        seg.n,
        seg.time,
        excerpt(seg.task),
        answer.trim()
    );
    sections.push(&own);
    let keep = sections.len().saturating_sub(MEMORY_SEGMENTS as usize);
    let mut memory = preamble;
    for s in &sections[keep..] {
        memory.push_str("\n## Segment ");
        memory.push_str(s.trim_end());
        memory.push('\n');
    }
    write_atomic(&dir.join("memory.md"), memory.as_bytes(), durable)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_number_on_and_memory_keeps_the_latest() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().join("captain");
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(
            d.join("memory.md"),
            "# Agent Memory: captain\n\nWritten by someone else.\n",
        )
        .unwrap();
        assert_eq!(next_segment(&d, "captain"), 1);
        let seg = |n: u32, fresh: bool, answer: &'static str| Segment {
            agent: "captain",
            n,
            fresh,
            task: "task",
            answer,
            time: "T",
        };
        for (n, a) in [
            (1, "answer 1"),
            (2, "answer 2"),
            (3, "answer 3"),
            (4, "answer 4"),
        ] {
            record_segment(&d, seg(n, false, a), false).unwrap();
        }
        assert_eq!(next_segment(&d, "captain"), 5);
        let memory = read_memory(&d).unwrap();
        assert!(
            memory.starts_with(
                "# Agent Memory: captain\n\nWritten by someone else.\n\n## Segment 002\n"
            ),
            "{memory}"
        );
        assert!(
            !memory.contains("answer 1") && memory.contains("answer 4"),
            "{memory}"
        );
        // Idempotent: redoing a segment changes nothing.
        record_segment(&d, seg(4, false, "other"), false).unwrap();
        assert_eq!(read_memory(&d).unwrap(), memory);
        // A fresh `session:` restarts the memory with its segment.
        record_segment(&d, seg(5, true, "anew"), false).unwrap();
        let memory = read_memory(&d).unwrap();
        assert_eq!(
            memory,
            "# Agent Memory: captain\n\n## Segment 005\n\ntimestamp: T\nprompt: \"task\"\n\nanew\n"
        );
        assert!(segment_file(&d, "captain", 1000).ends_with("captain-1000.md"));
    }
}
