//! Helpers shared by the control group's rules (not a rule itself): the
//! "outer variable" test of the shadowing warnings (spec-rows.md §2.4),
//! empty bodies, and integer-valued settings (`repeat N`, `max:`, `retry:`).

use rustc_hash::FxHashMap as HashMap;
use smallvec::SmallVec;

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
/// [`OuterIndex`]: the cost is the depth of `construct` (and, once per
/// name, indexing that name's variables), not the number of variables of
/// that name in the file.
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

/// [`outer_variable`] (with `declarations`) or [`enclosing_scoped`]: one
/// index lookup for each node enclosing `construct`.
fn outer_definition<'a>(
    ctx: &Ctx<'a>,
    construct: &SyntaxNode,
    name: &str,
    declarations: bool,
) -> Option<&'a Def> {
    let here = construct.text_range();
    let index = ctx.shared(OuterIndex::new).of(ctx, name);
    // A name no variable of the index has is found nowhere.
    if index.is_empty() {
        return None;
    }
    let sema = ctx.sema();
    let mut best: Option<&Def> = None;
    // The latest declaration wins; on a tie, the one found first.
    let mut consider = |d: &'a Def| {
        if d.range != here && best.is_none_or(|b| d.name_range.start() > b.name_range.start()) {
            best = Some(d);
        }
    };
    for a in construct.ancestors() {
        let Some(vars) = index.get(&a.text_range()) else {
            continue;
        };
        for &id in &vars.scoped {
            let d = sema.def(id);
            if d.scope.is_some_and(|s| s.contains_range(here)) {
                consider(d);
            }
        }
        let kind = a.kind();
        if let Some((_, ids)) = vars.flat.iter().find(|(k, _)| declarations && *k == kind) {
            // In the list's order: the last one ending before `construct`.
            let before = ids.partition_point(|&id| sema.def(id).range.end() <= here.start());
            if let Some(i) = before.checked_sub(1) {
                consider(sema.def(ids[i]));
            }
        }
    }
    best
}

/// The variables [`outer_variable`] looks for, indexed by range (scoped
/// variables by their scope, declarations, flat bindings and inputs, by
/// the statement list that holds them), one name at a time: a name's
/// variables are indexed when a construct first asks about that name, so
/// an edit indexes the few names the file's loops, pipelines, `catch`es
/// and parameters introduce, not every definition of the file (a map
/// entry per definition took about 4% of a keystroke's samples on a long
/// program).
#[derive(Default)]
pub(super) struct OuterIndex {
    by_name: std::cell::RefCell<HashMap<Name, std::rc::Rc<ByRange>>>,
}

/// One name's variables by the range of their scope or list.
type ByRange = HashMap<TextRange, Vars>;

/// The variables of one name whose scope or list has one range: nearly
/// always one, kept inline (no allocation per entry).
#[derive(Default)]
struct Vars {
    /// The scoped variables, in definition order.
    scoped: SmallVec<[DefId; 1]>,
    /// The declarations by the kind of their list (a range may be the
    /// range of several nodes), each in the order of the list.
    flat: SmallVec<[(SyntaxKind, SmallVec<[DefId; 1]>); 1]>,
}

impl OuterIndex {
    /// An index with no name in it yet (one per rule context).
    fn new(_: &Ctx<'_>) -> OuterIndex {
        OuterIndex::default()
    }

    /// The variables called `name` (the definitions of that name, with
    /// the statements of the declarations from [`declared_places`]),
    /// indexed on the first question about `name`.
    fn of(&self, ctx: &Ctx<'_>, name: &str) -> std::rc::Rc<ByRange> {
        if let Some(found) = self.by_name.borrow().get(name) {
            return found.clone();
        }
        let sema = ctx.sema();
        let places = declared_places(ctx);
        let mut index = ByRange::default();
        for id in sema.named(name) {
            let d = sema.def(id);
            if d.kind.is_scoped() {
                if let Some(scope) = d.scope {
                    index.entry(scope).or_default().scoped.push(id);
                }
            } else if (d.kind.is_flat_binding() || d.kind == DefKind::Input)
                && let Some((list, kind)) = places.get(id, d).and_then(|p| p.range_list)
            {
                let flat = &mut index.entry(list).or_default().flat;
                match flat.iter_mut().find(|(k, _)| *k == kind) {
                    Some((_, ids)) => ids.push(id),
                    None => flat.push((kind, smallvec::smallvec![id])),
                }
            }
        }
        for vars in index.values_mut() {
            for (_, ids) in &mut vars.flat {
                ids.sort_by_key(|&id| sema.def(id).range.end());
            }
        }
        let index = std::rc::Rc::new(index);
        self.by_name
            .borrow_mut()
            .insert(Name::from(name), index.clone());
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
    // The name as `Name::text` reads it, from the green tree: neither a
    // copy nor a token handle (an allocation, for every loop, pipeline,
    // `catch` and parameter of the file after every edit).
    let text = crate::openprose::rules::group_agents::green_first_token_text(name.syntax().green())
        .unwrap_or("");
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
    Name,
    /// Anything else: a decimal, a number with a unit, a string, an expression.
    Other,
}

/// What the integer-valued setting `e` holds (see [`Count`]), read from
/// the expression alone: a name counts as [`Count::Name`] whether it
/// resolves or not (an undefined one is P402's), so the answer needs
/// neither the file's names nor anything beyond the setting, and the rules
/// built on it can run per statement (`statement_rules.rs`).
pub(super) fn classify(e: &ast::Expr) -> Count {
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
        ast::Expr::Paren(p) => p.expr().map_or(Count::Other, |e| classify(&e)),
        ast::Expr::NameRef(_) => Count::Name,
        ast::Expr::Field(f) => {
            let mut base = f.receiver();
            while let Some(ast::Expr::Field(inner)) = base {
                base = inner.receiver();
            }
            match base {
                Some(ast::Expr::NameRef(_)) => Count::Name,
                _ => Count::Other,
            }
        }
        _ => Count::Other,
    }
}

/// Reports each value that is an integer below 1 (P701, P706, P807):
/// "{what} must be positive (got `n`)".
pub(super) fn report_not_positive(
    acc: &mut Acc,
    values: impl IntoIterator<Item = ast::Expr>,
    what: &str,
) {
    for value in values {
        if let Count::Int(n) = classify(&value)
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
    acc: &mut Acc,
    values: impl IntoIterator<Item = ast::Expr>,
    what: &str,
) {
    for value in values {
        let count = classify(&value);
        if let Count::Int(_) = count {
            continue;
        }
        // The message only for a value reported.
        let range = value.syntax().text_range();
        let message = format!("{what} must be an integer (got `{}`)", shown(&value));
        match count {
            Count::Int(_) => {}
            Count::Name => acc.report_calibrated(range, message, Vec::new(), Level::Off),
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
///
/// The settings the rules ask for (`retry`, `backoff`) are collected in
/// one pass, once per context ([`Ctx::shared`]), not once per rule.
pub(super) fn session_settings(ctx: &Ctx<'_>, key: &str) -> Vec<ast::Expr> {
    match SHARED_KEYS.iter().position(|k| *k == key) {
        Some(i) => ctx.shared(shared_settings)[i].clone(),
        None => settings_of(ctx, &[key]).pop().unwrap_or_default(),
    }
}

/// The keys whose settings [`session_settings`] collects together.
const SHARED_KEYS: [&str; 2] = ["retry", "backoff"];

/// The settings of each of [`SHARED_KEYS`].
fn shared_settings(ctx: &Ctx<'_>) -> Vec<Vec<ast::Expr>> {
    settings_of(ctx, &SHARED_KEYS)
}

/// The values of the session settings of each of `keys` (see
/// [`session_settings`]), in file order, from one pass over the
/// properties and modifiers. The owner's kind (two steps up) is tested
/// before the key, and the key is compared as the token's text, without a
/// copy.
fn settings_of(ctx: &Ctx<'_>, keys: &[&str]) -> Vec<Vec<ast::Expr>> {
    let mut out = vec![Vec::new(); keys.len()];
    let owner = |node: &SyntaxNode| node.parent().and_then(|b| b.parent()).map(|o| o.kind());
    let slot = |text: &str| keys.iter().position(|k| *k == text);
    for node in ctx.nodes_matching(|k| matches!(k, SyntaxKind::PROPERTY | SyntaxKind::MODIFIER)) {
        match node.kind() {
            SyntaxKind::PROPERTY => {
                if !matches!(
                    owner(&node),
                    Some(SyntaxKind::SESSION_EXPR | SyntaxKind::RESUME_EXPR)
                ) {
                    continue;
                }
                let Some(p) = ast::Property::cast(node) else {
                    continue;
                };
                // As `Property::key` reads it: a missing key is "".
                if let Some(i) = slot(p.key_token().as_ref().map_or("", |t| t.text())) {
                    out[i].extend(p.any_value());
                }
            }
            SyntaxKind::MODIFIER => {
                if owner(&node) != Some(SyntaxKind::SESSION_EXPR) {
                    continue;
                }
                let Some(m) = ast::Modifier::cast(node) else {
                    continue;
                };
                if let Some(i) = m.key_token().and_then(|t| slot(t.text())) {
                    out[i].extend(m.value());
                }
            }
            _ => {}
        }
    }
    out
}
