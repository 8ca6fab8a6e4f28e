//! Name resolution: every definition and every reference of a file.
//!
//! The model follows the runtime (prose.md): bindings live in one flat,
//! program-wide namespace (`bindings/{name}.md`), so a variable bound in an
//! `if` branch is visible after the `if`. Scoped names — block parameters,
//! loop and index variables, `catch as` variables, the pipeline's implicit
//! `item` and `reduce` variables — are visible only in their body.
//!
//! - agents, blocks and imports are hoisted (visible everywhere);
//! - inputs are visible everywhere (they are supplied before the run);
//! - let / const / output / assignment / `session name:` bindings are
//!   visible after their statement (in text order); inside a `block`
//!   definition (and in an agent's `context:`) every program-level binding
//!   is visible, even one written further down, because the body runs
//!   where the block is called.
//!
//! The result is plain data (ranges, names): comparable, so salsa can
//! backdate it, and `Send`, so it can leave the database.
//!
//! How: each top-level statement is walked on its own (`walk.rs`, kept per
//! statement so that an edit walks only what it touched), and the walks are
//! played in order against the definitions made so far (`replay.rs`).

mod name;
mod replay;
#[cfg(test)]
mod tests;
mod walk;

use std::sync::Arc;

use prose_syntax::{AstNode, TextRange, TextSize, ast};

pub use name::Name;

use crate::db::{Db, SourceFile, parse};

pub(crate) use walk::StatementNames;

/// Index of a definition in [`FileSemantics::defs`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DefId(pub u32);

/// What a definition defines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DefKind {
    Agent,
    Block,
    /// `use "@h/slug" [as alias]`: binds the alias, or the slug.
    Program,
    /// Legacy `import "name" from "source"` (a skill).
    Skill,
    Input,
    Output,
    Let,
    Const,
    /// `name = expr` where `name` was not bound before (named parallel results).
    Assigned,
    /// `session name: agent`.
    SessionName,
    /// A name in `let { a, b } = ...`.
    Destructured,
    Param,
    LoopVar,
    IndexVar,
    CatchVar,
    /// The implicit `item` of `map` / `filter` / `pmap`.
    PipelineItem,
    /// The accumulator and item of `reduce(acc, item)`.
    ReduceVar,
}

impl DefKind {
    /// Human name used in hovers and messages.
    pub fn describe(self) -> &'static str {
        match self {
            DefKind::Agent => "agent",
            DefKind::Block => "block",
            DefKind::Program => "imported program",
            DefKind::Skill => "imported skill",
            DefKind::Input => "input",
            DefKind::Output => "output",
            DefKind::Let => "let variable",
            DefKind::Const => "const variable",
            DefKind::Assigned => "variable",
            DefKind::SessionName => "named session",
            DefKind::Destructured => "destructured variable",
            DefKind::Param => "block parameter",
            DefKind::LoopVar => "loop variable",
            DefKind::IndexVar => "index variable",
            DefKind::CatchVar => "error variable",
            DefKind::PipelineItem => "pipeline item",
            DefKind::ReduceVar => "reduce variable",
        }
    }

    /// Whether this is a variable (something `context:` can name).
    pub fn is_variable(self) -> bool {
        !matches!(
            self,
            DefKind::Agent | DefKind::Block | DefKind::Program | DefKind::Skill
        )
    }

    /// Variables bound in the flat, program-wide namespace.
    pub fn is_flat_binding(self) -> bool {
        matches!(
            self,
            DefKind::Output
                | DefKind::Let
                | DefKind::Const
                | DefKind::Assigned
                | DefKind::SessionName
                | DefKind::Destructured
        )
    }

    /// Variables visible only in a body.
    pub fn is_scoped(self) -> bool {
        matches!(
            self,
            DefKind::Param
                | DefKind::LoopVar
                | DefKind::IndexVar
                | DefKind::CatchVar
                | DefKind::PipelineItem
                | DefKind::ReduceVar
        )
    }
}

/// One definition.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Def {
    pub name: Name,
    pub kind: DefKind,
    /// The defining name (for an implicit `item`, the pipeline operator).
    pub name_range: TextRange,
    /// The whole defining statement or construct.
    pub range: TextRange,
    /// For scoped definitions: where the name is visible.
    pub scope: Option<TextRange>,
    /// Whether the definition sits inside a `block` definition's body.
    pub in_block_def: bool,
}

/// Where a variable reference appears (messages differ per site).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RefSite {
    Expr,
    /// `context: x`, `context: [x]`, `context: { x }`.
    Context,
    /// `{x}` inside a string.
    Interpolation,
    /// The collection of a `for` loop or a pipeline source.
    Collection,
    /// `{ a, b }` object shorthand outside `context:`.
    ObjectShorthand,
    /// The target of `name = value` when `name` is already bound.
    AssignTarget,
}

/// What a reference refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RefKind {
    Variable(RefSite),
    /// `session: x`, `resume: x`, `session n: x`.
    Agent,
    /// `do x`.
    Block,
    /// `x(...)` program invocation.
    Program,
}

/// One reference and what it resolved to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Reference {
    pub name: Name,
    pub range: TextRange,
    pub kind: RefKind,
    pub target: Option<DefId>,
}

/// All definitions and references of one file.
#[derive(Debug, Clone, Default)]
pub struct FileSemantics {
    pub defs: Vec<Def>,
    pub refs: Vec<Reference>,
    /// Definitions by name, in definition order: lookups by name do not
    /// scan every definition. (Made from `defs`, so equal `defs` give an
    /// equal map.) Shared by the names moved after typing in a prompt
    /// ([`FileSemantics::moved`]), which have the same definitions.
    by_name: std::sync::Arc<rustc_hash::FxHashMap<Name, Named>>,
}

/// Equal when the definitions and the references are (the map by name is
/// made from the definitions). Compared from the end: salsa compares the
/// names after every edit, to keep what depends on them when nothing
/// changed, and an edit that moved text moved every range after it, so
/// the last references differ at once; compared from the start, the
/// comparison went through every name before the edit first (tens of
/// microseconds on a long program, on the way to the client).
impl PartialEq for FileSemantics {
    fn eq(&self, other: &FileSemantics) -> bool {
        self.defs.len() == other.defs.len()
            && self.refs.len() == other.refs.len()
            && self.refs.iter().rev().eq(other.refs.iter().rev())
            && self.defs.iter().rev().eq(other.defs.iter().rev())
    }
}

impl Eq for FileSemantics {}

impl FileSemantics {
    /// The same names with every range mapped by `f` (for text that moved);
    /// `None` if `f` cannot map one.
    pub fn moved(&self, f: impl Fn(TextRange) -> Option<TextRange>) -> Option<FileSemantics> {
        let mut defs = Vec::with_capacity(self.defs.len());
        for d in &self.defs {
            defs.push(Def {
                name_range: f(d.name_range)?,
                range: f(d.range)?,
                scope: match d.scope {
                    Some(s) => Some(f(s)?),
                    None => None,
                },
                ..d.clone()
            });
        }
        let mut refs = Vec::with_capacity(self.refs.len());
        for r in &self.refs {
            refs.push(Reference {
                range: f(r.range)?,
                ..r.clone()
            });
        }
        Some(FileSemantics {
            defs,
            refs,
            by_name: self.by_name.clone(),
        })
    }
}

/// The definitions of one name. Most names are defined once or twice, by
/// one kind of definition: those lists stay inline, without an allocation
/// of their own (the names are made again after every edit).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
struct Named {
    /// In definition order.
    ids: smallvec::SmallVec<[DefId; 2]>,
    /// The first of each kind (a handful of kinds at most), so that
    /// [`FileSemantics::find`] does not scan thousands of definitions of
    /// one name.
    first_of_kind: smallvec::SmallVec<[(DefKind, DefId); 1]>,
    /// The flat bindings among `ids` ([`DefKind::is_flat_binding`]), in
    /// definition order: where a variable reference looks for the last
    /// binding before it (`replay.rs`), by a binary search while their
    /// ranges start in that order (as the walk makes them), so that
    /// thousands of bindings of one name are not scanned per reference.
    flat: smallvec::SmallVec<[DefId; 1]>,
    /// Whether a flat binding starts before one defined earlier (then
    /// `flat` is scanned). An edit that moves every offset after a point
    /// keeps the order, so moved names keep this.
    flat_out_of_order: bool,
    /// The first flat binding outside every block definition.
    first_program: Option<DefId>,
}

impl Named {
    fn push(&mut self, id: DefId, kind: DefKind) {
        self.ids.push(id);
        if !self.first_of_kind.iter().any(|(k, _)| *k == kind) {
            self.first_of_kind.push((kind, id));
        }
    }

    fn first(&self, kind: DefKind) -> Option<DefId> {
        self.first_of_kind
            .iter()
            .find_map(|&(k, id)| (k == kind).then_some(id))
    }
}

impl FileSemantics {
    pub fn def(&self, id: DefId) -> &Def {
        &self.defs[id.0 as usize]
    }

    pub fn defs_of(&self, kind: DefKind) -> impl Iterator<Item = (DefId, &Def)> {
        self.defs
            .iter()
            .enumerate()
            .filter(move |(_, d)| d.kind == kind)
            .map(|(i, d)| (DefId(i as u32), d))
    }

    /// The first definition of `kind` called `name`.
    pub fn find(&self, kind: DefKind, name: &str) -> Option<(DefId, &Def)> {
        let id = self.by_name.get(name)?.first(kind)?;
        Some((id, self.def(id)))
    }

    /// The definitions named `name`, in definition order.
    pub fn named(&self, name: &str) -> impl Iterator<Item = DefId> + '_ {
        self.by_name
            .get(name)
            .into_iter()
            .flat_map(|n| n.ids.iter().copied())
    }

    /// The definitions of each name defined more than once, each list in
    /// definition order (the names in no particular order): what a rule
    /// comparing the definitions of one name with each other looks at,
    /// without a lookup for each definition of the file.
    pub fn defined_again(&self) -> impl Iterator<Item = &[DefId]> + '_ {
        self.by_name
            .values()
            .filter(|n| n.ids.len() > 1)
            .map(|n| n.ids.as_slice())
    }

    /// The definition whose name covers `offset`.
    pub fn def_at(&self, offset: TextSize) -> Option<DefId> {
        self.defs
            .iter()
            .position(|d| {
                d.name_range.contains_inclusive(offset) && d.kind != DefKind::PipelineItem
            })
            .map(|i| DefId(i as u32))
    }

    /// The reference covering `offset`.
    pub fn ref_at(&self, offset: TextSize) -> Option<&Reference> {
        self.refs
            .iter()
            .find(|r| r.range.contains_inclusive(offset))
    }

    /// Every reference that resolved to `def`.
    pub fn references_to(&self, def: DefId) -> impl Iterator<Item = &Reference> {
        self.refs.iter().filter(move |r| r.target == Some(def))
    }
}

/// Name resolution for a file (backdated when the result is unchanged).
pub fn file_semantics(db: &dyn Db, file: SourceFile) -> &FileSemantics {
    file_semantics_query(db, file)
}

/// The names of `file`; after typing in a prompt, the previous ones moved
/// (`prompt_edit.rs`); otherwise the walk of each top-level statement is
/// taken from the previous analysis when the statement did not change.
#[salsa::tracked(returns(ref))]
fn file_semantics_query(db: &dyn Db, file: SourceFile) -> Arc<FileSemantics> {
    crate::openprose::prompt_edit::semantics(db, file, || {
        let root = parse(db, file).syntax_node();
        // A file of megabytes takes a while: stop when an edit arrives.
        let interrupt = || db.unwind_if_revision_cancelled();
        let mut ticks = 0;
        db.statement_memos().names.lend(
            file,
            &root,
            |stmt| walk::statement_names(stmt, &mut ticks, &interrupt),
            replay::replay,
        )
    })
}

/// Resolves names in a parsed file (pure; also used directly in tests).
pub fn resolve(file: &ast::SourceFile) -> FileSemantics {
    resolve_interruptible(file, &|| {})
}

/// [`resolve`], calling `interrupt` every few thousand statements (see
/// `prose_syntax::parse_interruptible`).
pub fn resolve_interruptible(file: &ast::SourceFile, interrupt: &dyn Fn()) -> FileSemantics {
    let mut ticks = 0;
    let statements: Vec<(TextSize, StatementNames)> = file
        .syntax()
        .children()
        .map(|node| {
            let names = walk::statement_names(&node, &mut ticks, interrupt);
            (node.text_range().start(), names)
        })
        .collect();
    let lent: Vec<(TextSize, &StatementNames)> =
        statements.iter().map(|(at, s)| (*at, s)).collect();
    replay::replay(&lent)
}
