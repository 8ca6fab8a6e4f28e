//! Helpers shared by the variables group's rules (not a rule itself): the
//! variable declarations of a file, the hint for an unresolved name, and
//! the modifiers of `parallel` blocks. How two declarations relate
//! (spec-rows.md §3.1) is in `relation.rs`.

use crate::openprose::rules::{
    places::Place,
    prelude::*,
    relation::{declared_by_statement, declared_places, places},
};

// ---- declarations ---------------------------------------------------------------

/// What kind of statement declares a variable (spec-rows.md, E019).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum DeclKind {
    Input,
    Output,
    Let,
    Const,
    Destructured,
    /// `name = value` (outside `parallel:`) where `name` was not bound.
    Assigned,
    /// `name = value` directly in a `parallel:` body: always a declaration.
    ParallelResult,
    /// `session name: agent`.
    SessionName,
}

impl DeclKind {
    pub(super) fn describe(self) -> &'static str {
        match self {
            DeclKind::Input => "input",
            DeclKind::Output => "output",
            DeclKind::Let => "let variable",
            DeclKind::Const => "const variable",
            DeclKind::Destructured => "destructured variable",
            DeclKind::Assigned => "variable",
            DeclKind::ParallelResult => "parallel result",
            DeclKind::SessionName => "named session",
        }
    }
}

/// One variable declaration.
#[derive(Clone)]
pub(super) struct Decl {
    pub(super) name: Name,
    pub(super) kind: DeclKind,
    pub(super) name_range: TextRange,
    /// The statement that declares it (a child of a statement list).
    pub(super) stmt: Place,
    /// For a parallel result that assigns an already bound name: that
    /// binding (semantics treats it as an assignment).
    pub(super) reassigns: Option<DefId>,
}

/// The variable declarations of the names in `names`, in source order:
/// the definitions of those names that a statement declares, and the
/// parallel results that assign a bound name of them, merged in file
/// order. The rules ask for the names they compare (E019 those declared
/// more than once, P502 those of parameters), not for every declaration
/// of the file: the places of a long program's thousands of declarations
/// were found after every edit.
pub(super) fn declarations_named(ctx: &Ctx<'_>, names: &rustc_hash::FxHashSet<&str>) -> Vec<Decl> {
    let sema = ctx.sema();
    let mut ids: Vec<DefId> = names.iter().flat_map(|n| sema.named(n)).collect();
    ids.sort_unstable_by_key(|id| id.0);
    let declared = declared_places(ctx);
    let mut out = Vec::with_capacity(ids.len());
    for id in ids {
        let d = sema.def(id);
        let Some((kind, stmt)) = declared_by(d, declared.get(id, d)) else {
            continue;
        };
        out.push(Decl {
            name: d.name.clone(),
            kind,
            name_range: d.name_range,
            stmt,
            reassigns: None,
        });
    }
    // A parallel branch `x = …` for an already bound `x` still declares a
    // parallel result (Parallel Blocks: "Duplicate variable in parallel").
    let mut results = Vec::new();
    let places = places(ctx);
    for r in &sema.refs {
        if r.kind != RefKind::Variable(RefSite::AssignTarget) || !names.contains(r.name.as_str()) {
            continue;
        }
        let Some(stmt) = places.statement(r.range) else {
            continue;
        };
        if stmt.kind == SyntaxKind::ASSIGN_STMT && stmt.in_parallel_body {
            results.push(Decl {
                name: r.name.clone(),
                kind: DeclKind::ParallelResult,
                name_range: r.range,
                stmt,
                reassigns: r.target,
            });
        }
    }
    merge_by_key(out, results, |d| d.name_range.start())
}

/// The names that may be declared more than once by declarations other
/// than outputs ([`declarations_named`]; E019's): those of two or more
/// definitions of the kinds a statement declares, and those a parallel
/// branch assigns (a parallel result declares too) with one more.
pub(super) fn names_declared_again<'a>(ctx: &Ctx<'a>) -> rustc_hash::FxHashSet<&'a str> {
    let sema = ctx.sema();
    let declares = |id: &DefId| {
        let kind = sema.def(*id).kind;
        kind != DefKind::Output && declared_by_statement(kind)
    };
    let mut names: rustc_hash::FxHashSet<&str> = Default::default();
    for ids in sema.defined_again() {
        if ids.iter().filter(|id| declares(id)).nth(1).is_some() {
            names.insert(sema.def(ids[0]).name.as_str());
        }
    }
    // Each assigned name's count: its declaring definitions, then one more
    // for each assignment.
    let mut assigned: rustc_hash::FxHashMap<&str, usize> = Default::default();
    for r in &sema.refs {
        if r.kind != RefKind::Variable(RefSite::AssignTarget) || names.contains(r.name.as_str()) {
            continue;
        }
        let n = r.name.as_str();
        let count = assigned
            .entry(n)
            .or_insert_with(|| sema.named(n).filter(|id| declares(id)).count());
        *count += 1;
        if *count > 1 {
            names.insert(n);
        }
    }
    names
}

/// The kind of declaration definition `d` is and the statement that
/// declares it, given its places (`declared_places`); `None` when it
/// declares no variable by a statement. The declarations made by
/// definitions ([`declarations_named`]) are these, in definition order.
pub(super) fn declared_by(
    d: &crate::openprose::semantics::Def,
    place: Option<&crate::openprose::rules::relation::DeclaredAt>,
) -> Option<(DeclKind, Place)> {
    let kind = match d.kind {
        DefKind::Input => DeclKind::Input,
        DefKind::Output => DeclKind::Output,
        DefKind::Let => DeclKind::Let,
        DefKind::Const => DeclKind::Const,
        DefKind::Destructured => DeclKind::Destructured,
        DefKind::Assigned => DeclKind::Assigned,
        DefKind::SessionName => DeclKind::SessionName,
        _ => return None,
    };
    let stmt = place?.statement?;
    let kind = if kind == DeclKind::Assigned && stmt.in_parallel_body {
        DeclKind::ParallelResult
    } else {
        kind
    };
    Some((kind, stmt))
}

/// `a` followed by `b`, stably sorted by `key`: a merge when both are
/// already in order (as the definitions and references of a file mostly
/// are), else a sort ([`stable_sort_by_key`]).
fn merge_by_key<T, K: Ord + Into<u32>>(mut a: Vec<T>, b: Vec<T>, key: impl Fn(&T) -> K) -> Vec<T> {
    if !(a.is_sorted_by_key(&key) && b.is_sorted_by_key(&key)) {
        a.extend(b);
        return stable_sort_by_key(a, key);
    }
    crate::sorted::merge_by_key(a, b, key)
}

/// `v` stably sorted by `key`: the keys and positions are sorted, packed
/// into one integer each (ties by position, so the order is the stable
/// one), and the elements moved once each, to their place.
fn stable_sort_by_key<T, K: Into<u32>>(v: Vec<T>, key: impl Fn(&T) -> K) -> Vec<T> {
    let mut order: Vec<u64> = v
        .iter()
        .zip(0u64..)
        .map(|(e, i)| (u64::from(key(e).into()) << 32) | i)
        .collect();
    order.sort_unstable();
    let mut slots: Vec<Option<T>> = v.into_iter().map(Some).collect();
    // Made at its size: collected through `filter_map` it grew from empty,
    // copied at each doubling (a long program's declarations several
    // times over).
    let mut sorted = Vec::with_capacity(slots.len());
    sorted.extend(
        order
            .into_iter()
            .filter_map(|o| slots[(o & u64::from(u32::MAX)) as usize].take()),
    );
    sorted
}

// ---- messages ---------------------------------------------------------------------

/// A hint for an unresolved variable `name`: what else the name is (an
/// agent, a block), where a variable of that name does exist (bound only
/// later, or scoped to another body), else the closest variable name.
pub(super) fn variable_suggestion(ctx: &Ctx<'_>, name: &str) -> String {
    let vars = || {
        ctx.sema()
            .defs
            .iter()
            .filter(|d| d.kind.is_variable() && d.kind != DefKind::PipelineItem)
    };
    if ctx.sema().find(DefKind::Agent, name).is_some() {
        return format!(" (`{name}` is an agent, not a variable)");
    }
    if ctx.sema().find(DefKind::Block, name).is_some() {
        return format!(" (`{name}` is a block; run it with `do {name}`)");
    }
    let named = ctx.sema().named(name).map(|id| ctx.sema().def(id));
    if let Some(d) = named
        .into_iter()
        .find(|d| d.kind.is_variable() && d.kind != DefKind::PipelineItem)
    {
        return if d.kind.is_scoped() {
            format!(
                " (a {} `{name}` exists, but only inside its body)",
                d.kind.describe()
            )
        } else {
            format!(
                " (`{name}` is bound only later, at line {})",
                line_of(ctx, d.name_range.start())
            )
        };
    }
    if !ctx.suggestions().spend(ctx.sema().defs.len()) {
        return String::new();
    }
    let mut names: Vec<&str> = vars().map(|d| d.name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    ctx.suggestions().hint(name, &names)
}

// ---- parallel modifiers (P601-P605) -------------------------------------------

/// A `parallel` block and its modifiers.
#[derive(Clone)]
pub(super) struct Parallel {
    /// The `parallel` keyword.
    pub(super) keyword: TextRange,
    /// The bare values (`"first"`), in order: join strategies.
    pub(super) strategies: Vec<ast::Expr>,
    /// The values of `on-fail:`.
    pub(super) on_fail: Vec<ast::Expr>,
    /// The `count:` modifiers and their values.
    pub(super) counts: Vec<(ast::Modifier, Option<ast::Expr>)>,
    /// The number of branches (statements directly in the body).
    pub(super) branches: usize,
}

impl Parallel {
    /// The join strategy in effect: the first bare value, if written.
    pub(super) fn strategy(&self) -> Option<&ast::Expr> {
        self.strategies.first()
    }
}

/// How a word-valued modifier (`"first"`, `on-fail: "continue"`) is written.
pub(super) enum Word {
    /// A quoted valid value.
    Valid(String),
    /// An unquoted valid value (`parallel (first)`): prose.md's grammar
    /// writes them so; compiler.md quotes them.
    Unquoted(String),
    /// Anything else, shown as written.
    Invalid(String),
}

/// Classifies `e` against the valid values `valid`.
pub(super) fn word(e: &ast::Expr, valid: &[&str]) -> Word {
    match e {
        ast::Expr::String(s) if valid.contains(&s.value().as_str()) => Word::Valid(s.value()),
        ast::Expr::NameRef(n) if valid.contains(&n.text().as_str()) => Word::Unquoted(n.text()),
        _ => Word::Invalid(e.syntax().text().to_string()),
    }
}

/// Reports each of `values` that is not one of `valid` (P601, P602):
/// "{message} (found `x`)". A valid value written unquoted is reported
/// under `strict` only: "{message}: quote the {what}, `"x"`".
pub(super) fn report_invalid_words(
    acc: &mut Acc,
    values: &[ast::Expr],
    valid: &[&str],
    message: &str,
    what: &str,
) {
    for v in values {
        let range = v.syntax().text_range();
        match word(v, valid) {
            Word::Valid(_) => {}
            Word::Unquoted(w) => acc.report_calibrated(
                range,
                format!("{message}: quote the {what}, `\"{w}\"`"),
                Vec::new(),
                Level::Off,
            ),
            Word::Invalid(w) => {
                acc.report(range, format!("{message} (found `{w}`)"));
            }
        }
    }
}

/// Every `parallel` block with a modifier list.
pub(super) fn parallels(ctx: &Ctx<'_>) -> Vec<Parallel> {
    ctx.shared(compute_parallels).as_ref().clone()
}

fn compute_parallels(ctx: &Ctx<'_>) -> Vec<Parallel> {
    let mut out = Vec::new();
    for par in nodes::<ast::ParallelExpr>(ctx) {
        let (Some(keyword), Some(mods)) = (par.keyword(), par.modifiers()) else {
            continue;
        };
        let mut p = Parallel {
            keyword: keyword.text_range(),
            strategies: Vec::new(),
            on_fail: Vec::new(),
            counts: Vec::new(),
            branches: par.body().map_or(0, |b| b.statements().count()),
        };
        for m in mods.modifiers() {
            match m.key().as_deref() {
                None => p.strategies.extend(m.value()),
                Some("on-fail") => p.on_fail.extend(m.value()),
                Some("count") => {
                    let v = m.value();
                    p.counts.push((m, v));
                }
                Some(_) => {}
            }
        }
        out.push(p);
    }
    out
}

/// The integer a `count:` value holds: `Ok(n)` for an integer literal
/// (negative ones included), `Err(true)` for a name or field (a run-time
/// value), `Err(false)` for anything else.
pub(super) fn count_value(e: &ast::Expr) -> Result<i64, bool> {
    match e {
        ast::Expr::Literal(l) => l.as_integer().ok_or(false),
        ast::Expr::Prefix(p) if p.op_token().is_some_and(|t| t.text() == "-") => {
            match p.operand() {
                Some(ast::Expr::Literal(l)) => l.as_integer().map(|n| -n).ok_or(false),
                _ => Err(false),
            }
        }
        ast::Expr::Paren(p) => p.expr().as_ref().map_or(Err(false), count_value),
        ast::Expr::NameRef(_) | ast::Expr::Field(_) => Err(true),
        _ => Err(false),
    }
}

#[cfg(test)]
mod tests {
    use super::{DeclKind, declarations_named, merge_by_key, names_declared_again};
    use crate::openprose::ctx::Ctx;

    /// The sample programs, and programs whose names are declared again in
    /// each way: by statements, by a parallel result, by an output.
    fn texts() -> Vec<String> {
        let mut texts = crate::openprose::rule_tests::sample_texts();
        texts.push("let a = 1\nlet b = 2\nconst a = 3\ninput c: \"c\"\ninput c: \"d\"\n".into());
        texts.push("let r = 1\nparallel:\n  r = session \"x\"\n  s = session \"y\"\n".into());
        texts.push("output o = 1\noutput o = 2\nlet p = 1\noutput p = 2\n".into());
        texts
    }

    /// Runs `f` in a rule context of each of [`texts`].
    fn each_ctx(mut f: impl FnMut(&Ctx<'_>)) {
        for text in texts() {
            let mut host = crate::AnalysisHost::new();
            let file = host.set_file_text("/ws/p.prose", text.as_str());
            let analysis = host.analysis();
            let source = analysis.source_file(file);
            let f = std::panic::AssertUnwindSafe(&mut f);
            analysis
                .with_db(move |db| {
                    let f = f;
                    (f.0)(&Ctx::new(db, source, None))
                })
                .unwrap();
        }
    }

    /// Every name of the file's definitions and assignments.
    fn every_name<'a>(ctx: &Ctx<'a>) -> rustc_hash::FxHashSet<&'a str> {
        let sema = ctx.sema();
        let defs = sema.defs.iter().map(|d| d.name.as_str());
        defs.chain(sema.refs.iter().map(|r| r.name.as_str()))
            .collect()
    }

    /// The declarations of some names are those of every name, left out
    /// the others, in the same order.
    #[test]
    fn the_declarations_of_some_names_are_a_part_of_all() {
        each_ctx(|ctx| {
            let all = declarations_named(ctx, &every_name(ctx));
            let mut names: Vec<&str> = every_name(ctx).into_iter().collect();
            names.sort_unstable();
            let some: rustc_hash::FxHashSet<&str> = names.iter().step_by(2).copied().collect();
            let expected: Vec<_> = all
                .iter()
                .filter(|d| some.contains(d.name.as_str()))
                .map(|d| (d.name.clone(), d.kind, d.name_range, d.stmt.range))
                .collect();
            let got: Vec<_> = declarations_named(ctx, &some)
                .iter()
                .map(|d| (d.name.clone(), d.kind, d.name_range, d.stmt.range))
                .collect();
            assert_eq!(got, expected, "{}", ctx.text());
        });
    }

    /// Every name with two declarations other than outputs is among the
    /// names declared again.
    #[test]
    fn names_declared_twice_are_declared_again() {
        let mut seen = 0;
        each_ctx(|ctx| {
            let again = names_declared_again(ctx);
            let mut count: rustc_hash::FxHashMap<&str, usize> = Default::default();
            let all = declarations_named(ctx, &every_name(ctx));
            for d in all.iter().filter(|d| d.kind != DeclKind::Output) {
                *count.entry(d.name.as_str()).or_default() += 1;
            }
            for (name, n) in count {
                if n > 1 {
                    seen += 1;
                    assert!(again.contains(name), "{name} in {}", ctx.text());
                }
            }
        });
        // `a`, `c` and `r` above, and names of the samples (the corpus).
        assert!(seen >= 3, "{seen}");
    }

    proptest::proptest! {
        /// The merge is the stable sort of the two lists one after the
        /// other, whether or not they are in order.
        #[test]
        fn merge_is_a_stable_sort(
            mut a in proptest::collection::vec(0u8..6, 0..12),
            mut b in proptest::collection::vec(0u8..6, 0..12),
            sort_a: bool,
            sort_b: bool,
        ) {
            if sort_a {
                a.sort();
            }
            if sort_b {
                b.sort();
            }
            // Tagged by origin and position, so that stability shows.
            let a: Vec<(u8, usize)> = a.into_iter().enumerate().map(|(i, k)| (k, i)).collect();
            let b: Vec<(u8, usize)> = b.into_iter().enumerate().map(|(i, k)| (k, 100 + i)).collect();
            let mut expected: Vec<(u8, usize)> = a.iter().chain(&b).copied().collect();
            expected.sort_by_key(|e| e.0);
            proptest::prop_assert_eq!(merge_by_key(a, b, |e| e.0), expected);
        }
    }
}
