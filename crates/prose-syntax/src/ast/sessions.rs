//! Sessions and calls: `session`, `resume`, `do` blocks and `do name(args)`
//! calls with their arguments, and `(key: value)` modifier lists.

use super::{AstNode, Block, Expr, Name, NameRef, Property, PropertyBlock, StringLit, support};
use crate::{SyntaxKind, SyntaxKind::*, SyntaxNode, SyntaxToken};

ast_node!(
    /// `session "prompt"`, `session: agent`, `session name: agent`, with
    /// optional `(modifiers)` and properties.
    SessionExpr, SESSION_EXPR
);
ast_node!(
    /// `resume: agent` with optional properties.
    ResumeExpr, RESUME_EXPR
);
ast_node!(
    /// `do:` followed by a block.
    DoExpr, DO_EXPR
);
ast_node!(
    /// `do name` or `do name(args)`.
    DoCall, DO_CALL
);
ast_node!(ArgList, ARG_LIST);
ast_node!(
    /// A positional or `name: value` argument.
    Arg, ARG
);
ast_node!(
    /// `("first", on-fail: "continue", count: 2)`, `(max: 10)`, ...
    ModifierList, MODIFIER_LIST
);
ast_node!(Modifier, MODIFIER);

/// The role of a session statement.
impl SessionExpr {
    pub fn keyword(&self) -> Option<SyntaxToken> {
        support::token(&self.0, SESSION_KW)
    }
    /// `session name: agent` binds `name`.
    pub fn name(&self) -> Option<Name> {
        support::child(&self.0)
    }
    pub fn agent(&self) -> Option<NameRef> {
        support::child(&self.0)
    }
    /// The inline prompt `session "..."`.
    pub fn prompt(&self) -> Option<StringLit> {
        support::child(&self.0)
    }
    pub fn modifiers(&self) -> Option<ModifierList> {
        support::child(&self.0)
    }
    pub fn property_block(&self) -> Option<PropertyBlock> {
        support::child(&self.0)
    }
    pub fn properties(&self) -> impl Iterator<Item = Property> + use<> {
        self.property_block()
            .into_iter()
            .flat_map(|b| b.properties())
    }
    pub fn property(&self, key: &str) -> Option<Property> {
        self.properties().find(|p| p.key() == key)
    }
}

impl ResumeExpr {
    pub fn keyword(&self) -> Option<SyntaxToken> {
        support::token(&self.0, RESUME_KW)
    }
    pub fn agent(&self) -> Option<NameRef> {
        support::child(&self.0)
    }
    pub fn property_block(&self) -> Option<PropertyBlock> {
        support::child(&self.0)
    }
    pub fn properties(&self) -> impl Iterator<Item = Property> + use<> {
        self.property_block()
            .into_iter()
            .flat_map(|b| b.properties())
    }
    pub fn property(&self, key: &str) -> Option<Property> {
        self.properties().find(|p| p.key() == key)
    }
}

impl DoExpr {
    pub fn body(&self) -> Option<Block> {
        support::child(&self.0)
    }
}

impl DoCall {
    pub fn name_ref(&self) -> Option<NameRef> {
        support::child(&self.0)
    }
    pub fn arg_list(&self) -> Option<ArgList> {
        support::child(&self.0)
    }
    pub fn args(&self) -> impl Iterator<Item = Arg> + use<> {
        self.arg_list().into_iter().flat_map(|l| l.args())
    }
}

impl ArgList {
    pub fn args(&self) -> impl Iterator<Item = Arg> + use<> {
        support::children(&self.0)
    }
}

impl Arg {
    /// The name of a `name: value` argument.
    pub fn name(&self) -> Option<Name> {
        support::child(&self.0)
    }
    pub fn value(&self) -> Option<Expr> {
        support::child(&self.0)
    }
}

impl ModifierList {
    pub fn modifiers(&self) -> impl Iterator<Item = Modifier> + use<> {
        support::children(&self.0)
    }
}

impl Modifier {
    /// `on-fail` in `on-fail: "continue"`; `None` for a bare `"first"`.
    pub fn key_token(&self) -> Option<SyntaxToken> {
        let first = self.0.first_token()?;
        (first.kind() == IDENT && support::token(&self.0, COLON).is_some()).then_some(first)
    }
    pub fn key(&self) -> Option<String> {
        self.key_token().map(|t| t.text().to_string())
    }
    pub fn value(&self) -> Option<Expr> {
        support::child(&self.0)
    }
}
