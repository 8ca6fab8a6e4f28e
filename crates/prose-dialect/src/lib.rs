//! Pattern Dialect: the action language agents write instead of JSON tool
//! calls (seed 001). `/recall project deadlines`, `/reply sounds good .`,
//! `/post bluesky "hello" ?public`, `/recall notes -> /tell @entropy`.
//!
//! This crate is the parser, usable by any agent framework: plain values in
//! and out, no salsa, LSP or IO. Parsing never fails and never panics: every
//! input gives actions and diagnostics, in time linear in its length.
//!
//! ```
//! use prose_dialect::{DialectParser, BlockRegistry, Verb};
//!
//! let parser = DialectParser::new()
//!     .with_registry(BlockRegistry::from_names(["project_notes"]));
//! let parse = parser.parse("/recall project_notes");
//! let action = parse.action.unwrap();
//! assert_eq!(action.verb, Verb::Recall);
//! assert_eq!(action.intent.as_deref(), Some("read"));
//!
//! let doc = parser.parse_document("Let me check.\n/recal deadlines ?\n/aprove req-1\n");
//! assert_eq!(doc.actions.len(), 2);
//! assert_eq!(doc.actions[0].diagnostics[0].code, "D002"); // corrected: a hint
//! assert_eq!(doc.actions[1].error().unwrap().code, "D003"); // never guessed
//! ```
//!
//! Modules, in the order of the seed's intent-resolution flow: [`lexer`]
//! finds the sigil and the extent of an action (content blocks, chains);
//! [`resolve`] matches the verb; the verb's arguments are parsed by its
//! signature; [`marker`] and [`reference`] classify markers and
//! references; [`action`] holds the result. [`document`] finds every action
//! of a text; [`diagnostics`] documents every code; [`verbs`] and
//! [`aliases`] are the verb tables as data; [`hover`] and [`completion`]
//! serve editors.

pub mod action;
pub mod aliases;
mod args;
pub mod completion;
pub mod content;
pub mod diagnostics;
pub mod document;
pub mod hover;
mod lexer;
pub mod marker;
mod parse;
pub mod reference;
pub mod registry;
pub mod resolve;
pub mod semantic;
mod span;
pub mod verbs;

pub use action::{Arguments, ParsedAction};
pub use content::{Content, ContentForm};
pub use diagnostics::{Diagnostic, Severity};
pub use document::{Document, DocumentAction};
pub use marker::PermissionMarker;
pub use reference::Reference;
pub use registry::{BlockRegistry, Memory};
pub use span::Span;
pub use verbs::{Strictness, Verb};

use args::Cx;

/// A parser with its context: the block registry that tells `/recall
/// block_name` (a read) from `/recall some words` (a search).
#[derive(Clone, Debug, Default)]
pub struct DialectParser {
    registry: Option<BlockRegistry>,
}

/// The result of parsing one action.
#[derive(Clone, Debug, PartialEq)]
pub struct Parse {
    /// `None` when there is no action or its verb is unknown or ambiguous.
    pub action: Option<ParsedAction>,
    /// Ordered by position.
    pub diagnostics: Vec<Diagnostic>,
}

impl Parse {
    /// The first error: when there is one, the action must not run.
    pub fn error(&self) -> Option<&Diagnostic> {
        self.diagnostics.iter().find(|d| d.is_error())
    }
}

impl DialectParser {
    /// A parser without a registry: block names are not checked, and
    /// `/recall word` is a search.
    pub fn new() -> Self {
        Self::default()
    }

    /// A parser that knows these blocks.
    pub fn with_registry(mut self, registry: BlockRegistry) -> Self {
        self.registry = Some(registry);
        self
    }

    pub fn registry(&self) -> Option<&BlockRegistry> {
        self.registry.as_ref()
    }

    /// Parses the first action of `input` (text before it is skipped, text
    /// after it ignored). Spans are byte offsets into `input`.
    pub fn parse(&self, input: &str) -> Parse {
        let Some(start) = first_action(input) else {
            return Parse {
                action: None,
                diagnostics: vec![Diagnostic::new(
                    &diagnostics::UNKNOWN_VERB,
                    Span::new(0, input.trim_end().len()),
                    "I don't see an action here - actions start with /, like /recall project deadlines",
                )],
            };
        };
        let lexed = lexer::lex_action(input, start);
        if lexed
            .tokens
            .last()
            .is_some_and(|t| t.span.text(input) == "{")
        {
            // Possibly a batch: read it as a document.
            let doc = document::parse_document(input, self.registry.as_ref(), false);
            if let Some(first) = doc.actions.into_iter().next() {
                return Parse {
                    action: first.action,
                    diagnostics: first.diagnostics,
                };
            }
        }
        let mut cx = Cx::new(input, self.registry.as_ref(), false);
        let action = parse::parse_action(&mut cx, &lexed.tokens);
        cx.diagnostics.sort_by_key(|d| d.span.start);
        Parse {
            action,
            diagnostics: cx.diagnostics,
        }
    }

    /// Every action of `text` (agent output, a `.dialect` file), with
    /// diagnostics and semantic tokens.
    pub fn parse_document(&self, text: &str) -> Document {
        document::parse_document(text, self.registry.as_ref(), true)
    }

    /// Like [`DialectParser::parse_document`], without semantic tokens
    /// (a little faster, for tools that only want the actions).
    pub fn parse_actions(&self, text: &str) -> Document {
        document::parse_document(text, self.registry.as_ref(), false)
    }
}

/// Parses the first action of `input` without a registry.
pub fn parse(input: &str) -> Parse {
    DialectParser::new().parse(input)
}

/// Every action of `text`, without a registry.
pub fn parse_document(text: &str) -> Document {
    DialectParser::new().parse_document(text)
}

/// The offset of the first action's `/`.
fn first_action(text: &str) -> Option<usize> {
    let mut pos = if text.starts_with('\u{feff}') { 3 } else { 0 };
    while pos < text.len() {
        let first = lexer::skip_blanks(text, pos);
        if lexer::is_action_start(text, first) {
            return Some(first);
        }
        pos = lexer::line_end(text, pos) + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_takes_the_first_action_only() {
        let p = parse("Let me see.\n/reply ok .\n/aprove req-1\n");
        let a = p.action.unwrap();
        assert_eq!((a.verb, a.span), (Verb::Reply, Span::new(12, 23)));
        assert!(p.diagnostics.is_empty(), "the second action is not read");
    }

    #[test]
    fn parse_reads_a_whole_batch() {
        let p = parse("/batch {\n  /recall a\n  /reply b\n} ?\n/reply after");
        let a = p.action.unwrap();
        assert_eq!(a.verb, Verb::Batch);
        assert_eq!(a.permission_marker, Some(PermissionMarker::Check));
        let Arguments::Batch(b) = &a.arguments else {
            panic!("not a batch")
        };
        assert_eq!(b.actions.len(), 2);
        // Not a batch: `{` is an argument.
        let p = parse("/calc {");
        assert_eq!(p.action.unwrap().verb, Verb::Calc);
    }
}
