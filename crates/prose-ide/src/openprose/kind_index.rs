//! The rules' kind index: the nodes of each kind the rules go through, in
//! pre-order, collected once per rule context ([`super::ctx::Ctx`]) when a
//! rule first asks.
//!
//! Which kinds are indexed is a [`KindSet`]. [`ALL`] lists the node types
//! any rule goes through; a tree's names, references, literals and bodies,
//! which no rule lists, are about half of its nodes. After typing in a
//! prompt most rules' findings are the previous ones, moved
//! (`prompt_edit.rs`), and the few rules that run again go through a few
//! rare kinds ([`PROMPT_EDIT`]).
//!
//! The index holds a node handle (an allocation of its own) for each
//! indexed node. [`KindIndex::walk`] makes a handle for every node of the
//! tree on the way ([`prose_syntax::walk::pre_order`]), the cheaper way
//! when most nodes are indexed or lie above indexed ones;
//! [`KindIndex::routed`] makes handles only for the indexed nodes and
//! their ancestors, from each top-level statement's route to them
//! ([`prose_syntax::walk::Route`], read from the green tree), kept while
//! the statement is unchanged, so that after an edit only the statements
//! it re-parsed are read again: the cheaper way for the fewer kinds of the
//! file-wide rules ([`FILE_RULES`]) and of a prompt edit ([`PROMPT_EDIT`]).
//!
//! A rule asking for a kind its context did not index gets its nodes by a
//! walk of the tree (the same nodes in the same order), and the kind is
//! added to the set for the contexts made afterwards. Tests run the rules
//! over the corpus and check that they ask for nothing else.

use std::sync::{Arc, Mutex};

use prose_syntax::{AstNode, SyntaxKind, SyntaxNode, TextRange, ast, walk::Route};

use crate::{
    db::{Db, SourceFile},
    statement_memo::{StatementMemo, StatementMemos},
};

/// Node kinds to index: the node types listed, and (for a set that
/// learns) any other kind a rule asked for in a context made before.
pub(crate) struct KindSet {
    listed: &'static [fn(SyntaxKind) -> bool],
    /// Whether a kind asked for outside the set is added to it.
    learns: bool,
    learnt: Mutex<Option<Arc<Vec<bool>>>>,
}

/// The node types the rules go through (`rules::nodes`,
/// [`super::ctx::Ctx::nodes_matching`]), all of them.
pub(crate) static ALL: KindSet = KindSet::new(
    true,
    &[
        ast::AgentDef::can_cast,
        ast::BlockDef::can_cast,
        ast::CallExpr::can_cast,
        ast::CatchClause::can_cast,
        ast::ChoiceStmt::can_cast,
        ast::DiscretionExpr::can_cast,
        ast::DoCall::can_cast,
        ast::ElifClause::can_cast,
        ast::ElseClause::can_cast,
        ast::ForExpr::can_cast,
        ast::IfStmt::can_cast,
        ast::ImportStmt::can_cast,
        ast::InputDecl::can_cast,
        ast::LoopExpr::can_cast,
        ast::ModifierList::can_cast,
        ast::OptionClause::can_cast,
        ast::OutputDecl::can_cast,
        ast::ParallelExpr::can_cast,
        ast::PipeOp::can_cast,
        ast::Property::can_cast,
        ast::PropertyBlock::can_cast,
        ast::RepeatExpr::can_cast,
        ast::ResumeExpr::can_cast,
        ast::SessionExpr::can_cast,
        ast::StringLit::can_cast,
        ast::ThrowStmt::can_cast,
        ast::TryStmt::can_cast,
        ast::UseStmt::can_cast,
        |k| k == SyntaxKind::MODIFIER,
    ],
);

/// The node types the rules that look at the whole file go through (the
/// rules not run per statement, `statement_rules.rs`), in the `default`
/// profile: after an edit elsewhere than in a prompt, the statement rules
/// run in contexts of their own and the file's context serves these rules
/// alone. It does not learn: a kind asked for outside it (P102 and P103's
/// strings, in a profile where they run, which takes the index of
/// [`ALL`] instead: `rules::run`) is found by a walk of the tree. Tests run
/// the rules over the sample programs after edits and check that none
/// walks.
pub(crate) static FILE_RULES: KindSet = KindSet::new(
    false,
    &[
        ast::BlockDef::can_cast,
        ast::CallExpr::can_cast,
        ast::CatchClause::can_cast,
        ast::DoCall::can_cast,
        ast::ForExpr::can_cast,
        ast::ImportStmt::can_cast,
        ast::InputDecl::can_cast,
        ast::LoopExpr::can_cast,
        ast::PipeOp::can_cast,
        ast::RepeatExpr::can_cast,
        ast::ResumeExpr::can_cast,
        ast::UseStmt::can_cast,
    ],
);

/// The node types the first part of the file-wide rules goes through when
/// they run in two (`rule_parts.rs`): [`FILE_RULES`] but those only the
/// second part's rules ask for. It does not learn, as [`FILE_RULES`].
pub(crate) static FIRST_PART: KindSet = KindSet::new(
    false,
    &[
        ast::BlockDef::can_cast,
        ast::CallExpr::can_cast,
        ast::DoCall::can_cast,
        ast::ImportStmt::can_cast,
        ast::ResumeExpr::can_cast,
        ast::UseStmt::can_cast,
    ],
);

/// The node types the second part of the file-wide rules goes through
/// (`rule_parts::SECOND`: the rules that compare declarations, E022's
/// inputs). It does not learn, as [`FILE_RULES`].
pub(crate) static SECOND_PART: KindSet = KindSet::new(
    false,
    &[
        ast::BlockDef::can_cast,
        ast::CatchClause::can_cast,
        ast::DoCall::can_cast,
        ast::ForExpr::can_cast,
        ast::InputDecl::can_cast,
        ast::LoopExpr::can_cast,
        ast::PipeOp::can_cast,
        ast::RepeatExpr::can_cast,
        ast::UseStmt::can_cast,
    ],
);

/// The node types the rules run again after typing in a prompt go through
/// (those whose findings are not moved: `prompt_edit::READ_STRINGS`, and
/// those that read the file's text, the configuration or the workspace),
/// in the `default` profile. It does not learn: a rule that runs again for
/// once (the memory rules when a memory file appeared, P102 and P103 in the
/// `strict` profile) walks the tree for its kinds that time, and the next
/// edits' indexes stay small.
pub(crate) static PROMPT_EDIT: KindSet = KindSet::new(
    false,
    &[
        ast::CallExpr::can_cast,
        ast::InputDecl::can_cast,
        ast::UseStmt::can_cast,
    ],
);

impl KindSet {
    const fn new(learns: bool, listed: &'static [fn(SyntaxKind) -> bool]) -> KindSet {
        KindSet {
            listed,
            learns,
            learnt: Mutex::new(None),
        }
    }

    /// The kinds the listed node types accept, by raw value.
    pub(crate) fn listed(&self) -> Vec<bool> {
        (0u16..)
            .map_while(SyntaxKind::from_raw)
            .map(|k| self.listed.iter().any(|can_cast| can_cast(k)))
            .collect()
    }

    /// Which kinds to index, by raw value: the listed ones and those
    /// learnt.
    pub(crate) fn indexed(&self) -> Arc<Vec<bool>> {
        let mut learnt = self.learnt.lock().unwrap_or_else(|e| e.into_inner());
        learnt
            .get_or_insert_with(|| Arc::new(self.listed()))
            .clone()
    }

    /// Adds the kinds `requested` (by raw value) to the set, if it learns.
    pub(crate) fn learn(&self, requested: &[bool]) {
        if !self.learns {
            return;
        }
        let mut learnt = self.learnt.lock().unwrap_or_else(|e| e.into_inner());
        let known = learnt.get_or_insert_with(|| Arc::new(self.listed()));
        if requested.iter().zip(known.iter()).any(|(&r, &k)| r && !k) {
            let mut more = known.as_ref().clone();
            for (k, r) in more.iter_mut().zip(requested) {
                *k |= r;
            }
            *known = Arc::new(more);
        }
    }
}

thread_local! {
    /// How many times a rule on this thread asked for a kind its context
    /// did not index (and walked the tree for it).
    static WALKED_FOR: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Counts a walk of the tree for a kind a context did not index.
pub(crate) fn walked_for_kind() {
    WALKED_FOR.set(WALKED_FOR.get() + 1);
}

/// How many times a rule on this thread walked the tree for a kind its
/// context did not index (tests).
#[cfg(test)]
pub(crate) fn walks_for_kinds() -> usize {
    WALKED_FOR.get()
}

/// How many node and token kinds there are.
pub(crate) fn kind_count() -> usize {
    static COUNT: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *COUNT.get_or_init(|| (0u16..).map_while(SyntaxKind::from_raw).count())
}

/// The indexed nodes of a subtree.
pub(crate) struct KindIndex {
    /// The set the index was made from (it learns what else was asked).
    pub(crate) set: &'static KindSet,
    /// Which kinds are indexed, by raw value.
    indexed: Arc<Vec<bool>>,
    /// The nodes of the indexed kinds in pre-order.
    nodes: Vec<SyntaxNode>,
    /// For each kind (by its raw value), the positions in `nodes` of the
    /// nodes of that kind, ascending: a rule asking for one node type
    /// visits only those.
    by_kind: Vec<Vec<u32>>,
    /// The nodes the set's extra filter accepted ([`Narrowed::also`]), in
    /// pre-order, when the index was made from routes with one.
    also: Option<Vec<SyntaxNode>>,
}

impl KindIndex {
    /// The index of `scope`'s subtree (`scope` included) for `set`, made
    /// by a walk of every node's handle.
    pub(crate) fn walk(db: &dyn Db, scope: &SyntaxNode, set: &'static KindSet) -> KindIndex {
        let indexed = set.indexed();
        // About one node of the listed kinds per 16 bytes of a program:
        // most indexes are made without growing.
        let mut index = Builder::new(indexed, usize::from(scope.text_range().len()) / 16);
        let mut i = 0usize;
        prose_syntax::walk::pre_order(scope, |n| {
            if i.is_multiple_of(1 << 16) {
                db.unwind_if_revision_cancelled();
            }
            i += 1;
            if wants(&index.indexed, n.kind() as u16) {
                index.push(n);
            }
        });
        index.finish(set)
    }

    /// The index of the file whose tree is `root` for `set` (which must
    /// not learn), from each top-level statement's route to the indexed
    /// nodes ([`prose_syntax::walk::Route`]), kept in `memo` while the
    /// statement's tree is unchanged: after an edit, only the statements
    /// it re-parsed are read again, and handles are made only for the
    /// indexed nodes and their ancestors. The routes lead to the nodes
    /// `also` accepts too, which the index keeps apart
    /// ([`KindIndex::also`]). `memo` must be used with the same `set` and
    /// `also` every time.
    pub(crate) fn routed(
        db: &dyn Db,
        file: SourceFile,
        root: &SyntaxNode,
        set: &'static KindSet,
        also: Option<fn(&prose_syntax::GreenNodeData) -> bool>,
        memo: &StatementMemo<Route>,
    ) -> KindIndex {
        debug_assert!(!set.learns, "a kept route is for one set of kinds");
        db.unwind_if_revision_cancelled();
        let indexed = set.indexed();
        let compute = |stmt: &SyntaxNode| {
            Route::of(stmt.green(), |g| {
                wants(&indexed, g.kind().0) || also.is_some_and(|also| also(g))
            })
        };
        memo.lend(file, root, compute, |routes| {
            Self::follow_routes(root, set, also, routes)
        })
    }

    /// The index of the nodes the statements' `routes` (one per child node
    /// of `root`, in order) lead to ([`KindIndex::routed`]).
    fn follow_routes(
        root: &SyntaxNode,
        set: &'static KindSet,
        also: Option<fn(&prose_syntax::GreenNodeData) -> bool>,
        routes: &[(prose_syntax::TextSize, &Route)],
    ) -> KindIndex {
        let indexed = set.indexed();
        let count: usize = routes.iter().map(|(_, r)| r.accepted()).sum();
        let mut index = Builder::new(indexed.clone(), count + 1);
        let mut extra = Vec::new();
        if wants(&indexed, root.kind() as u16) {
            index.push(root);
        }
        // The routes come in the order of the root's child nodes, one per
        // statement. Most statements hold no node of the set: a handle is
        // made only for those whose route leads somewhere
        // ([`Statements`]).
        let mut statements = Statements { root, last: None };
        let mut routes = routes.iter();
        let mut at = root.text_range().start();
        let mut n = 0;
        for (i, child) in root.green().children().enumerate() {
            let range = TextRange::at(at, child.text_len());
            at = range.end();
            if child.as_node().is_none() {
                continue;
            }
            let &(_, route) = routes.next().expect("a route for each statement");
            n += 1;
            if route.is_empty() {
                continue;
            }
            route.follow(&statements.handle(n - 1, i, range), |node| {
                if wants(&indexed, node.kind() as u16) {
                    index.push(node);
                }
                if also.is_some_and(|also| also(node.green())) {
                    extra.push(node.clone());
                }
            });
        }
        let mut index = index.finish(set);
        index.also = also.map(|_| extra);
        index
    }

    /// The nodes the extra filter of the index's routes accepted, in
    /// pre-order ([`KindIndex::routed`]); `None` for an index made
    /// otherwise.
    pub(crate) fn also(&self) -> Option<&[SyntaxNode]> {
        self.also.as_deref()
    }

    /// The nodes of `kinds` in pre-order, or `None` when one of them is
    /// not indexed.
    pub(crate) fn nodes_of<'s>(
        &'s self,
        kinds: &[SyntaxKind],
    ) -> Option<impl Iterator<Item = SyntaxNode> + use<'s>> {
        let indexed = |k: SyntaxKind| self.indexed.get(k as usize).copied().unwrap_or(false);
        if !kinds.iter().all(|&k| indexed(k)) {
            return None;
        }
        let mut lists = kinds
            .iter()
            .filter_map(|&k| self.by_kind.get(k as usize))
            .filter(|l| !l.is_empty());
        let indices: Vec<u32> = match (lists.next(), lists.next()) {
            (None, _) => Vec::new(),
            (Some(one), None) => one.clone(),
            (Some(a), Some(b)) => {
                let mut all: Vec<u32> = a.iter().chain(b).copied().collect();
                all.extend(lists.flatten());
                // Each kind's list is ascending: the stable sort finds
                // those runs and merges them (the indices are distinct, so
                // the order is the unstable sort's).
                all.sort();
                all
            }
        };
        Some(indices.into_iter().map(|i| self.nodes[i as usize].clone()))
    }
}

/// The handles of some of a root's child nodes (its top-level statements),
/// asked for in ascending order of their position among them, each made
/// the cheaper of two ways: by a step from the handle made last (or the
/// first child) to its next sibling, when that is the one; else by a
/// binary search of the root's children by range
/// ([`prose_syntax::walk::child_at`]). A step makes and drops a handle per
/// statement passed (an allocation each), so stepping past even a few
/// cost more than the search: with up to five steps, a `#` keystroke in a
/// long program ran 0.4 M more instructions (callgrind, 82 keystrokes less
/// 22), most of them in the allocator.
struct Statements<'r> {
    root: &'r SyntaxNode,
    /// The handle made last and its position among the child nodes.
    last: Option<(usize, SyntaxNode)>,
}

impl Statements<'_> {
    /// How many statements apart a handle is still found by stepping
    /// along the siblings rather than by a binary search.
    const NEAR: usize = 1;

    /// The handle of the root's child node at position `n` among its child
    /// nodes, at `index` among its children and tokens, over `range`; `n`
    /// must be above the position asked for before.
    fn handle(&mut self, n: usize, index: usize, range: TextRange) -> SyntaxNode {
        let near = match self.last.take() {
            Some((k, node)) if n - k <= Self::NEAR => Some((k, node)),
            None if n < Self::NEAR => self.root.first_child().map(|first| (0, first)),
            _ => None,
        };
        let node = match near {
            Some((mut k, mut node)) => {
                while k < n {
                    node = node.next_sibling().expect("a statement for each route");
                    k += 1;
                }
                node
            }
            None => prose_syntax::walk::child_at(self.root, index, range.start(), range.len()),
        };
        self.last = Some((n, node.clone()));
        node
    }
}

/// The fewer kinds a whole-file context may index than every rule's
/// (`Ctx::index_for_prompt_edit`, `Ctx::index_for_file_rules`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Narrowed {
    /// [`PROMPT_EDIT`].
    PromptEdit,
    /// [`FILE_RULES`].
    FileRules,
    /// [`FIRST_PART`].
    FirstPart,
    /// [`SECOND_PART`].
    SecondPart,
}

impl Narrowed {
    pub(crate) fn set(self) -> &'static KindSet {
        match self {
            Narrowed::PromptEdit => &PROMPT_EDIT,
            Narrowed::FileRules => &FILE_RULES,
            Narrowed::FirstPart => &FIRST_PART,
            Narrowed::SecondPart => &SECOND_PART,
        }
    }

    /// What the statements' routes lead to besides the set's kinds, kept
    /// apart in the index ([`KindIndex::also`]): for the file-wide rules,
    /// the `permissions:` and `skills:` properties E016 and W007 read
    /// (`group_agents::has_file_rule_key`), not every property (in the
    /// first part when they run in two).
    pub(crate) fn also(self) -> Option<fn(&prose_syntax::GreenNodeData) -> bool> {
        match self {
            Narrowed::PromptEdit | Narrowed::SecondPart => None,
            Narrowed::FileRules | Narrowed::FirstPart => {
                Some(super::rules::group_agents::has_file_rule_key)
            }
        }
    }

    /// Where the statements' routes to the set's kinds are kept.
    pub(crate) fn memo(self, memos: &StatementMemos) -> &StatementMemo<Route> {
        match self {
            Narrowed::PromptEdit => &memos.prompt_edit_kinds,
            Narrowed::FileRules => &memos.file_rule_kinds,
            Narrowed::FirstPart => &memos.part_kinds[0],
            Narrowed::SecondPart => &memos.part_kinds[1],
        }
    }
}

/// Whether `kind` (its raw value) is indexed; a kind beyond the table is.
fn wants(indexed: &[bool], kind: u16) -> bool {
    indexed.get(usize::from(kind)).copied().unwrap_or(true)
}

/// A [`KindIndex`] being collected.
struct Builder {
    indexed: Arc<Vec<bool>>,
    nodes: Vec<SyntaxNode>,
    /// How many nodes of each kind, to size each kind's list.
    counts: Vec<u32>,
}

impl Builder {
    fn new(indexed: Arc<Vec<bool>>, capacity: usize) -> Builder {
        Builder {
            nodes: Vec::with_capacity(capacity),
            counts: vec![0; indexed.len()],
            indexed,
        }
    }

    fn push(&mut self, n: &SyntaxNode) {
        let k = n.kind() as usize;
        if self.counts.len() <= k {
            self.counts.resize(k + 1, 0);
        }
        self.counts[k] += 1;
        self.nodes.push(n.clone());
    }

    fn finish(self, set: &'static KindSet) -> KindIndex {
        let mut by_kind: Vec<Vec<u32>> = (self.counts.iter())
            .map(|&n| Vec::with_capacity(n as usize))
            .collect();
        for (i, node) in self.nodes.iter().enumerate() {
            by_kind[node.kind() as usize].push(i as u32);
        }
        KindIndex {
            set,
            indexed: self.indexed,
            nodes: self.nodes,
            by_kind,
            also: None,
        }
    }
}

/// The kinds `pred` accepts, computed once per predicate (rules ask with
/// the same few functions for every file and statement: a corpus check
/// asks about 12,000 times, so the predicates are hashed with Fx, not the
/// standard library's SipHash).
pub(crate) fn kinds_matching(pred: fn(SyntaxKind) -> bool) -> std::rc::Rc<[SyntaxKind]> {
    type ByPredicate = rustc_hash::FxHashMap<usize, std::rc::Rc<[SyntaxKind]>>;
    thread_local! {
        static KINDS: std::cell::RefCell<ByPredicate> = Default::default();
    }
    KINDS.with(|cache| {
        cache
            .borrow_mut()
            .entry(pred as usize)
            .or_insert_with(|| {
                (0u16..)
                    .map_while(SyntaxKind::from_raw)
                    .filter(|&k| pred(k))
                    .collect()
            })
            .clone()
    })
}

#[cfg(test)]
mod tests {
    use super::{FIRST_PART, KindIndex, walks_for_kinds};
    use crate::{AnalysisHost, db::Db, statement_memo::StatementMemo};

    /// The index made from the statements' routes holds the nodes a walk
    /// of the whole tree finds, in the same order, whatever the gaps
    /// between the statements that hold some (their handles are found by
    /// stepping along the siblings or by a binary search, `Statements`),
    /// with comments between statements (tokens among the root's
    /// children).
    #[test]
    fn routed_index_holds_the_walks_nodes() {
        let mut text = String::new();
        for gap in [0, 1, 2, 4, 5, 6, 7, 11, 13, 30, 0] {
            for i in 0..gap {
                text.push_str(if i % 3 == 0 { "# note\n" } else { "" });
                text.push_str("session \"x\"\n");
            }
            text.push_str("use \"@a/b\"\nlet r = b(x: 1)\n");
        }
        let mut host = AnalysisHost::new();
        let id = host.set_file_text("/ws/t.prose", text);
        let analysis = host.analysis();
        analysis
            .with_db(|db| {
                let file = analysis.source_file(id);
                let root = crate::db::parse(db, file).syntax_node();
                let memo = StatementMemo::default();
                let routed = KindIndex::routed(db, file, &root, &FIRST_PART, None, &memo);
                let walked = KindIndex::walk(db, &root, &FIRST_PART);
                // A `use` and a call after each gap.
                assert_eq!(routed.nodes.len(), 2 * 11);
                assert_eq!(routed.nodes, walked.nodes);
            })
            .unwrap();
    }

    /// After an edit elsewhere than in a prompt, the file-wide rules ask
    /// only for the kinds of [`super::FILE_RULES`] (none walks the tree),
    /// their index comes from the statements' routes (kept from the
    /// analysis before the edit, and moved: the edit adds a line at the
    /// top), and the diagnostics are a fresh analysis's. Over the sample
    /// programs (the examples, the parser's test data, the corpora).
    #[test]
    fn file_rules_go_through_their_kinds_only_after_an_edit() {
        let walks = walks_for_kinds();
        let mut host = AnalysisHost::new();
        // In one part (`rule_parts.rs` tests the parts).
        host.db.statement_memos().set_split(false);
        crate::openprose::rule_tests::each_sample_after_an_edit(
            &mut host,
            |host, file, path, edited| {
                let incremental = host.analysis().diagnostics(file).unwrap();
                let mut fresh = AnalysisHost::new();
                let id = fresh.set_file_text(path, edited.to_string());
                assert_eq!(
                    incremental,
                    fresh.analysis().diagnostics(id).unwrap(),
                    "{path}"
                );
            },
        );
        assert_eq!(
            walks_for_kinds(),
            walks,
            "a file-wide rule walked the tree for a kind"
        );
        let memos = host.db.statement_memos();
        assert!(memos.file_rule_kinds.computed() > 0, "no routed index");
    }
}
