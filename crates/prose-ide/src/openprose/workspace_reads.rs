//! What a rule read beyond the tree and the names that typing in a prompt
//! cannot change, recorded so that its findings can be moved after such an
//! edit (`prompt_edit.rs`) as long as those reads give the same answers.
//!
//! Typing in a prompt changes one string token of the tree. A rule's
//! findings of the parse before, moved, are its findings now when it read
//! neither that text nor anything that changed meanwhile. The workspace
//! can change between two keystrokes (a memory file created on disk, an
//! imported program edited, the root moved), but what some of its reads
//! answer is cheap to ask again:
//!
//! - whether there is a workspace, the file's root and home directories,
//!   and whether a memory file exists (the memory rules E018 and W011);
//! - which of a `use` path's candidate files the host loaded, and the
//!   inputs and outputs (contract) of a loaded program (the import rules
//!   P204, E026, E027, E028). The candidates themselves depend only on the
//!   path (in the tree), the file's directory, its root's configuration
//!   (compared before anything is moved), and the root and home
//!   directories (recorded).
//!
//! A rule whose only reads beyond the tree and the names are these has its
//! findings moved when each read gives the answer it gave, and runs again
//! otherwise.
//!
//! A rule may also read ranges of the file's text ([`Ctx::text_of`]): those
//! findings are moved when the edited token lies outside every range read
//! (the ranges move with the findings), and the rule runs again when it
//! lies in one. Line numbers ([`Ctx::line_of`]) are not a read of the
//! text here: typing in a prompt neither adds nor removes a line break.
//!
//! Any other read of the workspace, the configuration or the file's text
//! still makes a rule run again after every edit.

use prose_syntax::TextRange;
use rustc_hash::FxHashMap;

use super::{contract::Contract, ctx::Ctx};
use crate::db::SourceFile;

/// The answers a rule was given by the reads [`Ctx::has_workspace`],
/// [`Ctx::root_dir`], [`Ctx::home_dir`], [`Ctx::memory_file_exists`],
/// [`Ctx::loaded_file`] and [`Ctx::contract`], and the ranges of the text
/// it read ([`Ctx::text_of`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct WorkspaceReads {
    has_workspace: Option<bool>,
    root: Option<String>,
    home: Option<Option<String>>,
    /// Memory files asked about, each with whether it existed (by path:
    /// a rule may ask about thousands, once each).
    memory: FxHashMap<String, bool>,
    /// Candidate lists looked up among the loaded files, each with the
    /// file found.
    loaded: FxHashMap<Vec<String>, Option<SourceFile>>,
    /// Programs whose contract was read, each with that contract.
    contracts: FxHashMap<SourceFile, Contract>,
    /// Ranges of the file's text read, in the coordinates of the findings
    /// they are kept with.
    text: Vec<TextRange>,
}

impl WorkspaceReads {
    pub(crate) fn has_workspace(&mut self, answer: bool) {
        self.has_workspace = Some(answer);
    }

    pub(crate) fn root(&mut self, answer: &str) {
        if self.root.is_none() {
            self.root = Some(answer.to_string());
        }
    }

    pub(crate) fn home(&mut self, answer: &Option<String>) {
        if self.home.is_none() {
            self.home = Some(answer.clone());
        }
    }

    pub(crate) fn memory_file(&mut self, path: &str, answer: bool) {
        if !self.memory.contains_key(path) {
            self.memory.insert(path.to_string(), answer);
        }
    }

    pub(crate) fn loaded_file(&mut self, candidates: &[String], answer: Option<SourceFile>) {
        if !self.loaded.contains_key(candidates) {
            self.loaded.insert(candidates.to_vec(), answer);
        }
    }

    pub(crate) fn contract(&mut self, file: SourceFile, answer: &Contract) {
        self.contracts.entry(file).or_insert_with(|| answer.clone());
    }

    pub(crate) fn text(&mut self, range: TextRange) {
        if !self.text.contains(&range) {
            self.text.push(range);
        }
    }

    /// Whether every read gives the same answer in `ctx` (asked without
    /// recording).
    pub(crate) fn hold(&self, ctx: &Ctx<'_>) -> bool {
        self.has_workspace
            .is_none_or(|answer| answer == ctx.unrecorded_has_workspace())
            && (self.root.as_ref()).is_none_or(|answer| *answer == ctx.unrecorded_root_dir())
            && (self.home.as_ref()).is_none_or(|answer| *answer == ctx.unrecorded_home_dir())
            && (self.memory.iter())
                .all(|(path, answer)| *answer == ctx.unrecorded_memory_file_exists(path))
            && (self.loaded.iter())
                .all(|(candidates, answer)| *answer == ctx.unrecorded_loaded_file(candidates))
            && (self.contracts.iter())
                .all(|(file, answer)| answer == ctx.unrecorded_contract(*file))
    }

    /// These reads after an edit that replaced the text at `edited` (a
    /// range of the text they were made in), each range moved by `moved`;
    /// `None` when a range of the text read overlaps `edited` (the rule
    /// must run again) or cannot be moved.
    pub(crate) fn after_edit(
        &self,
        edited: TextRange,
        moved: impl Fn(TextRange) -> Option<TextRange>,
    ) -> Option<WorkspaceReads> {
        let apart = |r: &TextRange| r.end() <= edited.start() || r.start() >= edited.end();
        if !self.text.iter().all(apart) {
            return None;
        }
        let text = self.text.iter().map(|&r| moved(r)).collect::<Option<_>>()?;
        Some(WorkspaceReads {
            text,
            ..self.clone()
        })
    }
}

#[cfg(test)]
mod tests {
    use prose_syntax::{TextRange, TextSize};

    use super::WorkspaceReads;

    fn range(start: u32, end: u32) -> TextRange {
        TextRange::new(TextSize::from(start), TextSize::from(end))
    }

    /// A range read that overlaps the edited one stops the move; ranges
    /// before or after it (touching included) move with it.
    #[test]
    fn text_reads_move_unless_the_edit_is_in_one() {
        let mut reads = WorkspaceReads::default();
        reads.text(range(0, 10));
        reads.text(range(20, 30));
        let shift = |r: TextRange| Some(r + TextSize::from(5));
        let keep = |r: TextRange| Some(r);
        let moved = reads.after_edit(range(10, 20), shift).unwrap();
        assert_eq!(moved.text, [range(5, 15), range(25, 35)]);
        assert!(reads.after_edit(range(9, 12), keep).is_none());
        assert!(reads.after_edit(range(25, 26), keep).is_none());
        assert!(reads.after_edit(range(0, 1), keep).is_none());
        // An empty edited range inside a read is still in it.
        assert!(reads.after_edit(range(5, 5), keep).is_none());
        assert!(reads.after_edit(range(12, 18), |_| None).is_none());
        assert!(
            WorkspaceReads::default()
                .after_edit(range(0, 5), |_| None)
                .is_some()
        );
    }
}
