//! The event-based parser engine and the sink that builds the rowan tree.
//!
//! The grammar (in `grammar.rs`) drives a [`Parser`] over the layout
//! tokens and produces a flat list of [`Event`]s; [`build_tree`] replays
//! them against the raw tokens, re-attaching trivia, to build a lossless
//! green tree. The parser never panics and always terminates:
//! - *fuel*: every look-ahead costs fuel, every consumed token refills it;
//!   a grammar bug that stops making progress runs dry and the parser then
//!   treats the input as finished (the rest becomes an error node);
//! - *depth*: nesting beyond [`MAX_DEPTH`] is not recursed into; the nested
//!   part is kept flat in an `ERROR` node with an E005 error.

mod grammar;
mod green;

use std::{collections::HashMap, ops::Range};

use rowan::{GreenNode, GreenNodeBuilder};
use text_size::TextRange;

use crate::{
    SyntaxError, SyntaxErrorCode, SyntaxKind, SyntaxKind::*, interrupt::Interrupt,
    layout::LayoutTokens, lexer::Lexed,
};

/// Deepest nesting of blocks and expressions the parser recurses into.
pub(crate) const MAX_DEPTH: u32 = 100;
const FUEL: u32 = 256;

/// One step of the parse. Four bytes: a large file has millions of them.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Event {
    Start {
        kind: SyntaxKind,
        /// Distance to the event of the node wrapping this one (`precede`):
        /// 0 for none, [`FAR`] when it is too far for 16 bits (then it is
        /// in [`Events::far`]).
        forward_parent: u16,
    },
    Finish,
    /// Consume one real token, stored with `kind` (which may remap it).
    Token {
        kind: SyntaxKind,
    },
    /// Placeholder left by an abandoned marker.
    Tombstone,
}

/// `Event::Start::forward_parent` of a parent more than 65 534 events away.
const FAR: u16 = u16::MAX;

/// The parser's output: the events and the far forward parents.
pub(crate) struct Events {
    list: Vec<Event>,
    /// Start event index -> distance to its forward parent, for distances
    /// of [`FAR`] or more (rare: the wrapped node spans that many events).
    far: HashMap<u32, u32>,
}

impl Events {
    /// The index of the forward parent of the start event `i`.
    #[inline]
    fn forward_parent(&self, i: usize, forward_parent: u16) -> Option<usize> {
        match forward_parent {
            0 => None,
            FAR => self.far.get(&(i as u32)).map(|&d| i + d as usize),
            d => Some(i + d as usize),
        }
    }
}

pub(crate) struct Parser<'i> {
    /// The source text, for messages that quote a token.
    text: &'i str,
    input: &'i LayoutTokens,
    interrupt: &'i Interrupt<'i>,
    /// The raw tokens' starts, for ranges.
    starts: &'i [u32],
    pos: usize,
    fuel: u32,
    stuck: bool,
    depth: u32,
    events: Vec<Event>,
    far_parents: HashMap<u32, u32>,
    errors: Vec<SyntaxError>,
    /// Kind of the last consumed token (real or virtual), for "did the last
    /// construct end with a block?" decisions.
    last: SyntaxKind,
    /// Disables `name(...)` calls while parsing conditions that may be
    /// followed by a `(max: N)` modifier list.
    pub(crate) no_call: bool,
}

pub(crate) struct Marker {
    pos: u32,
}

#[derive(Clone, Copy)]
pub(crate) struct CompletedMarker {
    pos: u32,
}

impl<'i> Parser<'i> {
    fn new(
        text: &'i str,
        input: &'i LayoutTokens,
        starts: &'i [u32],
        interrupt: &'i Interrupt<'i>,
    ) -> Self {
        Parser {
            text,
            input,
            interrupt,
            starts,
            pos: 0,
            fuel: FUEL,
            stuck: false,
            depth: 0,
            // About two events per token (start/finish pairs and tokens).
            events: Vec::with_capacity(input.kinds.len() * 9 / 4 + 16),
            far_parents: HashMap::new(),
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
        self.input.kinds.get(self.pos + n).copied().unwrap_or(EOF)
    }

    #[cold]
    #[inline(never)]
    fn out_of_fuel(&mut self) -> SyntaxKind {
        if !self.stuck {
            self.stuck = true;
            // At the end there is no rest of the file: deep nesting unwinding
            // at EOF uses up fuel without the grammar being stuck.
            let rest = self.input.kinds.get(self.pos..).unwrap_or_default();
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
        let i = self.pos.min(self.input.kinds.len().saturating_sub(1));
        self.input.range(i, self.starts)
    }

    /// Range of the previous real token (for errors about something missing
    /// right after it).
    pub(crate) fn prev_range(&self) -> TextRange {
        let mut i = self.pos;
        while i > 0 {
            i -= 1;
            if !matches!(self.input.kinds[i], INDENT | DEDENT | EOF) {
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
        debug_assert_eq!(self.input.kinds.get(self.pos).copied(), Some(kind));
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
        let raw = self.input.kinds[self.pos];
        self.interrupt.tick();
        self.pos += 1;
        self.fuel = FUEL;
        self.last = raw;
        if !matches!(raw, INDENT | DEDENT | EOF) {
            self.events.push(Event::Token { kind });
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
        let pos = self.events.len() as u32;
        self.events.push(Event::Tombstone);
        Marker { pos }
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
        let i = self.pos.min(self.input.kinds.len().saturating_sub(1));
        &self.text[self.input.range(i, self.starts)]
    }

    /// How many tokens ahead the first `kind` of the current logical line
    /// is, if any (a plain scan: it costs no fuel).
    pub(crate) fn ahead_on_line(&self, kind: SyntaxKind) -> Option<usize> {
        self.input.kinds[self.pos.min(self.input.kinds.len())..]
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
    pub(crate) fn enter(&mut self) -> bool {
        if self.depth >= MAX_DEPTH {
            let range = self.current_range();
            self.error(
                SyntaxErrorCode::E005,
                format!("Nesting is too deep: more than {MAX_DEPTH} levels are not analysed"),
                range,
            );
            return false;
        }
        self.depth += 1;
        true
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
    pub(crate) fn complete(self, p: &mut Parser<'_>, kind: SyntaxKind) -> CompletedMarker {
        p.events[self.pos as usize] = Event::Start {
            kind,
            forward_parent: 0,
        };
        p.events.push(Event::Finish);
        CompletedMarker { pos: self.pos }
    }
}

impl CompletedMarker {
    /// Starts a new node that wraps this completed one (`a` -> `a + b`).
    pub(crate) fn precede(self, p: &mut Parser<'_>) -> Marker {
        let m = p.start();
        let distance = m.pos - self.pos;
        if let Event::Start { forward_parent, .. } = &mut p.events[self.pos as usize] {
            *forward_parent = match u16::try_from(distance) {
                Ok(d) if d != FAR => d,
                _ => {
                    p.far_parents.insert(self.pos, distance);
                    FAR
                }
            };
        }
        m
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
    let mut p = Parser::new(text, input, starts, interrupt);
    if after_line_end {
        p.last = NEWLINE;
    }
    grammar::source_file(&mut p);
    let events = Events {
        list: p.events,
        far: p.far_parents,
    };
    (events, p.errors)
}

/// Deepest tree the sink builds. Recursion is bounded by [`MAX_DEPTH`], but
/// left-nested chains built with `precede` (`a + b + c ...`, `a.b.c ...`,
/// `x | map: .. | map: ..`) are loops in the grammar and nest one node per
/// link; a 100 000-term sum would make a tree so deep that dropping it
/// (rowan drops recursively) or walking it recursively overflows the stack.
/// [`replay`] leaves out the nodes that would lie deeper (their children go
/// to the enclosing node) and reports E005 where that happens.
const MAX_TREE_DEPTH: usize = 1000;

/// Replays parser events over the raw tokens into a green tree. Trivia is
/// attached before the next token, outside nodes that start after it.
/// `lexed.kinds` are the raw kinds after layout. Errors about the depth of
/// the tree are added to `errors`.
pub(crate) fn build_tree(
    text: &str,
    lexed: &Lexed,
    events: Events,
    errors: &mut Vec<SyntaxError>,
    interrupt: &Interrupt<'_>,
) -> GreenNode {
    // The tree has at most one node per event and one token per raw token
    // (plus the root's ERROR node): that bounds what the builder interns.
    if events.list.len() + lexed.kinds.len() < green::MAX_ELEMENTS {
        let mut builder = green::TreeBuilder::new(events.list.len());
        replay(text, lexed, events, &mut builder, errors, interrupt);
        builder.finish()
    } else {
        let mut builder = GreenNodeBuilder::new();
        replay(text, lexed, events, &mut builder, errors, interrupt);
        builder.finish()
    }
}

/// [`build_tree`] with rowan's own builder, the reference the tests hold
/// [`green::TreeBuilder`] to.
#[cfg(test)]
pub(crate) fn build_tree_with_rowan(
    text: &str,
    lexed: &Lexed,
    events: Events,
    errors: &mut Vec<SyntaxError>,
) -> GreenNode {
    let mut builder = GreenNodeBuilder::new();
    let never = &crate::interrupt::never;
    replay(
        text,
        lexed,
        events,
        &mut builder,
        errors,
        &Interrupt::new(never),
    );
    builder.finish()
}

/// What [`replay`] drives: [`green::TreeBuilder`], or rowan's own builder
/// for inputs too large for it (and in the tests that check that both build
/// the same trees).
pub(crate) trait TreeSink {
    /// Adds the token `text[range]`.
    fn token(&mut self, kind: SyntaxKind, text: &str, range: Range<usize>);
    fn start_node(&mut self, kind: SyntaxKind);
    fn finish_node(&mut self);
}

impl TreeSink for green::TreeBuilder {
    #[inline(always)]
    fn token(&mut self, kind: SyntaxKind, text: &str, range: Range<usize>) {
        green::TreeBuilder::token(self, kind, text, range);
    }
    #[inline]
    fn start_node(&mut self, kind: SyntaxKind) {
        green::TreeBuilder::start_node(self, kind);
    }
    #[inline]
    fn finish_node(&mut self) {
        green::TreeBuilder::finish_node(self);
    }
}

impl TreeSink for GreenNodeBuilder<'_> {
    fn token(&mut self, kind: SyntaxKind, text: &str, range: Range<usize>) {
        GreenNodeBuilder::token(self, kind.into(), &text[range]);
    }
    fn start_node(&mut self, kind: SyntaxKind) {
        GreenNodeBuilder::start_node(self, kind.into());
    }
    fn finish_node(&mut self) {
        GreenNodeBuilder::finish_node(self);
    }
}

fn replay<B: TreeSink>(
    text: &str,
    lexed: &Lexed,
    mut events: Events,
    builder: &mut B,
    errors: &mut Vec<SyntaxError>,
    interrupt: &Interrupt<'_>,
) {
    let raw_kinds = &lexed.kinds[..];
    let starts = &lexed.starts[..];
    let range = |raw: usize| starts[raw] as usize..starts[raw + 1] as usize;
    let trivia = Trivia {
        text,
        raw_kinds,
        starts,
        interrupt,
    };
    let mut raw = 0usize;
    // The open nodes are `depth` nodes in the tree, then `left_out` nodes
    // left out because they would lie too deep: once one is left out, the
    // tree is at the limit, and every node opened until it is finished is
    // left out too.
    let mut depth = 0usize;
    let mut left_out = 0usize;
    // While nodes are left out: the number of open nodes when that started,
    // so that one deep region gets one error.
    let mut reported_at: Option<usize> = None;
    let mut forward: Vec<SyntaxKind> = Vec::new();

    for i in 0..events.list.len() {
        if i % 16 == 0 {
            interrupt.tick_by(16);
        }
        match events.list[i] {
            // Most nodes: no forward parent, not too deep.
            Event::Start {
                kind,
                forward_parent: 0,
            } if depth < MAX_TREE_DEPTH => {
                if depth > 0 {
                    trivia.eat(builder, &mut raw);
                }
                builder.start_node(kind);
                depth += 1;
            }
            Event::Start {
                kind,
                forward_parent,
            } => {
                // The chain of forward parents: outermost last.
                forward.push(kind);
                let mut idx = i;
                let mut fp = forward_parent;
                while let Some(parent) = events.forward_parent(idx, fp) {
                    idx = parent;
                    fp = match std::mem::replace(&mut events.list[idx], Event::Tombstone) {
                        Event::Start {
                            kind,
                            forward_parent,
                        } => {
                            forward.push(kind);
                            forward_parent
                        }
                        _ => 0,
                    };
                }
                // Nodes start outermost first; the innermost ones are left
                // out when the chain would go deeper than the limit.
                let kept = MAX_TREE_DEPTH.saturating_sub(depth).min(forward.len());
                if depth > 0 && kept > 0 {
                    trivia.eat(builder, &mut raw);
                }
                if kept < forward.len() && reported_at.is_none() {
                    let next = (raw..raw_kinds.len())
                        .find(|&r| !raw_kinds[r].is_trivia())
                        .unwrap_or(raw_kinds.len());
                    let range = match next {
                        r if r < raw_kinds.len() => lexed.range(r),
                        _ => TextRange::empty(text.len().try_into().unwrap_or_default()),
                    };
                    errors.push(SyntaxError::new(
                        SyntaxErrorCode::E005,
                        format!(
                            "Nesting is too deep: the syntax tree keeps at most {MAX_TREE_DEPTH} levels"
                        ),
                        range,
                    ));
                    reported_at = Some(depth + left_out);
                }
                let chain = forward.len();
                for kind in forward.drain(..).rev().take(kept) {
                    builder.start_node(kind);
                }
                depth += kept;
                left_out += chain - kept;
            }
            Event::Finish => {
                let in_tree = if left_out > 0 {
                    left_out -= 1;
                    false
                } else if depth > 0 {
                    depth -= 1;
                    true
                } else {
                    false
                };
                if reported_at.is_some_and(|d| depth + left_out <= d) {
                    reported_at = None;
                }
                if !in_tree {
                    continue;
                }
                if depth == 0 {
                    trivia.eat(builder, &mut raw);
                    // Anything left (only possible after the parser gave up)
                    // still belongs in the tree.
                    if raw < raw_kinds.len() {
                        builder.start_node(ERROR);
                        while raw < raw_kinds.len() {
                            builder.token(raw_kinds[raw], text, range(raw));
                            raw += 1;
                        }
                        builder.finish_node();
                    }
                }
                builder.finish_node();
            }
            Event::Token { kind } => {
                trivia.eat(builder, &mut raw);
                if raw < raw_kinds.len() {
                    builder.token(kind, text, range(raw));
                    raw += 1;
                }
            }
            Event::Tombstone => {}
        }
    }
}

/// Adds the trivia in front of the next token to the tree.
struct Trivia<'a, 'i> {
    text: &'a str,
    /// The raw kinds after layout.
    raw_kinds: &'a [SyntaxKind],
    starts: &'a [u32],
    interrupt: &'a Interrupt<'i>,
}

impl Trivia<'_, '_> {
    /// Adds the trivia tokens from `*raw` on, if any.
    #[inline]
    fn eat<B: TreeSink>(&self, builder: &mut B, raw: &mut usize) {
        // Most tokens have no trivia in front: keep that check inline.
        if self.raw_kinds.get(*raw).is_some_and(|k| k.is_trivia()) {
            self.eat_run(builder, raw);
        }
    }

    fn eat_run<B: TreeSink>(&self, builder: &mut B, raw: &mut usize) {
        let raw_kinds = self.raw_kinds;
        while *raw < raw_kinds.len() && raw_kinds[*raw].is_trivia() {
            self.interrupt.tick();
            // A run of trivial line breaks (blank lines) is one token: a
            // file of ten million empty lines is one token, not ten million.
            let start = *raw;
            if self.trivial_break(start) {
                while *raw + 1 < raw_kinds.len() && self.trivial_break(*raw + 1) {
                    self.interrupt.tick();
                    *raw += 1;
                }
            }
            builder.token(
                raw_kinds[start],
                self.text,
                self.starts[start] as usize..self.starts[*raw + 1] as usize,
            );
            *raw += 1;
        }
    }

    /// A line break the layout pass made trivia (a blank line, a line
    /// inside brackets).
    fn trivial_break(&self, raw: usize) -> bool {
        self.raw_kinds[raw] == WHITESPACE
            && crate::lines::is_line_break(self.text.as_bytes()[self.starts[raw] as usize])
    }
}
