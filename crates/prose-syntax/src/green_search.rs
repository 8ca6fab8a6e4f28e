//! Looking for node kinds in the green tree, without making a handle
//! (`SyntaxNode`) for each node on the way.
//!
//! A walk of a subtree's handles (`descendants()`) allocates one per node;
//! a walk of its green nodes allocates nothing. A pass that looks for a few
//! rare kinds (agent definitions, `use` statements) in every statement can
//! ask [`holds_kind`] first and walk the handles only where one is.

use crate::{GreenNodeData, NodeOrToken, SyntaxKind, SyntaxNode};

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
        for text in [
            "agent a:\n  model: opus\nlet x = session: a\nsession \"{x}\"\n",
            "use \"@a/b\" as c\nblock b(x):\n  session \"{x}\"\nparallel:\n  r = do b(1)\n",
            "session \"unterminated\n  ) ] }\n\tfoo bar:\n  agent q:\n",
            "input topic: \"t\"\nif **done**:\n  session \"y\"\nelse:\n  agent z:\n    model: opus\n",
            "",
        ] {
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

    /// Nesting far deeper than any call stack would allow is fine.
    #[test]
    fn deep_nesting() {
        let depth = 50_000;
        let text = format!("let x = {}1{}\n", "(".repeat(depth), ")".repeat(depth));
        let root = crate::parse(&text).syntax_node();
        assert!(!holds_kind(&root, &[AGENT_DEF]));
        assert!(holds_kind(&root, &[LET_STMT]));
    }
}
