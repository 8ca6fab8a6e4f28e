//! Fixes of misspelt values: the nearest valid word (models, permission
//! values, join strategies, failure policies, backoff strategies), a
//! requoted value, a value for an empty `model:`.

use prose_syntax::{
    AstNode, SyntaxKind,
    ast::{self, Expr},
};

use super::{Acc, Cx, Fix, insert, replace, token_of};
use crate::{openprose::rules::prelude::did_you_mean, vocabulary};

// ---- words ----------------------------------------------------------------------

/// How a valid value is written.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Quoting {
    /// `model: opus`
    Bare,
    /// `parallel ("first")`
    Quoted,
}

impl Quoting {
    fn write(self, word: &str) -> String {
        match self {
            Quoting::Bare => word.to_string(),
            Quoting::Quoted => format!("\"{word}\""),
        }
    }
}

/// `candidates` from nearest to farthest from `written` (case-insensitive):
/// those `written` contains first (`claude-opus-4` is `opus`), then by edit
/// distance, ties in the given order.
pub(super) fn ranked<'c>(written: &str, candidates: &[&'c str]) -> Vec<&'c str> {
    let lower = written.to_lowercase();
    let mut all: Vec<(usize, usize, usize, &str)> = candidates
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let contains = usize::from(lower.is_empty() || !lower.contains(c));
            (contains, strsim::damerau_levenshtein(&lower, c), i, *c)
        })
        .collect();
    all.sort_unstable();
    all.into_iter().map(|(.., c)| c).collect()
}

/// Whether `candidate` is a confident correction of `written`: contained
/// in it, or as close as a diagnostic's "did you mean" requires.
pub(super) fn is_close(written: &str, candidate: &str) -> bool {
    let lower = written.to_lowercase();
    !lower.is_empty() && (lower.contains(candidate) || did_you_mean(&lower, &[candidate]).is_some())
}

/// The word an expression spells: a name, a string's text, or the source.
fn written_word(e: &Expr) -> String {
    match e {
        Expr::String(s) => s.value(),
        Expr::NameRef(n) => n.text(),
        other => other.syntax().text().to_string(),
    }
    .trim()
    .to_string()
}

/// Replaces the value at the diagnostic by each valid word, nearest first.
/// A valid word written with the wrong quoting gets just the requoting.
/// Returns whether the diagnostic was on a value.
pub(super) fn replace_word(
    cx: &Cx<'_>,
    acc: &mut Acc<'_>,
    valid: &[&str],
    quoting: Quoting,
) -> bool {
    let Some(value) = cx.expr_at(acc.diag.range) else {
        return false;
    };
    let range = value.syntax().text_range();
    let written = written_word(&value);
    if valid.contains(&written.as_str()) {
        let new = quoting.write(&written);
        let title = match quoting {
            Quoting::Bare => format!("Write `{new}` without quotes"),
            Quoting::Quoted => format!("Quote `{written}`"),
        };
        acc.fix(title, Fix::Safe, vec![replace(range, new)]);
        return true;
    }
    for (i, word) in ranked(&written, valid).into_iter().enumerate() {
        let new = quoting.write(word);
        let preferred = i == 0 && is_close(&written, word);
        acc.fix(
            format!("Change to `{new}`"),
            Fix::correction(preferred, &written, word, valid),
            vec![replace(range, new)],
        );
    }
    true
}

/// E008: the nearest model, or a value for an empty `model:`.
pub(super) fn invalid_model(cx: &Cx<'_>, acc: &mut Acc<'_>) {
    if !replace_word(cx, acc, vocabulary::MODELS, Quoting::Bare) {
        missing_value(cx, acc, vocabulary::MODELS);
    }
}

/// W009: the nearest permission value. A pattern array is not a misspelt
/// word: nothing replaces it.
pub(super) fn unknown_permission_value(cx: &Cx<'_>, acc: &mut Acc<'_>) {
    if matches!(
        cx.expr_at(acc.diag.range),
        Some(Expr::NameRef(_) | Expr::String(_))
    ) {
        replace_word(cx, acc, vocabulary::PERMISSION_VALUES, Quoting::Bare);
    }
}

/// `model:` without a value: offers each valid value (none preferred).
fn missing_value(cx: &Cx<'_>, acc: &mut Acc<'_>, valid: &[&str]) {
    let Some(node) = cx.covering_node(acc.diag.range) else {
        return;
    };
    let colon = if let Some(p) = node.ancestors().find_map(ast::Property::cast) {
        if p.any_value().is_some() || p.value_block().is_some() || p.nested().is_some() {
            return;
        }
        token_of(p.syntax(), SyntaxKind::COLON)
    } else if let Some(m) = node.ancestors().find_map(ast::Modifier::cast) {
        if m.value().is_some() {
            return;
        }
        token_of(m.syntax(), SyntaxKind::COLON)
    } else {
        None
    };
    let Some(colon) = colon else { return };
    for word in valid {
        acc.fix(
            format!("Set to `{word}`"),
            Fix::Offered,
            vec![insert(colon.text_range().end(), format!(" {word}"))],
        );
    }
}
