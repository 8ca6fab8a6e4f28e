//! Helpers shared by the program group's rules (not a rule itself):
//! `use` paths (forms, normalisation, bound names, local resolution), the
//! relation between two declarations (spec-rows.md §3.1), and program calls.

use prose_syntax::{AstNode, SyntaxKind, SyntaxNode, TextRange, ast};

use crate::{
    config::Level,
    contract::Contract,
    db::{SourceFile, join_path},
    diagnostics::{Ctx, Severity},
};

// ---- use paths ----------------------------------------------------------------

pub(super) use crate::imports::{is_handle_slug, is_local_path, registry_form};

fn file_dir(ctx: &Ctx<'_>) -> String {
    ctx.file_dir()
}

/// The key two `use` paths are compared by (E010): registry forms become
/// `@h/s`, local paths are resolved against the file's directory, and
/// anything else is compared as written.
pub(super) fn program_key(ctx: &Ctx<'_>, path: &str) -> String {
    let p = path.trim();
    if let Some(r) = registry_form(p) {
        return r;
    }
    if is_local_path(p) {
        return join_path(&file_dir(ctx), p);
    }
    p.to_string()
}

/// The name a `use` binds (spec-rows.md §3.7): the alias, else the last
/// path segment without a `.prose` extension.
pub(super) fn bound_name(u: &ast::UseStmt) -> Option<(String, TextRange)> {
    if let Some(alias) = u.alias() {
        return Some((alias.text(), alias.syntax().text_range()));
    }
    let path = u.path()?;
    let value = path.value();
    let last = value.trim().trim_end_matches('/').rsplit('/').next()?;
    let name = last.strip_suffix(".prose").unwrap_or(last);
    (!name.is_empty()).then(|| (name.to_string(), path.syntax().text_range()))
}

/// The local file a `use` path resolves to, if the host loaded it: the
/// configured mapping and `.prose/imports/{handle}--{slug}/program.prose`
/// (workspace, then home) for registry forms; the file itself for a local path.
pub(super) fn resolve_use(ctx: &Ctx<'_>, path: &str) -> Option<SourceFile> {
    ctx.resolve_import(path)
}

/// Where to put an unavailable program so that it is found.
pub(super) fn where_to_put(ctx: &Ctx<'_>, path: &str) -> Option<String> {
    let r = registry_form(path)?;
    let root = ctx.root_dir();
    let in_workspace = format!("{root}/.prose/imports/");
    let candidate = ctx
        .import_candidates(&r)
        .into_iter()
        .find(|p| p.starts_with(&in_workspace))?;
    Some(
        candidate
            .strip_prefix(&format!("{root}/"))
            .map_or(candidate.clone(), str::to_string),
    )
}

/// One `use` statement with what the rules need to know about it.
pub(super) struct Import {
    pub(super) stmt: ast::UseStmt,
    /// The path as written (decoded), and its literal's range.
    pub(super) path: String,
    pub(super) path_range: TextRange,
    pub(super) key: String,
    pub(super) name: Option<String>,
    /// Whether an earlier `use` imports the same program (E010).
    pub(super) duplicate: bool,
}

/// Every `use` statement of the file, in source order.
pub(super) fn imports(ctx: &Ctx<'_>) -> Vec<Import> {
    let mut out: Vec<Import> = Vec::new();
    for u in ctx.all_nodes().filter_map(ast::UseStmt::cast) {
        let Some(lit) = u.path() else { continue };
        let path = lit.value();
        let key = program_key(ctx, &path);
        let duplicate = !path.trim().is_empty() && out.iter().any(|i| i.key == key);
        out.push(Import {
            name: bound_name(&u).map(|(n, _)| n),
            path_range: lit.syntax().text_range(),
            path,
            key,
            duplicate,
            stmt: u,
        });
    }
    out
}

/// Whether the `use` path is malformed under the `default` profile (E011 or
/// E012 fire there), so nothing else should be said about it.
pub(super) fn is_malformed(path: &str) -> bool {
    let p = path.trim();
    p.is_empty() || invalid_path_reason(p).is_some_and(|(_, default)| default)
}

/// Why a non-empty `use` path is not `@handle/slug`, and whether the
/// `default` profile reports it too (E012).
pub(super) fn invalid_path_reason(p: &str) -> Option<(&'static str, bool)> {
    if let Some(rest) = p.strip_prefix('@') {
        if is_handle_slug(rest) {
            return None;
        }
        return Some(("`@` must be followed by `handle/slug`", true));
    }
    if p.chars().any(char::is_whitespace) {
        return Some(("the path contains whitespace", true));
    }
    if let Some((scheme, _)) = p.split_once(':')
        && !scheme.is_empty()
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
    {
        if scheme == "http" || scheme == "https" {
            return Some(("a URL is not an `@handle/slug` path", false));
        }
        return Some(("only `http:` and `https:` URLs are supported", true));
    }
    if is_local_path(p) {
        return Some(("a local file path is not an `@handle/slug` path", false));
    }
    if is_handle_slug(p) {
        return Some(("the `@` is missing", false));
    }
    Some(("expected `@handle/slug`", true))
}

/// The imported program a name is bound to, with its contract if the
/// program is available locally.
pub(super) struct Callee<'a> {
    pub(super) import: &'a Import,
    pub(super) contract: Option<&'a Contract>,
}

/// The first non-duplicate, well-formed `use` binding `name`.
pub(super) fn callee<'a>(ctx: &Ctx<'a>, imports: &'a [Import], name: &str) -> Option<Callee<'a>> {
    let import = imports
        .iter()
        .find(|i| i.name.as_deref() == Some(name) && !i.duplicate)?;
    let contract = if is_malformed(&import.path) {
        None
    } else {
        resolve_use(ctx, &import.path).map(|f| ctx.contract(f))
    };
    Some(Callee { import, contract })
}

/// `NAME(args)` with a plain name as callee (`xs[i]` indexing has no
/// argument list; `do NAME(...)` is a different node).
pub(super) fn program_call(call: &ast::CallExpr) -> Option<ast::NameRef> {
    call.arg_list()?;
    match call.callee()? {
        ast::Expr::NameRef(n) => Some(n),
        _ => None,
    }
}

/// The statement that declares a variable's value: its value expression,
/// if it is a call of an imported program.
pub(super) fn call_value(stmt: &SyntaxNode) -> Option<ast::CallExpr> {
    let value = if let Some(l) = ast::LetStmt::cast(stmt.clone()) {
        l.value()
    } else if let Some(o) = ast::OutputDecl::cast(stmt.clone()) {
        o.value()
    } else if let Some(a) = ast::AssignStmt::cast(stmt.clone()) {
        a.value()
    } else {
        None
    };
    match value? {
        ast::Expr::Call(c) => Some(c),
        _ => None,
    }
}

// ---- declarations and their relation (§3.1) ---------------------------------

/// How two declarations of one name relate (spec-rows.md §3.1), from the
/// most to the least likely collision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Relation {
    /// Different arms of one `if`/`elif`/`else`, different `option`s of one
    /// `choice`, or a `try` body and its `catch`: only one runs.
    Exclusive,
    /// One inside a `block` body and the other outside it or in another
    /// block: stored in different frames (`{name}__{execution_id}.md`).
    DifferentFrames,
    /// In two lists that are neither nested nor exclusive (two `if`s).
    Sibling,
    /// One list nested inside the other's (a loop or `if` body).
    Nested,
    /// The same statement list.
    SameList,
}

fn is_list(n: &SyntaxNode) -> bool {
    matches!(n.kind(), SyntaxKind::BLOCK | SyntaxKind::SOURCE_FILE)
}

/// The statement list holding `n`.
fn list_of(n: &SyntaxNode) -> Option<SyntaxNode> {
    n.ancestors().skip(1).find(is_list)
}

/// The innermost `block` definition holding `n`.
fn frame_of(n: &SyntaxNode) -> Option<SyntaxNode> {
    n.ancestors()
        .skip(1)
        .find(|a| a.kind() == SyntaxKind::BLOCK_DEF)
}

/// The child of `ancestor` on the path to `n`.
fn child_towards(ancestor: &SyntaxNode, n: &SyntaxNode) -> Option<SyntaxNode> {
    n.ancestors()
        .find(|a| a.parent().as_ref() == Some(ancestor))
}

/// The relation between the declarations made by statements `a` and `b`.
pub(super) fn relation(a: &SyntaxNode, b: &SyntaxNode) -> Relation {
    if frame_of(a) != frame_of(b) {
        return Relation::DifferentFrames;
    }
    let (la, lb) = (list_of(a), list_of(b));
    if la == lb {
        return Relation::SameList;
    }
    let lca = a.ancestors().find(|x| b.ancestors().any(|y| &y == x));
    if let Some(lca) = &lca
        && let (Some(ca), Some(cb)) = (child_towards(lca, a), child_towards(lca, b))
        && ca != cb
    {
        let arm = |c: &SyntaxNode| c.kind();
        use SyntaxKind::*;
        let exclusive = match lca.kind() {
            IF_STMT => [arm(&ca), arm(&cb)]
                .iter()
                .all(|k| matches!(k, BLOCK | ELIF_CLAUSE | ELSE_CLAUSE)),
            TRY_STMT => matches!(
                (arm(&ca), arm(&cb)),
                (BLOCK, CATCH_CLAUSE) | (CATCH_CLAUSE, BLOCK)
            ),
            BLOCK => {
                lca.parent().is_some_and(|p| p.kind() == CHOICE_STMT)
                    && arm(&ca) == OPTION_CLAUSE
                    && arm(&cb) == OPTION_CLAUSE
            }
            _ => false,
        };
        if exclusive {
            return Relation::Exclusive;
        }
    }
    let inside = |list: &Option<SyntaxNode>, n: &SyntaxNode| {
        list.as_ref()
            .is_some_and(|l| n.ancestors().skip(1).any(|x| &x == l))
    };
    if inside(&la, b) || inside(&lb, a) {
        return Relation::Nested;
    }
    Relation::Sibling
}

/// The `default` level for a pair in `relation`: `colliding` for a same
/// list, `overlapping` for nested and sibling lists, off otherwise.
pub(super) fn calibrate(relation: Relation, overlapping: Severity) -> Level {
    match relation {
        Relation::SameList => Level::On(Severity::Error),
        Relation::Nested | Relation::Sibling => Level::On(overlapping),
        Relation::Exclusive | Relation::DifferentFrames => Level::Off,
    }
}

/// The earlier declaration `later` collides with most (ties: the nearest).
pub(super) fn strongest_earlier<'d, T>(
    later: &SyntaxNode,
    earlier: impl Iterator<Item = (&'d SyntaxNode, T)>,
) -> Option<(Relation, T)> {
    let mut best: Option<(Relation, T)> = None;
    for (node, item) in earlier {
        let r = relation(node, later);
        if best.as_ref().is_none_or(|(b, _)| r >= *b) {
            best = Some((r, item));
        }
    }
    best
}

/// The statement that makes a declaration (`let`, `const`, `output`,
/// `input`, or the assignment of a parallel result).
pub(super) fn decl_stmt(ctx: &Ctx<'_>, def: &crate::semantics::Def) -> Option<SyntaxNode> {
    let el = ctx.syntax().covering_element(def.name_range);
    let start = match el {
        prose_syntax::NodeOrToken::Node(n) => n,
        prose_syntax::NodeOrToken::Token(t) => t.parent()?,
    };
    start.ancestors().find(|n| {
        matches!(
            n.kind(),
            SyntaxKind::LET_STMT
                | SyntaxKind::CONST_STMT
                | SyntaxKind::OUTPUT_DECL
                | SyntaxKind::INPUT_DECL
                | SyntaxKind::ASSIGN_STMT
        )
    })
}

/// The 1-based line of `offset`.
pub(super) fn line_of(ctx: &Ctx<'_>, offset: prose_syntax::TextSize) -> usize {
    ctx.text()[..usize::from(offset).min(ctx.text().len())]
        .matches('\n')
        .count()
        + 1
}
