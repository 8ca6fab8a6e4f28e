//! Diagnostics as plain data, the rule registry, and the query that runs it.
//!
//! Every code lives in its own file under `rules/`: its `//!` doc comment
//! is the code's documentation (rendered to `docs/diagnostics/CODE.md`
//! and printed by `prose explain CODE`), followed by a [`Rule`] constant,
//! the check, and its tests. A rule reports ranges and messages; the
//! severity comes from the active profile and the configuration.

pub(crate) mod rules;
#[cfg(test)]
pub(crate) mod tests;

use prose_syntax::{Parse, SyntaxNode, TextRange, ast};

use crate::{
    config::{Config, Level, Profile},
    contract::{Contract, program_contract},
    db::{Db, FileRoot, SourceFile, Workspace, file_root, join_path, parse},
    semantics::{FileSemantics, file_semantics},
};

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
    Info,
    Hint,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
            Severity::Hint => "hint",
        }
    }
}

/// A stable diagnostic code such as `E004`, `W001` or `P601`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DiagnosticCode(pub &'static str);

impl DiagnosticCode {
    pub fn as_str(self) -> &'static str {
        self.0
    }
}

/// A secondary location that explains a diagnostic (e.g. the first definition).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Related {
    pub path: String,
    pub range: TextRange,
    pub message: String,
}

/// Extra meaning an editor can show (faded text, strike-through).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Tag {
    Unnecessary,
    Deprecated,
}

/// One diagnostic: code, severity, message, exact range, related locations.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    pub code: DiagnosticCode,
    /// The rule's kebab-case name (`duplicate-agent`).
    pub name: &'static str,
    pub severity: Severity,
    pub message: String,
    pub range: TextRange,
    pub related: Vec<Related>,
    pub tags: Vec<Tag>,
}

/// A diagnostic rule: metadata plus its check.
pub struct Rule {
    pub code: &'static str,
    /// Kebab-case name of the bad pattern (`duplicate-agent`).
    pub name: &'static str,
    /// One line: what is wrong (the spec's wording where it has one).
    pub summary: &'static str,
    /// Severity under the `strict` profile: the specification's.
    pub strict: Severity,
    /// Level under the `default` profile (calibrated on real programs).
    pub default: Level,
    /// The rule file's source (`include_str!`), whose `//!` comment is the docs.
    pub source: &'static str,
    pub check: fn(&Ctx<'_>, &mut Acc),
}

impl Rule {
    /// The docs page: the rule file's leading `//!` comment as Markdown.
    pub fn docs(&self) -> String {
        let mut out = String::new();
        for line in self.source.lines() {
            let Some(rest) = line.strip_prefix("//!") else {
                if line.trim().is_empty() {
                    continue;
                }
                break;
            };
            out.push_str(rest.strip_prefix(' ').unwrap_or(rest));
            out.push('\n');
        }
        out
    }

    /// The level under `profile`, before per-code overrides.
    pub fn level(&self, profile: Profile) -> Level {
        match profile {
            Profile::Strict => Level::On(self.strict),
            Profile::Default => self.default,
        }
    }
}

/// All rules, ordered by code.
pub fn all_rules() -> &'static [&'static Rule] {
    rules::rules()
}

pub fn rule(code: &str) -> Option<&'static Rule> {
    all_rules()
        .iter()
        .copied()
        .find(|r| r.code.eq_ignore_ascii_case(code) || r.name == code)
}

/// The docs page for `code` (or rule name).
pub fn rule_docs(code: &str) -> Option<String> {
    rule(code).map(|r| r.docs())
}

/// What a rule sees: the file's tree, its names, and the workspace.
pub struct Ctx<'a> {
    pub db: &'a dyn Db,
    pub file: SourceFile,
    pub workspace: Option<Workspace>,
    pub parse: &'a Parse,
    pub root: ast::SourceFile,
    pub sema: &'a FileSemantics,
    /// Every node of the file in pre-order, collected once; rules reach
    /// them through the kind index ([`Ctx::nodes_of`], [`Ctx::nodes_matching`]).
    nodes: Vec<SyntaxNode>,
    /// For each kind (by its raw value), the positions in `nodes` of the
    /// nodes of that kind, ascending: a rule asking for one node type
    /// visits only those.
    by_kind: Vec<Vec<u32>>,
    /// Offsets of line starts, computed the first time a rule asks.
    line_starts: std::sync::OnceLock<Vec<u32>>,
    /// Results of helpers several rules share ([`Ctx::shared`]), computed
    /// once per file.
    memo: std::cell::RefCell<Vec<(usize, std::rc::Rc<dyn std::any::Any>)>>,
}

impl<'a> Ctx<'a> {
    /// The context of `file`: its parse, its names, and the node index.
    pub fn new(db: &'a dyn Db, file: SourceFile, workspace: Option<Workspace>) -> Ctx<'a> {
        let parse = parse(db, file);
        let root = parse.tree();
        let nodes: Vec<SyntaxNode> = prose_syntax::AstNode::syntax(&root).descendants().collect();
        let mut by_kind: Vec<Vec<u32>> = Vec::new();
        for (i, node) in nodes.iter().enumerate() {
            let k = node.kind() as usize;
            if by_kind.len() <= k {
                by_kind.resize_with(k + 1, Vec::new);
            }
            by_kind[k].push(i as u32);
        }
        Ctx {
            db,
            file,
            workspace,
            parse,
            root,
            sema: file_semantics(db, file),
            nodes,
            by_kind,
            line_starts: std::sync::OnceLock::new(),
            memo: Default::default(),
        }
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
    pub fn line_of(&self, offset: prose_syntax::TextSize) -> usize {
        let starts = self.line_starts.get_or_init(|| {
            std::iter::once(0)
                .chain(self.text().match_indices('\n').map(|(i, _)| i as u32 + 1))
                .collect()
        });
        starts.partition_point(|&s| s <= u32::from(offset))
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
        let mut lists = (0u16..)
            .map_while(prose_syntax::SyntaxKind::from_raw)
            .filter(|&k| pred(k))
            .filter_map(|k| self.by_kind.get(k as usize))
            .filter(|l| !l.is_empty());
        let indices: Vec<u32> = match (lists.next(), lists.next()) {
            (None, _) => Vec::new(),
            (Some(one), None) => one.clone(),
            (Some(a), Some(b)) => {
                let mut all: Vec<u32> = a.iter().chain(b).copied().collect();
                all.extend(lists.flatten());
                all.sort_unstable();
                all
            }
        };
        indices.into_iter().map(|i| self.nodes[i as usize].clone())
    }

    pub fn text(&self) -> &'a str {
        self.file.text(self.db)
    }

    pub fn path(&self) -> &'a str {
        self.file.path(self.db)
    }

    pub fn syntax(&self) -> &SyntaxNode {
        use prose_syntax::AstNode;
        self.root.syntax()
    }

    /// Where this file's project state lives and its configuration: its
    /// innermost root, or (outside every root, or without a workspace) its
    /// own directory and the default configuration.
    fn with_file_root<T>(&self, f: impl FnOnce(&FileRoot) -> T) -> T {
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
    pub fn root_dir(&self) -> String {
        self.with_file_root(|r| r.dir.clone())
    }

    pub fn home_dir(&self) -> Option<String> {
        self.workspace.and_then(|w| w.home(self.db).clone())
    }

    /// Whether a memory file exists at `path` (absolute, as the host keys them).
    pub fn memory_file_exists(&self, path: &str) -> bool {
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
        let ws = self.workspace?;
        let files = ws.files(self.db);
        self.import_candidates(use_path)
            .into_iter()
            .find_map(|p| files.get(&p).copied())
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

/// One reported problem, before severities are applied.
struct Reported {
    range: TextRange,
    message: String,
    related: Vec<Related>,
    tags: Vec<Tag>,
    /// Overrides the rule's `default`-profile level for this occurrence.
    default: Option<Level>,
}

/// Collects what one rule reports.
pub struct Acc {
    rule: &'static Rule,
    out: Vec<Reported>,
}

impl Acc {
    fn push(
        &mut self,
        range: TextRange,
        message: String,
        related: Vec<Related>,
        tags: Vec<Tag>,
        default: Option<Level>,
    ) {
        self.out.push(Reported {
            range,
            message,
            related,
            tags,
            default,
        });
    }

    pub fn report(&mut self, range: TextRange, message: impl Into<String>) {
        self.push(range, message.into(), Vec::new(), Vec::new(), None);
    }

    pub fn report_related(
        &mut self,
        range: TextRange,
        message: impl Into<String>,
        related: Vec<Related>,
    ) {
        self.push(range, message.into(), related, Vec::new(), None);
    }

    pub fn report_tagged(&mut self, range: TextRange, message: impl Into<String>, tags: Vec<Tag>) {
        self.push(range, message.into(), Vec::new(), tags, None);
    }

    /// Reports with a `default`-profile level chosen for this occurrence
    /// (the `strict` profile always uses the rule's spec severity).
    pub fn report_calibrated(
        &mut self,
        range: TextRange,
        message: impl Into<String>,
        related: Vec<Related>,
        default: Level,
    ) {
        self.push(range, message.into(), related, Vec::new(), Some(default));
    }

    pub fn code(&self) -> &'static str {
        self.rule.code
    }
}

/// Every diagnostic of a file, sorted by position, with the configured severities.
#[salsa::tracked(returns(ref))]
pub fn file_diagnostics(
    db: &dyn Db,
    file: SourceFile,
    workspace: Option<Workspace>,
) -> Vec<Diagnostic> {
    let ctx = Ctx::new(db, file, workspace);
    let config = ctx.config();
    let mut out = Vec::new();
    for &rule in all_rules() {
        // Rules are pure loops that call few queries: check between them
        // for a newer edit or a cancelled snapshot (`CancelToken`).
        db.unwind_if_revision_cancelled();
        let configured = config.severity.get(rule.code).copied();
        if configured == Some(Level::Off) {
            continue;
        }
        let mut acc = Acc {
            rule,
            out: Vec::new(),
        };
        (rule.check)(&ctx, &mut acc);
        for r in acc.out {
            let level = configured.unwrap_or(match config.profile {
                Profile::Strict => Level::On(rule.strict),
                Profile::Default => r.default.unwrap_or(rule.default),
            });
            let Level::On(severity) = level else { continue };
            out.push(Diagnostic {
                code: DiagnosticCode(rule.code),
                name: rule.name,
                severity,
                message: r.message,
                range: r.range,
                related: r.related,
                tags: r.tags,
            });
        }
    }
    out.sort_by(|a, b| {
        (a.range.start(), a.range.end(), a.code).cmp(&(b.range.start(), b.range.end(), b.code))
    });
    out.dedup();
    out
}

/// How long each rule takes on a file (benchmarks use it to find the
/// slow ones); runs the rules outside salsa, one by one.
#[doc(hidden)]
pub fn rule_timings(
    db: &dyn Db,
    file: SourceFile,
    workspace: Option<Workspace>,
) -> Vec<(&'static str, std::time::Duration)> {
    let ctx = Ctx::new(db, file, workspace);
    all_rules()
        .iter()
        .map(|&rule| {
            let mut acc = Acc {
                rule,
                out: Vec::new(),
            };
            let t = std::time::Instant::now();
            (rule.check)(&ctx, &mut acc);
            (rule.code, t.elapsed())
        })
        .collect()
}
