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

#[cfg(test)]
mod tests {
    use crate::{BlockRegistry, DialectParser};
    use expect_test::expect;

    #[test]
    fn every_kind_in_order() {
        let text = "/recall append notes + \"x\" ? -> /send @agent @entropy @last.output\n/fetch https://x.y html\n/batch {\n/search in archival q > 2 weeks\n}\n/tell @a that !";
        let parser = DialectParser::new().with_registry(BlockRegistry::from_names(["notes"]));
        let doc = parser.parse_document(text);
        let shown: Vec<String> = doc
            .tokens
            .iter()
            .map(|t| format!("{:?} {:?}", t.kind, t.span.text(text)))
            .collect();
        expect![[r#"
            Verb "/recall"
            Keyword "append"
            Block "notes"
            Keyword "+"
            String "\"x\""
            Marker "?"
            Operator "->"
            Verb "/send"
            Target "@agent"
            Target "@entropy"
            Reference "@last.output"
            Verb "/fetch"
            Url "https://x.y"
            Keyword "html"
            Verb "/batch"
            Operator "{"
            Verb "/search"
            Keyword "in archival"
            Keyword "> 2 weeks"
            Operator "}"
            Verb "/tell"
            Target "@a"
            Reference "that"
            Marker "!"
        "#]]
        .assert_eq(&(shown.join("\n") + "\n"));
    }
}
