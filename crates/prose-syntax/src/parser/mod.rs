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

use std::num::NonZeroU32;

use rowan::{GreenNode, GreenNodeBuilder};
use text_size::TextRange;

use crate::{
    SyntaxError, SyntaxErrorCode, SyntaxKind, SyntaxKind::*, layout::ParserInput, lexer::Lexed,
};

/// Deepest nesting of blocks and expressions the parser recurses into.
pub(crate) const MAX_DEPTH: u32 = 100;
const FUEL: u32 = 256;

#[derive(Debug)]
pub(crate) enum Event {
    Start {
        kind: SyntaxKind,
        /// Distance to the event of the node wrapping this one (`precede`).
        forward_parent: Option<NonZeroU32>,
    },
    Finish,
    /// Consume one real token, stored with `kind` (which may remap it).
    Token {
        kind: SyntaxKind,
    },
    /// Placeholder left by an abandoned marker.
    Tombstone,
}

pub(crate) struct Parser<'i> {
    input: &'i ParserInput,
    pos: usize,
    fuel: u32,
    stuck: bool,
    depth: u32,
    events: Vec<Event>,
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
    fn new(input: &'i ParserInput) -> Self {
        Parser {
            input,
            pos: 0,
            fuel: FUEL,
            stuck: false,
            depth: 0,
            events: Vec::with_capacity(input.kinds.len() * 2),
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
        if self.stuck || self.fuel == 0 {
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
                self.errors.push(SyntaxError::new(
                    SyntaxErrorCode::E005,
                    "The parser could not make sense of the rest of the file from here",
                    range,
                ));
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
        let i = self.pos.min(self.input.ranges.len().saturating_sub(1));
        self.input.ranges.get(i).copied().unwrap_or_default()
    }

    /// Range of the previous real token (for errors about something missing
    /// right after it).
    pub(crate) fn prev_range(&self) -> TextRange {
        let mut i = self.pos;
        while i > 0 {
            i -= 1;
            if !matches!(self.input.kinds[i], INDENT | DEDENT | EOF) {
                return self.input.ranges[i];
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
            _ => {
                let found = kind.describe();
                let found = found
                    .strip_prefix("a ")
                    .or_else(|| found.strip_prefix("an "))
                    .unwrap_or(found);
                format!("Unexpected {found}: expected {expected}")
            }
        };
        self.error(SyntaxErrorCode::E004, msg, range);
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
            forward_parent: None,
        };
        p.events.push(Event::Finish);
        CompletedMarker { pos: self.pos }
    }
}

impl CompletedMarker {
    /// Starts a new node that wraps this completed one (`a` -> `a + b`).
    pub(crate) fn precede(self, p: &mut Parser<'_>) -> Marker {
        let m = p.start();
        if let Event::Start { forward_parent, .. } = &mut p.events[self.pos as usize] {
            *forward_parent = NonZeroU32::new(m.pos - self.pos);
        }
        m
    }
}

pub(crate) fn parse(input: &ParserInput) -> (Vec<Event>, Vec<SyntaxError>) {
    let mut p = Parser::new(input);
    grammar::source_file(&mut p);
    limit_tree_depth(&mut p.events, input, &mut p.errors);
    (p.events, p.errors)
}

/// Deepest tree the sink builds. Recursion is bounded by [`MAX_DEPTH`], but
/// left-nested chains built with `precede` (`a + b + c ...`, `a.b.c ...`,
/// `x | map: .. | map: ..`) are loops in the grammar and nest one node per
/// link; a 100 000-term sum would make a tree so deep that dropping it
/// (rowan drops recursively) or walking it recursively overflows the stack.
const MAX_TREE_DEPTH: usize = 1000;

/// Removes the nodes that would lie deeper than [`MAX_TREE_DEPTH`] (their
/// children go to the enclosing node) and reports E005 where that happens.
/// Replays the event nesting exactly as [`build_tree`] does.
fn limit_tree_depth(events: &mut [Event], input: &ParserInput, errors: &mut Vec<SyntaxError>) {
    // For each open node: whether it is kept in the tree.
    let mut open: Vec<bool> = Vec::new();
    // Starts already handled as the forward parent of an earlier start.
    let mut is_parent = vec![0u64; events.len().div_ceil(64)];
    let mut chain: Vec<(usize, SyntaxKind)> = Vec::new();
    // Index of the next real token in `input`, for error ranges.
    let mut token = 0usize;
    // While nodes are being dropped: the depth of the chain that started
    // it, so one deep region gets one error.
    let mut reported_at: Option<usize> = None;
    for i in 0..events.len() {
        match events[i] {
            Event::Start { .. } if is_parent[i / 64] & (1 << (i % 64)) != 0 => {}
            Event::Start { .. } => {
                // The chain of forward parents, innermost (this event) first.
                chain.clear();
                let mut idx = i;
                while let Event::Start {
                    kind,
                    forward_parent,
                } = events[idx]
                {
                    chain.push((idx, kind));
                    let Some(delta) = forward_parent else { break };
                    idx += delta.get() as usize;
                    is_parent[idx / 64] |= 1 << (idx % 64);
                }
                // Nodes are started outermost first, so `chain[j]` lies at
                // depth `open.len() + chain.len() - j`: drop the innermost.
                let depth = open.len();
                let dropped = (depth + chain.len())
                    .saturating_sub(MAX_TREE_DEPTH.max(depth))
                    .min(chain.len());
                open.extend((0..chain.len()).rev().map(|j| j >= dropped));
                if dropped == 0 {
                    continue;
                }
                if reported_at.is_none() {
                    while matches!(input.kinds.get(token), Some(INDENT | DEDENT)) {
                        token += 1;
                    }
                    let range = input.ranges.get(token).copied().unwrap_or_default();
                    errors.push(SyntaxError::new(
                        SyntaxErrorCode::E005,
                        format!(
                            "Nesting is too deep: the syntax tree keeps at most {MAX_TREE_DEPTH} levels"
                        ),
                        range,
                    ));
                    reported_at = Some(depth);
                }
                // Re-link the kept part of the chain, starting from `i`.
                for &(at, _) in &chain {
                    events[at] = Event::Tombstone;
                }
                let kept = &chain[dropped..];
                for (w, &(at, kind)) in kept.iter().enumerate() {
                    let at = if w == 0 { i } else { at };
                    events[at] = Event::Start {
                        kind,
                        forward_parent: kept
                            .get(w + 1)
                            .and_then(|&(next, _)| NonZeroU32::new((next - at) as u32)),
                    };
                }
            }
            Event::Finish => {
                if open.pop() == Some(false) {
                    events[i] = Event::Tombstone;
                }
                if reported_at.is_some_and(|d| open.len() <= d) {
                    reported_at = None;
                }
            }
            Event::Token { .. } => {
                while matches!(input.kinds.get(token), Some(INDENT | DEDENT)) {
                    token += 1;
                }
                token += 1;
            }
            Event::Tombstone => {}
        }
    }
}

/// Replays parser events over the raw tokens into a green tree. Trivia is
/// attached before the next token, outside nodes that start after it.
pub(crate) fn build_tree(
    text: &str,
    raw_kinds: &[SyntaxKind],
    lexed: &Lexed,
    mut events: Vec<Event>,
) -> GreenNode {
    let mut builder = GreenNodeBuilder::new();
    let mut raw = 0usize;
    let mut depth = 0usize;
    let mut forward: Vec<SyntaxKind> = Vec::new();

    let eat_trivia = |builder: &mut GreenNodeBuilder<'_>, raw: &mut usize| {
        while *raw < raw_kinds.len() && raw_kinds[*raw].is_trivia() {
            builder.token(raw_kinds[*raw].into(), &text[lexed.range(*raw)]);
            *raw += 1;
        }
    };

    for i in 0..events.len() {
        match std::mem::replace(&mut events[i], Event::Tombstone) {
            Event::Start {
                kind,
                forward_parent,
            } => {
                // Collect the chain of forward parents: outermost first.
                forward.push(kind);
                let mut idx = i;
                let mut fp = forward_parent;
                while let Some(delta) = fp {
                    idx += delta.get() as usize;
                    fp = match std::mem::replace(&mut events[idx], Event::Tombstone) {
                        Event::Start {
                            kind,
                            forward_parent,
                        } => {
                            forward.push(kind);
                            forward_parent
                        }
                        _ => None,
                    };
                }
                if depth > 0 {
                    eat_trivia(&mut builder, &mut raw);
                }
                for kind in forward.drain(..).rev() {
                    builder.start_node(kind.into());
                    depth += 1;
                }
            }
            Event::Finish => {
                depth -= 1;
                if depth == 0 {
                    eat_trivia(&mut builder, &mut raw);
                    // Anything left (only possible after the parser gave up)
                    // still belongs in the tree.
                    if raw < raw_kinds.len() {
                        builder.start_node(ERROR.into());
                        while raw < raw_kinds.len() {
                            builder.token(raw_kinds[raw].into(), &text[lexed.range(raw)]);
                            raw += 1;
                        }
                        builder.finish_node();
                    }
                }
                builder.finish_node();
            }
            Event::Token { kind } => {
                eat_trivia(&mut builder, &mut raw);
                if raw < raw_kinds.len() {
                    builder.token(kind.into(), &text[lexed.range(raw)]);
                    raw += 1;
                }
            }
            Event::Tombstone => {}
        }
    }
    builder.finish()
}
