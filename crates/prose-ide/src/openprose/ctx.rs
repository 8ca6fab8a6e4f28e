//! What an OpenProse rule sees: the file's tree, its names, the workspace,
//! and helpers several rules share (computed once per file).

use std::borrow::Cow;

use prose_syntax::{Parse, SyntaxNode, ast};

use crate::{
    config::Config,
    db::{Db, FileRoot, SourceFile, Workspace, file_root, join_path, parse},
    openprose::{
        contract::{Contract, program_contract},
        external::use_candidates,
        kind_index::{self, KindIndex, Narrowed},
        rule_parts::Part,
        semantics::{FileSemantics, file_semantics},
        statement_edit::StatementEdit,
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
    /// The file's names, fetched when a rule first asks: what a file
    /// context's rules do before that runs while another thread may still
    /// be resolving them (the language server's fork, `rule_parts.rs`).
    sema: std::cell::OnceCell<&'a FileSemantics>,
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
    /// The nodes of the kinds the rules go through, collected when a rule
    /// first asks ([`Ctx::nodes_of`], [`Ctx::nodes_matching`]; see
    /// `kind_index.rs` for which kinds).
    index: std::cell::OnceCell<KindIndex>,
    /// Whether the index is of fewer kinds than every rule's: those of the
    /// rules run after typing in a prompt ([`Ctx::index_for_prompt_edit`])
    /// or of the file-wide rules ([`Ctx::index_for_rules_of`]).
    narrowed: std::cell::Cell<Option<Narrowed>>,
    /// Which kinds the rules asked for, learnt into the index's
    /// [`kind_index::KindSet`] at the end.
    requested: std::cell::RefCell<Vec<bool>>,
    /// The offsets [`Ctx::line_of`] was asked about, in order, each with
    /// its line.
    line_marks: std::cell::RefCell<Vec<(u32, usize)>>,
    /// Results of helpers several rules share ([`Ctx::shared`]), computed
    /// once per file.
    memo: std::cell::RefCell<Vec<(usize, std::rc::Rc<dyn std::any::Any>)>>,
    /// What the rules of this file may still spend on "did you mean".
    suggestions: SuggestionBudget,
    /// The last edit as a stretch of top-level statements, with what the
    /// rules that report per name reported before it
    /// (`statement_edit.rs`), when the run that made this context found it.
    statement_edit: std::cell::OnceCell<StatementEdit>,
}

impl<'a> Ctx<'a> {
    /// The context of `file`: its parse, its names (resolved when a rule
    /// first asks: [`Ctx::sema`]), and the node index.
    pub fn new(db: &'a dyn Db, file: SourceFile, workspace: Option<Workspace>) -> Ctx<'a> {
        Self::over(db, file, workspace, None)
    }

    /// The context of one top-level statement of `file` (a child node of
    /// its root), for the rules that look at nothing else.
    pub fn for_statement(
        db: &'a dyn Db,
        file: SourceFile,
        workspace: Option<Workspace>,
        statement: SyntaxNode,
    ) -> Ctx<'a> {
        Self::over(db, file, workspace, Some(statement))
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

    /// The context of `statement`, or of the whole file without one (its
    /// kind index is made when a rule first asks: [`Ctx::nodes_matching`]).
    fn over(
        db: &'a dyn Db,
        file: SourceFile,
        workspace: Option<Workspace>,
        statement: Option<SyntaxNode>,
    ) -> Ctx<'a> {
        let parse = parse(db, file);
        let root = parse.tree();
        Ctx {
            db,
            file,
            workspace,
            parse,
            root,
            sema: std::cell::OnceCell::new(),
            records: std::cell::Cell::new(statement.is_some()),
            statement,
            escaped: std::cell::Cell::new(false),
            read_file: std::cell::Cell::new(false),
            workspace_reads: Default::default(),
            index: Default::default(),
            narrowed: std::cell::Cell::new(None),
            line_marks: Default::default(),
            memo: Default::default(),
            suggestions: SuggestionBudget::default(),
            requested: std::cell::RefCell::new(vec![false; kind_index::kind_count()]),
            statement_edit: std::cell::OnceCell::new(),
        }
    }

    /// Gives the rules the last edit as a stretch of top-level statements
    /// ([`Ctx::statement_edit`]).
    pub(crate) fn set_statement_edit(&self, edit: StatementEdit) {
        let _ = self.statement_edit.set(edit);
    }

    /// The last edit as a stretch of top-level statements, with what the
    /// rules that report per name reported before it, when the run found
    /// them kept (`statement_edit.rs`).
    pub(crate) fn statement_edit(&self) -> Option<&StatementEdit> {
        self.statement_edit.get()
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
        // Only `f`'s answers: nothing reads them outside a watch.
        self.workspace_reads.take();
        let out = f();
        let read = self.read_file.replace(before);
        (out, read, self.workspace_reads.take())
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
        self.sema.get_or_init(|| file_semantics(self.db, self.file))
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

    /// The file this context is of, and the database's memos per
    /// top-level statement: what they keep is read from the statements'
    /// trees alone (no read beyond the tree is recorded).
    pub(crate) fn statement_memos(
        &self,
    ) -> (SourceFile, &'a crate::statement_memo::StatementMemos) {
        (self.file, self.db.statement_memos())
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
    ///
    /// Kept by the function's address and the result's type: the compiler
    /// merges functions whose code is the same (two that make an empty
    /// `RefCell<HashMap>` of different types shared one address in a
    /// release build), so the address alone may name two helpers; with
    /// the type, two helpers that share an address compute the same value.
    pub fn shared<T: 'static>(&self, compute: fn(&Ctx<'a>) -> T) -> std::rc::Rc<T> {
        self.shared_as(compute as usize, compute)
    }

    /// [`Ctx::shared`] kept under `key` (there, the function's address).
    fn shared_as<T: 'static>(
        &self,
        key: usize,
        compute: impl FnOnce(&Ctx<'a>) -> T,
    ) -> std::rc::Rc<T> {
        let hit = self
            .memo
            .borrow()
            .iter()
            .find(|(k, v)| *k == key && v.is::<T>())
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
    ///
    /// Not recorded as a read of the text for typing in a prompt
    /// ([`WorkspaceReads`]): such an edit neither adds nor removes a line
    /// break, so every offset outside the edited token keeps its line.
    pub fn line_of(&self, offset: prose_syntax::TextSize) -> usize {
        self.outside();
        let mut marks = self.line_marks.borrow_mut();
        let text = self.file.text(self.db);
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

    /// The nodes the kind index keeps apart ([`KindIndex::also`]): after an
    /// edit, the file-wide rules' index holds the `permissions:` and
    /// `skills:` properties (`Narrowed::also`); `None` for other indexes.
    pub(crate) fn index_also(&self) -> Option<&[SyntaxNode]> {
        self.index.get_or_init(|| self.make_index()).also()
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
        let kinds = kind_index::kinds_matching(pred);
        {
            let mut requested = self.requested.borrow_mut();
            for &k in kinds.iter() {
                requested[k as usize] = true;
            }
        }
        let index = self.index.get_or_init(|| self.make_index());
        match index.nodes_of(&kinds) {
            Some(from_index) => either(Vec::new().into_iter(), Some(from_index)),
            None => {
                // A kind no rule asked for in earlier contexts: walk the tree.
                kind_index::walked_for_kind();
                let walk: Vec<SyntaxNode> = self
                    .scope()
                    .descendants()
                    .filter(|n| pred(n.kind()))
                    .collect();
                either(walk.into_iter(), None)
            }
        }
    }

    /// The subtree this context covers: the statement's, or the file's.
    fn scope(&self) -> SyntaxNode {
        match &self.statement {
            Some(s) => s.clone(),
            None => prose_syntax::AstNode::syntax(&self.root).clone(),
        }
    }

    /// The kind index of this context. A whole-file context narrowed to
    /// the kinds of some rules ([`Ctx::index_for_prompt_edit`],
    /// [`Ctx::index_for_rules_of`]; not while the statement rules run
    /// over the whole file) is made from each statement's route to those
    /// kinds, kept while the statement is unchanged
    /// ([`KindIndex::routed`]). Other contexts, and a batch database (which
    /// keeps no routes, and never has a prompt edit), index every rule's
    /// kinds by a walk of the tree.
    fn make_index(&self) -> KindIndex {
        let scope = self.scope();
        let whole_file = self.statement.is_none() && !self.records.get();
        let memos = self.db.statement_memos();
        match self.narrowed.get() {
            Some(narrowed) if whole_file && !memos.is_batch() => KindIndex::routed(
                self.db,
                self.file,
                &scope,
                narrowed.set(),
                narrowed.also(),
                narrowed.memo(memos),
            ),
            _ => KindIndex::walk(self.db, &scope, &kind_index::ALL),
        }
    }

    /// Makes this file context index only the kinds of the rules that run
    /// again after typing in a prompt ([`kind_index::PROMPT_EDIT`]) when
    /// one of them first asks: `rules::run` calls this when the other
    /// rules' findings are moved (`prompt_edit.rs`).
    pub(crate) fn index_for_prompt_edit(&self) {
        self.narrowed.set(Some(Narrowed::PromptEdit));
    }

    /// [`Ctx::index_for_rules_of`] for the file-wide rules in one part
    /// (tests).
    #[cfg(test)]
    pub(crate) fn index_for_file_rules(&self) {
        self.index_for_rules_of(Part::Whole);
    }

    /// Makes this file context index only the kinds of the file-wide rules
    /// of `part` ([`kind_index::FILE_RULES`], or `FIRST_PART` and
    /// `SECOND_PART` when they run in two: `rule_parts.rs`) when one of
    /// them first asks, unless the statement rules made the index of every
    /// kind already (a file computed whole): `rules::run_part` calls this
    /// when the rules it runs ask for nothing else.
    pub(crate) fn index_for_rules_of(&self, part: Part) {
        self.narrowed.set(Some(match part {
            Part::Whole => Narrowed::FileRules,
            Part::First => Narrowed::FirstPart,
            Part::Second => Narrowed::SecondPart,
        }));
    }

    pub fn text(&self) -> &'a str {
        self.beyond_names();
        self.file.text(self.db)
    }

    /// The text of `range` of the file (recorded as a read of that range:
    /// [`WorkspaceReads`]).
    pub fn text_of(&self, range: prose_syntax::TextRange) -> &'a str {
        self.outside();
        self.workspace_reads.borrow_mut().text(range);
        &self.file.text(self.db)[range]
    }

    /// The text of `range` when it is a name's (a definition's or a
    /// reference's name range): the tree's own text, which the names hold
    /// too, so not recorded as a read of the file's text. `None` when
    /// `range` is not in the text.
    pub(crate) fn name_text(&self, range: prose_syntax::TextRange) -> Option<&'a str> {
        self.file
            .text(self.db)
            .get(std::ops::Range::<usize>::from(range))
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
        self.unrecorded_file_root(f)
    }

    /// [`Ctx::with_file_root`] without recording the read.
    fn unrecorded_file_root<T>(&self, f: impl FnOnce(&FileRoot) -> T) -> T {
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
        self.unrecorded_file_root(|r| r.dir.clone())
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
    /// (Its reads are recorded as [`WorkspaceReads`] answers: whether
    /// there is a workspace, and those of [`Ctx::import_candidates`] and
    /// [`Ctx::loaded_file`].)
    pub fn resolve_import(&self, use_path: &str) -> Option<SourceFile> {
        if !self.has_workspace() {
            return None;
        }
        self.loaded_file(&self.import_candidates(use_path))
    }

    /// The first of `candidates` (paths from [`Ctx::import_candidates`])
    /// that the host loaded, if any (recorded as a [`WorkspaceReads`]
    /// answer).
    pub fn loaded_file(&self, candidates: &[String]) -> Option<SourceFile> {
        self.outside();
        let answer = self.unrecorded_loaded_file(candidates);
        (self.workspace_reads.borrow_mut()).loaded_file(candidates, answer);
        answer
    }

    pub(crate) fn unrecorded_loaded_file(&self, candidates: &[String]) -> Option<SourceFile> {
        let files = self.workspace?.files(self.db);
        candidates.iter().find_map(|p| files.get(p).copied())
    }

    /// Where the program a `use` path names may live, in lookup order.
    ///
    /// What they depend on besides the path is the file's directory, the
    /// configuration of its root (the same for every rule of a run, and
    /// compared before findings are moved: `prompt_edit.rs`), the root's
    /// directory and the home directory, the last two recorded as
    /// [`WorkspaceReads`] answers. The candidates of the paths of the
    /// file's `use` statements are kept by a query
    /// ([`crate::openprose::external::use_candidates`]) while those do not
    /// change: rules ask for them on every edit (P204 for each `use`);
    /// those of any other path are built here.
    pub fn import_candidates(&self, use_path: &str) -> Cow<'a, [String]> {
        let home = self.home_dir();
        // Recorded as `root_dir` records it, from the root fetched here.
        self.unrecorded_file_root(|root| self.workspace_reads.borrow_mut().root(&root.dir));
        if let Some(workspace) = self.workspace
            && let Some(kept) = use_candidates(self.db, self.file, workspace).get(use_path)
        {
            return Cow::Borrowed(kept);
        }
        let file_dir = self.file_dir();
        self.unrecorded_file_root(|root| {
            Cow::Owned(crate::imports::import_candidates(
                &root.config,
                &root.dir,
                home.as_deref(),
                &file_dir,
                use_path,
            ))
        })
    }

    /// Whether the host loaded a program that a `use` path of this file
    /// names (the first loaded candidate of each path, as
    /// [`Ctx::resolve_import`] looks it up; each lookup recorded). When
    /// none is, no `use` of the file resolves, so a rule that checks calls
    /// against the programs' contracts has nothing to check. The paths'
    /// candidates are kept by a query ([`use_candidates`]): one lookup per
    /// distinct path, however many statements.
    pub fn any_use_resolves(&self) -> bool {
        let Some(workspace) = self.workspace else {
            // Recorded as `resolve_import` records it.
            return self.has_workspace();
        };
        self.has_workspace();
        // Recorded as `import_candidates` records them.
        self.home_dir();
        self.unrecorded_file_root(|root| self.workspace_reads.borrow_mut().root(&root.dir));
        use_candidates(self.db, self.file, workspace)
            .values()
            .any(|candidates| self.loaded_file(candidates).is_some())
    }

    /// The inputs and outputs of another program (recorded as a
    /// [`WorkspaceReads`] answer).
    pub fn contract(&self, file: SourceFile) -> &'a Contract {
        self.outside();
        let answer = program_contract(self.db, file);
        self.workspace_reads.borrow_mut().contract(file, answer);
        answer
    }

    pub(crate) fn unrecorded_contract(&self, file: SourceFile) -> &'a Contract {
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
        let index = self.index.take();
        if let Some(index) = &index {
            index.set.learn(&self.requested.borrow());
        }
        // The node handles and the shared helpers' results are most of
        // what a context frees: in the language server, after the
        // diagnostics are out (`crate::deferred`).
        crate::deferred::drop_later((index, std::mem::take(self.memo.get_mut())));
    }
}

#[cfg(test)]
#[path = "ctx_tests.rs"]
mod tests;
