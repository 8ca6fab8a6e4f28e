//! Completion: what may be typed at the cursor.
//!
//! Completion runs on text that is being typed, so the tree around the
//! cursor is usually broken (`session: re`, `agent a:\n  mo`,
//! `context: [a, `). The context is therefore worked out in three steps
//! that each tolerate broken input:
//!
//! 1. **Lexical position.** Nothing inside a comment; inside a string only
//!    interpolations (`{na`) and the few strings that hold keywords (a
//!    `parallel` join strategy, an `on-fail:` policy, a skill name).
//! 2. **The tokens before the cursor on its logical line** (a line ends at
//!    a NEWLINE token, so an open bracket continues it): `session:` wants an
//!    agent, `do` a block, `|` a pipeline operator, `model:` a model,
//!    `context: [a, ` a variable, `research(` an input of that program,
//!    `parallel (` a modifier, `let x =` an expression, `if` a condition.
//!    A line start followed by `=` wants a variable to reassign.
//! 3. **The enclosing header, by indentation**, when the cursor starts a
//!    line: the nearest earlier line indented less than the cursor decides
//!    between the properties of an agent or a session, the permission
//!    types, `option` in a `choice`, and statements. The line just above at
//!    the same indentation decides whether `elif`/`else` or
//!    `catch`/`finally` may follow. Which construct a header line opens is
//!    read from the tree (the ancestors of its last token), falling back to
//!    its first word.
//!
//! Variables come from [`crate::semantics`]: scoped names whose scope holds
//! the cursor, program-wide bindings written before it (all of them inside
//! a `block` body or an agent, which run later), and inputs.
//!
//! Layout: this file holds the items, the entry point and the context
//! (`Cx`); [`lines`] the logical lines and header lookup (steps 2 and 3's
//! positions), [`context`] what the cursor wants (strings, line start,
//! after tokens), [`keywords`] the keyword, property and value items with
//! their tables, [`names`] the agents, blocks, programs, inputs, skills and
//! variables.

mod context;
mod keywords;
mod lines;
mod names;
#[cfg(test)]
mod tests;

use prose_syntax::{NodeOrToken, SyntaxKind, SyntaxToken, TextRange, TextSize};

use crate::{
    db::{Db, SourceFile, Workspace, parse},
    semantics::{FileSemantics, file_semantics},
};
use lines::{Line, column, is_word, logical_lines};

use SyntaxKind::*;

/// What a completion item inserts, for the editor's icon.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CompletionKind {
    Keyword,
    Property,
    Agent,
    Block,
    Variable,
    /// A value of a property or modifier (`opus`, `allow`, `"first"`).
    Value,
    /// An imported program.
    Program,
    /// A program input (declared here, or a named argument of a call).
    Input,
    /// A template of several constructs.
    Snippet,
    /// A file path (a prompt file's `/read`).
    File,
    /// A Pattern Dialect verb or alias (`/recall`, `/remember`).
    Verb,
    /// A reference to something in context (`@last.output`, `@thread`).
    Reference,
    /// A permission marker (`?`, `?ask`, `!`).
    Marker,
    /// A task of a job entry.
    Task,
    /// A tool of the job system (`job_boolean_true`).
    Tool,
}

/// One completion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompletionItem {
    pub label: String,
    pub kind: CompletionKind,
    pub detail: Option<String>,
    pub documentation: Option<String>,
    /// The text to insert instead of the label; snippet syntax (`$1`,
    /// `${1:x}`, `${1|a,b|}`, `$0`) when `is_snippet`.
    pub insert_text: Option<String>,
    pub is_snippet: bool,
    /// The range the insertion replaces (the word being typed).
    pub replace_range: TextRange,
    /// Orders the items where the editor's fuzzy score ties.
    pub sort_text: Option<String>,
}

/// Completions at `offset` in `file`.
pub fn completions(
    db: &dyn Db,
    workspace: Workspace,
    file: SourceFile,
    offset: TextSize,
) -> Vec<CompletionItem> {
    let text = file.text(db).as_str();
    let at = usize::from(offset);
    if at > text.len() || !text.is_char_boundary(at) {
        return Vec::new();
    }
    let root = parse(db, file).syntax_node();
    let tokens: Vec<SyntaxToken> = root
        .descendants_with_tokens()
        .filter_map(NodeOrToken::into_token)
        .collect();
    let lines = logical_lines(text, &tokens);
    let mut cx = Cx {
        db,
        workspace,
        file,
        text,
        sema: file_semantics(db, file),
        offset,
        tokens,
        lines,
        range: TextRange::empty(offset),
        rest_of_line_empty: true,
        items: Vec::new(),
    };
    cx.run();
    cx.items
}

// ---- the context --------------------------------------------------------------

struct Cx<'a> {
    db: &'a dyn Db,
    workspace: Workspace,
    file: SourceFile,
    text: &'a str,
    sema: &'a FileSemantics,
    offset: TextSize,
    tokens: Vec<SyntaxToken>,
    lines: Vec<Line>,
    /// The word being typed: what every item replaces.
    range: TextRange,
    /// Nothing but whitespace follows the word on its line: templates may
    /// add their punctuation (`model: `, `(args)`) without doubling it.
    rest_of_line_empty: bool,
    items: Vec<CompletionItem>,
}

impl Cx<'_> {
    fn run(&mut self) {
        let at = usize::from(self.offset);
        // Inside (or at the end of) a comment: nothing.
        if self.tokens.iter().any(|t| {
            t.kind() == COMMENT
                && t.text_range().start() < self.offset
                && self.offset <= t.text_range().end()
        }) {
            return;
        }
        if let Some(s) = self.string_at_cursor() {
            self.in_string(&s);
            return;
        }
        let start = at
            - self.text[..at]
                .chars()
                .rev()
                .take_while(|c| is_word(*c))
                .map(char::len_utf8)
                .sum::<usize>();
        let end = at
            + self.text[at..]
                .chars()
                .take_while(|c| is_word(*c))
                .map(char::len_utf8)
                .sum::<usize>();
        let start_ts = TextSize::from(start as u32);
        // The word starts inside some other token (a discretion, a number
        // with a unit): nothing sensible to offer.
        if self.tokens.iter().any(|t| {
            let r = t.text_range();
            !t.kind().is_trivia() && r.start() < start_ts && start_ts < r.end()
        }) {
            return;
        }
        self.range = TextRange::new(start_ts, TextSize::from(end as u32));
        let rest = &self.text[end..prose_syntax::lines::line_end(self.text, end)];
        self.rest_of_line_empty = rest.trim().is_empty();
        let prev = self.line_tokens_before(start_ts);
        if prev.is_empty() {
            self.line_start(column(self.text, start));
            return;
        }
        let last = prev.last().map(|&i| &self.tokens[i]);
        if last.is_some_and(|t| t.kind() == DOT && t.text_range().end() == start_ts) {
            // A field (`result.findings`): not offered.
            return;
        }
        self.after(&prev);
    }
}
