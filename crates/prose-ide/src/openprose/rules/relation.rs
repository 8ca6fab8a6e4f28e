//! How two declarations of one name relate (spec-rows.md §3.1), for the
//! rules that compare them (E019, E021, E024, P203); not a rule itself.
//! Also the statement lists and `block` frames the relation is made of,
//! and where each declaration's statement is (`declared_places`, from the
//! places kept per statement: `places.rs`).

use rustc_hash::FxHashMap as HashMap;

use crate::openprose::rules::{
    places::{Class, Place, Places, class_relation},
    prelude::*,
};

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
/// Where a declaration of a variable by a statement sits
/// ([`declared_places`]).
pub(super) struct DeclaredAt {
    /// The statement holding the node at its name ([`statement_holding`]
    /// of [`node_at`] of the name range).
    pub(super) statement: Option<Place>,
    /// The innermost of the node at its name and that node's ancestors
    /// that is a declaring statement ([`is_declaring_statement`]).
    pub(super) declaring: Option<Place>,
    /// The range and kind of the list holding the statement that holds the
    /// definition's whole range ([`statement_holding`] of [`node_at`] of
    /// `Def::range`).
    pub(super) range_list: Option<(TextRange, SyntaxKind)>,
}

/// Whether definitions of `kind` are declared by a statement (`input`,
/// `output`, `let`, `const`, destructuring, assignment, `session name:`).
pub(super) fn declared_by_statement(kind: DefKind) -> bool {
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

/// The places of the file's statements ([`Places`]), found once per rule
/// context.
pub(super) fn places(ctx: &Ctx<'_>) -> std::rc::Rc<Places> {
    ctx.shared(Places::new)
}

/// Where each definition of the file sits if it is declared by a
/// statement ([`DeclaredPlaces::get`]), from the places kept per statement
/// ([`places`]). E019's declarations, the outer variables of P502, P704,
/// P803 and P805, and the declaring statements of P203, E021, E024 and
/// E028 start from them.
pub(super) fn declared_places(ctx: &Ctx<'_>) -> std::rc::Rc<DeclaredPlaces> {
    ctx.shared(DeclaredPlaces::new)
}

/// Where the definitions of a file sit ([`declared_places`]), each found
/// when a rule first asks about it: the rules that compare declarations
/// ask about the names declared more than once, the names scoped
/// variables take and the names of agents, a small part of a long
/// program's definitions (finding every one's place took about a tenth
/// of a keystroke's instructions).
pub(super) struct DeclaredPlaces {
    places: std::rc::Rc<Places>,
    /// By definition (its [`DefId`]).
    at: Vec<std::cell::OnceCell<Option<DeclaredAt>>>,
}

impl DeclaredPlaces {
    fn new(ctx: &Ctx<'_>) -> DeclaredPlaces {
        let mut at = Vec::new();
        at.resize_with(ctx.sema().defs.len(), std::cell::OnceCell::new);
        DeclaredPlaces {
            places: places(ctx),
            at,
        }
    }

    /// Where `def` (definition `id` of the file) sits, if a statement
    /// declares it.
    pub(super) fn get(&self, id: DefId, def: &Def) -> Option<&DeclaredAt> {
        self.at
            .get(id.0 as usize)?
            .get_or_init(|| {
                if !declared_by_statement(def.kind) {
                    return None;
                }
                let (statement, declaring) = self.places.statement_and_declaring(def.name_range);
                Some(DeclaredAt {
                    statement,
                    declaring,
                    range_list: self.places.statement_list(def.range),
                })
            })
            .as_ref()
    }
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
#[cfg(test)]
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

/// Up to this many declarations of a name in one top-level statement,
/// [`Earlier`] compares a later one of that statement with each
/// (`strongest_earlier`); past it, it builds the index below for them.
const PAIRWISE: usize = 4;

/// The declarations of a rule seen so far (in file order), for finding the
/// earlier one a declaration collides with most (`strongest_earlier`'s
/// answer) without comparing it with every earlier declaration of its
/// name, and without the tree for most of them: a rule over thousands of
/// declarations of one name stays near linear.
///
/// Declarations are known by their statements' [`Place`]s. An earlier
/// declaration in another top-level statement relates to a later one by
/// their classes alone ([`class_relation`]), so of those only the latest of
/// each class can be the answer, and each name keeps them. The earlier ones
/// in the later one's top-level statement are compared in the tree
/// ([`relation`]): with each, or, past [`PAIRWISE`] of them, through the
/// index below. Ties go to the nearest declaration, as in
/// `strongest_earlier`.
///
/// Declarations are recorded and asked about in file order; a name whose
/// declarations come otherwise is answered by comparing with each.
pub(super) struct Earlier<'n, T> {
    places: std::rc::Rc<Places>,
    /// Every declaration seen, in order.
    entries: Vec<Entry<T>>,
    by_name: rustc_hash::FxHashMap<&'n str, Named>,
}

/// A declaration: its statement, what the rule keeps with it, and the
/// next declaration of its name (entries are linked by name, so that a
/// name needs no allocation of its own).
struct Entry<T> {
    place: Place,
    item: T,
    next: Option<usize>,
    /// The statement's node, made when a comparison in the tree needs it.
    node: std::cell::OnceCell<SyntaxNode>,
}

/// The latest declaration of a name of one class, and the latest of that
/// class in another top-level statement than it.
#[derive(Clone, Copy, Default)]
struct Latest {
    latest: Option<(usize, TextSize)>,
    other: Option<usize>,
}

impl Latest {
    fn add(&mut self, i: usize, top: TextSize) {
        if let Some((j, t)) = self.latest
            && t != top
        {
            self.other = Some(j);
        }
        self.latest = Some((i, top));
    }

    /// The latest declaration of this class outside the top-level
    /// statement `top`.
    fn outside(&self, top: TextSize) -> Option<usize> {
        match self.latest {
            Some((i, t)) if t != top => Some(i),
            Some(_) => self.other,
            None => None,
        }
    }
}

/// The declarations of one name (by position in [`Earlier::entries`]).
struct Named {
    first: usize,
    last: usize,
    /// By [`Class`]: `Top`, `Nested`, `InFrame`.
    classes: [Latest; 3],
    /// The top-level statement of the latest declaration, and the
    /// declarations in it, in order.
    group_top: TextSize,
    group: smallvec::SmallVec<[usize; 2]>,
    /// Built once the group has more than [`PAIRWISE`] declarations.
    index: Option<Box<Index>>,
    /// A declaration came after one of a later top-level statement.
    unordered: bool,
}

/// Where the latest declarations of `class` are in [`Named::classes`].
fn class_slot(class: Class) -> usize {
    match class {
        Class::Top => 0,
        Class::Nested => 1,
        Class::InFrame => 2,
    }
}

/// Where a declaration sits, for [`Index`].
struct Sits {
    list: Option<SyntaxNode>,
    frame: Option<SyntaxNode>,
}

/// The index of the declarations of one name in one top-level statement.
/// Its own positions ("local": the `n`th of them) are kept, and read as
/// positions in [`Earlier::entries`] through `ids` (both in file order).
#[derive(Default)]
struct Index {
    /// The position in [`Earlier::entries`] of each local one.
    ids: Vec<usize>,
    /// Where each local one sits.
    places: Vec<Sits>,
    /// The statement of each local one.
    nodes: Vec<SyntaxNode>,
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
        self.places.push(Sits { list, frame });
        self.nodes.push(stmt.clone());
    }

    /// The entry `later` collides with most, and how.
    fn strongest(&self, later: &SyntaxNode) -> Option<(Relation, usize)> {
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
            let r = relation(&self.nodes[l], later);
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
    /// No declaration of `ctx`'s file seen yet.
    pub(super) fn new(ctx: &Ctx<'_>) -> Self {
        Earlier::with_places(places(ctx), 0)
    }

    /// No declaration seen yet, with room for `n` of them (and as many
    /// names), so that recording them does not grow the tables.
    pub(super) fn with_capacity(ctx: &Ctx<'_>, n: usize) -> Self {
        Earlier::with_places(places(ctx), n)
    }

    fn with_places(places: std::rc::Rc<Places>, n: usize) -> Self {
        let mut by_name = rustc_hash::FxHashMap::default();
        by_name.reserve(n);
        Earlier {
            places,
            entries: Vec::with_capacity(n),
            by_name,
        }
    }

    /// The first declaration of `name` seen.
    pub(super) fn first(&self, name: &str) -> Option<&T> {
        Some(&self.entries[self.by_name.get(name)?.first].item)
    }

    /// The statement node of entry `i`.
    fn node(&self, i: usize) -> &SyntaxNode {
        let entry = &self.entries[i];
        entry.node.get_or_init(|| self.places.node(&entry.place))
    }

    /// Records a declaration of `name` made by the statement at `place`.
    pub(super) fn insert(&mut self, name: &'n str, place: Place, item: T) {
        let i = self.entries.len();
        self.entries.push(Entry {
            place,
            item,
            next: None,
            node: std::cell::OnceCell::new(),
        });
        let named = match self.by_name.entry(name) {
            std::collections::hash_map::Entry::Vacant(v) => {
                let mut classes = [Latest::default(); 3];
                classes[class_slot(place.class)].add(i, place.top);
                v.insert(Named {
                    first: i,
                    last: i,
                    classes,
                    group_top: place.top,
                    group: smallvec::smallvec![i],
                    index: None,
                    unordered: false,
                });
                return;
            }
            std::collections::hash_map::Entry::Occupied(o) => o.into_mut(),
        };
        self.entries[named.last].next = Some(i);
        named.last = i;
        named.classes[class_slot(place.class)].add(i, place.top);
        if place.top < named.group_top {
            named.unordered = true;
        }
        if named.unordered {
            return;
        }
        if place.top > named.group_top {
            named.group_top = place.top;
            named.group.clear();
            named.index = None;
        }
        named.group.push(i);
        let node = |i: usize| {
            let entry = &self.entries[i];
            entry
                .node
                .get_or_init(|| self.places.node(&entry.place))
                .clone()
        };
        match &mut named.index {
            Some(index) => index.add(i, &node(i)),
            None if named.group.len() > PAIRWISE => {
                let mut index = Box::<Index>::default();
                for &j in &named.group {
                    index.add(j, &node(j));
                }
                named.index = Some(index);
            }
            None => {}
        }
    }

    /// The earlier declaration of `name` that the declaration made by the
    /// statement at `later` collides with most.
    pub(super) fn strongest(&self, name: &str, later: &Place) -> Option<(Relation, &T)> {
        let named = self.by_name.get(name)?;
        let mut best: Option<(Relation, usize)> = None;
        let mut consider = |r: Relation, i: usize| {
            if best.is_none_or(|b| (r, i) > b) {
                best = Some((r, i));
            }
        };
        let later_node = std::cell::OnceCell::new();
        let later_node = || later_node.get_or_init(|| self.places.node(later));
        if named.unordered || later.top < named.group_top {
            // Out of order: every earlier declaration compared.
            let mut at = Some(named.first);
            while let Some(i) = at {
                let e = &self.entries[i];
                let r = if e.place.top == later.top {
                    relation(self.node(i), later_node())
                } else {
                    class_relation(e.place.class, later.class)
                };
                consider(r, i);
                at = e.next;
            }
        } else {
            for latest in &named.classes {
                if let Some(i) = latest.outside(later.top) {
                    consider(class_relation(self.entries[i].place.class, later.class), i);
                }
            }
            if named.group_top == later.top {
                match &named.index {
                    Some(index) => {
                        if let Some((r, i)) = index.strongest(later_node()) {
                            consider(r, i);
                        }
                    }
                    None => {
                        for &i in &named.group {
                            consider(relation(self.node(i), later_node()), i);
                        }
                    }
                }
            }
        }
        best.map(|(r, i)| (r, &self.entries[i].item))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openprose::rules::places::Role;

    /// Every `let` of `text`: its name and statement, in order.
    fn lets(root: &SyntaxNode) -> Vec<(String, SyntaxNode)> {
        root.descendants()
            .filter(|n| n.kind() == SyntaxKind::LET_STMT)
            .filter_map(|n| {
                let name = n.children().find(|c| c.kind() == SyntaxKind::NAME)?;
                Some((name.text().to_string(), n))
            })
            .collect()
    }

    /// [`Earlier`] answers what comparing with every earlier declaration
    /// in the tree answers, on programs mixing every relation, with names
    /// declared in many top-level statements and many times in one.
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
            "if **m**:\n  let a = 1\n  let a = 2\n  if **n**:\n    let a = 3\n  else:\n    let a = 4\n  let a = 5\n  let a = 6\nelse:\n  let a = 7\n",
        ];
        // Deterministic mixes of the pieces, after programs where only
        // an earlier top-level statement's declaration of each class is
        // the answer.
        let mut state = 7u64;
        let fixed = [
            "parallel:\n  let a = 1\nif **x**:\n  let a = 2\nelse:\n  let a = 3\n",
            "let a = 0\nblock b():\n  let a = 1\nif **x**:\n  let a = 2\nelse:\n  let a = 3\n",
        ];
        for round in 0..200 {
            let mut text = fixed.get(round).map_or_else(String::new, |t| t.to_string());
            for _ in 0..8 {
                if round < fixed.len() {
                    break;
                }
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                text.push_str(pieces[(state >> 33) as usize % pieces.len()]);
            }
            let root = prose_syntax::parse(&text).syntax_node();
            let decls = lets(&root);
            assert!(!decls.is_empty(), "no declaration in:\n{text}");
            let places = std::rc::Rc::new(Places::of_tree(&root));
            let mut index = Earlier::with_places(places.clone(), 0);
            for (i, (name, stmt)) in decls.iter().enumerate() {
                let place = places.of_node(stmt, Role::Statement).unwrap();
                let earlier = decls[..i]
                    .iter()
                    .enumerate()
                    .filter(|(_, (n, _))| n == name)
                    .map(|(j, (_, s))| (s, j));
                let expected = strongest_earlier(stmt, earlier);
                let got = index.strongest(name, &place).map(|(r, &j)| (r, j));
                assert_eq!(got, expected, "declaration {i} of:\n{text}");
                index.insert(name, place, i);
            }
        }
    }
}
