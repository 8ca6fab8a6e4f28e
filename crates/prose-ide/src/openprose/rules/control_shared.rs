//! Helpers shared by the control group's rules (not a rule itself): the
//! "outer variable" test of the shadowing warnings (spec-rows.md §2.4),
//! empty bodies, and integer-valued settings (`repeat N`, `max:`, `retry:`).

use rustc_hash::FxHashMap as HashMap;

use crate::openprose::rules::{prelude::*, relation::declared_places};

// ---- outer variables (P704, P803, P805) -------------------------------------

/// The declaration of a variable called `name` that is visible where
/// `construct` introduces its own variable `name`: the name of the
/// innermost such declaration.
///
/// Visible means (spec-rows.md §2.4):
/// - a scoped variable (loop, index, parameter, error, pipeline variable)
///   of an *enclosing* construct has that name; or
/// - a declaration (`input`, `let`, `const`, named `output`, assignment,
///   destructured name, `session name:`) with that name is a statement of a
///   list that encloses `construct` (the same list or an ancestor), earlier
///   than the statement holding `construct`.
///
/// Declarations nested in earlier statements' bodies, later declarations
/// and the variables of sibling constructs are not visible.
///
/// Both kinds are found from the nodes enclosing `construct` (a scope and
/// a list that enclose it are among its ancestors), through
/// [`OuterIndex`]: the cost is the depth of `construct`, not the number of
/// variables of that name in the file.
pub(super) fn outer_variable(
    ctx: &Ctx<'_>,
    construct: &SyntaxNode,
    name: &str,
) -> Option<TextRange> {
    outer_definition(ctx, construct, name, true).map(|d| d.name_range)
}

/// The innermost enclosing scoped variable called `name` (see
/// [`outer_variable`]): the parameter of an enclosing block, the variable
/// of an enclosing loop, and so on.
pub(in crate::openprose::rules) fn enclosing_scoped<'a>(
    ctx: &Ctx<'a>,
    construct: &SyntaxNode,
    name: &str,
) -> Option<&'a Def> {
    outer_definition(ctx, construct, name, false)
}

/// [`outer_variable`] (with `declarations`) or [`enclosing_scoped`].
fn outer_definition<'a>(
    ctx: &Ctx<'a>,
    construct: &SyntaxNode,
    name: &str,
    declarations: bool,
) -> Option<&'a Def> {
    let here = construct.text_range();
    let index = ctx.shared(OuterIndex::new);
    // A name no variable of the index has is found nowhere.
    let name = *index.names.get(name)?;
    let scoped = |range: TextRange| index.scoped.get(&(name, range));
    let flat = |range: TextRange, kind: SyntaxKind| {
        declarations
            .then(|| index.flat.get(&(name, range, kind)))
            .flatten()
    };
    let mut best: Option<&Def> = None;
    for a in construct.ancestors() {
        let range = a.text_range();
        let ids = scoped(range).into_iter().flatten();
        let mut found: Vec<&Def> = ids
            .map(|&id| ctx.sema().def(id))
            .filter(|d| d.scope.is_some_and(|s| s.contains_range(here)))
            .collect();
        if let Some(ids) = flat(range, a.kind()) {
            // In the list's order: the last one ending before `construct`.
            let before = ids.partition_point(|&id| ctx.sema().def(id).range.end() <= here.start());
            found.extend(before.checked_sub(1).map(|i| ctx.sema().def(ids[i])));
        }
        for d in found.into_iter().filter(|d| d.range != here) {
            if best.is_none_or(|b| d.name_range.start() > b.name_range.start()) {
                best = Some(d);
            }
        }
    }
    best
}

/// The variables [`outer_variable`] looks for, indexed once per file:
/// scoped variables by name and scope, declarations (flat bindings and
/// inputs) by name and the statement list that holds them.
#[derive(Default)]
pub(super) struct OuterIndex {
    /// A number for each name, the key of the maps below (one map each
    /// rather than one per name).
    names: HashMap<Name, u32>,
    scoped: HashMap<(u32, TextRange), Vec<DefId>>,
    /// In the order of their lists.
    flat: HashMap<(u32, TextRange, SyntaxKind), Vec<DefId>>,
}

impl OuterIndex {
    /// Indexes the definitions of `ctx`'s file (the statements of the
    /// declarations from [`declared_places`]).
    fn new(ctx: &Ctx<'_>) -> OuterIndex {
        let mut index = OuterIndex::default();
        let places = declared_places(ctx);
        let number = |names: &mut HashMap<Name, u32>, name: &Name| match names.get(name) {
            Some(&n) => n,
            None => {
                let n = names.len() as u32;
                names.insert(name.clone(), n);
                n
            }
        };
        for (i, (d, place)) in ctx.sema().defs.iter().zip(places.iter()).enumerate() {
            let id = DefId(i as u32);
            if d.kind.is_scoped() {
                if let Some(scope) = d.scope {
                    let n = number(&mut index.names, &d.name);
                    index.scoped.entry((n, scope)).or_default().push(id);
                }
            } else if (d.kind.is_flat_binding() || d.kind == DefKind::Input)
                && let Some(list) = place
                    .as_ref()
                    .and_then(|p| p.range_statement.as_ref())
                    .and_then(|s| s.parent())
            {
                let n = number(&mut index.names, &d.name);
                index
                    .flat
                    .entry((n, list.text_range(), list.kind()))
                    .or_default()
                    .push(id);
            }
        }
        for ids in index.flat.values_mut() {
            ids.sort_by_key(|&id| ctx.sema().def(id).range.end());
        }
        index
    }
}

/// Reports `name`, the variable `construct` introduces, when it shadows an
/// outer variable (see [`outer_variable`]): "{what} shadows outer
/// variable: `name`", linked to the outer declaration.
pub(super) fn report_shadowing(
    ctx: &Ctx<'_>,
    acc: &mut Acc,
    construct: &SyntaxNode,
    name: &ast::Name,
    what: &str,
) {
    // The name as `Name::text` reads it, without a copy.
    let ident = name.ident_token();
    let text = ident.as_ref().map_or("", |t| t.text());
    if let Some(outer) = outer_variable(ctx, construct, text) {
        acc.report_related(
            name.syntax().text_range(),
            format!("{what} shadows outer variable: `{text}`"),
            vec![related(ctx, outer, "outer variable defined here")],
        );
    }
}

/// ` (did you mean `x`?)` for the closest variable name visible at `at`,
/// or nothing. Scoped variables count only inside their scope (a loop's
/// own variable is no suggestion for its collection).
pub(super) fn variable_suggestion(ctx: &Ctx<'_>, name: &str, at: TextRange) -> String {
    if !ctx.suggestions().spend(ctx.sema().defs.len()) {
        return String::new();
    }
    let mut names: Vec<&str> = ctx
        .sema()
        .defs
        .iter()
        .filter(|d| d.kind.is_variable() && d.kind != DefKind::PipelineItem)
        .filter(|d| !d.kind.is_scoped() || d.scope.is_some_and(|s| s.contains_range(at)))
        .map(|d| d.name.as_str())
        .collect();
    names.sort_unstable();
    names.dedup();
    ctx.suggestions().hint(name, &names)
}

// ---- bodies -------------------------------------------------------------------

/// Whether a clause has no statement in its body (no body at all, or only
/// comments).
pub(super) fn is_empty_body(body: Option<ast::Block>) -> bool {
    body.is_none_or(|b| b.statements().next().is_none())
}

// ---- integer settings ---------------------------------------------------------

/// What an integer-valued setting (`repeat N`, `max: N`, `retry: N`) holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Count {
    /// An integer literal, possibly negated (`-1`).
    Int(i64),
    /// A variable (or a field of one), known only at run time.
    Name { resolves: bool },
    /// Anything else: a decimal, a number with a unit, a string, an expression.
    Other,
}

pub(super) fn classify(ctx: &Ctx<'_>, e: &ast::Expr) -> Count {
    match e {
        ast::Expr::Literal(l) => l.as_integer().map_or(Count::Other, Count::Int),
        ast::Expr::Prefix(p) if p.op_token().is_some_and(|t| t.kind() == SyntaxKind::MINUS) => {
            match p.operand() {
                Some(ast::Expr::Literal(l)) => {
                    l.as_integer().map_or(Count::Other, |n| Count::Int(-n))
                }
                _ => Count::Other,
            }
        }
        ast::Expr::Paren(p) => p.expr().map_or(Count::Other, |e| classify(ctx, &e)),
        ast::Expr::NameRef(n) => Count::Name {
            resolves: resolves(ctx, n),
        },
        ast::Expr::Field(f) => {
            let mut base = f.receiver();
            while let Some(ast::Expr::Field(inner)) = base {
                base = inner.receiver();
            }
            match base {
                Some(ast::Expr::NameRef(n)) => Count::Name {
                    resolves: resolves(ctx, &n),
                },
                _ => Count::Other,
            }
        }
        _ => Count::Other,
    }
}

/// Whether the variable reference `n` resolved.
fn resolves(ctx: &Ctx<'_>, n: &ast::NameRef) -> bool {
    let range = n.syntax().text_range();
    ctx.sema()
        .refs
        .iter()
        .any(|r| r.range == range && matches!(r.kind, RefKind::Variable(_)) && r.target.is_some())
}

/// Reports each value that is an integer below 1 (P701, P706, P807):
/// "{what} must be positive (got `n`)".
pub(super) fn report_not_positive(
    ctx: &Ctx<'_>,
    acc: &mut Acc,
    values: impl IntoIterator<Item = ast::Expr>,
    what: &str,
) {
    for value in values {
        if let Count::Int(n) = classify(ctx, &value)
            && n <= 0
        {
            acc.report(
                value.syntax().text_range(),
                format!("{what} must be positive (got `{n}`)"),
            );
        }
    }
}

/// Reports each value that is not an integer (P702, P707): "{what} must be
/// an integer (got `x`)"; a variable, known only at run time, under
/// `strict` only.
pub(super) fn report_not_integer(
    ctx: &Ctx<'_>,
    acc: &mut Acc,
    values: impl IntoIterator<Item = ast::Expr>,
    what: &str,
) {
    for value in values {
        let count = classify(ctx, &value);
        if let Count::Int(_) = count {
            continue;
        }
        // The message only for a value reported.
        let range = value.syntax().text_range();
        let message = format!("{what} must be an integer (got `{}`)", shown(&value));
        match count {
            Count::Int(_) => {}
            Count::Name { .. } => acc.report_calibrated(range, message, Vec::new(), Level::Off),
            Count::Other => acc.report(range, message),
        }
    }
}

/// The value's source text, for messages.
pub(super) fn shown(e: &ast::Expr) -> String {
    let text = e.syntax().text().to_string();
    let text = text.trim();
    if text.chars().count() > 40 {
        format!("{}…", text.chars().take(40).collect::<String>())
    } else {
        text.to_string()
    }
}

// ---- retry / backoff (P807-P810) ----------------------------------------------

/// The values of every `key:` setting of sessions and resumes: properties
/// (`retry: 3` under a session) and inline modifiers (`session "x" (retry: 3)`).
/// Agent properties are not included: `retry:`/`backoff:` there is P811.
pub(super) fn session_settings(ctx: &Ctx<'_>, key: &str) -> Vec<ast::Expr> {
    let mut out = Vec::new();
    for node in ctx.nodes_matching(|k| matches!(k, SyntaxKind::PROPERTY | SyntaxKind::MODIFIER)) {
        match node.kind() {
            SyntaxKind::PROPERTY => {
                let Some(p) = ast::Property::cast(node.clone()) else {
                    continue;
                };
                let owner = node.parent().and_then(|b| b.parent()).map(|o| o.kind());
                if p.key() == key
                    && matches!(
                        owner,
                        Some(SyntaxKind::SESSION_EXPR | SyntaxKind::RESUME_EXPR)
                    )
                {
                    out.extend(p.any_value());
                }
            }
            SyntaxKind::MODIFIER => {
                let Some(m) = ast::Modifier::cast(node.clone()) else {
                    continue;
                };
                let owner = node.parent().and_then(|l| l.parent()).map(|o| o.kind());
                if m.key().as_deref() == Some(key) && owner == Some(SyntaxKind::SESSION_EXPR) {
                    out.extend(m.value());
                }
            }
            _ => {}
        }
    }
    out
}
