//! Typed views over the syntax tree, one type per construct.
//!
//! Every accessor returns `Option` (or an iterator): a tree built from
//! broken input may lack any part, and callers must cope.
//!
//! The types live in one file per construct family under `ast/`, all
//! re-exported here: `statements.rs` (names, blocks, bindings),
//! `definitions.rs`, `control.rs` (control flow and loops), `sessions.rs`
//! (sessions and calls), `expressions.rs`, `strings.rs`. This file holds
//! [`AstNode`], the lookups by range and offset, and the macros that
//! declare the types.

use crate::{SyntaxElement, SyntaxKind, SyntaxNode, SyntaxToken, TextSize};

/// A typed view of a syntax node of one (or a few) kinds.
pub trait AstNode: Sized {
    fn can_cast(kind: SyntaxKind) -> bool;
    fn cast(node: SyntaxNode) -> Option<Self>;
    fn syntax(&self) -> &SyntaxNode;
}

/// The node of type `N` spanning exactly `range` under `root` (the
/// innermost one when several do), found by descending from the root
/// rather than by scanning the tree.
pub fn node_spanning<N: AstNode>(root: &SyntaxNode, range: rowan::TextRange) -> Option<N> {
    if !root.text_range().contains_range(range) {
        return None;
    }
    let start = match root.covering_element(range) {
        rowan::NodeOrToken::Node(n) => n,
        rowan::NodeOrToken::Token(t) => t.parent()?,
    };
    start
        .ancestors()
        .take_while(|n| n.text_range().contains_range(range))
        .filter(|n| n.text_range() == range)
        .find_map(N::cast)
}

/// The token(s) at `offset` under `root`, as rowan's `token_at_offset`
/// answers (two when `offset` is between tokens), but found by binary
/// search at each level instead of scanning every child: a query costs the
/// depth of the tree, not the width of its widest node (a file of
/// thousands of statements is one wide node).
pub fn token_at_offset(root: &SyntaxNode, offset: TextSize) -> rowan::TokenAtOffset<SyntaxToken> {
    if !root.text_range().contains_inclusive(offset) {
        return rowan::TokenAtOffset::None;
    }
    element_at_offset(root, offset)
}

fn element_at_offset(node: &SyntaxNode, offset: TextSize) -> rowan::TokenAtOffset<SyntaxToken> {
    use rowan::TokenAtOffset;
    let Some(found) = node.child_or_token_at_range(rowan::TextRange::empty(offset)) else {
        return TokenAtOffset::None;
    };
    // The children touching `offset` are a run around `found` (with the
    // empty ones at `offset`); keep the non-empty ones: one, or two when
    // `offset` is between them.
    let mut first = found;
    while let Some(prev) = first.prev_sibling_or_token() {
        if prev.text_range().end() < offset {
            break;
        }
        first = prev;
    }
    let touching: Vec<SyntaxElement> =
        std::iter::successors(Some(first), |e| e.next_sibling_or_token())
            .take_while(|e| e.text_range().start() <= offset)
            .filter(|e| !e.text_range().is_empty() && e.text_range().contains_inclusive(offset))
            .take(2)
            .collect();
    let single = |e: &SyntaxElement| match e {
        rowan::NodeOrToken::Token(t) => TokenAtOffset::Single(t.clone()),
        rowan::NodeOrToken::Node(n) => element_at_offset(n, offset),
    };
    match touching.as_slice() {
        [] => TokenAtOffset::None,
        [one] => single(one),
        [left, right, ..] => match (single(left), single(right)) {
            (TokenAtOffset::Single(l), TokenAtOffset::Single(r)) => TokenAtOffset::Between(l, r),
            (l, TokenAtOffset::None) => l,
            (TokenAtOffset::None, r) => r,
            // Not reached: within `left`, `offset` is its end; within
            // `right`, its start.
            (l, _) => l,
        },
    }
}

mod support;

macro_rules! ast_node {
    ($(#[$meta:meta])* $name:ident, $($kind:ident)|+) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub struct $name(pub(super) SyntaxNode);

        impl AstNode for $name {
            fn can_cast(kind: SyntaxKind) -> bool {
                matches!(kind, $($kind)|+)
            }
            fn cast(node: SyntaxNode) -> Option<Self> {
                Self::can_cast(node.kind()).then(|| Self(node))
            }
            fn syntax(&self) -> &SyntaxNode {
                &self.0
            }
        }
    };
}

macro_rules! ast_enum {
    ($(#[$meta:meta])* $name:ident { $($variant:ident($ty:ident) = $($kind:ident)|+),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub enum $name {
            $($variant($ty)),+
        }

        impl AstNode for $name {
            fn can_cast(kind: SyntaxKind) -> bool {
                matches!(kind, $($($kind)|+)|+)
            }
            fn cast(node: SyntaxNode) -> Option<Self> {
                Some(match node.kind() {
                    $($($kind)|+ => $name::$variant($ty(node)),)+
                    _ => return None,
                })
            }
            fn syntax(&self) -> &SyntaxNode {
                match self {
                    $($name::$variant(it) => &it.0),+
                }
            }
        }
    };
}

mod control;
mod definitions;
mod expressions;
mod sessions;
mod statements;
mod strings;

pub use self::{
    control::*, definitions::*, expressions::*, sessions::*, statements::*, strings::*,
};

#[cfg(test)]
mod tests {
    #[test]
    fn token_at_offset_agrees_with_rowan() {
        for text in [
            "",
            "session \"a\"\n",
            "agent a:\n  model: opus\n\n# c\nif **x**:\n  let y = [1, (2)]\n",
            "let x = [a,\n\n  b, **c**]\r\nsession \"\"\"\n  {x}\n\"\"\"",
            "\u{FEFF}  \n\n\t x = \"unterminated\n)))",
        ] {
            let root = crate::parse(text).syntax_node();
            for offset in 0..=text.len() as u32 {
                let offset = TextSize::from(offset);
                let ours: Vec<_> = super::token_at_offset(&root, offset).collect();
                let rowans: Vec<_> = root.token_at_offset(offset).collect();
                assert_eq!(ours, rowans, "{text:?} at {offset:?}");
            }
        }
    }

    use super::*;

    fn file(text: &str) -> SourceFile {
        crate::parse(text).tree()
    }

    #[test]
    fn session_forms() {
        let f = file("session \"hi\"\nsession: a\nsession s: b\n  model: opus\n");
        let sessions: Vec<SessionExpr> = f
            .statements()
            .filter_map(|s| match s {
                Stmt::Expr(e) => match e.expr()? {
                    Expr::Session(s) => Some(s),
                    _ => None,
                },
                _ => None,
            })
            .collect();
        assert_eq!(sessions.len(), 3);
        assert_eq!(sessions[0].prompt().unwrap().value(), "hi");
        assert_eq!(sessions[1].agent().unwrap().text(), "a");
        assert_eq!(sessions[2].name().unwrap().text(), "s");
        assert_eq!(sessions[2].agent().unwrap().text(), "b");
        assert_eq!(
            sessions[2]
                .property("model")
                .unwrap()
                .value()
                .unwrap()
                .syntax()
                .text()
                .to_string(),
            "opus"
        );
    }

    #[test]
    fn pipeline_flatten_and_discretion_text() {
        let f = file(
            "let r = xs\n  | filter:\n      session \"a\"\n  | map:\n      session \"b\"\nif ***\n  done\n***:\n  session \"x\"\n",
        );
        let Some(Stmt::Let(l)) = f.statements().next() else {
            panic!()
        };
        let Some(Expr::Pipe(p)) = l.value() else {
            panic!("{:#?}", l.syntax())
        };
        let (src, ops) = p.flatten();
        assert_eq!(src.unwrap().syntax().text().to_string(), "xs");
        assert_eq!(
            ops.iter().map(|o| o.op_name()).collect::<Vec<_>>(),
            ["filter", "map"]
        );
        let Some(Stmt::If(i)) = f.statements().nth(1) else {
            panic!()
        };
        let Some(Expr::Discretion(d)) = i.condition() else {
            panic!()
        };
        assert_eq!(d.text(), "done");
        assert!(d.is_multiline());
    }

    #[test]
    fn string_value_decodes_escapes() {
        let f = file(r#"session "a\nb \"q\" {x} \{""#);
        let Some(Stmt::Expr(e)) = f.statements().next() else {
            panic!()
        };
        let Some(Expr::Session(s)) = e.expr() else {
            panic!()
        };
        let p = s.prompt().unwrap();
        assert_eq!(p.value(), "a\nb \"q\" {x} {");
        assert_eq!(
            p.interpolations()
                .next()
                .unwrap()
                .name_ref()
                .unwrap()
                .text(),
            "x"
        );
    }

    #[test]
    fn loops_and_for() {
        let f = file(
            "parallel for x, i in items:\n  session \"a\"\nloop until **done** (max: 3) as n:\n  session \"b\"\n",
        );
        let mut st = f.statements();
        let Some(Stmt::Expr(e)) = st.next() else {
            panic!()
        };
        let Some(Expr::For(fe)) = e.expr() else {
            panic!("{:#?}", e.syntax())
        };
        assert!(fe.is_parallel());
        assert_eq!(fe.item().unwrap().text(), "x");
        assert_eq!(fe.index().unwrap().text(), "i");
        assert_eq!(
            fe.collection().unwrap().syntax().text().to_string(),
            "items"
        );
        let Some(Stmt::Expr(e)) = st.next() else {
            panic!()
        };
        let Some(Expr::Loop(lp)) = e.expr() else {
            panic!()
        };
        assert_eq!(lp.loop_kind(), LoopKind::Until);
        assert_eq!(lp.index().unwrap().text(), "n");
        let m = lp.modifiers().unwrap().modifiers().next().unwrap();
        assert_eq!(m.key().as_deref(), Some("max"));
    }
}
