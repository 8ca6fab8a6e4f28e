//! The parser engine.
//!
//! The grammar (in `grammar/`, by construct) drives a [`Parser`] over the layout
//! tokens; its markers and tokens go to an [`Output`]: straight into the
//! green tree ([`output::Direct`], see [`parse_tree`]), or into a flat list
//! of [`Event`]s that [`build_tree`] replays against the raw tokens,
//! re-attaching trivia, to build the same lossless green tree (for the
//! trees too deep or too large to build directly). The parser never panics
//! and always terminates:
//! - *fuel*: every look-ahead costs fuel, every consumed token refills it;
//!   a grammar bug that stops making progress runs dry and the parser then
//!   treats the input as finished (the rest becomes an error node);
//! - *depth*: nesting beyond [`MAX_DEPTH`] is not recursed into; the nested
//!   part is kept flat in an `ERROR` node with an E005 error.

mod grammar;
mod green;
mod output;
mod replay;

use rowan::GreenNode;
use text_size::TextRange;

pub(crate) use output::{Event, Events, Output};
pub(crate) use replay::build_tree;
#[cfg(test)]
pub(crate) use replay::build_tree_with_rowan;

use crate::{
    SyntaxError, SyntaxErrorCode, SyntaxKind, SyntaxKind::*, interrupt::Interrupt,
    layout::LayoutTokens, lexer::Lexed,
};

/// Deepest nesting of blocks and expressions the parser recurses into.
pub(crate) const MAX_DEPTH: u32 = 100;
const FUEL: u32 = 256;

pub(crate) struct Parser<'i, O: Output> {
    /// The source text, for messages that quote a token.
    text: &'i str,
    input: &'i LayoutTokens,
    /// `input.kinds`, one indirection closer.
    kinds: &'i [SyntaxKind],
    interrupt: &'i Interrupt<'i>,
    /// The raw tokens' starts, for ranges.
    starts: &'i [u32],
    pos: usize,
    fuel: u32,
    stuck: bool,
    depth: u32,
    /// Where the markers and tokens go.
    out: O,
    errors: Vec<SyntaxError>,
    /// Kind of the last consumed token (real or virtual), for "did the last
    /// construct end with a block?" decisions.
    last: SyntaxKind,
    /// Disables `name(...)` calls while parsing conditions that may be
    /// followed by a `(max: N)` modifier list.
    pub(crate) no_call: bool,
}

/// A node started and not completed yet. What `pos` and `level` mean is
/// the [`Output`]'s business.
pub(crate) struct Marker {
    pos: u32,
    level: u32,
}

/// A completed node, which a new node may still wrap
/// ([`CompletedMarker::precede`]).
#[derive(Clone, Copy)]
pub(crate) struct CompletedMarker {
    pos: u32,
    /// The number of node levels of its subtree (for [`output::Direct`]).
    height: u32,
}

impl<'i, O: Output> Parser<'i, O> {
    fn new(
        text: &'i str,
        input: &'i LayoutTokens,
        starts: &'i [u32],
        interrupt: &'i Interrupt<'i>,
        out: O,
    ) -> Self {
        Parser {
            text,
            input,
            kinds: &input.kinds,
            interrupt,
            starts,
            pos: 0,
            fuel: FUEL,
            stuck: false,
            depth: 0,
            out,
            errors: Vec::new(),
            last: EOF,
            no_call: false,
        }
    }

    /// Kind of the `n`-th token ahead (layout tokens included).
    #[inline]
    pub(crate) fn nth(&mut self, n: usize) -> SyntaxKind {
        // The hot path (called several times per token) stays tiny and
        // inlinable; running out of fuel is the cold path.
        // Once stuck, the fuel stays at 0: only `do_bump` refills it, and
        // nothing is consumed at EOF.
        if self.fuel == 0 {
            return self.out_of_fuel();
        }
        self.fuel -= 1;
        self.kinds.get(self.pos + n).copied().unwrap_or(EOF)
    }

    #[cold]
    #[inline(never)]
    fn out_of_fuel(&mut self) -> SyntaxKind {
        if !self.stuck {
            self.stuck = true;
            // At the end there is no rest of the file: deep nesting unwinding
            // at EOF uses up fuel without the grammar being stuck.
            let rest = self.kinds.get(self.pos..).unwrap_or_default();
            if rest.iter().any(|&k| !matches!(k, DEDENT | EOF)) {
                let range = self.current_range();
                self.errors
                    .push(SyntaxError::new(SyntaxErrorCode::E005, GAVE_UP, range));
            }
        }
        EOF
    }

    pub(crate) fn current(&mut self) -> SyntaxKind {
        self.nth(0)
    }

    pub(crate) fn at(&mut self, kind: SyntaxKind) -> bool {
        self.current() == kind
    }

    pub(crate) fn nth_at(&mut self, n: usize, kind: SyntaxKind) -> bool {
        self.nth(n) == kind
    }

    /// At a name: an identifier or a contextual keyword.
    pub(crate) fn at_name(&mut self) -> bool {
        let k = self.current();
        k == IDENT || k.is_contextual_keyword()
    }

    pub(crate) fn nth_is_name(&mut self, n: usize) -> bool {
        let k = self.nth(n);
        k == IDENT || k.is_contextual_keyword()
    }

    /// At the end of a logical line (or of the input / block).
    pub(crate) fn at_line_end(&mut self) -> bool {
        matches!(self.current(), NEWLINE | EOF | DEDENT | INDENT)
    }

    pub(crate) fn current_range(&self) -> TextRange {
        let i = self.pos.min(self.kinds.len().saturating_sub(1));
        self.input.range(i, self.starts)
    }

    /// Range of the previous real token (for errors about something missing
    /// right after it).
    pub(crate) fn prev_range(&self) -> TextRange {
        let mut i = self.pos;
        while i > 0 {
            i -= 1;
            if !matches!(self.kinds[i], INDENT | DEDENT | EOF) {
                return self.input.range(i, self.starts);
            }
        }
        self.current_range()
    }

    /// Whether the logical line has already ended: the last consumed token
    /// closed an indented block or was the line's NEWLINE (inline bodies).
    pub(crate) fn line_ended(&self) -> bool {
        matches!(self.last, DEDENT | NEWLINE)
    }

    pub(crate) fn last(&self) -> SyntaxKind {
        self.last
    }

    pub(crate) fn bump_any(&mut self) {
        let kind = self.current();
        if kind == EOF {
            return;
        }
        self.do_bump(kind);
    }

    pub(crate) fn bump(&mut self, kind: SyntaxKind) {
        debug_assert_eq!(self.kinds.get(self.pos).copied(), Some(kind));
        self.bump_any();
    }

    /// Consumes the current token, storing it in the tree as `kind`.
    pub(crate) fn bump_remap(&mut self, kind: SyntaxKind) {
        if self.current() == EOF {
            return;
        }
        self.do_bump(kind);
    }

    fn do_bump(&mut self, kind: SyntaxKind) {
        let raw = self.kinds[self.pos];
        self.pos += 1;
        if self.pos.is_multiple_of(64) {
            self.interrupt.tick_by(64);
        }
        self.fuel = FUEL;
        self.last = raw;
        if !matches!(raw, INDENT | DEDENT | EOF) {
            self.out.token(kind);
        }
    }

    pub(crate) fn eat(&mut self, kind: SyntaxKind) -> bool {
        if self.at(kind) {
            self.bump_any();
            true
        } else {
            false
        }
    }

    pub(crate) fn start(&mut self) -> Marker {
        self.out.start()
    }

    pub(crate) fn error(
        &mut self,
        code: SyntaxErrorCode,
        message: impl Into<String>,
        range: TextRange,
    ) {
        // One error per position is enough; cascades only add noise.
        if self
            .errors
            .last()
            .is_some_and(|e| e.range.start() == range.start())
        {
            return;
        }
        self.errors.push(SyntaxError::new(code, message, range));
    }

    /// E004 at the current token: it cannot continue what is being parsed.
    pub(crate) fn err_unexpected(&mut self, expected: &str) {
        let kind = self.current();
        let range = self.current_range();
        let msg = match kind {
            NEWLINE | EOF | DEDENT | INDENT => {
                // Nothing wrong is present: something is missing. That is E005.
                let range = TextRange::empty(self.prev_range().end());
                self.error(SyntaxErrorCode::E005, format!("Expected {expected}"), range);
                return;
            }
            _ => format!("Unexpected {}: expected {expected}", self.found()),
        };
        self.error(SyntaxErrorCode::E004, msg, range);
    }

    /// The current token for a message: its text in backticks for words,
    /// numbers and punctuation (`` `deploy` ``), else what it is ("string").
    pub(crate) fn found(&mut self) -> String {
        let kind = self.current();
        let text = &self.text[self.current_range()];
        match kind {
            STRING_OPEN => "string".into(),
            DISCRETION => "discretion condition".into(),
            ERROR_TOKEN => format!("character `{}`", text.chars().next().unwrap_or('?')),
            IDENT | NUMBER => {
                let short: String = text.chars().take(24).collect();
                let more = if short.len() < text.len() { "…" } else { "" };
                format!("`{short}{more}`")
            }
            _ => kind.describe().to_string(),
        }
    }

    /// The text of the current token.
    pub(crate) fn current_text(&self) -> &'i str {
        let i = self.pos.min(self.kinds.len().saturating_sub(1));
        &self.text[self.input.range(i, self.starts)]
    }

    /// How many tokens ahead the first `kind` of the current logical line
    /// is, if any (a plain scan: it costs no fuel).
    pub(crate) fn ahead_on_line(&self, kind: SyntaxKind) -> Option<usize> {
        self.kinds[self.pos.min(self.kinds.len())..]
            .iter()
            .take_while(|&&k| !matches!(k, NEWLINE | INDENT | DEDENT | EOF))
            .position(|&k| k == kind)
    }

    /// Reports an unexpected token and wraps it in an `ERROR` node, unless
    /// it ends the line (then nothing is consumed).
    pub(crate) fn err_and_bump(&mut self, expected: &str) {
        self.err_unexpected(expected);
        if !self.at_line_end() {
            let m = self.start();
            self.bump_any();
            m.complete(self, ERROR);
        }
    }

    /// Expects `kind`; reports and returns false when it is not there.
    pub(crate) fn expect(&mut self, kind: SyntaxKind) -> bool {
        if self.eat(kind) {
            return true;
        }
        self.err_unexpected(kind.describe());
        false
    }

    /// Enters one nesting level; returns false (after reporting) when the
    /// limit is reached, in which case the caller must not recurse.
    #[inline]
    pub(crate) fn enter(&mut self) -> bool {
        if self.depth >= MAX_DEPTH {
            self.too_deep();
            return false;
        }
        self.depth += 1;
        true
    }

    /// Reports nesting beyond [`MAX_DEPTH`] at the current token.
    #[cold]
    #[inline(never)]
    fn too_deep(&mut self) {
        let range = self.current_range();
        self.error(
            SyntaxErrorCode::E005,
            format!("Nesting is too deep: more than {MAX_DEPTH} levels are not analysed"),
            range,
        );
    }

    pub(crate) fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Consumes, flat, everything nested at the current point: balanced
    /// brackets and indented blocks, up to the end of the enclosing line.
    pub(crate) fn skip_nested(&mut self) {
        let m = self.start();
        let mut brackets = 0i64;
        let mut indents = 0i64;
        let mut consumed = false;
        loop {
            match self.current() {
                EOF => break,
                L_PAREN | L_BRACK | L_BRACE => brackets += 1,
                R_PAREN | R_BRACK | R_BRACE => {
                    if brackets == 0 {
                        if consumed {
                            break;
                        }
                    } else {
                        brackets -= 1;
                    }
                }
                INDENT => indents += 1,
                DEDENT => {
                    if indents == 0 {
                        break;
                    }
                    indents -= 1;
                }
                NEWLINE if indents == 0 && brackets == 0 && self.nth(1) != INDENT => {
                    break;
                }
                _ => {}
            }
            self.bump_any();
            consumed = true;
        }
        m.complete(self, ERROR);
    }
}

impl Marker {
    #[inline]
    pub(crate) fn complete(
        self,
        p: &mut Parser<'_, impl Output>,
        kind: SyntaxKind,
    ) -> CompletedMarker {
        p.out.complete(self, kind)
    }
}

impl CompletedMarker {
    /// Starts a new node that wraps this completed one (`a` -> `a + b`).
    #[inline]
    pub(crate) fn precede(self, p: &mut Parser<'_, impl Output>) -> Marker {
        p.out.precede(self)
    }
}

/// The message of the error a parser that gave up on the rest of a file
/// reports (`reparse.rs` never splices next to it).
pub(crate) const GAVE_UP: &str =
    "The parser could not make sense of the rest of the file from here";

#[cfg(test)]
pub(crate) fn parse<'i>(
    text: &'i str,
    input: &'i LayoutTokens,
    starts: &'i [u32],
    interrupt: &'i Interrupt<'i>,
) -> (Events, Vec<SyntaxError>) {
    parse_from(text, input, starts, interrupt, false)
}

/// [`parse`]; `after_line_end` starts the parser as if a logical line had
/// just ended before the text (a window of a file that starts after a
/// statement, see `reparse.rs`): what [`Parser::last`] reports then is
/// what it is there in the whole file.
pub(crate) fn parse_from<'i>(
    text: &'i str,
    input: &'i LayoutTokens,
    starts: &'i [u32],
    interrupt: &'i Interrupt<'i>,
    after_line_end: bool,
) -> (Events, Vec<SyntaxError>) {
    // About two events per token (start/finish pairs and tokens).
    let out = Events::with_capacity(input.kinds.len() * 9 / 4 + 16);
    let mut p = Parser::new(text, input, starts, interrupt, out);
    if after_line_end {
        p.last = NEWLINE;
    }
    grammar::source_file(&mut p);
    (p.out, p.errors)
}

/// Parses and builds the green tree: [`parse_from`] and [`build_tree`] in
/// one pass over the tokens, the parser handing its nodes and tokens
/// straight to the tree builder ([`output::Direct`]). When the tree would
/// be deeper than the replay keeps it, or too large for the builder's ids,
/// it parses again the long way, which gives exactly that tree and those
/// errors. `lexed.kinds` are the raw kinds after layout.
pub(crate) fn parse_tree(
    text: &str,
    lexed: &Lexed,
    input: &LayoutTokens,
    interrupt: &Interrupt<'_>,
    after_line_end: bool,
) -> (GreenNode, Vec<SyntaxError>) {
    if let Some(out) = output::Direct::new(text, lexed, input.kinds.len(), interrupt) {
        let mut p = Parser::new(text, input, &lexed.starts, interrupt, out);
        if after_line_end {
            p.last = NEWLINE;
        }
        grammar::source_file(&mut p);
        if let Some(green) = p.out.finish() {
            return (green, p.errors);
        }
    }
    let (events, mut errors) = parse_from(text, input, &lexed.starts, interrupt, after_line_end);
    let green = build_tree(text, lexed, events, &mut errors, interrupt);
    (green, errors)
}
