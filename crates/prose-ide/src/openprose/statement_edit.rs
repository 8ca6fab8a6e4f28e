//! An edit of a few top-level statements, what typing outside a prompt
//! is: a rule that reports per name takes its reports about the names the
//! edited statements do not declare from what it reported before the
//! edit, moved, and works out only the others.
//!
//! The re-parse keeps the green node of every top-level statement the
//! edit did not touch (`reparse.rs`), and the parse cache records which of
//! the root's children it parsed again and where they were
//! (`ParseCache::spliced_from`): that is the stretch that changed
//! ([`changed_since`]); everything before it is where it was, everything
//! after it moved by the change of length. When the parse before is not
//! the one the current parse was made from, going through both roots'
//! children from each end, as long as they are the same allocations
//! (tokens: the same kind and text), finds the stretch ([`changed`]), at
//! the cost of a step per statement.
//!
//! A rule qualifies ([`BY_NAME`]) when what it reports about a name
//! depends only on that name's declarations (definitions and assignments)
//! and on the trees of the top-level statements that hold them, and each
//! report's range is the name of a declaration. E019 does: how two
//! declarations relate is read from their statements' trees, or from
//! their classes when the statements differ (`places.rs`), and a parallel
//! result's binding has its name. A name that no changed statement
//! declares or assigns, before or after the edit ([`StatementEdit::touched`]),
//! then has the same declarations in the same statements, and the same
//! reports, moved. Its reports are the ones before that lie outside the
//! stretch and whose name is not touched; the touched names' are worked
//! out again, and the two lists merged by position
//! (`Acc::moved_merged`).
//!
//! What the rule reported before is the prompt-edit cache's
//! (`prompt_edit.rs`), which keeps every qualifying rule's findings of
//! the last two parses with the root of the parse they were made from and
//! the configuration they were made under. A batch database keeps none, so
//! `prose check` always works everything out. The random edits of
//! `reparse.rs` and the tests below compare the diagnostics with a fresh
//! analysis after each edit.

use std::sync::Arc;

use prose_syntax::{GreenNodeData, NodeOrToken, Parse, SyntaxKind, TextRange, TextSize};

use crate::{
    config::Config,
    db::{Db, SourceFile, parse},
    diagnostics::Acc,
    openprose::{prompt_edit::KeptFinding, semantics::Name},
    reparse::{green_key, root_key},
};

/// The rules that take their reports about untouched names from before an
/// edit.
pub(crate) const BY_NAME: &[&str] = &["E019"];

/// The last edit of a file as a stretch of its top-level statements, with
/// what was kept from the parse before it.
pub(crate) struct StatementEdit {
    /// The stretch that changed, in the text before.
    old: TextRange,
    /// What replaced it, in the new text.
    new: TextRange,
    /// The names of the stretch, before and after the edit
    /// ([`StatementEdit::touched`]).
    touched: rustc_hash::FxHashSet<Name>,
    /// The findings kept from the parse before under the configuration of
    /// this run, of each part.
    kept: Vec<Arc<Vec<KeptFinding>>>,
}

impl StatementEdit {
    /// The last edit of `file`, when the findings of the parse before it
    /// are kept (made under `config`) and the edit changed at most half of
    /// the file's text.
    pub(crate) fn of(db: &dyn Db, file: SourceFile, config: &Config) -> Option<StatementEdit> {
        let parse = parse(db, file);
        let before = db.prompt_edits().before(file, root_key(parse))?;
        let kept: Vec<_> = before
            .rules
            .into_iter()
            .flatten()
            .filter(|(made_under, _)| made_under == config)
            .map(|(_, kept)| kept)
            .collect();
        if kept.is_empty() {
            return None;
        }
        let changed = changed_since(db, file, &before.root, parse);
        // A parse of the whole text (or most of it) changes most names:
        // working everything out is cheaper then.
        if u32::from(changed.old.len()) > u32::from(before.root.text_len()) / 2 {
            return None;
        }
        let mut touched = rustc_hash::FxHashSet::default();
        for statement in &changed.statements {
            names_in(statement, &mut touched);
        }
        Some(StatementEdit {
            old: changed.old,
            new: changed.new,
            touched,
            kept,
        })
    }

    /// What the rule of `code` reported before the edit.
    pub(crate) fn kept(&self, code: &str) -> Option<&Acc> {
        self.kept
            .iter()
            .flat_map(|list| list.iter())
            .map(|(acc, _)| acc)
            .find(|acc| acc.code() == code)
    }

    /// Where `range` of the text before now is; `None` when it lies in the
    /// stretch that changed.
    pub(crate) fn moved(&self, range: TextRange) -> Option<TextRange> {
        if range.end() <= self.old.start() {
            Some(range)
        } else if range.start() >= self.old.end() {
            let start = range.start() - self.old.end() + self.new.end();
            Some(TextRange::at(start, range.len()))
        } else {
            None
        }
    }

    /// The names in the stretch that changed, before the edit or after it:
    /// the name of every definition and reference there (the first token
    /// of each `NAME` and `NAME_REF` node), so every name a definition or
    /// an assignment there has.
    pub(crate) fn touched(&self) -> rustc_hash::FxHashSet<&str> {
        self.touched.iter().map(Name::as_str).collect()
    }

    /// Counts a rule's reports taken from before an edit (on every
    /// thread; tests read the count).
    pub(crate) fn note_moved(&self) {
        MOVED.set(MOVED.get() + 1);
    }
}

thread_local! {
    /// How many times a rule on this thread took its reports from before
    /// an edit.
    static MOVED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// How many times a rule on this thread took its reports from before an
/// edit (tests).
#[cfg(test)]
pub(crate) fn times_moved() -> usize {
    MOVED.get()
}

/// What the tree `new` replaced of the tree `old` ([`changed`]).
struct Changed<'g> {
    /// The stretch, in the text before.
    old: TextRange,
    /// What replaced it, in the new text.
    new: TextRange,
    /// The root's child nodes in the stretch, before and after.
    statements: Vec<&'g GreenNodeData>,
}

/// The stretch of `old`, the root of an earlier parse of `file`, that the
/// current parse replaced: as the parse cache recorded it when the current
/// parse was made from that one by parsing a stretch of statements again
/// (`ParseCache::spliced_from`), else found by [`changed`].
fn changed_since<'g>(
    db: &dyn Db,
    file: SourceFile,
    old: &'g GreenNodeData,
    new: &'g Parse,
) -> Changed<'g> {
    let splice = db.parse_cache().spliced_from(file, root_key(new));
    let Some(splice) = splice.filter(|s| s.from == green_key(old)) else {
        return changed(old, new.green());
    };
    let (olds, news) = (old.children(), new.green().children());
    // The children after the stretch are the same in both.
    let Some(after) = olds.len().checked_sub(splice.children.end) else {
        return changed(old, new.green());
    };
    let replaced = splice.children.len();
    let put = news.len().saturating_sub(after + splice.children.start);
    Changed {
        old: splice.old,
        new: splice.new,
        statements: olds
            .skip(splice.children.start)
            .take(replaced)
            .chain(news.skip(splice.children.start).take(put))
            .filter_map(NodeOrToken::into_node)
            .collect(),
    }
}

/// The stretch of the tree `old` that the tree `new` replaced: what lies
/// between the children the two roots share at their start and at their
/// end (nodes by allocation, tokens by kind and text).
fn changed<'g>(old: &'g GreenNodeData, new: &'g GreenNodeData) -> Changed<'g> {
    let same = |a: NodeOrToken<&GreenNodeData, _>, b: NodeOrToken<&GreenNodeData, _>| match (a, b) {
        (NodeOrToken::Node(a), NodeOrToken::Node(b)) => std::ptr::eq(a, b),
        (NodeOrToken::Token(a), NodeOrToken::Token(b)) => a == b,
        _ => false,
    };
    let (mut olds, mut news) = (old.children(), new.children());
    let mut start = TextSize::from(0);
    while let (Some(a), Some(b)) = (olds.clone().next(), news.clone().next()) {
        if !same(a, b) {
            break;
        }
        start += a.text_len();
        olds.next();
        news.next();
    }
    let (mut old_end, mut new_end) = (old.text_len(), new.text_len());
    while let (Some(a), Some(b)) = (olds.clone().next_back(), news.clone().next_back()) {
        if !same(a, b) {
            break;
        }
        old_end -= a.text_len();
        new_end -= b.text_len();
        olds.next_back();
        news.next_back();
    }
    Changed {
        old: TextRange::new(start, old_end),
        new: TextRange::new(start, new_end),
        statements: olds
            .chain(news)
            .filter_map(NodeOrToken::into_node)
            .collect(),
    }
}

/// Adds the name of each `NAME` and `NAME_REF` node under `node` (its
/// first token's text) to `names`.
fn names_in(node: &GreenNodeData, names: &mut rustc_hash::FxHashSet<Name>) {
    for child in node.children() {
        let NodeOrToken::Node(child) = child else {
            continue;
        };
        let kind = child.kind().0;
        if kind == SyntaxKind::NAME as u16 || kind == SyntaxKind::NAME_REF as u16 {
            if let Some(text) = first_token(child) {
                names.insert(Name::from(text));
            }
        } else {
            names_in(child, names);
        }
    }
}

/// The text of the first token under `node`.
fn first_token(node: &GreenNodeData) -> Option<&str> {
    node.children().find_map(|child| match child {
        NodeOrToken::Token(t) => Some(t.text()),
        NodeOrToken::Node(n) => first_token(n),
    })
}

#[cfg(test)]
mod tests;
