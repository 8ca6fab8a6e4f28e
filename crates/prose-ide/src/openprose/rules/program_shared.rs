//! Helpers shared by the program group's rules (not a rule itself):
//! `use` paths (forms, normalisation, bound names, local resolution),
//! declaring statements, and program calls.

use crate::{
    contract::Contract,
    db::{SourceFile, join_path},
    openprose::rules::{
        places::Place,
        prelude::*,
        relation::{DeclaredPlaces, Earlier, Relation, declared_places, places},
    },
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
    let name = implicit_bound_name(&path.value())?;
    Some((name, path.syntax().text_range()))
}

/// The name a `use` of `path` binds without an alias: the last path
/// segment without a `.prose` extension, if not empty.
fn implicit_bound_name(path: &str) -> Option<String> {
    let last = path.trim().trim_end_matches('/').rsplit('/').next()?;
    let name = last.strip_suffix(".prose").unwrap_or(last);
    (!name.is_empty()).then(|| name.to_string())
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
    place_among(ctx, &ctx.import_candidates(&r))
}

/// [`where_to_put`] from the candidates of the path's registry form: the
/// first in the workspace's `.prose/imports/`, relative to the root (the
/// prefixes compared piece by piece, not formatted).
fn place_among(ctx: &Ctx<'_>, candidates: &[String]) -> Option<String> {
    let root = ctx.root_dir();
    let candidate = candidates
        .iter()
        .find(|p| below_root(p, &root).is_some_and(|rest| rest.starts_with(".prose/imports/")))?;
    Some(below_root(candidate, &root).map_or(candidate.clone(), str::to_string))
}

/// `path` relative to `root`, if it is below it (after `{root}/`).
fn below_root<'p>(path: &'p str, root: &str) -> Option<&'p str> {
    path.strip_prefix(root)?.strip_prefix('/')
}

/// [`resolve_use`] of `path`, and when it finds no file, [`where_to_put`]
/// of the trimmed path. A path already in registry form (the usual
/// `"@handle/slug"`) has the same candidates for both, looked up once.
pub(super) fn resolve_or_place(ctx: &Ctx<'_>, path: &str) -> Result<SourceFile, Option<String>> {
    let trimmed = path.trim();
    match registry_form(trimmed) {
        Some(r) if r == trimmed => {
            let candidates = ctx.import_candidates(path);
            match ctx.loaded_file(&candidates) {
                Some(file) => Ok(file),
                None => Err(place_among(ctx, &candidates)),
            }
        }
        _ => resolve_use(ctx, path).ok_or_else(|| where_to_put(ctx, trimmed)),
    }
}

/// One `use` statement with what the rules need to know about it.
#[derive(Clone)]
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

/// Every `use` statement of the file, in source order (computed once per
/// file, shared).
pub(super) fn imports(ctx: &Ctx<'_>) -> std::rc::Rc<Vec<Import>> {
    ctx.shared(compute_imports)
}

fn compute_imports(ctx: &Ctx<'_>) -> Vec<Import> {
    let mut out: Vec<Import> = Vec::new();
    // The keys of the imports so far (looked up, not scanned: a file may
    // have thousands of `use` statements).
    let mut keys: rustc_hash::FxHashSet<String> = Default::default();
    for u in ctx.nodes_of::<ast::UseStmt>() {
        let Some(lit) = u.path() else { continue };
        let path = lit.value();
        let key = program_key(ctx, &path);
        let seen = !keys.insert(key.clone());
        let duplicate = !path.trim().is_empty() && seen;
        out.push(Import {
            // `bound_name`, from the path already read.
            name: match u.alias() {
                Some(alias) => Some(alias.text()),
                None => implicit_bound_name(&path),
            },
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

/// The imported program a name is bound to, when it is available locally.
pub(super) struct Callee<'a> {
    /// The range of the `use` statement's path.
    pub(super) import_range: TextRange,
    pub(super) contract: &'a Contract,
}

impl Callee<'_> {
    /// Links a diagnostic about `program` to the `use` statement importing it.
    pub(super) fn imported_here(&self, ctx: &Ctx<'_>, program: &str) -> Vec<Related> {
        vec![related(
            ctx,
            self.import_range,
            &format!("`{program}` is imported here"),
        )]
    }
}

/// The first non-duplicate, well-formed `use` binding `name`, if the
/// program it imports is available locally (its contract is known);
/// `imports` is the file's [`imports`].
pub(super) fn callee<'a>(ctx: &Ctx<'a>, imports: &[Import], name: &str) -> Option<Callee<'a>> {
    let &i = ctx.shared(callee_imports).get(name)?;
    imported_callee(ctx, &imports[i])
}

/// The program `import` imports, if its path is well formed and the
/// program is available locally ([`callee`] once the `use` is found).
fn imported_callee<'a>(ctx: &Ctx<'a>, import: &Import) -> Option<Callee<'a>> {
    if is_malformed(&import.path) {
        return None;
    }
    let contract = ctx.contract(resolve_use(ctx, &import.path)?);
    Some(Callee {
        import_range: import.path_range,
        contract,
    })
}

/// For each name a `use` binds, the first non-duplicate `use` binding it
/// (its position in [`imports`]): what [`callee`] looks for, found once per
/// file instead of by a scan of the imports per call.
fn callee_imports(ctx: &Ctx<'_>) -> rustc_hash::FxHashMap<String, usize> {
    let mut first = rustc_hash::FxHashMap::default();
    for (i, import) in imports(ctx).iter().enumerate() {
        if let Some(name) = &import.name
            && !import.duplicate
        {
            first.entry(name.clone()).or_insert(i);
        }
    }
    first
}

/// A call `NAME(args)` of an imported program that is available locally.
pub(super) struct ProgramCall<'a> {
    pub(super) call: ast::CallExpr,
    /// The callee as written.
    pub(super) name: ast::NameRef,
    pub(super) callee: Callee<'a>,
}

/// Every call of an imported program whose contract is known, in source
/// order (E026, E027).
pub(super) fn resolved_calls<'a>(ctx: &Ctx<'a>) -> Vec<ProgramCall<'a>> {
    let all = imports(ctx);
    ctx.shared(import_calls)
        .iter()
        .filter_map(|(call, name, i)| {
            let callee = imported_callee(ctx, &all[*i])?;
            Some(ProgramCall {
                call: call.clone(),
                name: name.clone(),
                callee,
            })
        })
        .collect()
}

/// Every call `NAME(args)` whose name a `use` binds ([`program_call`]),
/// with the `use` [`callee`] takes (its position in [`imports`]), in source
/// order: found once per file for E026 and E027, each of which then looks
/// up the programs itself.
fn import_calls(ctx: &Ctx<'_>) -> Vec<(ast::CallExpr, ast::NameRef, usize)> {
    let first = ctx.shared(callee_imports);
    nodes::<ast::CallExpr>(ctx)
        .filter_map(|call| {
            let name = program_call(&call)?;
            let &i = first.get(name.text().as_str())?;
            Some((call, name, i))
        })
        .collect()
}

/// What follows "… not declared in program: `name`" (E027, E028): the
/// closest of the names `program` declares, else their list (`what`:
/// "inputs" or "outputs").
pub(super) fn undeclared_detail(
    program: &str,
    name: &str,
    declared: &[&str],
    what: &str,
) -> String {
    if let Some(s) = did_you_mean(name, declared) {
        format!(" (did you mean `{s}`?)")
    } else if declared.is_empty() {
        format!("; `{program}` declares no {what}")
    } else {
        let list: Vec<String> = declared.iter().map(|d| format!("`{d}`")).collect();
        format!("; `{program}` declares {}", list.join(", "))
    }
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

// ---- declarations -------------------------------------------------------------

/// The statement that makes a declaration (`let`, `const`, `output`,
/// `input`, or the assignment of a parallel result), as its [`Place`]
/// (the node itself: [`DeclStmts::node`]).
///
/// Found from [`declared_places`] for the declarations of the kinds P203,
/// E021, E024 and E028 ask about, else from the tree.
///
/// A rule asks through one [`DeclStmts`]: the shared places are fetched
/// once (when a declaration first needs them), not once per declaration.
pub(super) struct DeclStmts<'c, 'a> {
    ctx: &'c Ctx<'a>,
    declared: std::cell::OnceCell<std::rc::Rc<DeclaredPlaces>>,
}

impl<'c, 'a> DeclStmts<'c, 'a> {
    pub(super) fn new(ctx: &'c Ctx<'a>) -> Self {
        DeclStmts {
            ctx,
            declared: std::cell::OnceCell::new(),
        }
    }

    /// The statement that makes `def`, definition `id` of the file.
    pub(super) fn get(&self, id: DefId, def: &Def) -> Option<Place> {
        if is_stmt_decl(def.kind) {
            let declared = self.declared.get_or_init(|| declared_places(self.ctx));
            if let Some(at) = declared.get(id, def) {
                return at.declaring;
            }
        }
        find_decl_stmt(self.ctx, def)
    }

    /// The node of a statement [`DeclStmts::get`] gave.
    pub(super) fn node(&self, place: &Place) -> SyntaxNode {
        places(self.ctx).node(place)
    }
}

/// The kinds of declarations whose statement [`DeclStmts::get`] reads
/// from [`declared_places`].
fn is_stmt_decl(kind: DefKind) -> bool {
    matches!(
        kind,
        DefKind::Input
            | DefKind::Output
            | DefKind::Let
            | DefKind::Const
            | DefKind::Assigned
            | DefKind::Destructured
    )
}

/// The definitions of the names defined more than once
/// ([`FileSemantics::defined_again`]) whose kind `keep` accepts, in
/// definition order, each with the statement that makes it
/// ([`DeclStmts::get`]; those without one left out): what a rule that
/// compares declarations of one name goes through, rather than every
/// definition of the file.
///
/// [`FileSemantics::defined_again`]: crate::openprose::semantics::FileSemantics::defined_again
pub(super) fn defined_again_declared<'a>(
    ctx: &Ctx<'a>,
    stmts: &DeclStmts<'_, 'a>,
    keep: impl Fn(DefKind) -> bool,
) -> Vec<(&'a Def, Place)> {
    let sema = ctx.sema();
    let mut ids: Vec<DefId> = sema
        .defined_again()
        .flatten()
        .copied()
        .filter(|&id| keep(sema.def(id).kind))
        .collect();
    ids.sort_unstable_by_key(|id| id.0);
    ids.into_iter()
        .filter_map(|id| {
            let d = sema.def(id);
            Some((d, stmts.get(id, d)?))
        })
        .collect()
}

/// The declaring statement of `def`: the innermost of the node at its
/// name and that node's ancestors that is a declaring statement.
fn find_decl_stmt(ctx: &Ctx<'_>, def: &Def) -> Option<Place> {
    places(ctx).declaring(def.name_range)
}

/// Every declaration of `kind` whose name an earlier one of that kind
/// already declares (E021, E024): the later one, how it relates to the
/// earlier one it collides with most, and that one.
pub(super) fn redeclarations<'a>(
    ctx: &Ctx<'a>,
    kind: DefKind,
) -> Vec<(&'a Def, Relation, &'a Def)> {
    let stmts = DeclStmts::new(ctx);
    // Only a name defined more than once can be declared again.
    let decls = defined_again_declared(ctx, &stmts, |k| k == kind);
    let mut earlier = Earlier::with_capacity(ctx, decls.len());
    let mut out = Vec::new();
    for (def, stmt) in decls {
        if let Some((relation, &first)) = earlier.strongest(&def.name, &stmt) {
            out.push((def, relation, first));
        }
        earlier.insert(&def.name, stmt, def);
    }
    out
}

// ---- triple-quoted strings (P102, P103) ------------------------------------------

/// Every `"""` string of the file, in pre-order (computed once per file:
/// P102 and P103 both go through them, and most strings are not).
pub(super) fn triple_strings(ctx: &Ctx<'_>) -> std::rc::Rc<Vec<ast::StringLit>> {
    ctx.shared(compute_triple_strings)
}

fn compute_triple_strings(ctx: &Ctx<'_>) -> Vec<ast::StringLit> {
    nodes::<ast::StringLit>(ctx)
        .filter(|s| opens_with_triple_quote(s.syntax()))
        .collect()
}

/// [`ast::StringLit::is_triple`] read from the green tree: the string's
/// first opening-quote token is `"""`. The same answer without making a
/// token handle (an allocation) per child.
fn opens_with_triple_quote(string: &SyntaxNode) -> bool {
    string
        .green()
        .children()
        .filter_map(|c| c.into_token())
        .find(|t| t.kind().0 == SyntaxKind::STRING_OPEN as u16)
        .is_some_and(|t| t.text().len() == 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `places::value_is_call` answers as [`call_value`] does for every node.
    fn value_is_call_agrees(text: &str) {
        let root = prose_syntax::parse(text).syntax_node();
        for node in root.descendants() {
            assert_eq!(
                crate::openprose::rules::places::value_is_call(node.green()),
                call_value(&node).is_some(),
                "{node:?} in {text:?}"
            );
        }
    }

    #[test]
    fn value_is_call_of_programs() {
        value_is_call_agrees(
            "let a = f(x: 1)\nconst b = g()\noutput c = h(y: a)\nd = k()\nlet e = xs[0]\noutput f = session \"s\"\nparallel:\n  x = session \"a\"\nlet { p, q } = f()\n",
        );
    }

    proptest::proptest! {
        #[test]
        fn value_is_call_matches_call_value(
            text in "(let |const |output |a|b|= |f|\\(|\\)|x: |1|\\[|\\]|, |\"s\"|session |\n|  |parallel:|\\{|\\}){0,30}"
        ) {
            value_is_call_agrees(&text);
        }
    }
}
