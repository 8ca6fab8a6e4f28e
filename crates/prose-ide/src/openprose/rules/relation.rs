//! How two declarations of one name relate (spec-rows.md §3.1), for the
//! rules that compare them (E019, E021, E024, P203); not a rule itself.
//! Also the statement lists and `block` frames the relation is made of.

use rustc_hash::FxHashMap as HashMap;

use crate::openprose::rules::prelude::*;

/// Whether `n` is a statement list: a body or the file.
fn is_list(n: &SyntaxNode) -> bool {
    matches!(n.kind(), SyntaxKind::BLOCK | SyntaxKind::SOURCE_FILE)
}

/// The statement list holding `n`.
fn list_of(n: &SyntaxNode) -> Option<SyntaxNode> {
    n.ancestors().skip(1).find(is_list)
}

/// The statement (a direct child of a body or the file) holding `node`:
/// the first of `node` and its ancestors whose parent is a statement list.
pub(super) fn statement_holding(node: SyntaxNode) -> Option<SyntaxNode> {
    let mut n = node;
    loop {
        let parent = n.parent()?;
        if is_list(&parent) {
            return Some(n);
        }
        n = parent;
    }
}

/// [`node_at`] and [`statement_holding`] for a series of ranges, each
/// found from the path of the one before: the descent from the root to
/// where two ranges part is made once, and the statement is read from the
/// path instead of walking up again. Most useful for ranges in file order.
///
/// A node of the path holds a range only if it is where the descent from
/// the root to that range passes (a non-empty range lies in one child of a
/// node at most), so the answers are [`node_at`]'s; an empty range (which
/// may sit between two children) is looked up from the root.
pub(super) struct Covering {
    /// The nodes from the root to the last node found.
    path: Vec<SyntaxNode>,
}

impl Covering {
    /// A lookup that starts from `root`.
    pub(super) fn new(root: &SyntaxNode) -> Covering {
        Covering {
            path: vec![root.clone()],
        }
    }

    /// The innermost node covering `range` ([`node_at`]), and the statement
    /// holding it ([`statement_holding`]).
    pub(super) fn at(&mut self, range: TextRange) -> Option<(SyntaxNode, Option<SyntaxNode>)> {
        self.at_finding(range, None)
            .map(|(node, stmt, _)| (node, stmt))
    }

    /// [`Covering::at`], and (if `wanted` is given) the innermost of the
    /// node and its ancestors whose kind is `wanted`, read from the path
    /// instead of by a walk up.
    pub(super) fn at_finding(
        &mut self,
        range: TextRange,
        wanted: Option<fn(SyntaxKind) -> bool>,
    ) -> Option<(SyntaxNode, Option<SyntaxNode>, Option<SyntaxNode>)> {
        if range.is_empty() || !self.path[0].text_range().contains_range(range) {
            let node = match self.path[0].covering_element(range) {
                prose_syntax::NodeOrToken::Node(n) => n,
                prose_syntax::NodeOrToken::Token(t) => t.parent()?,
            };
            let found = wanted.and_then(|w| node.ancestors().find(|n| w(n.kind())));
            return Some((node.clone(), statement_holding(node), found));
        }
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
            && let Some(prose_syntax::NodeOrToken::Node(child)) = top.child_or_token_at_range(range)
        {
            self.path.push(child.clone());
            top = child;
        }
        // The first node from the top whose parent is a list.
        let above = &self.path[..self.path.len() - 1];
        let statement = above
            .iter()
            .rposition(is_list)
            .map(|list| self.path[list + 1].clone());
        let found = wanted.and_then(|w| self.path.iter().rev().find(|n| w(n.kind())).cloned());
        Some((top, statement, found))
    }
}

/// Whether a child node of `node` may cover the non-empty `range` that
/// `node` covers: false when `node`'s only child is a token (a name's
/// identifier), so that no handle is made for the token only to stop there.
fn child_node_may_cover(node: &SyntaxNode) -> bool {
    let mut children = node.green().children();
    !(children.len() == 1 && children.next().is_some_and(|c| c.as_node().is_none()))
}

/// Where a declaration of a variable by a statement sits
/// ([`declared_places`]).
pub(super) struct DeclaredAt {
    /// The statement holding the node at its name ([`statement_holding`]
    /// of [`node_at`] of the name range).
    pub(super) statement: Option<SyntaxNode>,
    /// The innermost of the node at its name and that node's ancestors
    /// that is a declaring statement ([`is_declaring_statement`]).
    pub(super) declaring: Option<SyntaxNode>,
    /// The statement holding the definition's whole range
    /// ([`statement_holding`] of [`node_at`] of `Def::range`).
    pub(super) range_statement: Option<SyntaxNode>,
}

/// Whether definitions of `kind` are declared by a statement (`input`,
/// `output`, `let`, `const`, destructuring, assignment, `session name:`).
fn declared_by_statement(kind: DefKind) -> bool {
    kind.is_flat_binding() || kind == DefKind::Input
}

/// Whether a node of `kind` is a statement that declares a variable
/// (`let`, `const`, `output`, `input`, or an assignment).
pub(super) fn is_declaring_statement(kind: SyntaxKind) -> bool {
    matches!(
        kind,
        SyntaxKind::LET_STMT
            | SyntaxKind::CONST_STMT
            | SyntaxKind::OUTPUT_DECL
            | SyntaxKind::INPUT_DECL
            | SyntaxKind::ASSIGN_STMT
    )
}

/// For each definition of the file (by position), where it sits if it is
/// declared by a statement: looked up once per file, in one series
/// ([`Covering`]; the whole range is found from the name's path). E019's
/// declarations, the outer variables of P502, P704, P803 and P805, and the
/// declaring statements of P203, E021, E024 and E028 start from them.
pub(super) fn declared_places(ctx: &Ctx<'_>) -> std::rc::Rc<Vec<Option<DeclaredAt>>> {
    ctx.shared(compute_declared_places)
}

fn compute_declared_places(ctx: &Ctx<'_>) -> Vec<Option<DeclaredAt>> {
    let mut covering = Covering::new(ctx.syntax());
    ctx.sema()
        .defs
        .iter()
        .map(|d| {
            if !declared_by_statement(d.kind) {
                return None;
            }
            let (_, statement, declaring) =
                covering.at_finding(d.name_range, Some(is_declaring_statement))?;
            let range_statement = covering.at(d.range).and_then(|(_, s)| s);
            Some(DeclaredAt {
                statement,
                declaring,
                range_statement,
            })
        })
        .collect()
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

/// The earlier declaration `later` collides with most (ties: the nearest),
/// by comparing it with each: what [`Earlier`] answers faster.
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

/// Up to this many declarations of a name, [`Earlier`] compares a later
/// one with each ([`strongest_earlier`]); past it, it builds the index
/// below for that name. Most names are declared once or twice, and then
/// nothing is computed for them but the comparisons an answer needs.
const PAIRWISE: usize = 4;

/// The declarations of a rule seen so far (in file order), for finding the
/// earlier one a declaration collides with most ([`strongest_earlier`]'s
/// answer) without comparing it with every earlier declaration of its
/// name: a rule over thousands of declarations of one name stays near
/// linear.
///
/// A name with few declarations ([`PAIRWISE`]) is answered by comparing
/// with each. Past that, its declarations are indexed: the relation of an
/// earlier declaration to a later one depends on the earlier one only
/// through its statement list (and so its frame), and the index answers in
/// this order:
/// - one in the same list: `SameList`;
/// - one in a list holding the later one, or inside its list (same frame):
///   `Nested`;
/// - else the nearest earlier list of the same frame that is not an
///   exclusive arm (`Sibling`), or the nearest in another frame
///   (`DifferentFrames`), or the nearest exclusive arm.
///
/// Ties go to the nearest declaration, as in [`strongest_earlier`].
pub(super) struct Earlier<'n, T> {
    /// Every declaration seen, in order.
    entries: Vec<Entry<T>>,
    by_name: rustc_hash::FxHashMap<&'n str, Named>,
}

/// A declaration: its statement, what the rule keeps with it, and the
/// next declaration of its name (entries are linked by name, so that a
/// name needs no allocation of its own).
struct Entry<T> {
    stmt: SyntaxNode,
    item: T,
    next: Option<usize>,
}

/// The declarations of one name (by position in [`Earlier::entries`]).
struct Named {
    first: usize,
    last: usize,
    count: usize,
    /// Built once the name has more than [`PAIRWISE`] declarations.
    index: Option<Box<Index>>,
}

/// Where a declaration sits.
struct Place {
    list: Option<SyntaxNode>,
    frame: Option<SyntaxNode>,
}

/// The index of the declarations of one name. Its own positions
/// ("local": the `n`th declaration of the name) are kept, and read as
/// positions in [`Earlier::entries`] through `ids` (both in file order).
#[derive(Default)]
struct Index {
    /// The position in [`Earlier::entries`] of each local one.
    ids: Vec<usize>,
    /// Where each local one sits.
    places: Vec<Place>,
    /// The latest local one directly in each list.
    in_list: HashMap<Option<SyntaxNode>, usize>,
    /// The latest local one inside each list, below it but in its frame.
    under_list: HashMap<SyntaxNode, usize>,
    /// The local ones of each frame, in order.
    by_frame: HashMap<Option<SyntaxNode>, Vec<usize>>,
    /// The latest local one of a frame other than the latest one's frame.
    latest_other_frame: Option<usize>,
}

/// The statement lists above `stmt` up to its frame, innermost first.
fn lists_in_frame(stmt: &SyntaxNode) -> impl Iterator<Item = SyntaxNode> {
    stmt.ancestors()
        .skip(1)
        .take_while(|n| n.kind() != SyntaxKind::BLOCK_DEF)
        .filter(is_list)
}

impl Index {
    /// Records entry `i`, declared by `stmt` (entries come in order): the
    /// statement lists above it up to its frame ([`frame_of`]) and the
    /// frame are read in one walk up, without collecting the lists.
    fn add(&mut self, i: usize, stmt: &SyntaxNode) {
        let local = self.ids.len();
        // The innermost list inside the frame; the others are above it.
        let mut inner: Option<SyntaxNode> = None;
        let mut frame = None;
        let mut above = stmt.parent();
        while let Some(n) = above {
            if n.kind() == SyntaxKind::BLOCK_DEF {
                frame = Some(n);
                break;
            }
            above = n.parent();
            if is_list(&n) {
                if inner.is_none() {
                    inner = Some(n);
                } else {
                    self.under_list.insert(n, local);
                }
            }
        }
        // The list holding `stmt`, beyond its frame if none is inside it.
        let list = inner.or_else(|| list_of(stmt));
        self.in_list.insert(list.clone(), local);
        if let Some(latest) = self.places.last()
            && latest.frame != frame
        {
            self.latest_other_frame = Some(local - 1);
        }
        self.by_frame.entry(frame.clone()).or_default().push(local);
        self.ids.push(i);
        self.places.push(Place { list, frame });
    }

    /// The entry `later` collides with most, and how.
    fn strongest<T>(&self, entries: &[Entry<T>], later: &SyntaxNode) -> Option<(Relation, usize)> {
        let list = list_of(later);
        if let Some(&l) = self.in_list.get(&list) {
            return Some((Relation::SameList, self.ids[l]));
        }
        let holding = lists_in_frame(later)
            .skip(1)
            .filter_map(|above| self.in_list.get(&Some(above)).copied());
        let inside = list.as_ref().and_then(|l| self.under_list.get(l).copied());
        if let Some(l) = holding.chain(inside).max() {
            return Some((Relation::Nested, self.ids[l]));
        }
        // Same frame: siblings or exclusive arms, nearest first; a list
        // already compared gives the same answer again.
        let frame = frame_of(later);
        let mut best: Option<(Relation, usize)> = None;
        let mut seen: rustc_hash::FxHashSet<&Option<SyntaxNode>> = Default::default();
        for &l in self.by_frame.get(&frame).into_iter().flatten().rev() {
            if !seen.insert(&self.places[l].list) {
                continue;
            }
            let r = relation(&entries[self.ids[l]].stmt, later);
            if r == Relation::Sibling {
                return Some((r, self.ids[l]));
            }
            if best.is_none_or(|(b, _)| r > b) {
                best = Some((r, l));
            }
        }
        let latest = self.places.len().checked_sub(1);
        let other = match latest {
            Some(l) if self.places[l].frame != frame => Some(l),
            _ => self.latest_other_frame,
        };
        if let Some(l) = other
            && best.is_none_or(|(b, _)| Relation::DifferentFrames > b)
        {
            best = Some((Relation::DifferentFrames, l));
        }
        best.map(|(r, l)| (r, self.ids[l]))
    }
}

impl<'n, T> Earlier<'n, T> {
    /// No declaration seen yet.
    pub(super) fn new() -> Self {
        Earlier {
            entries: Vec::new(),
            by_name: Default::default(),
        }
    }

    /// No declaration seen yet, with room for `n` of them (and as many
    /// names), so that recording them does not grow the tables.
    pub(super) fn with_capacity(n: usize) -> Self {
        let mut by_name = rustc_hash::FxHashMap::default();
        by_name.reserve(n);
        Earlier {
            entries: Vec::with_capacity(n),
            by_name,
        }
    }

    /// The first declaration of `name` seen.
    pub(super) fn first(&self, name: &str) -> Option<&T> {
        Some(&self.entries[self.by_name.get(name)?.first].item)
    }

    /// The declarations of `name`, in order, from `named`.
    fn of<'s>(&'s self, named: &Named) -> impl Iterator<Item = (usize, &'s Entry<T>)> {
        std::iter::successors(Some(named.first), |&i| self.entries[i].next)
            .map(|i| (i, &self.entries[i]))
    }

    /// Records a declaration of `name` made by `stmt`.
    pub(super) fn insert(&mut self, name: &'n str, stmt: SyntaxNode, item: T) {
        let i = self.entries.len();
        let named = match self.by_name.entry(name) {
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(Named {
                    first: i,
                    last: i,
                    count: 1,
                    index: None,
                });
                self.entries.push(Entry {
                    stmt,
                    item,
                    next: None,
                });
                return;
            }
            std::collections::hash_map::Entry::Occupied(o) => o.into_mut(),
        };
        named.count += 1;
        match &mut named.index {
            Some(index) => index.add(i, &stmt),
            None if named.count > PAIRWISE => {
                let mut index = Box::<Index>::default();
                let mut j = Some(named.first);
                while let Some(at) = j {
                    index.add(at, &self.entries[at].stmt);
                    j = self.entries[at].next;
                }
                index.add(i, &stmt);
                named.index = Some(index);
            }
            None => {}
        }
        self.entries[named.last].next = Some(i);
        named.last = i;
        self.entries.push(Entry {
            stmt,
            item,
            next: None,
        });
    }

    /// The earlier declaration of `name` that `later` collides with most.
    pub(super) fn strongest(&self, name: &str, later: &SyntaxNode) -> Option<(Relation, &T)> {
        let named = self.by_name.get(name)?;
        let (r, i) = match &named.index {
            Some(index) => index.strongest(&self.entries, later)?,
            None => strongest_earlier(later, self.of(named).map(|(i, e)| (&e.stmt, i)))?,
        };
        Some((r, &self.entries[i].item))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `let` of `text`: its name and statement, in order.
    fn lets(root: &SyntaxNode) -> Vec<(String, SyntaxNode)> {
        root.descendants()
            .filter(|n| n.kind() == SyntaxKind::LET_STMT)
            .filter_map(|n| {
                let name = n
                    .children_with_tokens()
                    .filter_map(|e| e.into_token())
                    .find(|t| t.kind() == SyntaxKind::IDENT)?;
                Some((name.text().to_string(), n))
            })
            .collect()
    }

    /// The index answers what comparing with every earlier declaration
    /// answers, on programs mixing every relation.
    #[test]
    fn the_index_agrees_with_comparing_every_pair() {
        let pieces = [
            "let a = 1\n",
            "if **x**:\n  let a = 1\nelif **y**:\n  let a = 2\nelse:\n  let a = 3\n",
            "parallel:\n  let a = 1\n",
            "loop until **done** (max: 3):\n  let a = 1\n  if **z**:\n    let a = 2\n",
            "block b(p):\n  let a = 1\n  if **w**:\n    let a = 2\n",
            "try:\n  let a = 1\ncatch:\n  let a = 2\n",
            "choice **c**:\n  option \"A\":\n    let a = 1\n  option \"B\":\n    let a = 2\n",
            "let b = 1\n",
        ];
        // Deterministic mixes of the pieces.
        let mut state = 7u64;
        for _ in 0..60 {
            let mut text = String::new();
            for _ in 0..8 {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                text.push_str(pieces[(state >> 33) as usize % pieces.len()]);
            }
            let root = prose_syntax::parse(&text).syntax_node();
            let decls = lets(&root);
            let mut index = Earlier::new();
            for (i, (name, stmt)) in decls.iter().enumerate() {
                let earlier = decls[..i]
                    .iter()
                    .enumerate()
                    .filter(|(_, (n, _))| n == name)
                    .map(|(j, (_, s))| (s, j));
                let expected = strongest_earlier(stmt, earlier);
                let got = index.strongest(name, stmt).map(|(r, &j)| (r, j));
                assert_eq!(got, expected, "declaration {i} of:\n{text}");
                index.insert(name, stmt.clone(), i);
            }
        }
    }

    /// [`Covering`] answers what [`node_at`] and [`statement_holding`]
    /// answer (and the declaring statement above, what a walk up finds), for ranges in file order and out of it (every node's and
    /// token's range, parts of tokens and empty ranges).
    #[test]
    fn covering_agrees_with_looking_up_from_the_root() {
        let text = "let a = 1\nif **x**:\n  let b = 2\n  loop until **d** (max: 3):\n    c = session \"s\"\nelse:\n  let d = 3\nblock blk(p):\n  let { e, f } = session \"g\"\nparallel:\n  h = session \"i\"\nsession name: agent\n  prompt: \"p\"\n";
        let root = prose_syntax::parse(text).syntax_node();
        let mut ranges: Vec<TextRange> = root
            .descendants_with_tokens()
            .map(|e| e.text_range())
            .collect();
        let parts: Vec<TextRange> = ranges
            .iter()
            .filter(|r| r.len() > 1.into())
            .flat_map(|r| {
                let one = TextSize::from(1);
                [
                    TextRange::new(r.start() + one, r.end()),
                    TextRange::new(r.start(), r.end() - one),
                    TextRange::empty(r.start()),
                ]
            })
            .collect();
        ranges.extend(parts);
        let expected = |range: TextRange| {
            let node = match root.covering_element(range) {
                prose_syntax::NodeOrToken::Node(n) => n,
                prose_syntax::NodeOrToken::Token(t) => t.parent().unwrap(),
            };
            let declaring = node.ancestors().find(|n| is_declaring_statement(n.kind()));
            (node.clone(), statement_holding(node), declaring)
        };
        let mut in_order = ranges.clone();
        in_order.sort_by_key(|r| (r.start(), r.end()));
        let mut shuffled = ranges;
        let mut state = 11u64;
        for i in (1..shuffled.len()).rev() {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            shuffled.swap(i, (state >> 33) as usize % (i + 1));
        }
        for order in [in_order.clone(), shuffled] {
            let mut covering = Covering::new(&root);
            for range in order {
                let found = covering.at_finding(range, Some(is_declaring_statement));
                assert_eq!(found, Some(expected(range)), "{range:?}");
            }
        }
        let mut covering = Covering::new(&root);
        for range in in_order {
            let (node, statement, _) = expected(range);
            assert_eq!(covering.at(range), Some((node, statement)), "{range:?}");
        }
    }
}
