//! Walks of a subtree that make fewer node handles than rowan's own.
//!
//! - [`descendants`]: every node of a subtree in pre-order, what
//!   `SyntaxNode::descendants()` gives, stepping from node to node (first
//!   child, next sibling, up to the parent) without the enter and leave
//!   events of rowan's walk, each of which clones and drops a handle.
//! - [`holds_kind`]: whether a subtree holds a node of some kinds, read
//!   from the green tree, without making a handle (`SyntaxNode`, an
//!   allocation) for each node on the way. A pass that looks for a few
//!   rare kinds (agent definitions, `use` statements) in every statement
//!   asks it first and walks the handles only where one is.

use crate::{GreenNodeData, NodeOrToken, SyntaxKind, SyntaxNode};

/// Every node of `scope`'s subtree, `scope` first, in pre-order: what
/// `scope.descendants()` gives.
pub fn descendants(scope: &SyntaxNode) -> Descendants {
    Descendants {
        scope: scope.clone(),
        next: Some(scope.clone()),
    }
}

/// The iterator of [`descendants`].
#[derive(Debug, Clone)]
pub struct Descendants {
    scope: SyntaxNode,
    next: Option<SyntaxNode>,
}

impl Iterator for Descendants {
    type Item = SyntaxNode;

    fn next(&mut self) -> Option<SyntaxNode> {
        let node = self.next.take()?;
        self.next = match node.first_child() {
            Some(child) => Some(child),
            None => self.after(&node),
        };
        Some(node)
    }
}

impl Descendants {
    /// The node after `node`'s subtree: the next sibling of it or of its
    /// nearest ancestor that has one, stopping at the scope.
    fn after(&self, node: &SyntaxNode) -> Option<SyntaxNode> {
        let mut node = node.clone();
        loop {
            if node == self.scope {
                return None;
            }
            if let Some(next) = node.next_sibling() {
                return Some(next);
            }
            node = node.parent()?;
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

    /// `descendants` visits what rowan's `descendants()` visits, in the
    /// same order, from the root and from inner nodes, on text with errors
    /// too.
    #[test]
    fn descendants_are_rowans() {
        for text in PROGRAMS {
            let root = crate::parse(text).syntax_node();
            for scope in root.descendants() {
                let ours: Vec<_> = descendants(&scope).collect();
                let rowans: Vec<_> = scope.descendants().collect();
                assert_eq!(ours, rowans, "{scope:?} of {text:?}");
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
        assert_eq!(descendants(&root).count(), root.descendants().count());
    }
}
