//! Where a file's statements and declaring statements lie, read per
//! top-level statement from its green tree and kept while the statement is
//! unchanged (`StatementMemos::places`); not a rule itself.
//!
//! The rules of the second part (`rule_parts.rs`: E019, E021, E024, P203,
//! E028, P403, P502, P704, P803, P805) start from the statement of each
//! declaration: how two declarations relate (`relation.rs`), the list an
//! outer variable is declared in, whether a value is a call. Finding those
//! statements in the tree made a descent and node handles for every
//! declaration of the file after every edit. A [`Place`] says what they need
//! of a statement as plain data: its range and kind, the top-level statement
//! holding it, its [`Class`], the node holding it, whether it is a branch
//! of a `parallel:` block and whether its value is a call. Each top-level
//! statement's places are read once from its green nodes
//! ([`StatementPlaces::of`]); after an edit only the statements it
//! re-parsed are read again, and a declaration's place is found by two
//! binary searches ([`Places::statement`], [`Places::declaring`]).
//!
//! A node handle is made only where a rule needs the tree: two declarations
//! of one name in one top-level statement (`relation::relation`), or a
//! finding's statement ([`Places::node`]). Two declarations in different
//! top-level statements relate by their classes alone ([`class_relation`]).
//!
//! A database that keeps nothing (`prose check`, which analyses each text
//! once) finds the places in the tree instead ([`Descent`]): it has made the
//! handles of its rules' index already, and recording every statement's
//! places would read every node of the file for the few it asks about.

use std::sync::Arc;

use prose_syntax::NodeOrToken;

use crate::openprose::rules::{prelude::*, relation::Relation};

/// Where a node sits, for relating it to a node of another top-level
/// statement (see [`class_relation`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Class {
    /// No `block` definition above it, and no body: it is in the file's
    /// own list of statements (or in a node directly in it).
    Top,
    /// No `block` definition above it, but in a body (a loop, `if`, ...).
    Nested,
    /// Inside a `block` definition (its frame, `relation::frame_of`).
    InFrame,
}

/// How two nodes in *different* top-level statements relate, from their
/// classes alone: what `relation::relation` answers for them. Their frames
/// differ when either is in one (a frame lies inside one top-level
/// statement); otherwise the lists holding them are the file's, or a body
/// inside one of the two statements, and no `if`, `try` or `choice` holds
/// both.
pub(super) fn class_relation(a: Class, b: Class) -> Relation {
    match (a, b) {
        (Class::InFrame, _) | (_, Class::InFrame) => Relation::DifferentFrames,
        (Class::Top, Class::Top) => Relation::SameList,
        (Class::Top, Class::Nested) | (Class::Nested, Class::Top) => Relation::Nested,
        (Class::Nested, Class::Nested) => Relation::Sibling,
    }
}

/// Which of a statement's recorded nodes a [`Place`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// A statement: a node directly in a statement list (a body or the
    /// file), what `relation::statement_holding` finds.
    Statement,
    /// A declaring statement (`let`, `const`, `output`, `input`, an
    /// assignment), what `relation::is_declaring_statement` accepts.
    Declaring,
}

/// A statement or declaring statement of the file, as the rules of the
/// second part need to know it (absolute offsets).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Place {
    pub(crate) range: TextRange,
    pub(crate) kind: SyntaxKind,
    pub(crate) role: Role,
    /// The start of the top-level statement holding it (which tells it
    /// from the others: an empty statement, the only kind that may start
    /// where another does, holds no declaration).
    pub(crate) top: TextSize,
    pub(crate) class: Class,
    /// The range and kind of the node holding it (for a statement, its
    /// statement list).
    pub(crate) parent: (TextRange, SyntaxKind),
    /// A statement directly in a body of a `parallel:` block.
    pub(crate) in_parallel_body: bool,
    /// A declaring statement whose value is a call ([`value_is_call`];
    /// false for a [`Role::Statement`]).
    pub(crate) value_is_call: bool,
}

/// One recorded node of a top-level statement (offsets relative to the
/// statement's start).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Rec {
    range: TextRange,
    kind: SyntaxKind,
    class: Class,
    /// The range of the node holding it; `None` for the top-level statement
    /// itself (held by the root).
    parent: Option<(TextRange, SyntaxKind)>,
    in_parallel_body: bool,
    value_is_call: bool,
    /// The nearest node holding this one among the records of its role
    /// (the statements, or the declaring statements).
    up: Option<u32>,
}

/// The statements and the declaring statements of one top-level statement
/// (itself included), each in pre-order, relative to its start: kept per
/// statement (`StatementMemos::places`).
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct StatementPlaces {
    len: TextSize,
    statements: Vec<Rec>,
    declaring: Vec<Rec>,
}

/// A node on the way down in [`StatementPlaces::of`].
struct Open {
    kind: SyntaxKind,
    range: TextRange,
    /// The innermost recorded statement and declaring statement at or
    /// above it.
    statement: Option<u32>,
    declaring: Option<u32>,
    /// Whether it is or is inside a `block` definition, and a body.
    in_frame: bool,
    in_body: bool,
}

/// The kind of a green node (an unknown raw kind, which the parser never
/// makes, read as an error node).
fn kind_of(green: &prose_syntax::GreenNodeData) -> SyntaxKind {
    SyntaxKind::from_raw(green.kind().0).unwrap_or(SyntaxKind::ERROR)
}

/// Whether a node of `kind` is a statement list: a body or the file.
fn is_list(kind: SyntaxKind) -> bool {
    matches!(kind, SyntaxKind::BLOCK | SyntaxKind::SOURCE_FILE)
}

impl StatementPlaces {
    /// The places of the top-level statement `green` (a child of the root).
    pub(crate) fn of(green: &prose_syntax::GreenNodeData) -> StatementPlaces {
        let mut out = StatementPlaces {
            len: green.text_len(),
            ..StatementPlaces::default()
        };
        // The nodes above the current one, outermost first (the root is
        // not among them).
        let mut above: Vec<Open> = Vec::new();
        out.enter(&mut above, green, TextSize::default());
        // The nodes still to read, per level, and where the next starts.
        let mut stack = vec![(green.children(), TextSize::default())];
        while let Some((children, at)) = stack.last_mut() {
            let Some(child) = children.next() else {
                stack.pop();
                above.pop();
                continue;
            };
            let here = *at;
            *at += child.text_len();
            if let NodeOrToken::Node(node) = child {
                out.enter(&mut above, node, here);
                stack.push((node.children(), here));
            }
        }
        out
    }

    /// Records `green` (starting at `at`) if it is a statement or a
    /// declaring statement, and opens it.
    fn enter(&mut self, above: &mut Vec<Open>, green: &prose_syntax::GreenNodeData, at: TextSize) {
        let kind = kind_of(green);
        let range = TextRange::at(at, green.text_len());
        let parent = above.last();
        // The top-level statement's parent is the root, a list.
        let is_statement = parent.is_none_or(|p| is_list(p.kind));
        let is_declaring = super::relation::is_declaring_statement(kind);
        let (in_frame, in_body) = parent.map_or((false, false), |p| (p.in_frame, p.in_body));
        let (mut statement, mut declaring) =
            parent.map_or((None, None), |p| (p.statement, p.declaring));
        if is_statement || is_declaring {
            let class = if in_frame {
                Class::InFrame
            } else if in_body {
                Class::Nested
            } else {
                Class::Top
            };
            let in_parallel_body = parent.is_some_and(|p| p.kind == SyntaxKind::BLOCK)
                && above
                    .len()
                    .checked_sub(2)
                    .is_some_and(|i| above[i].kind == SyntaxKind::PARALLEL_EXPR);
            let rec = |up| Rec {
                range,
                kind,
                class,
                parent: parent.map(|p| (p.range, p.kind)),
                in_parallel_body,
                value_is_call: false,
                up,
            };
            if is_statement {
                self.statements.push(rec(statement));
                statement = Some(self.statements.len() as u32 - 1);
            }
            if is_declaring {
                let rec = Rec {
                    value_is_call: value_is_call(green),
                    ..rec(declaring)
                };
                self.declaring.push(rec);
                declaring = Some(self.declaring.len() as u32 - 1);
            }
        }
        above.push(Open {
            kind,
            range,
            statement,
            declaring,
            in_frame: in_frame || kind == SyntaxKind::BLOCK_DEF,
            in_body: in_body || kind == SyntaxKind::BLOCK,
        });
    }
}

/// Whether a declaring statement's value is a call: its value as `value()`
/// finds it (its first expression child, after the `=` for an assignment)
/// is a call, read from the green tree without making a node per child.
/// What `program_shared::call_value` finds a call for (E028 asks only
/// then).
pub(crate) fn value_is_call(green: &prose_syntax::GreenNodeData) -> bool {
    let mut seen_eq = match kind_of(green) {
        SyntaxKind::LET_STMT | SyntaxKind::CONST_STMT | SyntaxKind::OUTPUT_DECL => true,
        SyntaxKind::ASSIGN_STMT => false,
        _ => return false,
    };
    for child in green.children() {
        match child {
            NodeOrToken::Token(t) if t.kind().0 == SyntaxKind::EQ as u16 => seen_eq = true,
            NodeOrToken::Node(n) if seen_eq && ast::Expr::can_cast(kind_of(n)) => {
                return n.kind().0 == SyntaxKind::CALL_EXPR as u16;
            }
            _ => {}
        }
    }
    false
}

/// The places of a file's top-level statements, for finding the statement
/// and the declaring statement at a range.
pub(crate) struct Places {
    root: SyntaxNode,
    lookup: Lookup,
}

/// How [`Places`] finds a place.
enum Lookup {
    /// From the places kept per top-level statement: each top-level
    /// statement's start and places, in order, and the one of the last
    /// range looked up (ranges mostly come in file order, and the next is
    /// then in it or soon after).
    Kept {
        tops: Vec<(TextSize, Arc<StatementPlaces>)>,
        last: std::cell::Cell<usize>,
    },
    /// From the tree ([`Descent`]): a database that analyses each text
    /// once (`prose check`) keeps nothing, has made the tree's handles for
    /// its rules' index already, and would read every node of the file to
    /// record its places.
    Tree(std::cell::RefCell<Descent>),
}

impl Places {
    /// The places of `ctx`'s file: each top-level statement's kept while
    /// it is unchanged, or found in the tree by a database that keeps
    /// nothing.
    pub(crate) fn new(ctx: &Ctx<'_>) -> Places {
        let root = ctx.syntax().clone();
        let (file, memos) = ctx.statement_memos();
        if memos.is_batch() {
            return Places::in_tree(&root);
        }
        let tops = memos
            .places
            .each(file, &root, |stmt| StatementPlaces::of(stmt.green()));
        Places {
            root,
            lookup: Lookup::Kept {
                tops,
                last: std::cell::Cell::new(0),
            },
        }
    }

    /// The places of the tree under `root`, found in the tree.
    fn in_tree(root: &SyntaxNode) -> Places {
        Places {
            root: root.clone(),
            lookup: Lookup::Tree(std::cell::RefCell::new(Descent {
                path: vec![root.clone()],
            })),
        }
    }

    /// The places of the tree under `root`, read per top-level statement
    /// as a database that keeps them does (tests).
    #[cfg(test)]
    pub(crate) fn of_tree(root: &SyntaxNode) -> Places {
        let tops = root
            .children()
            .map(|c| {
                let places = Arc::new(StatementPlaces::of(c.green()));
                (c.text_range().start(), places)
            })
            .collect();
        Places {
            root: root.clone(),
            lookup: Lookup::Kept {
                tops,
                last: std::cell::Cell::new(0),
            },
        }
    }

    /// The statement holding the node at `range`
    /// (`relation::statement_holding` of `node_at`).
    pub(crate) fn statement(&self, range: TextRange) -> Option<Place> {
        self.find(range, Role::Statement)
    }

    /// The innermost declaring statement at or above the node at `range`.
    pub(crate) fn declaring(&self, range: TextRange) -> Option<Place> {
        self.find(range, Role::Declaring)
    }

    /// [`Places::statement`] and [`Places::declaring`] at one range (in
    /// the tree, from one descent).
    pub(crate) fn statement_and_declaring(
        &self,
        range: TextRange,
    ) -> (Option<Place>, Option<Place>) {
        match &self.lookup {
            Lookup::Tree(descent)
                if !range.is_empty() && self.root.text_range().contains_range(range) =>
            {
                descent.borrow_mut().both(range)
            }
            _ => (self.statement(range), self.declaring(range)),
        }
    }

    /// The range and kind of the list holding [`Places::statement`] at
    /// `range` (in the tree, without the rest of its place).
    pub(crate) fn statement_list(&self, range: TextRange) -> Option<(TextRange, SyntaxKind)> {
        match &self.lookup {
            Lookup::Tree(descent)
                if !range.is_empty() && self.root.text_range().contains_range(range) =>
            {
                let mut descent = descent.borrow_mut();
                descent.descend(range);
                let list = &descent.path[descent.statement_at()? - 1];
                Some((list.text_range(), list.kind()))
            }
            _ => self.statement(range).map(|p| p.parent),
        }
    }

    /// The innermost recorded node of `role` holding `range`.
    fn find(&self, range: TextRange, role: Role) -> Option<Place> {
        if range.is_empty() || !self.root.text_range().contains_range(range) {
            // Between two nodes the tree's own lookup decides which one.
            return self.found_in_tree(range, role);
        }
        let (tops, last) = match &self.lookup {
            Lookup::Kept { tops, last } => (tops, last),
            Lookup::Tree(descent) => return descent.borrow_mut().find(range, role),
        };
        let top = top_at(tops, last, range.start())?;
        let (start, places) = &tops[top];
        let rel = range - *start;
        if rel.end() > places.len {
            return None;
        }
        let recs = match role {
            Role::Statement => &places.statements,
            Role::Declaring => &places.declaring,
        };
        // The last node starting by then; the one holding the range is it
        // or a node above it (a non-empty range lies in one chain of nodes).
        let mut at = recs
            .partition_point(|r| r.range.start() <= rel.start())
            .checked_sub(1);
        while let Some(i) = at {
            let rec = &recs[i];
            if rec.range.contains_range(rel) {
                return Some(Place {
                    range: rec.range + *start,
                    kind: rec.kind,
                    role,
                    top: *start,
                    class: rec.class,
                    parent: rec.parent.map_or_else(
                        || (self.root.text_range(), self.root.kind()),
                        |(r, k)| (r + *start, k),
                    ),
                    in_parallel_body: rec.in_parallel_body,
                    value_is_call: rec.value_is_call,
                });
            }
            at = rec.up.map(|u| u as usize);
        }
        None
    }

    /// [`Places::find`] from the tree (an empty range, or one beyond it).
    fn found_in_tree(&self, range: TextRange, role: Role) -> Option<Place> {
        let node = match self.root.covering_element(range) {
            NodeOrToken::Node(n) => n,
            NodeOrToken::Token(t) => t.parent()?,
        };
        let found = match role {
            Role::Statement => super::relation::statement_holding(node),
            Role::Declaring => node
                .ancestors()
                .find(|n| super::relation::is_declaring_statement(n.kind())),
        }?;
        self.of_node(&found, role)
    }

    /// The place of `node`, a statement or declaring statement of the tree,
    /// read from the tree.
    pub(crate) fn of_node(&self, node: &SyntaxNode, role: Role) -> Option<Place> {
        let path: Vec<SyntaxNode> = {
            let mut up: Vec<SyntaxNode> = node.ancestors().collect();
            up.reverse();
            up
        };
        (path.first() == Some(&self.root))
            .then(|| place_on_path(&path, path.len() - 1, role))
            .flatten()
    }

    /// The node of `place`: the innermost node at its range of its kind
    /// (and, for a statement, directly in a list). Found by a descent to
    /// its range; an empty node, which that descent may miss (it may end in
    /// a neighbour), is looked for among every node.
    pub(crate) fn node(&self, place: &Place) -> SyntaxNode {
        let is_it = |n: &SyntaxNode| {
            n.kind() == place.kind
                && n.text_range() == place.range
                && (place.role == Role::Declaring || n.parent().is_some_and(|p| is_list(p.kind())))
        };
        let deepest = match self.root.covering_element(place.range) {
            NodeOrToken::Node(n) => Some(n),
            NodeOrToken::Token(t) => t.parent(),
        };
        deepest
            .and_then(|d| d.ancestors().find(is_it))
            .or_else(|| {
                let mut found = None;
                prose_syntax::walk::pre_order(&self.root, |n| {
                    if is_it(n) {
                        found = Some(n.clone());
                    }
                });
                found
            })
            .unwrap_or_else(|| self.root.clone())
    }
}

/// The last top-level statement of `tops` starting at or before `offset`:
/// `last` (the one found before) or one of the two after it when it is
/// there, else found by a binary search.
fn top_at(
    tops: &[(TextSize, Arc<StatementPlaces>)],
    last: &std::cell::Cell<usize>,
    offset: TextSize,
) -> Option<usize> {
    let starts_by = |i: usize| tops.get(i).is_some_and(|(s, _)| *s <= offset);
    let at = last.get();
    let top = if starts_by(at) && !starts_by(at + 1) {
        at
    } else if starts_by(at + 1) && !starts_by(at + 2) {
        at + 1
    } else {
        tops.partition_point(|(s, _)| *s <= offset).checked_sub(1)?
    };
    last.set(top);
    Some(top)
}

/// Where the first `block` definition and the first body lie on a path
/// from the root: what the class of each node of the path follows from.
#[derive(Clone, Copy)]
struct Firsts {
    block_def: usize,
    block: usize,
}

impl Firsts {
    /// The first `block` definition and the first body on `path`.
    fn of(path: &[SyntaxNode]) -> Firsts {
        let mut firsts = Firsts {
            block_def: usize::MAX,
            block: usize::MAX,
        };
        for (i, n) in path.iter().enumerate() {
            match n.kind() {
                SyntaxKind::BLOCK_DEF if firsts.block_def == usize::MAX => {
                    firsts.block_def = i;
                    break;
                }
                SyntaxKind::BLOCK if firsts.block == usize::MAX => firsts.block = i,
                _ => {}
            }
        }
        firsts
    }

    /// The class of the node at `at` on the path (what is above it).
    fn class(self, at: usize) -> Class {
        if self.block_def < at {
            Class::InFrame
        } else if self.block < at {
            Class::Nested
        } else {
            Class::Top
        }
    }
}

/// The place of `path[at]`, `path` going from the root down to it.
fn place_on_path(path: &[SyntaxNode], at: usize, role: Role) -> Option<Place> {
    place_with(path, at, role, Firsts::of(&path[..at]))
}

/// [`place_on_path`], with the path's [`Firsts`] (of at least its nodes
/// above `at`).
fn place_with(path: &[SyntaxNode], at: usize, role: Role, firsts: Firsts) -> Option<Place> {
    let node = &path[at];
    let top = path.get(1)?;
    let parent = path[..at].last()?;
    Some(Place {
        range: node.text_range(),
        kind: node.kind(),
        role,
        top: top.text_range().start(),
        class: firsts.class(at),
        parent: (parent.text_range(), parent.kind()),
        in_parallel_body: parent.kind() == SyntaxKind::BLOCK
            && at
                .checked_sub(2)
                .is_some_and(|g| path[g].kind() == SyntaxKind::PARALLEL_EXPR),
        value_is_call: role == Role::Declaring && value_is_call(node.green()),
    })
}

/// Places found in the tree for a series of non-empty ranges, each from the
/// path of the one before: the descent from the root to where two ranges
/// part is made once, and the place is read from the path instead of
/// walking up again. Most useful for ranges in file order.
///
/// A node of the path holds a range only if it is where the descent from
/// the root to that range passes (a non-empty range lies in one child of a
/// node at most), so the nodes found are those `node_at` finds.
struct Descent {
    /// The nodes from the root to the last node found.
    path: Vec<SyntaxNode>,
}

impl Descent {
    /// The place of `role` at the non-empty `range`, which the root holds.
    fn find(&mut self, range: TextRange, role: Role) -> Option<Place> {
        self.descend(range);
        self.place(role)
    }

    /// The statement and the declaring statement at the non-empty `range`,
    /// which the root holds.
    fn both(&mut self, range: TextRange) -> (Option<Place>, Option<Place>) {
        self.descend(range);
        let firsts = Firsts::of(&self.path);
        let place = |at: Option<usize>, role| place_with(&self.path, at?, role, firsts);
        (
            place(self.statement_at(), Role::Statement),
            place(self.declaring_at(), Role::Declaring),
        )
    }

    /// Makes the path end at the innermost node holding `range`.
    fn descend(&mut self, range: TextRange) {
        let mut popped = None;
        while self.path.len() > 1
            && !self
                .path
                .last()
                .is_some_and(|n| n.text_range().contains_range(range))
        {
            popped = self.path.pop();
        }
        let mut top = self.path.last().expect("the root").clone();
        // A child of `top` left the path because it does not hold the
        // range: if it overlaps the range, no other child holds it either
        // (children do not overlap), and there is nothing to descend into.
        let descend = popped.is_none_or(|child| {
            child
                .text_range()
                .intersect(range)
                .is_none_or(|common| common.is_empty())
        });
        while descend
            && child_node_may_cover(&top)
            && let Some(NodeOrToken::Node(child)) = top.child_or_token_at_range(range)
        {
            self.path.push(child.clone());
            top = child;
        }
    }

    /// Where on the path the statement holding its last node is: the
    /// first node from the end whose parent is a list.
    fn statement_at(&self) -> Option<usize> {
        let above = &self.path[..self.path.len() - 1];
        Some(above.iter().rposition(|n| is_list(n.kind()))? + 1)
    }

    /// Where on the path the innermost declaring statement is.
    fn declaring_at(&self) -> Option<usize> {
        self.path
            .iter()
            .rposition(|n| super::relation::is_declaring_statement(n.kind()))
    }

    /// The place of `role` above or at the end of the path.
    fn place(&self, role: Role) -> Option<Place> {
        let at = match role {
            Role::Statement => self.statement_at()?,
            Role::Declaring => self.declaring_at()?,
        };
        place_on_path(&self.path, at, role)
    }
}

/// Whether a child node of `node` may cover the non-empty `range` that
/// `node` covers: false when `node`'s only child is a token (a name's
/// identifier), so that no handle is made for the token only to stop there.
fn child_node_may_cover(node: &SyntaxNode) -> bool {
    let mut children = node.green().children();
    !(children.len() == 1 && children.next().is_some_and(|c| c.as_node().is_none()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openprose::rules::relation::{is_declaring_statement, relation, statement_holding};

    /// Every node's range and parts of it, and empty ranges.
    fn ranges(root: &SyntaxNode) -> Vec<TextRange> {
        let mut out = Vec::new();
        for e in root.descendants_with_tokens() {
            let r = e.text_range();
            out.push(r);
            out.push(TextRange::empty(r.start()));
            if r.len() > 1.into() {
                out.push(TextRange::new(r.start() + TextSize::from(1), r.end()));
            }
        }
        out
    }

    /// The places of `text`, kept and in the tree, for every range, are
    /// what the tree's own lookups give.
    fn check(text: &str) {
        let root = prose_syntax::parse(text).syntax_node();
        let places = Places::of_tree(&root);
        let in_tree = Places::in_tree(&root);
        for range in ranges(&root) {
            let node = match root.covering_element(range) {
                NodeOrToken::Node(n) => n,
                NodeOrToken::Token(t) => t.parent().unwrap(),
            };
            let statement = statement_holding(node.clone());
            let declaring = node.ancestors().find(|n| is_declaring_statement(n.kind()));
            for (role, expected) in [(Role::Statement, statement), (Role::Declaring, declaring)] {
                let expected = expected.and_then(|n| places.of_node(&n, role));
                let got = places.find(range, role);
                assert_eq!(got, expected, "{role:?} at {range:?} in {text:?}");
                let found = in_tree.find(range, role);
                assert_eq!(found, expected, "in the tree: {role:?} at {range:?}");
                if role == Role::Statement {
                    let list = expected.map(|p| p.parent);
                    assert_eq!(places.statement_list(range), list, "list at {range:?}");
                    assert_eq!(
                        in_tree.statement_list(range),
                        list,
                        "in the tree: {range:?}"
                    );
                } else {
                    let both = (in_tree.statement(range), expected);
                    assert_eq!(in_tree.statement_and_declaring(range), both);
                    let both = (places.statement(range), expected);
                    assert_eq!(places.statement_and_declaring(range), both);
                }
                if let Some(p) = got {
                    assert_eq!(places.of_node(&places.node(&p), role), Some(p));
                }
            }
        }
        // Across top-level statements, classes decide the relation.
        let statements: Vec<SyntaxNode> = root
            .descendants()
            .filter(|n| n.parent().is_some_and(|p| is_list(p.kind())))
            .collect();
        for a in &statements {
            for b in &statements {
                let (pa, pb) = (
                    places.of_node(a, Role::Statement).unwrap(),
                    places.of_node(b, Role::Statement).unwrap(),
                );
                if pa.top != pb.top {
                    assert_eq!(
                        class_relation(pa.class, pb.class),
                        relation(a, b),
                        "{a:?} {b:?} in {text:?}"
                    );
                }
            }
        }
    }

    /// The places found from the kept statements are those the tree gives,
    /// for every range of programs of every shape, and two statements of
    /// different top-level statements relate by their classes.
    #[test]
    fn places_agree_with_the_tree() {
        check(
            "let a = 1\nif **x**:\n  let b = 2\n  loop until **d** (max: 3):\n    c = session \"s\"\nelse:\n  let d = f(x: 1)\nblock blk(p):\n  let { e, f } = session \"g\"\n  if **y**:\n    output o = g()\nparallel:\n  h = session \"i\"\n  j = k()\nsession name: agent\n  prompt: \"p\"\ntry:\n  let t = 1\ncatch as err:\n  let t = 2\nchoice **c**:\n  option \"A\":\n    let u = 1\n  option \"B\":\n    let u = 2\ninput q: \"x\"\n",
        );
        check("let = \nlet a =\n  let b = 1\n)\nblock (:\n  x =\n");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
        #[test]
        fn places_agree_on_generated_programs(
            text in "(let a = |const b = |output c = |input d: \"x\"\n|a = |f\\(x: 1\\)|session \"s\"|\n|  |    |if \\*\\*x\\*\\*:|else:|parallel:|block g\\(p\\):|loop:|try:|catch:|for i in xs:|choice \\*\\*c\\*\\*:|option \"A\":){0,24}"
        ) {
            check(&text);
        }
    }
}
