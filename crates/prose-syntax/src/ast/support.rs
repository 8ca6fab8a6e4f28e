//! The lookups every typed view is built from: a node's first child of a
//! type, its children of a type, its first token of a kind.
//!
//! The first child and the first token are found in the green tree, and a
//! handle is made for that element alone (found by its range, a binary
//! search among the parent's children): going through the children's
//! handles made one for every element before it, whitespace and other
//! tokens included. An element of zero length cannot be told from its
//! neighbours by its range, so one is looked up the old way.

use rowan::NodeOrToken;

use super::*;

/// The first child element of `parent` that `wanted` accepts, found in
/// the green tree: its range, and whether it is the first node child.
fn first_green<'g>(
    parent: &'g SyntaxNode,
    wanted: impl Fn(NodeOrToken<&'g rowan::GreenNodeData, &'g rowan::GreenTokenData>) -> bool,
) -> Option<(rowan::TextRange, bool)> {
    let mut at = parent.text_range().start();
    let mut first_node = true;
    for green in parent.green().children() {
        let len = green.text_len();
        if wanted(green) {
            return Some((rowan::TextRange::at(at, len), first_node));
        }
        first_node &= green.as_node().is_none();
        at += len;
    }
    None
}

pub(super) fn child<N: AstNode>(parent: &SyntaxNode) -> Option<N> {
    let (range, first_node) = first_green(parent, |g| {
        g.as_node()
            .is_some_and(|n| SyntaxKind::from_raw(n.kind().0).is_some_and(N::can_cast))
    })?;
    if first_node {
        // The first node child is made by the plain step.
        parent.first_child().and_then(N::cast)
    } else if range.is_empty() {
        parent.children().find_map(N::cast)
    } else {
        parent
            .child_or_token_at_range(range)
            .and_then(SyntaxElement::into_node)
            .and_then(N::cast)
    }
}

pub(super) fn children<N: AstNode>(parent: &SyntaxNode) -> impl Iterator<Item = N> + use<N> {
    parent.children().filter_map(N::cast)
}

pub(super) fn token(parent: &SyntaxNode, kind: SyntaxKind) -> Option<SyntaxToken> {
    let want = rowan::SyntaxKind::from(kind);
    let (range, _) = first_green(parent, |g| g.as_token().is_some_and(|t| t.kind() == want))?;
    if range.is_empty() {
        return parent
            .children_with_tokens()
            .filter_map(SyntaxElement::into_token)
            .find(|t| t.kind() == kind);
    }
    parent
        .child_or_token_at_range(range)
        .and_then(SyntaxElement::into_token)
}

/// The text of `node.first_token()` (empty without one), read from the
/// green tree: the first element of the node, of that element's node and
/// so on down to a token.
pub(super) fn first_token_text(node: &SyntaxNode) -> String {
    let green = node.green();
    let mut at: &rowan::GreenNodeData = green;
    loop {
        match at.children().next() {
            Some(NodeOrToken::Token(t)) => return t.text().to_string(),
            Some(NodeOrToken::Node(n)) => at = n,
            None => return String::new(),
        }
    }
}

/// The first child of type `N` that comes after a `kind` token.
pub(super) fn child_after<N: AstNode>(parent: &SyntaxNode, kind: SyntaxKind) -> Option<N> {
    let mut seen = false;
    for e in parent.children_with_tokens() {
        match e {
            rowan::NodeOrToken::Token(t) if t.kind() == kind => seen = true,
            rowan::NodeOrToken::Node(n) if seen => {
                if let Some(n) = N::cast(n) {
                    return Some(n);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a walk of the children's handles finds.
    fn token_by_handles(parent: &SyntaxNode, kind: SyntaxKind) -> Option<SyntaxToken> {
        parent
            .children_with_tokens()
            .filter_map(SyntaxElement::into_token)
            .find(|t| t.kind() == kind)
    }

    fn check<N: AstNode + PartialEq + std::fmt::Debug>(node: &SyntaxNode) {
        assert_eq!(
            child::<N>(node),
            node.children().find_map(N::cast),
            "{node:?}"
        );
    }

    /// Every node of whole and broken programs (and of the corpus when
    /// `PROSE_CORPUS` is set): the first token of every kind, the first
    /// child of several types and the text of the first token are those a
    /// walk of the handles finds.
    #[test]
    fn lookups_are_those_of_a_walk_of_the_handles() {
        let kinds: Vec<SyntaxKind> = (0u16..).map_while(SyntaxKind::from_raw).collect();
        let mut texts: Vec<String> = prose_test_support::corpus_dir()
            .map(|dir| prose_test_support::prose_files(&dir))
            .unwrap_or_default()
            .into_iter()
            .map(|p| std::fs::read_to_string(p).unwrap())
            .collect();
        texts.extend([
            "session \"unterminated\n  ) ] }\n\tfoo bar:\n  agent q:\n".to_string(),
            "let x = session \"a\" (retry: 3, prompt: \"\")\nsession:\n  prompt:\n".to_string(),
            "agent a:\n  model: opus\n  skills: [\"x\"]\nblock b(p, q):\n  for i, v in items:\n    session: a\n      prompt: \"\"\"\n        {p}\n      \"\"\"\n".to_string(),
            String::new(),
        ]);
        for text in &texts {
            let root = crate::parse(text).syntax_node();
            for node in root.descendants() {
                for &kind in &kinds {
                    assert_eq!(
                        token(&node, kind),
                        token_by_handles(&node, kind),
                        "{kind:?} in {node:?}"
                    );
                }
                let first = node.first_token().map(|t| t.text().to_string());
                assert_eq!(first_token_text(&node), first.unwrap_or_default());
                check::<Expr>(&node);
                check::<StringLit>(&node);
                check::<Name>(&node);
                check::<NameRef>(&node);
                check::<PropertyBlock>(&node);
                check::<Block>(&node);
                check::<ModifierList>(&node);
                check::<ParamList>(&node);
            }
        }
    }
}
