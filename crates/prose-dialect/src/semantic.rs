//! Semantic tokens: what each highlighted piece of an action is, for
//! editors (LSP semantic tokens) and coloured logs.

use serde::Serialize;

use crate::Span;

/// The kind of a highlighted piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SemanticKind {
    /// `/recall`, the sigil included (also an unknown verb).
    Verb,
    /// Subcommands and modifiers: `append`, `in archival`, `always`, `+`,
    /// `site:docs.rs`, `> 2 weeks`.
    Keyword,
    /// `->`, `{`, `}`.
    Operator,
    /// `.`, `?`, `?ask`, `!`, `?public`.
    Marker,
    /// `@last.output`, `@thread`, `@[uri]`, `that`.
    Reference,
    /// `@entropy`, `@bluesky`, a /post platform.
    Target,
    /// Block names, request ids, data sources.
    Block,
    /// Content: strings, `"""` blocks, fences, block quotes.
    String,
    Url,
}

impl SemanticKind {
    /// Every kind, in a fixed order (an LSP legend).
    pub const ALL: [SemanticKind; 9] = [
        SemanticKind::Verb,
        SemanticKind::Keyword,
        SemanticKind::Operator,
        SemanticKind::Marker,
        SemanticKind::Reference,
        SemanticKind::Target,
        SemanticKind::Block,
        SemanticKind::String,
        SemanticKind::Url,
    ];
}

/// One highlighted piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SemanticToken {
    pub span: Span,
    pub kind: SemanticKind,
}
