//! Lossless syntax trees for OpenProse programs.
//!
//! Architecture invariants (see docs/architecture.md):
//! - parsing never fails: [`parse`] always returns a tree plus errors;
//! - the tree is lossless: its text equals the input byte for byte;
//! - this crate knows nothing of salsa, LSP or IO.
//!
//! Pipeline: [`lexer::lex`] (logos) -> [`layout`] (NEWLINE / INDENT / DEDENT)
//! -> [`parser`], which builds the rowan green tree as it goes, viewed
//! through [`ast`].

pub mod ast;
mod fence;
mod halves;
mod interrupt;
mod kind;
pub mod layout;
pub mod lexer;
pub mod lines;
mod parser;
pub mod reparse;
pub mod walk;

use std::{fmt, sync::Arc};

pub use kind::SyntaxKind;
pub use rowan::{Direction, GreenNode, GreenNodeData, NodeOrToken, TextRange, TextSize, WalkEvent};

/// The rowan language tag for OpenProse.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ProseLanguage {}

impl rowan::Language for ProseLanguage {
    type Kind = SyntaxKind;

    fn kind_from_raw(raw: rowan::SyntaxKind) -> SyntaxKind {
        SyntaxKind::from_raw(raw.0).unwrap_or(SyntaxKind::ERROR)
    }

    fn kind_to_raw(kind: SyntaxKind) -> rowan::SyntaxKind {
        kind.into()
    }
}

pub type SyntaxNode = rowan::SyntaxNode<ProseLanguage>;
pub type SyntaxToken = rowan::SyntaxToken<ProseLanguage>;
pub type SyntaxElement = rowan::SyntaxElement<ProseLanguage>;

/// The syntax error codes of the OpenProse reference.
///
/// The rule separating E004 from E005: **E004** points at a token that is
/// present and cannot start or continue what is being parsed; **E005** points
/// at a construct that was recognised but is incomplete or malformed where no
/// single wrong token exists (a header without its block, an unclosed
/// bracket, an unterminated discretion, inconsistent indentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SyntaxErrorCode {
    /// Unterminated string literal.
    E001,
    /// Unknown escape sequence in string.
    E002,
    /// Unexpected token.
    E004,
    /// Invalid syntax.
    E005,
    /// A `"""` inside a fenced code block of a `"""` string, read as text
    /// (project code; see `fence.rs`).
    P104,
}

impl SyntaxErrorCode {
    /// Whether this is a note on the text of a string rather than a broken
    /// construct (E002: an unknown escape, kept as written; P104: a `"""`
    /// kept inside a fenced code block): the tree is whole, so tools that
    /// need a sound tree (the formatter) may go on.
    pub fn is_reading_note(self) -> bool {
        matches!(self, SyntaxErrorCode::E002 | SyntaxErrorCode::P104)
    }

    pub fn as_str(self) -> &'static str {
        match self {
            SyntaxErrorCode::E001 => "E001",
            SyntaxErrorCode::E002 => "E002",
            SyntaxErrorCode::E004 => "E004",
            SyntaxErrorCode::E005 => "E005",
            SyntaxErrorCode::P104 => "P104",
        }
    }
}

/// A syntax error: a code, a message, and the exact range it concerns.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SyntaxError {
    pub code: SyntaxErrorCode,
    pub message: String,
    pub range: TextRange,
}

impl SyntaxError {
    pub fn new(code: SyntaxErrorCode, message: impl Into<String>, range: TextRange) -> Self {
        SyntaxError {
            code,
            message: message.into(),
            range,
        }
    }
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {:?}: {}",
            self.code.as_str(),
            self.range,
            self.message
        )
    }
}

/// The result of parsing: a green tree and the errors found on the way.
///
/// Cheap to clone, `Send + Sync`, and comparable (salsa backdating relies on
/// `PartialEq`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parse {
    green: GreenNode,
    errors: Arc<[SyntaxError]>,
}

impl Parse {
    pub fn green(&self) -> &GreenNode {
        &self.green
    }

    pub fn syntax_node(&self) -> SyntaxNode {
        SyntaxNode::new_root(self.green.clone())
    }

    pub fn tree(&self) -> ast::SourceFile {
        ast::SourceFile::cast(self.syntax_node()).expect("the root is always SOURCE_FILE")
    }

    /// Errors sorted by position.
    pub fn errors(&self) -> &[SyntaxError] {
        &self.errors
    }

    /// The errors that are not reading notes (see
    /// [`SyntaxErrorCode::is_reading_note`]): constructs the parser could
    /// not make whole.
    pub fn broken(&self) -> impl Iterator<Item = &SyntaxError> {
        self.errors.iter().filter(|e| !e.code.is_reading_note())
    }

    /// The tree and errors as text, for snapshots and `prose dump-cst`.
    pub fn debug_dump(&self) -> String {
        let mut out = format!("{:#?}", self.syntax_node());
        // rowan ends the dump with a newline already; keep exactly one.
        while out.ends_with('\n') {
            out.pop();
        }
        out.push('\n');
        for e in self.errors.iter() {
            out.push_str(&format!("error {e}\n"));
        }
        out
    }
}

/// Parses an OpenProse program. Never fails and never panics; the returned
/// tree's text is exactly `text`.
pub fn parse(text: &str) -> Parse {
    parse_interruptible(text, &interrupt::never)
}

/// [`parse`], calling `interrupt` every few thousand tokens in each phase
/// (lexer, layout, parser, tree). A caller that must be able to stop a long
/// parse (the analysis, when an edit arrives) panics from `interrupt`, and
/// the parse unwinds; this crate calls nothing else of the caller's, and
/// when `interrupt` returns the result is [`parse`]'s.
pub fn parse_interruptible(text: &str, interrupt: &dyn Fn()) -> Parse {
    parse_window(text, interrupt, false)
}

/// [`parse_interruptible`], on two threads for a text of 64 KiB or more
/// when the machine has a second core (`halves.rs`): the same result. For
/// a caller that parses many texts once (`prose check`); a long-lived
/// process that keeps the trees may prefer one thread, whose allocator
/// pages it keeps using (a thread that ends leaves its pages to others,
/// and freeing in them later costs a little more).
pub fn parse_interruptible_parallel(text: &str, interrupt: &dyn Fn()) -> Parse {
    if text.len() >= halves::PARALLEL_FROM
        && cores() > 1
        && let Some(parse) = halves::parse(text, interrupt)
    {
        return parse;
    }
    parse_window(text, interrupt, false)
}

/// The number of cores the process may use, asked once.
fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// [`parse`] in two halves that meet at `split`, a line start inside
/// `text` (right after a `\n`), whatever the text's length, and whether
/// the halves were kept (else the whole text was parsed again); equal to
/// [`parse`] (for tests).
#[doc(hidden)]
pub fn parse_in_halves_at(text: &str, split: usize) -> (Parse, bool) {
    halves::parse_at(text, split, &interrupt::never)
}

/// Where [`parse_interruptible_parallel`] splits a long text (for tests).
#[doc(hidden)]
pub fn halves_split_point(text: &str) -> Option<usize> {
    halves::split_point(text)
}

/// [`parse_interruptible`] of a window of a file; `after_line_end` when the
/// window starts right after a logical line of the file (see `reparse.rs`).
pub(crate) fn parse_window(text: &str, interrupt: &dyn Fn(), after_line_end: bool) -> Parse {
    let interrupt = interrupt::Interrupt::new(interrupt);
    let mut lexed = lexer::lex_interruptible(text, &interrupt);
    // Layout rewrites the insignificant newlines among the lexer's kinds.
    let (tokens, layout_errors) =
        layout::layout_in_place(&mut lexed.kinds, &lexed.starts, text, &interrupt);
    let (green, mut errors) = parser::parse_tree(text, &lexed, &tokens, &interrupt, after_line_end);
    drop(tokens);
    errors.extend(lexed.errors);
    errors.extend(layout_errors);
    errors.sort_by_key(|e| (e.range.start(), e.range.end()));
    // An unterminated string also surprises the parser at the same spot;
    // the E001 says it better.
    let unterminated: Vec<TextSize> = errors
        .iter()
        .filter(|e| e.code == SyntaxErrorCode::E001)
        .map(|e| e.range.start())
        .collect();
    // `unterminated` is sorted (as `errors` is): a binary search keeps this
    // linear-logarithmic on files with many errors.
    errors.retain(|e| {
        e.code != SyntaxErrorCode::E004 || unterminated.binary_search(&e.range.start()).is_err()
    });
    Parse {
        green,
        errors: errors.into(),
    }
}

pub use ast::AstNode;

#[cfg(test)]
mod tests;
