//! Results computed per top-level statement of a file and kept while the
//! statement's tree is unchanged.
//!
//! An edit re-parses only the top-level statements it touches and splices
//! them into the previous tree (`reparse.rs`): every other statement keeps
//! its green node, the same allocation as before. A [`StatementMemo`]
//! keys what a computation found in a statement by that allocation, so
//! after an edit only the statements the edit touched are computed again,
//! and the rest are taken as they were, moved to where the statement now
//! starts.
//!
//! Sound because a green node never changes: the same allocation is the
//! same text and tree (a statement whose text recurs may share one, which
//! gives the same answer). An entry holds its green node, so the
//! allocation cannot be freed and reused for another node while the entry
//! exists. What a computation keeps must depend on the statement alone
//! (not on its neighbours or the rest of the file) and be stated relative
//! to the statement's start; the caller moves it to the statement's
//! offset.
//!
//! Each file keeps only the entries of its last computation, so the memo
//! holds one result per statement of each file analysed.

use std::{
    collections::HashMap,
    hash::BuildHasherDefault,
    sync::{
        Arc, Mutex, PoisonError,
        atomic::{AtomicU8, AtomicU64, Ordering},
    },
};

use prose_syntax::{GreenNode, GreenNodeData, NodeOrToken, SyntaxNode, TextRange, TextSize};

use crate::{db::SourceFile, reparse::green_key};

/// Statement keys are addresses: a fast hash is enough.
type ByKey<V> = HashMap<usize, V, BuildHasherDefault<rustc_hash::FxHasher>>;

/// Every per-statement memo of the database (shared with its snapshots).
#[derive(Default)]
pub struct StatementMemos {
    /// The prompt strings of each statement of an OpenProse file
    /// (`openprose/injections.rs`).
    pub(crate) injections: StatementMemo<crate::openprose::injections::StatementPrompts>,
    /// What each statement of an OpenProse file needs from the disk
    /// (`openprose/external.rs`).
    pub(crate) needs: StatementMemo<Vec<crate::openprose::external::Need>>,
    /// What the statement rules report in each statement of an OpenProse
    /// file (`openprose/statement_rules.rs`).
    pub(crate) rules: StatementMemo<crate::openprose::statement_rules::Findings>,
    /// What name resolution's walk finds in each statement of an OpenProse
    /// file (`openprose/semantics/walk.rs`).
    pub(crate) names: StatementMemo<crate::openprose::semantics::StatementNames>,
    /// Where the nodes the file-wide rules go through lie in each
    /// statement of an OpenProse file (`openprose/kind_index.rs`,
    /// `FILE_RULES`).
    pub(crate) file_rule_kinds: StatementMemo<prose_syntax::walk::Route>,
    /// The same for the rules run again after typing in a prompt
    /// (`PROMPT_EDIT`).
    pub(crate) prompt_edit_kinds: StatementMemo<prose_syntax::walk::Route>,
    /// The same for each part of the file-wide rules when they run in two
    /// (`FIRST_PART`, `SECOND_PART`; `openprose/rule_parts.rs`): the parts
    /// run at once on two threads, and a memo serves one run at a time.
    pub(crate) part_kinds: [StatementMemo<prose_syntax::walk::Route>; 2],
    /// The `session:` and `resume:` nodes of each statement of an OpenProse
    /// file that name an agent (`openprose/rules/resume_without_memory.rs`).
    pub(crate) invocations: StatementMemo<
        crate::openprose::rules::group_agents::resume_without_memory::StatementInvocations,
    >,
    /// Where the statements and declaring statements of each statement of
    /// an OpenProse file lie (`openprose/rules/places.rs`).
    pub(crate) places: StatementMemo<crate::openprose::rules::places::StatementPlaces>,
    /// The hints W007 chose for each file's unimported skills, with the
    /// imports they were chosen from
    /// (`openprose/rules/skill_not_imported.rs`).
    pub(crate) skill_hints: crate::openprose::rules::group_agents::skill_not_imported::HintMemo,
    /// The files whose statement rules run in a rule context of their own
    /// (batch databases only: `statement_rules::batch_statement_reports`).
    apart: Mutex<std::collections::HashSet<SourceFile>>,
    /// Whether the file-wide rules run in two parts: 0 as the machine
    /// suggests ([`StatementMemos::splits_file_rules`]), 1 no, 2 yes.
    split: AtomicU8,
}

impl StatementMemos {
    /// Whether these memos keep nothing ([`StatementMemos::batch`]).
    pub(crate) fn is_batch(&self) -> bool {
        self.rules.batch
    }

    /// Has the statement rules of `file` run in a rule context of their
    /// own (see [`StatementMemos::apart`]); a batch database only.
    pub(crate) fn set_apart(&self, file: SourceFile) {
        if self.is_batch() {
            self.apart
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .insert(file);
        }
    }

    /// Whether the statement rules of `file` run in a rule context of
    /// their own.
    pub(crate) fn apart(&self, file: SourceFile) -> bool {
        self.apart
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .contains(&file)
    }

    /// Whether the file-wide rules of an OpenProse file of `len` bytes run
    /// in two parts, each a query of its own, which two threads can compute
    /// at once (`openprose/rule_parts.rs`): not in a batch database (which
    /// runs each file's rules once, and its files on several threads), and
    /// otherwise when the file is long enough to share out
    /// ([`crate::PARALLEL_MIN_BYTES`]) and the process may use more than one
    /// core, unless the host said otherwise ([`StatementMemos::set_split`]).
    pub(crate) fn splits_file_rules(&self, len: usize) -> bool {
        static SEVERAL_CORES: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        !self.is_batch()
            && match self.split.load(Ordering::Relaxed) {
                1 => false,
                2 => true,
                _ => {
                    len >= crate::PARALLEL_MIN_BYTES
                        && *SEVERAL_CORES.get_or_init(|| {
                            std::thread::available_parallelism().is_ok_and(|n| n.get() > 1)
                        })
                }
            }
    }

    /// Makes the file-wide rules run in two parts or in one
    /// ([`StatementMemos::splits_file_rules`]) whatever the machine.
    #[cfg(test)]
    pub(crate) fn set_split(&self, split: bool) {
        self.split
            .store(if split { 2 } else { 1 }, Ordering::Relaxed);
    }

    /// Memos that keep nothing for later computations (a database that
    /// analyses each text once, [`crate::db::RootDatabase::batch`]): every
    /// statement is computed, as it would be the first time.
    pub(crate) fn batch() -> Self {
        StatementMemos {
            injections: StatementMemo::batch(),
            needs: StatementMemo::batch(),
            rules: StatementMemo::batch(),
            names: StatementMemo::batch(),
            file_rule_kinds: StatementMemo::batch(),
            prompt_edit_kinds: StatementMemo::batch(),
            part_kinds: [StatementMemo::batch(), StatementMemo::batch()],
            invocations: StatementMemo::batch(),
            places: StatementMemo::batch(),
            skill_hints: Default::default(),
            apart: Default::default(),
            split: AtomicU8::new(1),
        }
    }
}

/// One computation's results per top-level statement, per file.
pub(crate) struct StatementMemo<T> {
    /// Each file's statements of its last computation, in order.
    files: Mutex<HashMap<SourceFile, Vec<Slot<T>>>>,
    /// How many statements were computed (not taken from the memo), for
    /// tests.
    computed: AtomicU64,
    /// Whether nothing is kept ([`StatementMemos::batch`]).
    batch: bool,
}

/// A statement of a file's last computation: its key, and what was found
/// in it when that is kept.
struct Slot<T> {
    key: usize,
    kept: Option<Kept<T>>,
}

struct Kept<T> {
    /// Keeps the allocation the slot is keyed by alive.
    _green: GreenNode,
    value: Arc<T>,
}

impl<T> Default for StatementMemo<T> {
    fn default() -> Self {
        StatementMemo {
            files: Mutex::new(HashMap::new()),
            computed: AtomicU64::new(0),
            batch: false,
        }
    }
}

/// The handle of the top-level statement of `root` whose green node is
/// `green`, starting at `start`: found by a binary search among the root's
/// children, or (for an empty statement, which that search cannot tell
/// from its neighbours) by going through them.
fn statement_at(root: &SyntaxNode, start: TextSize, green: &GreenNodeData) -> SyntaxNode {
    let is_it = |n: &SyntaxNode| {
        n.text_range().start() == start && green_key(n.green()) == green_key(green)
    };
    let range = TextRange::at(start, green.text_len());
    if !range.is_empty()
        && let Some(NodeOrToken::Node(n)) = root.child_or_token_at_range(range)
        && is_it(&n)
    {
        return n;
    }
    root.children()
        .find(is_it)
        .expect("a child of the root starts there")
}

impl<T> StatementMemo<T> {
    /// A memo that keeps nothing.
    fn batch() -> Self {
        StatementMemo {
            batch: true,
            ..StatementMemo::default()
        }
    }

    /// For each top-level statement (child node of `root`) of `file`, in
    /// order, its start and what `compute` finds in it: taken from the
    /// file's previous computation when the statement's tree is unchanged.
    /// `compute` states its result relative to the statement's start.
    pub(crate) fn each(
        &self,
        file: SourceFile,
        root: &SyntaxNode,
        mut compute: impl FnMut(&SyntaxNode) -> T,
    ) -> Vec<(TextSize, Arc<T>)> {
        self.each_batched(
            file,
            root,
            |missing| missing.iter().map(&mut compute).collect(),
            |_| true,
        )
    }

    /// [`StatementMemo::each`], with the statements not in the memo
    /// computed together, and only the results `reusable` accepts kept
    /// for later computations: `compute` gets them in text order and
    /// returns one result for each (a computation over the whole file may
    /// be cheaper than one per statement when most are missing).
    pub(crate) fn each_batched(
        &self,
        file: SourceFile,
        root: &SyntaxNode,
        compute: impl FnOnce(&[SyntaxNode]) -> Vec<T>,
        reusable: impl Fn(&T) -> bool,
    ) -> Vec<(TextSize, Arc<T>)> {
        self.lend_batched(file, root, compute, reusable, |lent| {
            lent.iter().map(|&(at, v)| (at, v.clone())).collect()
        })
    }

    /// [`StatementMemo::each`], with the results lent to `read` instead of
    /// shared: no count of a result is raised and lowered again per
    /// statement (two atomic operations each, which a long program's
    /// memos paid on every edit, a few thousand times).
    pub(crate) fn lend<R>(
        &self,
        file: SourceFile,
        root: &SyntaxNode,
        mut compute: impl FnMut(&SyntaxNode) -> T,
        read: impl FnOnce(&[(TextSize, &T)]) -> R,
    ) -> R {
        self.lend_batched(
            file,
            root,
            |missing| missing.iter().map(&mut compute).collect(),
            |_| true,
            |lent| read(&lent.iter().map(|&(at, v)| (at, &**v)).collect::<Vec<_>>()),
        )
    }

    /// [`StatementMemo::each_batched`], with the results lent to `read`
    /// ([`StatementMemo::lend`]).
    ///
    /// An edit replaces a stretch of the root's children and leaves those
    /// before and after it as they were: the statements of the last
    /// computation are matched with the root's from both ends, in order
    /// (a comparison of keys each), and only those between are looked up
    /// by key among the last computation's between them. (A hash lookup of
    /// every statement cost about as much as all the rest of a memo's
    /// bookkeeping.) A statement found in neither (brought in by the edit,
    /// or a copy of one beyond the stretch it changed) is computed.
    pub(crate) fn lend_batched<R>(
        &self,
        file: SourceFile,
        root: &SyntaxNode,
        compute: impl FnOnce(&[SyntaxNode]) -> Vec<T>,
        reusable: impl Fn(&T) -> bool,
        read: impl FnOnce(&[(TextSize, &Arc<T>)]) -> R,
    ) -> R {
        // The statements as their green nodes and starts: a handle is
        // made only for each statement to compute.
        let green = root.green();
        let mut statements: Vec<(usize, TextSize, &GreenNodeData)> =
            Vec::with_capacity(green.children().len());
        let mut at = root.text_range().start();
        for child in green.children() {
            if let NodeOrToken::Node(node) = child {
                statements.push((green_key(node), at, node));
            }
            at += child.text_len();
        }
        let mut run = Run {
            memo: self,
            file,
            slots: if self.batch {
                Vec::new()
            } else {
                self.entries().remove(&file).unwrap_or_default()
            },
        };
        let old = &run.slots;
        let (n, m) = (statements.len(), old.len());
        let same = |i: usize, j: usize| old[j].key == statements[i].0 && old[j].kept.is_some();
        // The statements kept at the start and at the end.
        let mut head = 0;
        while head < n.min(m) && same(head, head) {
            head += 1;
        }
        let mut tail = 0;
        while tail < (n - head).min(m - head) && same(n - 1 - tail, m - 1 - tail) {
            tail += 1;
        }
        // Between them: a statement kept by the last computation between
        // them, else its place among those to compute (each allocation
        // once: a statement whose text recurs may share one).
        let between: ByKey<usize> = (head..m - tail)
            .filter(|&j| old[j].kept.is_some())
            .map(|j| (old[j].key, j))
            .collect();
        // Ok: the last computation's slot; Err: the place among those to
        // compute.
        let mut found: Vec<Result<usize, usize>> = Vec::with_capacity(n - head - tail);
        let mut wanted: Vec<usize> = Vec::new();
        let mut asked: ByKey<usize> = ByKey::default();
        for (i, &(k, _, _)) in statements.iter().enumerate().take(n - tail).skip(head) {
            found.push(match between.get(&k) {
                Some(&j) => Ok(j),
                None => Err(*asked.entry(k).or_insert_with(|| {
                    wanted.push(i);
                    wanted.len() - 1
                })),
            });
        }
        // Many to compute (a file opened, the CLI): a handle for every
        // statement, made in one pass over the root's children and kept
        // while they are computed (the walks' nodes then reuse the same
        // pages of memory: `prose check` of a 5,600-line program spent a
        // fifth more in the allocator when each handle was looked up).
        // Few (an edit): a handle for each of those alone.
        let all: Vec<SyntaxNode> = if wanted.len() > 8 {
            root.children().collect()
        } else {
            Vec::new()
        };
        let missing: Vec<SyntaxNode> = wanted
            .iter()
            .map(|&i| match all.get(i) {
                Some(n) => n.clone(),
                None => statement_at(root, statements[i].1, statements[i].2),
            })
            .collect();
        self.computed
            .fetch_add(missing.len() as u64, Ordering::Relaxed);
        let fresh = compute(&missing);
        assert_eq!(
            fresh.len(),
            missing.len(),
            "one result per missing statement"
        );
        let computed: Vec<Arc<T>> = fresh.into_iter().map(Arc::new).collect();
        let kept = |j: usize| &old[j].kept.as_ref().expect("kept").value;
        let value = |f: &Result<usize, usize>| match *f {
            Ok(j) => kept(j),
            Err(slot) => &computed[slot],
        };
        let mut lent: Vec<(TextSize, &Arc<T>)> = Vec::with_capacity(n);
        lent.extend((0..head).map(|i| (statements[i].1, kept(i))));
        lent.extend(
            (head..n - tail)
                .zip(&found)
                .map(|(i, f)| (statements[i].1, value(f))),
        );
        lent.extend((n - tail..n).map(|i| (statements[i].1, kept(i + m - n))));
        let out = read(&lent);
        if !self.batch {
            // The file keeps this computation's statements: those at both
            // ends as they were, and between them what was found or made
            // (when reusable).
            let middle: Vec<Slot<T>> = (head..n - tail)
                .zip(&found)
                .map(|(i, f)| {
                    let (k, _, node) = statements[i];
                    let v = value(f);
                    let kept = (f.is_ok() || reusable(v)).then(|| Kept {
                        _green: node.to_owned(),
                        value: v.clone(),
                    });
                    Slot { key: k, kept }
                })
                .collect();
            drop(lent);
            run.slots.splice(head..m - tail, middle);
        }
        out
    }

    /// How many statements were computed so far (not taken from the memo).
    #[cfg(test)]
    pub(crate) fn computed(&self) -> u64 {
        self.computed.load(Ordering::Relaxed)
    }

    fn entries(&self) -> std::sync::MutexGuard<'_, HashMap<SourceFile, Vec<Slot<T>>>> {
        // Nothing runs under the lock that could panic halfway.
        self.files.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// One computation over a file's statements, holding the file's slots
/// meanwhile and giving them back when dropped: when it ends, they are
/// this computation's statements; when it is interrupted (a cancelled
/// revision unwinds through `compute`), the file keeps the slots it had,
/// for the next computation.
struct Run<'m, T> {
    memo: &'m StatementMemo<T>,
    file: SourceFile,
    slots: Vec<Slot<T>>,
}

impl<T> Drop for Run<'_, T> {
    fn drop(&mut self) {
        if !self.memo.batch {
            let kept = std::mem::take(&mut self.slots);
            self.memo.entries().insert(self.file, kept);
        }
    }
}

#[cfg(test)]
#[path = "statement_memo_tests.rs"]
mod tests;
