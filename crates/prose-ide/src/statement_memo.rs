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

use crate::db::SourceFile;

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

/// The key of a statement: the address of its green node.
fn green_key(green: &GreenNodeData) -> usize {
    std::ptr::from_ref(green).cast::<u8>() as usize
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
mod tests {
    use crate::{AnalysisHost, db::Db};

    const PROGRAM: &str = "agent writer:\n  model: sonnet\n  prompt: \"You write. _terminate_ \\\"DONE\\\"\"\n\nsession \"Draft the plan\"\n\nlet x = session: writer\n  prompt: \"\"\"\n    Polish {x}.\n    _if_ it is long, _then_ cut it\n    \"\"\"\n";

    /// The injections of `text` in a host that never saw another text.
    fn fresh(text: &str) -> Vec<crate::injection::Injection> {
        let mut host = AnalysisHost::new();
        let id = host.set_file_text("/ws/a.prose", text.to_string());
        let analysis = host.analysis();
        analysis
            .with_db(|db| crate::injection::injections(db, analysis.source_file(id), None).clone())
            .unwrap()
    }

    /// After edits, a file's injections equal a fresh analysis's, and only
    /// the statements an edit re-parsed were walked again.
    #[test]
    fn edits_recompute_only_the_statements_they_touch() {
        let mut host = AnalysisHost::new();
        let mut text = PROGRAM.to_string();
        let file = host.set_file_text("/ws/a.prose", text.clone());
        let injections = |host: &AnalysisHost| {
            let analysis = host.analysis();
            analysis
                .with_db(|db| {
                    crate::injection::injections(db, analysis.source_file(file), None).clone()
                })
                .unwrap()
        };
        assert_eq!(injections(&host), fresh(&text));
        assert_eq!(host_computed(&host), 3);
        // Typing in the second statement's prompt moves the third.
        for (from, to) in [
            ("Draft the plan", "Draft the whole plan"),
            ("Polish {x}.", "Polish {x} _now_."),
            ("model: sonnet", "model: opus"),
        ] {
            let at = host_computed(&host);
            text = text.replacen(from, to, 1);
            host.set_file_text("/ws/a.prose", text.clone());
            assert_eq!(injections(&host), fresh(&text), "{text}");
            // The statement edited, and at most one beside it when the
            // re-parse took a window a statement wider.
            let walked = host_computed(&host) - at;
            assert!(
                (1..=2).contains(&walked),
                "{walked} after {from:?} → {to:?}"
            );
        }
        // A new statement at the start moves all of them.
        let at = host_computed(&host);
        text = format!("input topic: \"t\"\n{text}");
        host.set_file_text("/ws/a.prose", text.clone());
        assert_eq!(injections(&host), fresh(&text));
        assert!(host_computed(&host) - at <= 2);
    }

    /// `statement_at` finds each child of the root from its green node and
    /// start, in whole and broken programs (where empty nodes may sit
    /// beside others).
    #[test]
    fn statements_are_found_from_their_green_nodes() {
        for text in [
            PROGRAM,
            "session \"unterminated\n  ) ] }\n\tfoo bar:\n",
            ")\n]\n: x\nlet\nagent\n",
            "session \"a\"\nsession \"a\"\n",
            "",
        ] {
            let root = prose_syntax::parse(text).syntax_node();
            for child in root.children() {
                let start = child.text_range().start();
                let found = super::statement_at(&root, start, child.green());
                assert_eq!(found, child, "{text:?}");
            }
        }
    }

    /// A computation interrupted halfway (a cancelled revision unwinds
    /// through it) loses nothing: the next one computes only what is new.
    /// Entries no longer used are dropped by the next complete run.
    #[test]
    fn an_interrupted_run_keeps_the_entries() {
        let mut host = AnalysisHost::new();
        let id = host.set_file_text("/ws/a.prose", PROGRAM.to_string());
        let analysis = host.analysis();
        let file = analysis.source_file(id);
        let memo = super::StatementMemo::<String>::default();
        let text = |n: &prose_syntax::SyntaxNode| n.text().to_string();
        let root = prose_syntax::parse(PROGRAM).syntax_node();
        let first: Vec<String> = memo
            .each(file, &root, text)
            .iter()
            .map(|(_, v)| v.to_string())
            .collect();
        assert_eq!(memo.computed(), 3);
        // The second statement replaced, the others' green nodes kept (as
        // the re-parse splices them); the run is interrupted.
        let index = root
            .green()
            .children()
            .enumerate()
            .filter(|(_, c)| c.as_node().is_some())
            .nth(1)
            .map(|(i, _)| i)
            .unwrap();
        let new_statement = prose_syntax::parse("session \"Draft it\"\n")
            .syntax_node()
            .first_child()
            .unwrap()
            .green()
            .to_owned();
        let root = prose_syntax::SyntaxNode::new_root(
            root.green()
                .replace_child(index, prose_syntax::NodeOrToken::Node(new_statement)),
        );
        let interrupted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            memo.each(file, &root, |_| -> String { panic!("cancelled") })
        }));
        assert!(interrupted.is_err());
        let before = memo.computed();
        let again: Vec<String> = memo
            .each(file, &root, text)
            .iter()
            .map(|(_, v)| v.to_string())
            .collect();
        assert_eq!(memo.computed() - before, 1, "only the edited statement");
        assert_eq!(again[0], first[0]);
        assert_eq!(again[2], first[2]);
        assert!(again[1].contains("Draft it"));
        assert_eq!(
            memo.entries()[&file].len(),
            3,
            "the old second statement is gone"
        );
    }

    /// The statements kept are matched from both ends of the root's
    /// children: after deleting, inserting, replacing, moving and
    /// repeating statements the answers are each statement's own, and only
    /// the statements an edit brought in (and a copy of one beyond the
    /// stretch it changed) are computed again.
    #[test]
    fn edits_at_any_place_keep_the_other_statements() {
        use prose_syntax::{GreenNode, NodeOrToken, SyntaxNode};
        let mut host = AnalysisHost::new();
        let id = host.set_file_text("/ws/a.prose", PROGRAM.to_string());
        let file = host.analysis().source_file(id);
        let memo = super::StatementMemo::<String>::default();
        let statement = |t: &str| -> GreenNode {
            prose_syntax::parse(&format!("session \"{t}\"\n"))
                .syntax_node()
                .first_child()
                .unwrap()
                .green()
                .to_owned()
        };
        let mut root = prose_syntax::parse("").syntax_node().green().to_owned();
        for i in 0..6 {
            root = root.insert_child(i, NodeOrToken::Node(statement(&format!("s{i}"))));
        }
        let text = |n: &SyntaxNode| n.text().to_string();
        let check = |root: &GreenNode, computed: u64, what: &str| {
            let before = memo.computed();
            let tree = SyntaxNode::new_root(root.clone());
            let got: Vec<String> = memo
                .each(file, &tree, text)
                .iter()
                .map(|(_, v)| v.to_string())
                .collect();
            let expected: Vec<String> = tree.children().map(|c| c.text().to_string()).collect();
            assert_eq!(got, expected, "{what}");
            assert_eq!(memo.computed() - before, computed, "{what}");
        };
        check(&root, 6, "first");
        check(&root, 0, "again");
        root = root.remove_child(2);
        check(&root, 0, "a statement deleted");
        root = root.insert_child(0, NodeOrToken::Node(statement("new")));
        check(&root, 1, "one inserted at the start");
        root = root.replace_child(3, NodeOrToken::Node(statement("other")));
        check(&root, 1, "one replaced");
        let last = root.children().count() - 1;
        let moved = root.children().nth(1).unwrap().to_owned();
        root = root.remove_child(1).insert_child(last, moved.clone());
        check(&root, 0, "one moved to the end");
        root = root.insert_child(2, moved);
        check(&root, 1, "the same allocation twice");
        root = root.remove_child(0).remove_child(0);
        check(&root, 0, "two deleted at the start");
    }

    /// A lent result is the one `each` shares; the slots are out of the
    /// memo while they are lent, and lending leaves no other holder of a
    /// kept result (the memo holds each alone afterwards); after an edit
    /// the statements kept are lent as they were.
    #[test]
    fn lent_results_are_the_kept_ones_uncounted() {
        use prose_syntax::SyntaxNode;
        let mut host = AnalysisHost::new();
        let id = host.set_file_text("/ws/a.prose", PROGRAM.to_string());
        let file = host.analysis().source_file(id);
        let memo = super::StatementMemo::<String>::default();
        let text = |n: &SyntaxNode| n.text().to_string();
        let root = prose_syntax::parse(PROGRAM).syntax_node();
        let shared: Vec<(prose_syntax::TextSize, String)> = memo
            .each(file, &root, text)
            .iter()
            .map(|(at, v)| (*at, v.to_string()))
            .collect();
        let before = memo.computed();
        let lent = memo.lend(file, &root, text, |lent| {
            for (at, v) in lent {
                let slots = memo.entries();
                assert!(slots.get(&file).is_none(), "the slots are out while lent");
                drop(slots);
                assert!(!v.is_empty(), "at {at:?}");
            }
            lent.iter()
                .map(|&(at, v)| (at, v.clone()))
                .collect::<Vec<_>>()
        });
        assert_eq!(lent, shared);
        assert_eq!(memo.computed(), before, "all kept");
        for slot in &memo.entries()[&file] {
            let kept = slot.kept.as_ref().expect("kept");
            assert_eq!(std::sync::Arc::strong_count(&kept.value), 1);
        }
        // The second statement replaced, the others' green nodes kept (as
        // the re-parse splices them): they are lent as kept.
        let index = root
            .green()
            .children()
            .position(|c| c.as_node().is_some_and(|n| n.to_string().contains("Draft")))
            .unwrap();
        let new_statement = prose_syntax::parse("session \"Draft it\"\n")
            .syntax_node()
            .first_child()
            .unwrap()
            .green()
            .to_owned();
        let root = SyntaxNode::new_root(
            root.green()
                .replace_child(index, prose_syntax::NodeOrToken::Node(new_statement)),
        );
        let again = memo.lend(file, &root, text, |lent| {
            lent.iter().map(|&(_, v)| v.clone()).collect::<Vec<_>>()
        });
        let expected: Vec<String> = root.children().map(|c| c.text().to_string()).collect();
        assert_eq!(again, expected);
        assert_eq!(memo.computed() - before, 1, "only the edited statement");
    }

    /// A file's rules run in two parts from `PARALLEL_MIN_BYTES` on, on a
    /// host with more than one core; below it never, unless the host says
    /// so; a batch database never.
    #[test]
    fn only_a_long_file_splits_its_rules() {
        let memos = super::StatementMemos::default();
        let min = crate::PARALLEL_MIN_BYTES;
        let cores = std::thread::available_parallelism().is_ok_and(|n| n.get() > 1);
        assert!(!memos.splits_file_rules(min - 1));
        assert_eq!(memos.splits_file_rules(min), cores);
        memos.set_split(true);
        assert!(memos.splits_file_rules(10));
        memos.set_split(false);
        assert!(!memos.splits_file_rules(10 * min));
        assert!(!super::StatementMemos::batch().splits_file_rules(10 * min));
    }

    fn host_computed(host: &AnalysisHost) -> u64 {
        host.db.statement_memos().injections.computed()
    }

    /// A batch host's memos keep nothing: after an edit every statement
    /// is computed again, and the answers are those of a host that keeps
    /// them, before and after edits, for every sample program.
    #[test]
    fn a_batch_host_keeps_nothing_and_answers_the_same() {
        let memos = |host: &AnalysisHost| {
            let m = host.db.statement_memos();
            [
                m.injections.computed(),
                m.needs.computed(),
                m.rules.computed(),
                m.names.computed(),
            ]
        };
        let kept = |host: &AnalysisHost| {
            let m = host.db.statement_memos();
            [
                m.injections
                    .entries()
                    .values()
                    .map(|e| e.len())
                    .sum::<usize>(),
                m.needs.entries().values().map(|e| e.len()).sum(),
                m.rules.entries().values().map(|e| e.len()).sum(),
                m.names.entries().values().map(|e| e.len()).sum(),
            ]
        };
        let mut batch = AnalysisHost::for_batch();
        let mut keeping = AnalysisHost::new();
        let path = "/ws/a.prose";
        let mut text = PROGRAM.to_string();
        let edits = [
            ("Draft the plan", "Draft the whole plan"),
            ("x = session", "y = session"),
        ];
        for step in 0..=edits.len() {
            if step > 0 {
                let (from, to) = edits[step - 1];
                text = text.replacen(from, to, 1);
            }
            let before = memos(&batch);
            let answers: Vec<_> = [&mut batch, &mut keeping]
                .into_iter()
                .map(|host| {
                    let id = host.set_file_text(path, text.clone());
                    let analysis = host.analysis();
                    (
                        analysis.diagnostics(id).unwrap(),
                        analysis.needed_files(id).unwrap(),
                    )
                })
                .collect();
            assert_eq!(answers[0], answers[1], "step {step}");
            // The program's statements, every one computed by each memo.
            let after = memos(&batch);
            for (b, a) in before.iter().zip(after) {
                assert_eq!(a - b, 3, "every statement again at step {step}");
            }
            assert_eq!(kept(&batch), [0; 4]);
            assert_ne!(kept(&keeping), [0; 4]);
        }
        // The samples, and a long text (which a batch host parses on two
        // threads): the same diagnostics either way.
        let mut samples = crate::openprose::rule_tests::sample_programs();
        let long = format!("{PROGRAM}\n").repeat(64 * 1024 / PROGRAM.len() + 1);
        // Its halves are joined, not parsed again.
        let seam = prose_syntax::halves_split_point(&long);
        assert!(seam.is_some_and(|at| prose_syntax::parse_in_halves_at(&long, at).1));
        samples.push(("/ws/long.prose".into(), long));
        // A batch host also with the statement rules set apart (computed
        // first on their own, or by the diagnostics last).
        for (path, text) in samples {
            let keeping = {
                let mut host = AnalysisHost::new();
                let id = host.set_file_text(&path, text.clone());
                host.analysis().diagnostics(id).unwrap()
            };
            for (apart, prepared) in [(false, false), (true, false), (true, true)] {
                let mut host = AnalysisHost::for_batch();
                let id = host.set_file_text(&path, text.clone());
                if apart {
                    host.run_statement_rules_apart(id);
                }
                let analysis = host.analysis();
                if prepared {
                    analysis.prepare_statement_rules(id).unwrap();
                }
                let got = analysis.diagnostics(id).unwrap();
                assert_eq!(got, keeping, "{path} apart {apart} prepared {prepared}");
            }
        }
    }

    /// A keeping host never sets statement rules apart.
    #[test]
    fn only_a_batch_host_sets_statement_rules_apart() {
        for (mut host, apart) in [
            (AnalysisHost::new(), false),
            (AnalysisHost::for_batch(), true),
        ] {
            let id = host.set_file_text("/ws/a.prose", PROGRAM);
            host.run_statement_rules_apart(id);
            let file = host.analysis().source_file(id);
            assert_eq!(host.db.statement_memos().apart(file), apart);
        }
    }
}
