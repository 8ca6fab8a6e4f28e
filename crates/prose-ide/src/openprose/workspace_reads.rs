//! What a rule read of the workspace that typing in a prompt cannot
//! change, recorded so that its findings can be moved after such an edit
//! (`prompt_edit.rs`) as long as those reads give the same answers.
//!
//! Typing in a prompt changes one string token of the tree. A rule's
//! findings of the parse before, moved, are its findings now when it read
//! neither that text nor anything that changed meanwhile. The workspace
//! can change between two keystrokes (a memory file created on disk, the
//! root moved), but what a few of its reads answer is cheap to ask again:
//! whether there is a workspace, the file's root and home directories, and
//! whether a memory file exists. A rule whose only reads beyond the tree
//! and the names are these (the memory rules E018 and W011) has its
//! findings moved when each read gives the answer it gave, and runs again
//! otherwise. Any other read of the workspace, the configuration or the
//! file's text still makes a rule run again after every edit.

use super::ctx::Ctx;

/// The answers a rule was given by the reads [`Ctx::has_workspace`],
/// [`Ctx::root_dir`], [`Ctx::home_dir`] and [`Ctx::memory_file_exists`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct WorkspaceReads {
    has_workspace: Option<bool>,
    root: Option<String>,
    home: Option<Option<String>>,
    /// Memory files asked about, each with whether it existed.
    memory: Vec<(String, bool)>,
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
        if !self.memory.iter().any(|(p, _)| p == path) {
            self.memory.push((path.to_string(), answer));
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
    }
}
