//! Fixes of names: a duplicate definition renamed to a free numbered name,
//! an undefined agent, block or variable replaced by the nearest defined
//! one (or an agent defined), an import given an alias of its own.

use std::collections::HashMap;

use prose_syntax::{AstNode, SyntaxKind, TextRange, ast};

use super::{Acc, Cx, Fix, Insert, insert, properties::change_to_nearest, replace};
use crate::semantics::{DefKind, RefKind, Reference};

// ---- names ----------------------------------------------------------------------

/// The first of `name2`, `name3`, … the file does not use (a trailing
/// number of `name` is replaced: `step1` gives `step2`, `part-1` `part-2`).
fn free_numbered_name(cx: &Cx<'_>, name: &str) -> String {
    let stem = name.trim_end_matches(|c: char| c.is_ascii_digit());
    // An identifier starts with a letter or `_`, so the stem is never empty.
    let stem = if stem.is_empty() { name } else { stem };
    if let Some(free) = cx.numbered.borrow().get(stem) {
        return free.clone();
    }
    let used = cx.names();
    let free = (2..)
        .map(|i| format!("{stem}{i}"))
        .find(|n| !used.contains(n.as_str()))
        .expect("some number is free");
    cx.numbered
        .borrow_mut()
        .insert(stem.to_string(), free.clone());
    free
}

/// E006, P504, E019, E021, E024: renames the later definition.
pub(super) fn rename_duplicate(cx: &Cx<'_>, acc: &mut Acc<'_>, what: &str) {
    let Some(token) = cx.token_at(acc.diag.range) else {
        return;
    };
    if token.kind() != SyntaxKind::IDENT {
        return;
    }
    let new = free_numbered_name(cx, token.text());
    acc.fix(
        format!("Rename this {what} to `{new}` (its references are not renamed)"),
        Fix::Offered,
        vec![replace(token.text_range(), new)],
    );
}

/// The reference at the diagnostic whose kind passes `kind`.
fn reference_at<'s>(
    cx: &Cx<'s>,
    acc: &Acc<'_>,
    kind: impl Fn(RefKind) -> bool,
) -> Option<&'s Reference> {
    let at = cx.refs_at.get_or_init(|| {
        let mut at: HashMap<TextRange, Vec<usize>> = HashMap::new();
        for (i, r) in cx.sema.refs.iter().enumerate() {
            at.entry(r.range).or_default().push(i);
        }
        at
    });
    at.get(&acc.diag.range)?
        .iter()
        .map(|&i| &cx.sema.refs[i])
        .find(|r| kind(r.kind))
}

/// E007: the nearest defined agent, or a new definition.
pub(super) fn undefined_agent(cx: &Cx<'_>, acc: &mut Acc<'_>) {
    let Some(r) = nearest_definition(cx, acc, RefKind::Agent, DefKind::Agent) else {
        return;
    };
    let resumed = cx
        .covering_node(r.range)
        .and_then(|n| n.parent())
        .is_some_and(|p| p.kind() == SyntaxKind::RESUME_EXPR);
    let ind = cx.indent_unit();
    let mut def = format!("agent {}:\n{ind}model: sonnet\n", r.name);
    if resumed {
        def.push_str(&format!("{ind}persist: true\n"));
    }
    def.push_str(&format!("{ind}prompt: \"...\"\n"));
    let edit = match cx.definitions_insert_point() {
        Insert::Before { at, blank_before } => {
            let before = if blank_before { "\n" } else { "" };
            insert(at, format!("{before}{def}\n"))
        }
        Insert::AtEnd { at, before } => insert(at, format!("{before}{def}")),
    };
    acc.fix(
        format!("Define agent `{}`", r.name),
        Fix::Offered,
        vec![edit],
    );
}

/// P503 (and E007): the nearest definition of `def_kind` to the
/// `ref_kind` reference at the diagnostic, which it returns.
pub(super) fn nearest_definition<'s>(
    cx: &Cx<'s>,
    acc: &mut Acc<'_>,
    ref_kind: RefKind,
    def_kind: DefKind,
) -> Option<&'s Reference> {
    let r = reference_at(cx, acc, |k| k == ref_kind)?;
    if cx.suggestions.spend(cx.sema.defs.len()) {
        let names: Vec<&str> = cx
            .sema
            .defs_of(def_kind)
            .map(|(_, d)| d.name.as_str())
            .collect();
        change_to_nearest(cx, acc, r.range, &r.name, &names);
    }
    Some(r)
}

/// P101, P402, P404, P703: the nearest variable visible at the reference.
pub(super) fn nearest_variable(cx: &Cx<'_>, acc: &mut Acc<'_>) {
    let Some(r) = reference_at(cx, acc, |k| matches!(k, RefKind::Variable(_))) else {
        return;
    };
    if !cx.suggestions.spend(cx.sema.defs.len()) {
        return;
    }
    let runs_later = cx.covering_node(r.range).is_some_and(|n| {
        n.ancestors()
            .any(|a| matches!(a.kind(), SyntaxKind::BLOCK_DEF | SyntaxKind::AGENT_DEF))
    });
    let mut names: Vec<&str> = cx
        .sema
        .defs
        .iter()
        .filter(|d| match d.kind {
            DefKind::Input => true,
            k if k.is_scoped() => d.scope.is_some_and(|s| s.contains_range(r.range)),
            k if k.is_flat_binding() => {
                d.range.start() < r.range.start() || (runs_later && !d.in_block_def)
            }
            _ => false,
        })
        .map(|d| d.name.as_str())
        .filter(|n| *n != r.name)
        .collect();
    names.sort_unstable();
    names.dedup();
    change_to_nearest(cx, acc, r.range, &r.name, &names);
}

/// P201: gives the later import a name of its own.
pub(super) fn import_alias(cx: &Cx<'_>, acc: &mut Acc<'_>) {
    let Some(u) = cx
        .covering_node(acc.diag.range)
        .and_then(|n| n.ancestors().find_map(ast::UseStmt::cast))
    else {
        return;
    };
    let Some(path) = u.path() else { return };
    let new = import_name(cx, &path.value());
    if let Some(alias) = u.alias() {
        acc.fix(
            format!("Rename alias to `{new}`"),
            Fix::Offered,
            vec![replace(alias.syntax().text_range(), new)],
        );
    } else {
        acc.fix(
            format!("Import as `{new}`"),
            Fix::Safe,
            vec![insert(
                path.syntax().text_range().end(),
                format!(" as {new}"),
            )],
        );
    }
}

/// A free name for a program imported from `path`: `handle-slug` for a
/// registry path (`@bob/research` is `bob-research`), else the slug
/// itself or a numbered one.
fn import_name(cx: &Cx<'_>, path: &str) -> String {
    let used = cx.names();
    let slug = crate::imports::implicit_name(path).unwrap_or_else(|| "program".into());
    let slug: String = slug
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let slug = if prose_syntax::lexer::is_ident(&slug) {
        slug
    } else {
        format!("p_{slug}")
    };
    if let Some(r) = crate::imports::registry_form(path)
        && let Some((handle, _)) = r[1..].split_once('/')
    {
        let handle: String = handle
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        let joined = format!("{handle}-{slug}");
        if prose_syntax::lexer::is_ident(&joined) && !used.contains(joined.as_str()) {
            return joined;
        }
    }
    if !used.contains(slug.as_str()) {
        return slug;
    }
    free_numbered_name(cx, &slug)
}
