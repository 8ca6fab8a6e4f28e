//! Fixes of properties and of how agents are invoked: an unknown property
//! key, permission type or modifier corrected or removed, a repeated
//! property removed, a persist scope corrected, a non-persistent agent
//! resumed (made persistent, or a fresh session), `resume:` and
//! `session:` switched.

use prose_syntax::{
    AstNode, SyntaxKind, SyntaxToken, TextRange,
    ast::{self, Expr},
};

use super::{
    Acc, Cx, Fix, delete, remove_modifier, replace, token_of,
    values::{is_close, ranked},
};
use crate::{
    semantics::{DefKind, RefKind},
    vocabulary,
};

// ---- properties -----------------------------------------------------------------

/// W005: the nearest valid key, or the property removed.
pub(super) fn unknown_property(cx: &Cx<'_>, acc: &mut Acc<'_>) {
    let Some(key) = cx.token_at(acc.diag.range) else {
        return;
    };
    let Some(parent) = key.parent() else { return };
    let key_text = key.text().to_string();
    if let Some(p) = ast::Property::cast(parent.clone()) {
        let Some(block) = p.syntax().parent() else {
            return;
        };
        let valid = match block.parent().map(|o| o.kind()) {
            Some(SyntaxKind::AGENT_DEF) => vocabulary::AGENT_PROPERTIES,
            Some(SyntaxKind::SESSION_EXPR | SyntaxKind::RESUME_EXPR) => {
                vocabulary::SESSION_PROPERTIES
            }
            _ => return,
        };
        let present: Vec<String> = ast::PropertyBlock::cast(block)
            .into_iter()
            .flat_map(|b| b.properties())
            .map(|p| p.key())
            .collect();
        rename_key(acc, &key, valid, &present);
        remove_property(cx, acc, Fix::Offered);
    } else if let Some(m) = ast::Modifier::cast(parent) {
        let Some(list) = m.syntax().parent().and_then(ast::ModifierList::cast) else {
            return;
        };
        let valid = match list.syntax().parent().map(|o| o.kind()) {
            Some(SyntaxKind::SESSION_EXPR) => vocabulary::SESSION_PROPERTIES,
            Some(SyntaxKind::PARALLEL_EXPR | SyntaxKind::FOR_EXPR) => {
                vocabulary::PARALLEL_MODIFIERS
            }
            Some(SyntaxKind::LOOP_EXPR) => vocabulary::LOOP_MODIFIERS,
            _ => return,
        };
        let present: Vec<String> = list.modifiers().filter_map(|m| m.key()).collect();
        rename_key(acc, &key, valid, &present);
        if let Some(edit) = remove_modifier(cx, &m) {
            acc.fix(format!("Remove `{key_text}`"), Fix::Offered, vec![edit]);
        }
    }
}

/// Offers the candidate a diagnostic's "did you mean" would name for
/// `written` as the preferred fix, replacing `range`.
pub(super) fn change_to_nearest(
    cx: &Cx<'_>,
    acc: &mut Acc<'_>,
    range: TextRange,
    written: &str,
    candidates: &[&str],
) {
    if let Some(near) = cx.suggestions.did_you_mean(written, candidates) {
        acc.fix(
            format!("Change to `{near}`"),
            Fix::correction(true, written, near, candidates),
            vec![replace(range, near)],
        );
    }
}

/// Offers the valid key nearest to `key` that is not already present.
fn rename_key(acc: &mut Acc<'_>, key: &SyntaxToken, valid: &[&str], present: &[String]) {
    let free: Vec<&str> = valid
        .iter()
        .copied()
        .filter(|v| !present.iter().any(|p| p == v))
        .collect();
    let Some(&nearest) = ranked(key.text(), &free).first() else {
        return;
    };
    let close = is_close(key.text(), nearest);
    // A far-off key is a different setting, not a typo: no suggestion.
    if !close
        && strsim::damerau_levenshtein(&key.text().to_lowercase(), nearest) > nearest.len() / 2 + 1
    {
        return;
    }
    acc.fix(
        format!("Change to `{nearest}`"),
        Fix::correction(close, key.text(), nearest, &free),
        vec![replace(key.text_range(), nearest)],
    );
}

/// Deletes the whole property at the diagnostic (its lines, nested lines
/// included).
pub(super) fn remove_property(cx: &Cx<'_>, acc: &mut Acc<'_>, how: Fix) {
    let Some(p) = cx
        .covering_node(acc.diag.range)
        .and_then(|n| n.ancestors().find_map(ast::Property::cast))
    else {
        return;
    };
    let title = format!("Remove `{}:`", p.key());
    acc.fix(title, how, vec![delete(cx.lines_of(&p))]);
}

/// E009: deletes the repeated property or modifier.
pub(super) fn remove_duplicate_property(cx: &Cx<'_>, acc: &mut Acc<'_>) {
    let Some(node) = cx.covering_node(acc.diag.range) else {
        return;
    };
    if let Some(m) = node.ancestors().find_map(ast::Modifier::cast) {
        let shown = m.key().unwrap_or_else(|| m.syntax().text().to_string());
        if let Some(edit) = remove_modifier(cx, &m) {
            acc.fix(
                format!("Remove duplicate `{shown}`"),
                Fix::Offered,
                vec![edit],
            );
        }
    } else if let Some(p) = node.ancestors().find_map(ast::Property::cast) {
        acc.fix(
            format!("Remove duplicate `{}:`", p.key()),
            Fix::Offered,
            vec![delete(cx.lines_of(&p))],
        );
    }
}

/// W008: the nearest permission type.
pub(super) fn unknown_permission_type(cx: &Cx<'_>, acc: &mut Acc<'_>) {
    let Some(key) = cx.token_at(acc.diag.range) else {
        return;
    };
    change_to_nearest(
        cx,
        acc,
        key.text_range(),
        key.text(),
        vocabulary::PERMISSION_TYPES,
    );
}

/// P301: `persist: false` is removed; a misspelt scope is corrected.
pub(super) fn invalid_persist(cx: &Cx<'_>, acc: &mut Acc<'_>) {
    match cx.expr_at(acc.diag.range) {
        Some(Expr::Literal(l)) if l.token().is_some_and(|t| t.text() == "false") => {
            // `persist: false` is the default.
            remove_property(cx, acc, Fix::Safe);
        }
        Some(Expr::NameRef(n)) => {
            let valid: Vec<&str> = vocabulary::PERSIST_VALUES
                .iter()
                .copied()
                .filter(|v| *v != n.text())
                .collect();
            change_to_nearest(cx, acc, n.syntax().text_range(), &n.text(), &valid);
        }
        _ => {}
    }
}

// ---- agents and invocations ---------------------------------------------------

/// E017: make the agent persistent, or start a fresh session instead.
pub(super) fn resume_non_persistent(cx: &Cx<'_>, acc: &mut Acc<'_>) {
    let Some(name) = cx.token_at(acc.diag.range) else {
        return;
    };
    if let Some((_, def)) = cx.sema.find(DefKind::Agent, name.text())
        && let Some(agent) = cx.covering_node(def.range).and_then(|n| {
            n.ancestors()
                .take_while(|a| a.text_range() == def.range)
                .find_map(ast::AgentDef::cast)
        })
        && let Some(edit) = cx.set_persist_true(&agent)
    {
        // Confident when the agent already ran: `resume:` then continues it.
        let ran_before = cx.refs_named(name.text()).any(|r| {
            r.kind == RefKind::Agent
                && r.range.start() < acc.diag.range.start()
                && cx
                    .covering_node(r.range)
                    .and_then(|n| n.parent())
                    .is_some_and(|p| p.kind() == SyntaxKind::SESSION_EXPR)
        });
        acc.fix(
            format!("Add `persist: true` to agent `{}`", name.text()),
            Fix::preferred_if(ran_before),
            vec![edit],
        );
    }
    switch_invocation(cx, acc, SyntaxKind::RESUME_KW, "session", Fix::Offered);
}

/// E018, W011: `resume:` becomes `session:` or the other way round.
pub(super) fn switch_invocation(
    cx: &Cx<'_>,
    acc: &mut Acc<'_>,
    from: SyntaxKind,
    to: &str,
    how: Fix,
) {
    let Some(node) = cx.covering_node(acc.diag.range) else {
        return;
    };
    let Some(invocation) = node
        .ancestors()
        .find(|n| matches!(n.kind(), SyntaxKind::SESSION_EXPR | SyntaxKind::RESUME_EXPR))
    else {
        return;
    };
    let Some(keyword) = token_of(&invocation, from) else {
        return;
    };
    if from == SyntaxKind::SESSION_KW {
        // Only the `session: agent` form has a `resume:` counterpart.
        let s = ast::SessionExpr::cast(invocation.clone());
        if s.is_none_or(|s| s.name().is_some() || s.prompt().is_some() || s.modifiers().is_some()) {
            return;
        }
    }
    acc.fix(
        format!("Change `{}:` to `{to}:`", keyword.text()),
        how,
        vec![replace(keyword.text_range(), to)],
    );
}
