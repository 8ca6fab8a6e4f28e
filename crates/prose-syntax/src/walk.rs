//! Walks of a subtree that make fewer node handles than rowan's own.
//!
//! - [`pre_order`]: every node of a subtree in pre-order, what
//!   `SyntaxNode::descendants()` gives, stepping from node to node (first
//!   child, next sibling, up to the parent) without the enter and leave
//!   events of rowan's walk, each of which clones and drops a handle.
//! - [`holds_kind`]: whether a subtree holds a node of some kinds, read
//!   from the green tree, without making a handle (`SyntaxNode`, an
//!   allocation) for each node on the way. A pass that looks for a few
//!   rare kinds (agent definitions, `use` statements) in every statement
//!   asks it first and walks the handles only where one is.

use crate::{GreenNodeData, NodeOrToken, SyntaxKind, SyntaxNode};

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
    let mut stack: Vec<rowan::Children<'_>> = vec![green.children()];
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
    /// too.
    #[test]
    fn pre_order_is_rowans_descendants() {
        for text in PROGRAMS {
            let root = crate::parse(text).syntax_node();
            for scope in root.descendants() {
                let rowans: Vec<_> = scope.descendants().collect();
                let mut visited = Vec::new();
                pre_order(&scope, |n| visited.push(n.clone()));
                assert_eq!(visited, rowans, "{scope:?} of {text:?}");
            }
        }
    }

    /// Nesting far deeper than any call stack would allow is fine.
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
    }
}
