//! Two small languages that live inside the text agents read, over
//! [pulldown-cmark](https://docs.rs/pulldown-cmark):
//!
//! - **prompt files** (seed 004): leading slash commands (`/read`, `/push`,
//!   `/run`) processed before the model sees anything, the content, and
//!   trailing commands (`/push`) processed after it finishes:
//!   [`prompt::parse_prompt_file`], [`prompt::check`], and the data for
//!   hover, links, definition, outline, completion, semantic tokens and the
//!   "what the model receives" rendering;
//! - **`_keyword_` instructions** (seed 000): `_if_ … _then_`, conditions
//!   such as `_instructed_`, actions such as `_terminate_ "SGN_DONE"`,
//!   `like "…"` patterns with `{name}` variables and `{*}` discards, and
//!   `SGN_*` signals: [`instructions::analyze_instructions`] on any text
//!   fragment, [`instructions::check`], [`instructions::is_instruction_file`],
//!   keyword and signal docs, completion, hover and semantic tokens.
//!
//! It also reports the ```` ```prose ```` and ```` ```dialect ```` fences of
//! a markdown text ([`markdown::fences`]) so a host can inject those
//! languages.
//!
//! Invariants (as for every front end of the workspace):
//! - every input gives an answer: no function here panics or fails;
//! - everything is plain data with byte ranges ([`TextRange`]) into the
//!   text that was passed in;
//! - no salsa, no LSP, no IO: whatever needs a file (does a `/read` target
//!   exist, what does it say) asks the host through [`FileLookup`].
//!
//! Diagnostic codes: `M001`… for prompt files, `K001`… for instructions;
//! every code has a documentation page ([`Rule::docs`]), see [`rules`].

pub mod diagnostic;
pub mod instructions;
mod lookup;
pub mod markdown;
pub mod prompt;
mod text;
pub mod tokens;

#[cfg(test)]
mod testing;

pub use diagnostic::{Diagnostic, Edit, Fix, Related, Rule, Severity, rule, rules};
pub use lookup::{FileLookup, Lookup, NoFiles};
pub use text_size::{TextRange, TextSize};
pub use tokens::{SemanticToken, TokenKind};

/// Markdown text for a hover, and the range it describes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Hover {
    pub range: TextRange,
    pub markdown: String,
}

/// Where "go to definition" leads.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Definition {
    /// A file, by the path as the text names it (after dropping a leading
    /// `$PWD/`); the host resolves it against the workspace root.
    File(String),
    /// A range of the same text (a variable's binding).
    Range(TextRange),
}

/// One completion candidate.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Completion {
    /// What the list shows (`_terminate_`, `/read`, `SGN_PENDING`).
    pub label: String,
    /// The text the edit replaces (what has been typed of the word).
    pub replace: TextRange,
    /// Plain text to insert.
    pub insert: String,
    /// The same as an LSP snippet (`$1` tab stops), when it has holes.
    pub snippet: Option<String>,
    /// One line shown next to the label.
    pub detail: String,
    /// Markdown documentation.
    pub documentation: String,
}
