//! Walks of a subtree that make fewer node handles than rowan's own.
//!
//! - [`pre_order`]: every node of a subtree in pre-order, what
//!   `SyntaxNode::descendants()` gives, stepping from node to node (first
//!   child, next sibling, up to the parent) without the enter and leave
//!   events of rowan's walk, each of which clones and drops a handle.
//! - [`green_pre_order`]: the same nodes' green nodes, with where each
//!   starts, without a handle.
//! - [`select`]: the nodes a filter accepts in a subtree, in pre-order,
//!   read from the green tree, with handles made only for them and their
//!   ancestors. In two halves: a [`Route`] read from the green nodes (which
//!   a caller may keep with a green node that does not change), and the
//!   handles made by following it.
//! - [`child_at`]: the handle of one child node, from its index and
//!   range, without one for each child before it.
//! - [`holds_kind`]: whether a subtree holds a node of some kinds, read
//!   from the green tree, without making a handle (`SyntaxNode`, an
//!   allocation) for each node on the way. A pass that looks for a few
//!   rare kinds (agent definitions, `use` statements) in every statement
//!   asks it first and walks the handles only where one is.

use smallvec::{SmallVec, smallvec};

use crate::{GreenNodeData, NodeOrToken, SyntaxKind, SyntaxNode, TextRange, TextSize};

/// The levels a walk keeps on the stack (of the thread) before it moves
/// them to the heap: deeper than the corpora's statements nest. Most
/// walks are of one statement, a few dozen nodes, and a heap stack cost
/// them an allocation and two or three reallocations each as it grew (a
/// fifth of `holds_kind`'s instructions over the corpus).
type Levels<T> = SmallVec<[T; 16]>;

/// Calls `f` with every node of the subtree of `green` (which starts at
/// `start`), `green` first, in pre-order, and where each starts: what
/// [`pre_order`] visits, read from the green nodes, without a handle.
/// Linear in the subtree, without recursion.
pub fn green_pre_order(
    green: &GreenNodeData,
    start: TextSize,
    mut f: impl FnMut(&GreenNodeData, TextSize),
) {
    f(green, start);
    // The children still to read, per level, and where the next starts.
    let mut stack: Levels<(rowan::Children<'_>, TextSize)> = smallvec![(green.children(), start)];
    while let Some((children, at)) = stack.last_mut() {
        let Some(child) = children.next() else {
            stack.pop();
            continue;
        };
        let here = *at;
        *at += child.text_len();
        if let NodeOrToken::Node(node) = child {
            f(node, here);
            stack.push((node.children(), here));
        }
    }
}

/// Calls `f` with every node of `scope`'s subtree, `scope` first, in
/// pre-order: the nodes `scope.descendants()` gives. (A loop with a closure,
/// not an iterator: generic, so compiled into each caller; an iterator
/// stepping the same way, called across the crate boundary, cost more per
/// node than rowan's walk saves.)
pub fn pre_order(scope: &SyntaxNode, mut f: impl FnMut(&SyntaxNode)) {
    let mut node = scope.clone();
    loop {
        f(&node);
        if let Some(child) = node.first_child() {
            node = child;
            continue;
        }
        // Up until a node has a next sibling, stopping at `scope`.
        loop {
            if node == *scope {
                return;
            }
            if let Some(next) = node.next_sibling() {
                node = next;
                break;
            }
            match node.parent() {
                Some(parent) => node = parent,
                None => return,
            }
        }
    }
}

/// Calls `f`, in pre-order, with every node of `scope`'s subtree (`scope`
/// first) whose green node `wanted` accepts: the nodes [`pre_order`]
/// visits, filtered. Handles are made only for those nodes and their
/// ancestors: the subtree is read from its green nodes ([`Route::of`]),
/// and a node's handle is made from its parent's by a binary search among
/// the parent's children (rowan's `child_or_token_at_range`), about as
/// costly as a step of [`pre_order`] ([`Route::follow`]). Where few of a
/// tree's nodes are wanted, that is a fraction of [`pre_order`]'s cost;
/// where a third or more are (with their ancestors, the greater part of
/// the tree), it costs more.
pub fn select(
    scope: &SyntaxNode,
    wanted: impl Fn(&GreenNodeData) -> bool,
    f: impl FnMut(&SyntaxNode),
) {
    Route::of(scope.green(), wanted).follow(scope, f);
}

/// Where the nodes a filter accepts lie in a subtree, read from its green
/// nodes: what [`Route::follow`] needs to make their handles, and their
/// ancestors' only, from the subtree's handle. Positions are relative to
/// the subtree's node, so a route read once holds for every handle of the
/// same green node (a statement an edit did not touch keeps its green
/// node: the route can be kept with it).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Route {
    /// Whether the subtree's own node is accepted.
    top: bool,
    /// The nodes below it that are accepted or hold one, in pre-order.
    steps: Vec<Step>,
    /// The deepest step's depth.
    depth: u32,
}

/// A node of a [`Route`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Step {
    /// 1 for a child of the subtree's node, 2 for a grandchild, ...
    depth: u32,
    /// Its index among its parent's children (tokens counted).
    index: u32,
    /// Where it starts, relative to the subtree's start.
    start: TextSize,
    len: TextSize,
    /// Whether the filter accepted it (else it holds a node accepted).
    accepted: bool,
}

impl Route {
    /// The route to the nodes of `green`'s subtree that `wanted` accepts
    /// (`green` itself included). Linear in the subtree, without recursion.
    pub fn of(green: &GreenNodeData, wanted: impl Fn(&GreenNodeData) -> bool) -> Route {
        // The path from `green` to the node being read: each node's
        // children still to read, where the next one starts, and whether
        // the node is on the route already.
        struct Open<'g> {
            children: rowan::Children<'g>,
            next: usize,
            at: TextSize,
            on_route: bool,
            step: Step,
        }
        let mut route = Route {
            top: wanted(green),
            steps: Vec::new(),
            depth: 0,
        };
        let mut path: Levels<Open<'_>> = smallvec![Open {
            children: green.children(),
            next: 0,
            at: TextSize::default(),
            on_route: true,
            step: Step {
                depth: 0,
                index: 0,
                start: TextSize::default(),
                len: green.text_len(),
                accepted: route.top,
            },
        }];
        while let Some(top) = path.last_mut() {
            let Some(child) = top.children.next() else {
                path.pop();
                continue;
            };
            let (index, start) = (top.next, top.at);
            top.next += 1;
            top.at += child.text_len();
            let NodeOrToken::Node(child) = child else {
                continue;
            };
            let accepted = wanted(child);
            let step = Step {
                depth: path.len() as u32,
                index: index as u32,
                start,
                len: child.text_len(),
                accepted,
            };
            path.push(Open {
                children: child.children(),
                next: 0,
                at: start,
                on_route: false,
                step,
            });
            if accepted {
                // The node and the ancestors not on the route yet, from
                // the outermost down.
                let from = path.iter().rposition(|o| o.on_route).unwrap_or(0) + 1;
                for open in &mut path[from..] {
                    open.on_route = true;
                    route.steps.push(open.step);
                }
                route.depth = route.depth.max(path.len() as u32 - 1);
            }
        }
        route
    }

    /// Whether no node of the subtree is accepted.
    pub fn is_empty(&self) -> bool {
        !self.top && self.steps.is_empty()
    }

    /// How many nodes of the subtree are accepted.
    pub fn accepted(&self) -> usize {
        usize::from(self.top) + self.steps.iter().filter(|s| s.accepted).count()
    }

    /// Calls `f`, in pre-order, with the handle of every node the route
    /// leads to, below `scope`: the handle of a node of the green node the
    /// route was read from ([`Route::of`]).
    pub fn follow(&self, scope: &SyntaxNode, mut f: impl FnMut(&SyntaxNode)) {
        if self.top {
            f(scope);
        }
        if self.steps.is_empty() {
            return;
        }
        let base = scope.text_range().start();
        let mut path: Vec<SyntaxNode> = Vec::with_capacity(self.depth as usize + 1);
        path.push(scope.clone());
        for step in &self.steps {
            path.truncate(step.depth as usize);
            let parent = path
                .last()
                .expect("the route's steps go one level down at a time");
            let node = child_at(parent, step.index as usize, base + step.start, step.len);
            if step.accepted {
                f(&node);
            }
            path.push(node);
        }
    }
}

/// The child node of `parent` at `index` among its children and tokens,
/// which starts at `start` and is `len` long: found by a binary search of
/// the children's ranges (rowan's `child_or_token_at_range`), without a
/// handle for the children before it, or, for an empty node (which its
/// range cannot tell from its neighbours), by going through them.
///
/// Panics when `parent` has no child node at `index`.
pub fn child_at(parent: &SyntaxNode, index: usize, start: TextSize, len: TextSize) -> SyntaxNode {
    match parent.child_or_token_at_range(TextRange::at(start, len)) {
        Some(NodeOrToken::Node(node)) if node.index() == index => node,
        // An empty node cannot be told from its neighbours by its range.
        _ => parent
            .children_with_tokens()
            .nth(index)
            .and_then(NodeOrToken::into_node)
            .expect("a node at its index"),
    }
}

/// Whether `node` or any node below it is of one of `kinds`: what
/// `node.descendants().any(|n| kinds.contains(&n.kind()))` answers.
/// Linear in the subtree, without recursion (any depth of nesting).
pub fn holds_kind(node: &SyntaxNode, kinds: &[SyntaxKind]) -> bool {
    let is = |k: rowan::SyntaxKind| kinds.iter().any(|&want| rowan::SyntaxKind::from(want) == k);
    let green = node.green();
    if is(green.kind()) {
        return true;
    }
    // The children still to look at, per level.
    let mut stack: Levels<rowan::Children<'_>> = smallvec![green.children()];
    while let Some(children) = stack.last_mut() {
        match children.next() {
            Some(NodeOrToken::Node(child)) => {
                if is(child.kind()) {
                    return true;
                }
                let child: &GreenNodeData = child;
                stack.push(child.children());
            }
            Some(NodeOrToken::Token(_)) => {}
            None => {
                stack.pop();
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use SyntaxKind::*;

    /// Whole and broken programs.
    const PROGRAMS: &[&str] = &[
        "agent a:\n  model: opus\nlet x = session: a\nsession \"{x}\"\n",
        "use \"@a/b\" as c\nblock b(x):\n  session \"{x}\"\nparallel:\n  r = do b(1)\n",
        "parallel:\n  a = session \"x\"\n  b = do blk(1, [2, {k: 3}])\nif **done**:\n  session \"y\"\n",
        "session \"unterminated\n  ) ] }\n\tfoo bar:\n  agent q:\n",
        "input topic: \"t\"\nif **done**:\n  session \"y\"\nelse:\n  agent z:\n    model: opus\n",
        "",
    ];

    /// The answer is that of a walk of the handles, for every node of whole
    /// and broken programs and several sets of kinds.
    #[test]
    fn holds_kind_is_a_walk_of_the_handles() {
        let kinds: &[&[SyntaxKind]] = &[
            &[AGENT_DEF],
            &[USE_STMT, AGENT_DEF],
            &[STRING],
            &[SOURCE_FILE],
            &[NAME_REF, BLOCK_DEF, INPUT_DECL],
            &[],
        ];
        for text in PROGRAMS {
            let root = crate::parse(text).syntax_node();
            for node in root.descendants() {
                for &want in kinds {
                    let walk = node.descendants().any(|n| want.contains(&n.kind()));
                    assert_eq!(
                        holds_kind(&node, want),
                        walk,
                        "{want:?} in {node:?} of {text:?}"
                    );
                }
            }
        }
    }

    /// `pre_order` visits what rowan's `descendants()` visits, in the
    /// same order, from the root and from inner nodes, on text with errors
    /// too; `green_pre_order` the same nodes' green nodes and starts.
    #[test]
    fn pre_order_is_rowans_descendants() {
        for text in PROGRAMS {
            let root = crate::parse(text).syntax_node();
            for scope in root.descendants() {
                let rowans: Vec<_> = scope.descendants().collect();
                let mut visited = Vec::new();
                pre_order(&scope, |n| visited.push(n.clone()));
                assert_eq!(visited, rowans, "{scope:?} of {text:?}");
                let mut green = Vec::new();
                green_pre_order(scope.green(), scope.text_range().start(), |g, at| {
                    green.push((g.kind(), TextRange::at(at, g.text_len())));
                });
                let expected: Vec<_> = (rowans.iter())
                    .map(|n| (n.green().kind(), n.text_range()))
                    .collect();
                assert_eq!(green, expected, "{scope:?} of {text:?}");
            }
        }
    }

    /// Nesting far deeper than any call stack would allow is fine.
    /// `select` visits what `pre_order` visits, filtered: every kind on
    /// its own from the root, and sets of kinds from every node, of whole
    /// and broken programs (the parser's test data; empty nodes among
    /// them), and a filter that reads the green node's tokens.
    #[test]
    fn select_is_pre_order_filtered() {
        let sets: &[&[SyntaxKind]] = &[
            &[SESSION_EXPR, STRING],
            &[PROPERTY, AGENT_DEF, PARALLEL_EXPR],
            &[ERROR, NAME_REF],
            &[INPUT_DECL, CALL_EXPR, USE_STMT],
            &[SOURCE_FILE],
            &[],
        ];
        let mut texts: Vec<String> = PROGRAMS.iter().map(|t| t.to_string()).collect();
        let data = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data");
        for dir in ["ok", "err"] {
            for entry in std::fs::read_dir(data.join(dir)).unwrap() {
                texts.push(std::fs::read_to_string(entry.unwrap().path()).unwrap());
            }
        }
        let kinds: Vec<SyntaxKind> = (0u16..).map_while(SyntaxKind::from_raw).collect();
        let mut empty = 0;
        for text in &texts {
            let root = crate::parse(text).syntax_node();
            empty += root
                .descendants()
                .filter(|n| n.text_range().is_empty())
                .count();
            for scope in root.descendants() {
                let singles = kinds.iter().map(std::slice::from_ref);
                let singles = singles.filter(|_| scope == root);
                for want in singles.chain(sets.iter().copied()) {
                    let mut walked = Vec::new();
                    pre_order(&scope, |n| {
                        if want.contains(&n.kind()) {
                            walked.push(n.clone());
                        }
                    });
                    let mut selected = Vec::new();
                    let wanted = |g: &GreenNodeData| want.iter().any(|&w| w as u16 == g.kind().0);
                    select(&scope, wanted, |n| selected.push(n.clone()));
                    assert_eq!(selected, walked, "{want:?} in {scope:?} of {text:?}");
                }
            }
            // Strings that open with `"""`, told by their green tokens.
            let triple = |g: &GreenNodeData| {
                g.kind().0 == STRING as u16
                    && (g.children().filter_map(|c| c.into_token()))
                        .any(|t| t.kind().0 == STRING_OPEN as u16 && t.text() == "\"\"\"")
            };
            let mut selected = Vec::new();
            select(&root, triple, |n| selected.push(n.clone()));
            let walked: Vec<_> = root
                .descendants()
                .filter(|n| {
                    n.kind() == STRING
                        && n.children_with_tokens()
                            .any(|t| t.kind() == STRING_OPEN && t.to_string() == "\"\"\"")
                })
                .collect();
            assert_eq!(selected, walked, "{text:?}");
        }
        assert!(empty > 0, "the programs hold empty nodes");
    }

    /// A route read from a green node leads to the same nodes from any
    /// handle of that green node, wherever it starts: here a statement of
    /// a program, and the same green node as a tree of its own.
    #[test]
    fn a_route_holds_for_every_handle_of_its_green_node() {
        let text = "session \"a\"\nparallel:\n  x = session \"b\"\n  y = do blk(1)\nlet z = session: w\n  prompt: \"c\"\n";
        let root = crate::parse(text).syntax_node();
        let wanted = |g: &GreenNodeData| {
            [SESSION_EXPR, DO_CALL, PROPERTY]
                .iter()
                .any(|&w| w as u16 == g.kind().0)
        };
        let mut seen = 0;
        for stmt in root.children() {
            let route = Route::of(stmt.green(), wanted);
            let alone = SyntaxNode::new_root(stmt.green().to_owned());
            let (mut here, mut there) = (Vec::new(), Vec::new());
            route.follow(&stmt, |n| {
                here.push((n.kind(), n.text_range() - stmt.text_range().start()))
            });
            route.follow(&alone, |n| there.push((n.kind(), n.text_range())));
            assert_eq!(here, there, "{stmt:?}");
            assert_eq!(route.is_empty(), here.is_empty());
            seen += here.len();
        }
        assert_eq!(seen, 5, "three sessions, a call and a property");
    }

    #[test]
    fn deep_nesting() {
        let depth = 50_000;
        let text = format!("let x = {}1{}\n", "(".repeat(depth), ")".repeat(depth));
        let root = crate::parse(&text).syntax_node();
        assert!(!holds_kind(&root, &[AGENT_DEF]));
        assert!(holds_kind(&root, &[LET_STMT]));
        let mut n = 0;
        pre_order(&root, |_| n += 1);
        assert_eq!(n, root.descendants().count());
        let mut parens = 0;
        select(&root, |g| g.kind().0 == PAREN_EXPR as u16, |_| parens += 1);
        let walked = root
            .descendants()
            .filter(|n| n.kind() == PAREN_EXPR)
            .count();
        assert_eq!(parens, walked);
        assert!(parens > 0);
    }
}
