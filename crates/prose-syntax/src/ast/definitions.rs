//! Program composition (`use`, `import`, `input`, `output`) and
//! definitions: `agent` and `block` with their parameters, and property
//! blocks.

use super::{AstNode, Block, Expr, Name, Stmt, StringLit, support};
use crate::{SyntaxKind, SyntaxKind::*, SyntaxNode, SyntaxToken};

// ---- program composition ---------------------------------------------------

ast_node!(
    /// `use "@handle/slug" [as alias]`
    UseStmt, USE_STMT
);
ast_node!(
    /// Legacy `import "name" from "source"`.
    ImportStmt, IMPORT_STMT
);
ast_node!(
    /// `input name: "description"`
    InputDecl, INPUT_DECL
);
ast_node!(
    /// `output name = expr`, or the bare `output expr`.
    OutputDecl, OUTPUT_DECL
);

impl UseStmt {
    pub fn path(&self) -> Option<StringLit> {
        support::child(&self.0)
    }
    pub fn alias(&self) -> Option<Name> {
        support::child(&self.0)
    }
}

impl ImportStmt {
    pub fn name(&self) -> Option<StringLit> {
        support::children(&self.0).next()
    }
    pub fn source(&self) -> Option<StringLit> {
        support::child_after(&self.0, FROM_KW)
    }
}

impl InputDecl {
    pub fn keyword(&self) -> Option<SyntaxToken> {
        support::token(&self.0, INPUT_KW)
    }
    pub fn name(&self) -> Option<Name> {
        support::child(&self.0)
    }
    pub fn description(&self) -> Option<Expr> {
        support::child_after(&self.0, COLON)
    }
}

impl OutputDecl {
    pub fn keyword(&self) -> Option<SyntaxToken> {
        support::token(&self.0, OUTPUT_KW)
    }
    pub fn name(&self) -> Option<Name> {
        support::child(&self.0)
    }
    /// `=` is present: a named output (possibly with an empty name).
    pub fn is_named(&self) -> bool {
        support::token(&self.0, EQ).is_some()
    }
    pub fn value(&self) -> Option<Expr> {
        support::child(&self.0)
    }
}

// ---- definitions --------------------------------------------------------------

ast_node!(
    /// `agent name:` with a property block.
    AgentDef, AGENT_DEF
);
ast_node!(
    /// `block name(params):` body.
    BlockDef, BLOCK_DEF
);
ast_node!(
    /// `(a, b)` parameters of a block or of `reduce`.
    ParamList, PARAM_LIST
);
ast_node!(Param, PARAM);
ast_node!(
    /// Indented `key: value` lines.
    PropertyBlock, PROPERTY_BLOCK
);
ast_node!(
    /// `key: value`.
    Property, PROPERTY
);

impl AgentDef {
    pub fn name(&self) -> Option<Name> {
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
    /// The first property called `key`.
    pub fn property(&self, key: &str) -> Option<Property> {
        self.properties().find(|p| p.key() == key)
    }
}

impl BlockDef {
    pub fn name(&self) -> Option<Name> {
        support::child(&self.0)
    }
    pub fn params(&self) -> impl Iterator<Item = Param> + use<> {
        support::child::<ParamList>(&self.0)
            .into_iter()
            .flat_map(|l| l.params())
    }
    pub fn param_list(&self) -> Option<ParamList> {
        support::child(&self.0)
    }
    pub fn body(&self) -> Option<Block> {
        support::child(&self.0)
    }
}

impl ParamList {
    pub fn params(&self) -> impl Iterator<Item = Param> + use<> {
        support::children(&self.0)
    }
}

impl Param {
    pub fn name(&self) -> Option<Name> {
        support::child(&self.0)
    }
}

impl PropertyBlock {
    pub fn properties(&self) -> impl Iterator<Item = Property> + use<> {
        support::children(&self.0)
    }
}

impl Property {
    pub fn key_token(&self) -> Option<SyntaxToken> {
        self.0.first_token()
    }
    /// The key token's text (empty without one), read from the green tree
    /// without making the token's handle: rules ask every property's key.
    pub fn key(&self) -> String {
        support::first_token_text(&self.0)
    }
    /// The value written on the same line.
    pub fn value(&self) -> Option<Expr> {
        support::child(&self.0)
    }
    /// A nested property block (`permissions:`).
    pub fn nested(&self) -> Option<PropertyBlock> {
        support::child(&self.0)
    }
    /// A value written on the following indented lines (e.g. a `"""` prompt).
    pub fn value_block(&self) -> Option<Block> {
        support::child(&self.0)
    }
    /// The value, wherever it was written: same line or the next lines.
    pub fn any_value(&self) -> Option<Expr> {
        self.value().or_else(|| {
            self.value_block()?.statements().find_map(|s| match s {
                Stmt::Expr(e) => e.expr(),
                _ => None,
            })
        })
    }
}
