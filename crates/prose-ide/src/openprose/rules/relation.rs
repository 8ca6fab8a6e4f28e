//! How two declarations of one name relate (spec-rows.md §3.1), for the
//! rules that compare them (E019, E021, E024, P203); not a rule itself.
//! Also the statement lists and `block` frames the relation is made of.

use crate::openprose::rules::prelude::*;

/// Whether `n` is a statement list: a body or the file.
fn is_list(n: &SyntaxNode) -> bool {
    matches!(n.kind(), SyntaxKind::BLOCK | SyntaxKind::SOURCE_FILE)
}

/// The statement list holding `n`.
fn list_of(n: &SyntaxNode) -> Option<SyntaxNode> {
    n.ancestors().skip(1).find(is_list)
}

/// The statement (a direct child of a body or the file) holding `range`.
pub(super) fn statement_at(ctx: &Ctx<'_>, range: TextRange) -> Option<SyntaxNode> {
    node_at(ctx, range)?
        .ancestors()
        .find(|n| n.parent().as_ref().is_some_and(is_list))
}

/// The `block` definition whose body holds `n`, if any.
pub(super) fn frame_of(n: &SyntaxNode) -> Option<SyntaxNode> {
    n.ancestors()
        .skip(1)
        .find(|a| a.kind() == SyntaxKind::BLOCK_DEF)
}

/// How two declarations of one name relate, from the least to the most
/// likely collision of their binding files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Relation {
    /// Different arms of one `if`/`elif`/`else`, different `option`s of one
    /// `choice`, or a `try` body and its `catch`: only one of them runs.
    Exclusive,
    /// One inside a `block` body and the other outside it or in another
    /// block: bound in different frames (`{name}__{execution_id}.md`).
    DifferentFrames,
    /// Two lists that are neither nested nor exclusive (two `if`s in a row).
    Sibling,
    /// One list nested inside the other's (a loop or `if` body).
    Nested,
    /// The same statement list.
    SameList,
}

impl Relation {
    /// The `default`-profile level of a collision in this relation: an
    /// error in the same list, `overlapping` for nested and sibling lists,
    /// off otherwise.
    pub(super) fn default_level(self, overlapping: Severity) -> Level {
        match self {
            Relation::SameList => Level::On(Severity::Error),
            Relation::Nested | Relation::Sibling => Level::On(overlapping),
            Relation::Exclusive | Relation::DifferentFrames => Level::Off,
        }
    }
}

/// The relation between the declaring statements `a` and `b`.
pub(super) fn relation(a: &SyntaxNode, b: &SyntaxNode) -> Relation {
    use SyntaxKind::*;
    if frame_of(a) != frame_of(b) {
        return Relation::DifferentFrames;
    }
    let (la, lb) = (list_of(a), list_of(b));
    if la == lb {
        return Relation::SameList;
    }
    // The innermost node holding both, and the child of it towards each.
    if let Some(common) = a.ancestors().find(|x| b.ancestors().any(|y| y == *x)) {
        let towards = |n: &SyntaxNode| n.ancestors().find(|x| x.parent().as_ref() == Some(&common));
        if let (Some(ca), Some(cb)) = (towards(a), towards(b))
            && ca != cb
        {
            let (ka, kb) = (ca.kind(), cb.kind());
            let exclusive = match common.kind() {
                IF_STMT => [ka, kb]
                    .iter()
                    .all(|k| matches!(k, BLOCK | ELIF_CLAUSE | ELSE_CLAUSE)),
                TRY_STMT => matches!((ka, kb), (BLOCK, CATCH_CLAUSE) | (CATCH_CLAUSE, BLOCK)),
                BLOCK => {
                    common.parent().is_some_and(|p| p.kind() == CHOICE_STMT)
                        && ka == OPTION_CLAUSE
                        && kb == OPTION_CLAUSE
                }
                _ => false,
            };
            if exclusive {
                return Relation::Exclusive;
            }
        }
    }
    let holds = |list: &Option<SyntaxNode>, n: &SyntaxNode| {
        list.as_ref()
            .is_some_and(|l| n.ancestors().skip(1).any(|x| x == *l))
    };
    if holds(&la, b) || holds(&lb, a) {
        Relation::Nested
    } else {
        Relation::Sibling
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
