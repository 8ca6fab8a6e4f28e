//! What an OpenProse rule sees: the file's tree, its names, the workspace,
//! and helpers several rules share (computed once per file).

use prose_syntax::{Parse, SyntaxNode, ast};

use crate::{
    config::Config,
    db::{Db, FileRoot, SourceFile, Workspace, file_root, join_path, parse},
    openprose::{
        contract::{Contract, program_contract},
        semantics::{FileSemantics, file_semantics},
        suggestions::SuggestionBudget,
        workspace_reads::WorkspaceReads,
    },
};

/// What a rule sees: the file's tree, its names, and the workspace.
///
/// A context covers the whole file, or one top-level statement of it
/// ([`Ctx::for_statement`]) for the rules that look at nothing else
/// ([`crate::openprose::rules::STATEMENT_RULES`]): their nodes come from
/// that statement alone, and reading what lies outside it (the file's
/// names, text, line numbers, configuration or workspace) is recorded
/// ([`Ctx::escaped`]), so that such a result is not kept for the statement.
pub struct Ctx<'a> {
    db: &'a dyn Db,
    file: SourceFile,
    workspace: Option<Workspace>,
    parse: &'a Parse,
    root: ast::SourceFile,
    /// The file's names (fetched when asked in a statement context).
    sema: Option<&'a FileSemantics>,
    /// The statement a statement context covers.
    statement: Option<SyntaxNode>,
    /// Whether a rule in a statement context read beyond the statement.
    escaped: std::cell::Cell<bool>,
    /// Whether a rule read the file's text or syntax errors, the
    /// configuration or the workspace ([`Ctx::watching_file`]).
    read_file: std::cell::Cell<bool>,
    /// The workspace reads whose answers a rule's findings may be moved
    /// under after typing in a prompt ([`Ctx::watching_file`]).
    workspace_reads: std::cell::RefCell<WorkspaceReads>,
    /// Whether reads beyond a statement are recorded (a statement context,
    /// or a context for the statement rules over the whole file).
    records: std::cell::Cell<bool>,
    /// The nodes of the indexed kinds in pre-order, collected once; rules
    /// reach them through the kind index ([`Ctx::nodes_of`],
    /// [`Ctx::nodes_matching`]).
    nodes: Vec<SyntaxNode>,
    /// For each kind (by its raw value), the positions in `nodes` of the
    /// nodes of that kind, ascending: a rule asking for one node type
    /// visits only those.
    by_kind: Vec<Vec<u32>>,
    /// Which kinds are indexed (see [`RuleKinds`]).
    indexed: std::sync::Arc<Vec<bool>>,
    /// Which kinds the rules asked for, learnt into [`RuleKinds`] at the end.
    requested: std::cell::RefCell<Vec<bool>>,
    /// The offsets [`Ctx::line_of`] was asked about, in order, each with
    /// its line.
    line_marks: std::cell::RefCell<Vec<(u32, usize)>>,
    /// Results of helpers several rules share ([`Ctx::shared`]), computed
    /// once per file.
    memo: std::cell::RefCell<Vec<(usize, std::rc::Rc<dyn std::any::Any>)>>,
    /// What the rules of this file may still spend on "did you mean".
    suggestions: SuggestionBudget,
}

impl<'a> Ctx<'a> {
    /// The context of `file`: its parse, its names, and the node index.
    pub fn new(db: &'a dyn Db, file: SourceFile, workspace: Option<Workspace>) -> Ctx<'a> {
        let parse = parse(db, file);
        let root = parse.tree();
        let scope = prose_syntax::AstNode::syntax(&root).clone();
        let mut ctx = Self::over(db, file, workspace, parse, root, scope, None);
        ctx.sema = Some(file_semantics(db, file));
        ctx
    }

    /// The context of one top-level statement of `file` (a child node of
    /// its root), for the rules that look at nothing else.
    pub fn for_statement(
        db: &'a dyn Db,
        file: SourceFile,
        workspace: Option<Workspace>,
        statement: SyntaxNode,
    ) -> Ctx<'a> {
        let parse = parse(db, file);
        let root = parse.tree();
        Self::over(
            db,
            file,
            workspace,
            parse,
            root,
            statement.clone(),
            Some(statement),
        )
    }

    /// Runs `f` with reads beyond a statement recorded (for the statement
    /// rules run over the whole file at once); whether `f` made such a
    /// read.
    pub fn recording<T>(&self, f: impl FnOnce() -> T) -> (T, bool) {
        let (records, escaped) = (self.records.get(), self.escaped.get());
        self.records.set(true);
        self.escaped.set(false);
        let out = f();
        let read = self.escaped.get();
        self.records.set(records);
        self.escaped.set(escaped);
        (out, read)
    }

    fn over(
        db: &'a dyn Db,
        file: SourceFile,
        workspace: Option<Workspace>,
        parse: &'a Parse,
        root: ast::SourceFile,
        scope: SyntaxNode,
        statement: Option<SyntaxNode>,
    ) -> Ctx<'a> {
        let indexed = RuleKinds::indexed();
        // About one indexed node per 16 bytes of a program: most indexes
        // are made without growing.
        let mut nodes: Vec<SyntaxNode> =
            Vec::with_capacity(usize::from(scope.text_range().len()) / 16);
        // How many nodes of each kind, to size each kind's list.
        let mut counts: Vec<u32> = vec![0; indexed.len()];
        let mut i = 0usize;
        prose_syntax::walk::pre_order(&scope, |n| {
            if i.is_multiple_of(1 << 16) {
                db.unwind_if_revision_cancelled();
            }
            i += 1;
            let k = n.kind() as usize;
            if indexed.get(k).copied().unwrap_or(true) {
                if counts.len() <= k {
                    counts.resize(k + 1, 0);
                }
                counts[k] += 1;
                nodes.push(n.clone());
            }
        });
        let mut by_kind: Vec<Vec<u32>> = counts
            .iter()
            .map(|&n| Vec::with_capacity(n as usize))
            .collect();
        for (i, node) in nodes.iter().enumerate() {
            by_kind[node.kind() as usize].push(i as u32);
        }
        Ctx {
            db,
            file,
            workspace,
            parse,
            root,
            sema: None,
            records: std::cell::Cell::new(statement.is_some()),
            statement,
            escaped: std::cell::Cell::new(false),
            read_file: std::cell::Cell::new(false),
            workspace_reads: Default::default(),
            nodes,
            by_kind,
            line_marks: Default::default(),
            memo: Default::default(),
            suggestions: SuggestionBudget::default(),
            requested: std::cell::RefCell::new(vec![false; indexed.len()]),
            indexed,
        }
    }

    /// Records a read beyond the statement of a statement context.
    fn outside(&self) {
        if self.records.get() {
            self.escaped.set(true);
        }
    }

    /// Records a read of the file's text or syntax errors, the
    /// configuration or the workspace (beyond the statement, too).
    fn beyond_names(&self) {
        self.read_file.set(true);
        self.outside();
    }

    /// Runs `f`; whether it read the file's text or syntax errors, the
    /// configuration or the workspace (what typing in a prompt may change
    /// besides the tree and the names, see `prompt_edit.rs`), and the
    /// answers of the workspace reads that can be asked again
    /// ([`WorkspaceReads`]; not counted as reading the workspace).
    pub(crate) fn watching_file<T>(&self, f: impl FnOnce() -> T) -> (T, bool, WorkspaceReads) {
        let before = self.read_file.replace(false);
        let reads_before = self.workspace_reads.take();
        let out = f();
        let read = self.read_file.replace(before);
        let reads = self.workspace_reads.replace(reads_before);
        self.workspace_reads.borrow_mut().extend(reads.clone());
        (out, read, reads)
    }

    /// Whether the file is analysed in a workspace (recorded as a
    /// [`WorkspaceReads`] answer).
    pub fn has_workspace(&self) -> bool {
        self.outside();
        let answer = self.unrecorded_has_workspace();
        self.workspace_reads.borrow_mut().has_workspace(answer);
        answer
    }

    pub(crate) fn unrecorded_has_workspace(&self) -> bool {
        self.workspace.is_some()
    }

    /// Whether the "did you mean" budget was never exhausted.
    pub fn suggestions_left(&self) -> bool {
        self.suggestions.left()
    }

    /// Whether a rule in this statement context read beyond the statement
    /// (always false for a file context).
    pub fn escaped(&self) -> bool {
        self.escaped.get()
    }

    /// The file's root.
    pub fn source_file(&self) -> &ast::SourceFile {
        self.outside();
        &self.root
    }

    /// The file's names (resolution).
    pub fn sema(&self) -> &'a FileSemantics {
        self.outside();
        self.sema
            .unwrap_or_else(|| file_semantics(self.db, self.file))
    }

    /// The file's parse (its syntax errors).
    pub fn parse(&self) -> &'a Parse {
        self.beyond_names();
        self.parse
    }

    /// The workspace the file is analysed in, if any.
    pub fn workspace(&self) -> Option<Workspace> {
        self.beyond_names();
        self.workspace
    }

    /// The database.
    pub fn db(&self) -> &'a dyn Db {
        self.beyond_names();
        self.db
    }

    /// What the rules of this file may still spend on "did you mean".
    pub fn suggestions(&self) -> &SuggestionBudget {
        self.outside();
        &self.suggestions
    }

    /// `compute(self)`, computed once per file however many rules ask (for
    /// helpers several rules share, such as every owned property).
    pub fn shared<T: 'static>(&self, compute: fn(&Ctx<'a>) -> T) -> std::rc::Rc<T> {
        let key = compute as usize;
        let hit = self
            .memo
            .borrow()
            .iter()
            .find(|(k, _)| *k == key)
            .and_then(|(_, v)| v.clone().downcast::<T>().ok());
        if let Some(v) = hit {
            return v;
        }
        let v = std::rc::Rc::new(compute(self));
        self.memo.borrow_mut().push((key, v.clone()));
        v
    }

    /// The 1-based line of `offset`.
    ///
    /// The line breaks between it and the nearest offset asked before
    /// (or the start of the text) are counted, many bytes at a time
    /// (`prose_syntax::lines::breaks_ending_in`): the rules ask for a few
    /// dozen lines of a long file in no particular order, and each is
    /// counted from the nearest known one.
    pub fn line_of(&self, offset: prose_syntax::TextSize) -> usize {
        self.outside();
        let mut marks = self.line_marks.borrow_mut();
        // The first rule to ask records the read of the text.
        let text = if marks.is_empty() {
            self.text()
        } else {
            self.file.text(self.db)
        };
        let at = (u32::from(offset) as usize).min(text.len());
        let bytes = text.as_bytes();
        let k = marks.partition_point(|&(o, _)| o as usize <= at);
        // Counted on from the nearest offset asked before (the start of
        // the text to begin with), or back from a nearer later one.
        let (before, line_before) = match k {
            0 => (0, 1),
            _ => (marks[k - 1].0 as usize, marks[k - 1].1),
        };
        if before == at {
            return line_before;
        }
        let line = match marks.get(k) {
            Some(&(after, line_after)) if after as usize - at < at - before => {
                line_after - prose_syntax::lines::breaks_ending_in(bytes, at, after as usize)
            }
            _ => line_before + prose_syntax::lines::breaks_ending_in(bytes, before, at),
        };
        marks.insert(k, (at as u32, line));
        line
    }

    /// Every node of type `N`, in pre-order, from the kind index.
    pub fn nodes_of<N: prose_syntax::AstNode + 'static>(&self) -> impl Iterator<Item = N> + '_ {
        self.nodes_matching(N::can_cast).filter_map(N::cast)
    }

    /// Every node whose kind satisfies `pred`, in pre-order, from the kind
    /// index (only the matching nodes are visited).
    pub fn nodes_matching(
        &self,
        pred: fn(prose_syntax::SyntaxKind) -> bool,
    ) -> impl Iterator<Item = SyntaxNode> + '_ {
        let kinds = kinds_matching(pred);
        {
            let mut requested = self.requested.borrow_mut();
            for &k in kinds.iter() {
                requested[k as usize] = true;
            }
        }
        if kinds.iter().any(|&k| !self.indexed[k as usize]) {
            // A kind no rule asked for in earlier files: walk the tree.
            let scope = match &self.statement {
                Some(s) => s.clone(),
                None => prose_syntax::AstNode::syntax(&self.root).clone(),
            };
            let walk: Vec<SyntaxNode> = scope.descendants().filter(|n| pred(n.kind())).collect();
            return either(walk.into_iter(), None);
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
        let from_index = indices.into_iter().map(|i| self.nodes[i as usize].clone());
        either(Vec::new().into_iter(), Some(from_index))
    }

    pub fn text(&self) -> &'a str {
        self.beyond_names();
        self.file.text(self.db)
    }

    pub fn path(&self) -> &'a str {
        self.file.path(self.db)
    }

    pub fn syntax(&self) -> &SyntaxNode {
        use prose_syntax::AstNode;
        self.outside();
        self.root.syntax()
    }

    /// Where this file's project state lives and its configuration: its
    /// innermost root, or (outside every root, or without a workspace) its
    /// own directory and the default configuration.
    fn with_file_root<T>(&self, f: impl FnOnce(&FileRoot) -> T) -> T {
        self.beyond_names();
        match self.workspace {
            Some(ws) => f(file_root(self.db, self.file, ws)),
            None => f(&FileRoot::outside(self.path(), Config::default())),
        }
    }

    /// The configuration of this file's root.
    pub fn config(&self) -> Config {
        self.with_file_root(|r| r.config.clone())
    }

    /// The root of this file (the innermost workspace root that contains
    /// it), or the directory of this file when no root does.
    /// (Recorded as a [`WorkspaceReads`] answer.)
    pub fn root_dir(&self) -> String {
        self.outside();
        let answer = self.unrecorded_root_dir();
        self.workspace_reads.borrow_mut().root(&answer);
        answer
    }

    pub(crate) fn unrecorded_root_dir(&self) -> String {
        match self.workspace {
            Some(ws) => file_root(self.db, self.file, ws).dir.clone(),
            None => FileRoot::outside(self.path(), Config::default()).dir,
        }
    }

    /// The home directory, if the workspace has one (recorded as a
    /// [`WorkspaceReads`] answer).
    pub fn home_dir(&self) -> Option<String> {
        self.outside();
        let answer = self.unrecorded_home_dir();
        self.workspace_reads.borrow_mut().home(&answer);
        answer
    }

    pub(crate) fn unrecorded_home_dir(&self) -> Option<String> {
        self.workspace.and_then(|w| w.home(self.db).clone())
    }

    /// Whether a memory file exists at `path` (absolute, as the host keys
    /// them; recorded as a [`WorkspaceReads`] answer).
    pub fn memory_file_exists(&self, path: &str) -> bool {
        self.outside();
        let answer = self.unrecorded_memory_file_exists(path);
        self.workspace_reads.borrow_mut().memory_file(path, answer);
        answer
    }

    pub(crate) fn unrecorded_memory_file_exists(&self, path: &str) -> bool {
        self.workspace
            .is_some_and(|w| w.memory_files(self.db).contains(path))
    }

    /// `path` as a message shows it: relative to the file's root, or
    /// under `~/` in the home directory, so messages do not depend on where
    /// the project is checked out.
    pub fn display_path(&self, path: &str) -> String {
        let root = self.root_dir();
        if let Some(rest) = path
            .strip_prefix(root.as_str())
            .and_then(|r| r.strip_prefix('/'))
        {
            return rest.to_string();
        }
        if let Some(home) = self.home_dir()
            && let Some(rest) = path
                .strip_prefix(home.as_str())
                .and_then(|r| r.strip_prefix('/'))
        {
            return format!("~/{rest}");
        }
        path.to_string()
    }

    /// Where `persist:` keeps an agent's memory file, for project, user and
    /// path scopes (`None` for execution scope, which has no file before a run).
    pub fn memory_file_path(
        &self,
        agent: &str,
        persist: &crate::contract::Persist,
    ) -> Option<String> {
        memory_file_path(&self.root_dir(), self.home_dir().as_deref(), agent, persist)
    }

    /// The directory of the file under check.
    pub fn file_dir(&self) -> String {
        let path = self.path();
        path.rsplit_once('/')
            .map_or(String::from("."), |(d, _)| d.to_string())
    }

    /// The local file a `use` path resolves to, if the host loaded it (see
    /// [`crate::imports::import_candidates`] for the lookup order).
    pub fn resolve_import(&self, use_path: &str) -> Option<SourceFile> {
        self.beyond_names();
        self.workspace?;
        self.loaded_file(&self.import_candidates(use_path))
    }

    /// The first of `candidates` (paths from [`Ctx::import_candidates`])
    /// that the host loaded, if any.
    pub fn loaded_file(&self, candidates: &[String]) -> Option<SourceFile> {
        self.beyond_names();
        let files = self.workspace?.files(self.db);
        candidates.iter().find_map(|p| files.get(p).copied())
    }

    /// Where the program a `use` path names may live, in lookup order.
    pub fn import_candidates(&self, use_path: &str) -> Vec<String> {
        let home = self.home_dir();
        let file_dir = self.file_dir();
        self.with_file_root(|root| {
            crate::imports::import_candidates(
                &root.config,
                &root.dir,
                home.as_deref(),
                &file_dir,
                use_path,
            )
        })
    }

    /// The inputs and outputs of another program.
    pub fn contract(&self, file: SourceFile) -> &'a Contract {
        self.beyond_names();
        program_contract(self.db, file)
    }
}

/// Where `persist:` keeps an agent's memory file (state-filesystem.md):
/// `.prose/agents/{name}/memory.md` for `project`, `~/.prose/agents/{name}/memory.md`
/// for `user`, `{path}/memory.md` for a path; none for `true` (execution scope).
pub fn memory_file_path(
    root: &str,
    home: Option<&str>,
    agent: &str,
    persist: &crate::contract::Persist,
) -> Option<String> {
    use crate::contract::Persist;
    match persist {
        Persist::Execution => None,
        Persist::Project => Some(join_path(root, &format!(".prose/agents/{agent}/memory.md"))),
        Persist::User => Some(join_path(
            home?,
            &format!(".prose/agents/{agent}/memory.md"),
        )),
        Persist::Path(p) => Some(join_path(
            root,
            &format!("{}/memory.md", p.trim_end_matches('/')),
        )),
    }
}

/// One of two iterators (a tree walk, or the kind index).
fn either<A, B>(a: A, b: Option<B>) -> impl Iterator<Item = SyntaxNode>
where
    A: Iterator<Item = SyntaxNode>,
    B: Iterator<Item = SyntaxNode>,
{
    a.chain(b.into_iter().flatten())
}

impl Drop for Ctx<'_> {
    fn drop(&mut self) {
        RuleKinds::learn(&self.requested.borrow());
        // The node handles and the shared helpers' results are most of
        // what a context frees: in the language server, after the
        // diagnostics are out (`crate::deferred`).
        crate::deferred::drop_later((
            std::mem::take(&mut self.nodes),
            std::mem::take(&mut self.by_kind),
            std::mem::take(self.memo.get_mut()),
        ));
    }
}

/// The node kinds the rules ask for: the node types the rules list
/// ([`RULE_NODES`]), and any other kind a rule asked for in a file analysed
/// before. A file's rule context indexes only those: a tree's names,
/// references, literals and bodies, which no rule lists, are about half of
/// its nodes, and the index holds a node handle (an allocation of its own)
/// for each of the rest. A rule asking for a kind not indexed gets it by a
/// walk of the tree (the same nodes in the same order), and the kind is
/// indexed from the next file on.
struct RuleKinds;

/// The node types the rules go through (`rules::nodes`,
/// [`Ctx::nodes_matching`]). A test runs every rule over the corpus and
/// checks that they ask for nothing else; a type missing here costs a walk
/// of the tree in the first file only.
const RULE_NODES: &[fn(prose_syntax::SyntaxKind) -> bool] = {
    use prose_syntax::{AstNode, SyntaxKind};
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
    ]
};

static RULE_KINDS: std::sync::Mutex<Option<std::sync::Arc<Vec<bool>>>> =
    std::sync::Mutex::new(None);

impl RuleKinds {
    /// The kinds [`RULE_NODES`] names.
    fn listed() -> Vec<bool> {
        (0u16..)
            .map_while(prose_syntax::SyntaxKind::from_raw)
            .map(|k| RULE_NODES.iter().any(|can_cast| can_cast(k)))
            .collect()
    }

    /// Which kinds to index.
    fn indexed() -> std::sync::Arc<Vec<bool>> {
        let mut learnt = RULE_KINDS.lock().unwrap_or_else(|e| e.into_inner());
        learnt
            .get_or_insert_with(|| std::sync::Arc::new(Self::listed()))
            .clone()
    }

    fn learn(requested: &[bool]) {
        let mut learnt = RULE_KINDS.lock().unwrap_or_else(|e| e.into_inner());
        let known = learnt.get_or_insert_with(|| std::sync::Arc::new(Self::listed()));
        if requested.iter().zip(known.iter()).any(|(&r, &k)| r && !k) {
            let mut more = known.as_ref().clone();
            for (k, r) in more.iter_mut().zip(requested) {
                *k |= r;
            }
            *known = std::sync::Arc::new(more);
        }
    }
}

/// The kinds `pred` accepts, computed once per predicate (rules ask with
/// the same few functions for every file and statement).
fn kinds_matching(
    pred: fn(prose_syntax::SyntaxKind) -> bool,
) -> std::rc::Rc<[prose_syntax::SyntaxKind]> {
    thread_local! {
        static KINDS: std::cell::RefCell<std::collections::HashMap<usize, std::rc::Rc<[prose_syntax::SyntaxKind]>>> =
            Default::default();
    }
    KINDS.with(|cache| {
        cache
            .borrow_mut()
            .entry(pred as usize)
            .or_insert_with(|| {
                (0u16..)
                    .map_while(prose_syntax::SyntaxKind::from_raw)
                    .filter(|&k| pred(k))
                    .collect()
            })
            .clone()
    })
}

#[cfg(test)]
mod tests {
    use prose_syntax::{AstNode, SyntaxKind};

    use crate::fixture::Fixture;

    /// Whether or not a kind is indexed, the nodes of that kind come in
    /// pre-order, all of them.
    #[test]
    fn nodes_come_from_the_index_or_a_walk_alike() {
        let (host, file) =
            Fixture::parse("agent a:\n  model: opus\nlet x = session: a\nsession \"{x}\"\n")
                .host(None);
        let analysis = host.analysis();
        // Twice: the first file may index every kind, later ones only
        // the kinds the rules ask for.
        for _ in 0..2 {
            analysis
                .with_db(|db| {
                    let f = analysis.source_file(file);
                    let ctx = super::Ctx::new(db, f, None);
                    for pred in [
                        (|k| k == SyntaxKind::NAME_REF) as fn(SyntaxKind) -> bool,
                        |k| k == SyntaxKind::AGENT_DEF || k == SyntaxKind::SESSION_EXPR,
                    ] {
                        let got: Vec<_> = ctx.nodes_matching(pred).collect();
                        let walk: Vec<_> = ctx
                            .root
                            .syntax()
                            .descendants()
                            .filter(|n| pred(n.kind()))
                            .collect();
                        assert_eq!(got, walk);
                        assert!(!got.is_empty());
                    }
                })
                .unwrap();
        }
    }

    /// `line_of` finds the line starts as far as it is asked: asked first
    /// at each offset, in order, and after every line start was found, it
    /// gives the same lines, with `\n`, `\r\n`, a lone `\r` and
    /// multi-byte characters, in whatever order the offsets are asked.
    #[test]
    fn line_of_agrees_however_far_it_has_scanned() {
        let text = "let a = \"é\"\r\nlet b = 1\rlet c = 2\n\nsession \"ü\"\r\n\r";
        let (host, file) = Fixture::parse(text).host(None);
        let analysis = host.analysis();
        analysis
            .with_db(|db| {
                let f = analysis.source_file(file);
                let end = text.len() as u32;
                let whole = super::Ctx::new(db, f, None);
                whole.line_of(end.into());
                let in_order = super::Ctx::new(db, f, None);
                let mut lines = Vec::new();
                for at in 0..=end {
                    let first = super::Ctx::new(db, f, None).line_of(at.into());
                    assert_eq!(first, whole.line_of(at.into()), "at {at}");
                    assert_eq!(first, in_order.line_of(at.into()), "at {at}");
                    lines.push(first);
                }
                assert_eq!(lines[..14], [1; 14]);
                assert_eq!(lines.last(), Some(&7));
                // Asked from the end back, and from the middle outwards.
                let backwards = super::Ctx::new(db, f, None);
                for at in (0..=end).rev() {
                    assert_eq!(backwards.line_of(at.into()), lines[at as usize], "at {at}");
                }
                let outwards = super::Ctx::new(db, f, None);
                for k in 0..=end {
                    let at = if k % 2 == 0 {
                        end / 2 + k / 2
                    } else {
                        end / 2 - k.div_ceil(2).min(end / 2)
                    };
                    let at = at.min(end);
                    assert_eq!(outwards.line_of(at.into()), lines[at as usize], "at {at}");
                }
            })
            .unwrap();
    }

    /// The rules ask only for the node types [`super::RULE_NODES`] lists,
    /// over every program of the corpus and the examples shipped in the
    /// repository: the first file a process analyses indexes no more than
    /// later ones do, and no rule walks the tree for its nodes.
    #[test]
    fn rules_ask_only_for_the_listed_kinds() {
        use crate::diagnostics::Check;
        let mut files = prose_test_support::prose_files(
            &prose_test_support::workspace_root().join("docs/examples"),
        );
        files.extend(
            prose_test_support::corpus_dir()
                .map_or_else(Vec::new, |dir| prose_test_support::prose_files(&dir)),
        );
        let listed = super::RuleKinds::listed();
        let mut host = crate::AnalysisHost::new();
        let ids: Vec<_> = files
            .iter()
            .map(|p| {
                let text = std::fs::read_to_string(p).unwrap();
                (p, host.set_file_text(&p.display().to_string(), text))
            })
            .collect();
        let analysis = host.analysis();
        for (path, id) in ids {
            analysis
                .with_db(|db| {
                    let ctx = super::Ctx::new(db, analysis.source_file(id), None);
                    for rule in crate::openprose::rules::rules() {
                        if let Check::OpenProse(check) = rule.check {
                            check(&ctx, &mut crate::diagnostics::Acc::new(rule));
                        }
                    }
                    let requested = ctx.requested.borrow();
                    let outside: Vec<_> = (0u16..)
                        .map_while(SyntaxKind::from_raw)
                        .filter(|&k| requested[k as usize] && !listed[k as usize])
                        .collect();
                    assert!(
                        outside.is_empty(),
                        "{}: the rules asked for {outside:?}, which RULE_NODES does not list",
                        path.display()
                    );
                })
                .unwrap();
        }
    }
}
