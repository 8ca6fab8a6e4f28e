//! Building the green tree from the parser's [`Events`]: [`build_tree`]
//! replays them over the raw tokens, re-attaching trivia, and leaves out
//! the nodes deeper than [`MAX_TREE_DEPTH`]. A parse builds its tree
//! directly (`output::Direct`) and comes here only for the trees that are
//! too deep or too large for that; the tests hold the two ways to each
//! other, and the crate's builder to rowan's `GreenNodeBuilder`.

use std::ops::Range;

use rowan::{GreenNode, GreenNodeBuilder};
use text_size::TextRange;

use super::{Event, Events, green};
use crate::{
    SyntaxError, SyntaxErrorCode, SyntaxKind, SyntaxKind::*, interrupt::Interrupt, lexer::Lexed,
};

/// Deepest tree the sink builds. Recursion is bounded by [`MAX_DEPTH`], but
/// left-nested chains built with `precede` (`a + b + c ...`, `a.b.c ...`,
/// `x | map: .. | map: ..`) are loops in the grammar and nest one node per
/// link; a 100 000-term sum would make a tree so deep that dropping it
/// (rowan drops recursively) or walking it recursively overflows the stack.
/// [`replay`] leaves out the nodes that would lie deeper (their children go
/// to the enclosing node) and reports E005 where that happens.
pub(super) const MAX_TREE_DEPTH: usize = 1000;

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
    let trivia = Trivia::new(text, raw_kinds, starts, interrupt);
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
pub(super) struct Trivia<'a, 'i> {
    pub(super) text: &'a str,
    /// The raw kinds after layout.
    pub(super) raw_kinds: &'a [SyntaxKind],
    starts: &'a [u32],
    interrupt: &'a Interrupt<'i>,
}

impl<'a, 'i> Trivia<'a, 'i> {
    pub(super) fn new(
        text: &'a str,
        raw_kinds: &'a [SyntaxKind],
        starts: &'a [u32],
        interrupt: &'a Interrupt<'i>,
    ) -> Self {
        Trivia {
            text,
            raw_kinds,
            starts,
            interrupt,
        }
    }

    /// The range of raw token `raw` in the text.
    #[inline]
    pub(super) fn range(&self, raw: usize) -> Range<usize> {
        // `starts` has one more entry than there are raw tokens.
        match self.starts.get(raw..raw + 2) {
            Some(&[start, end]) => start as usize..end as usize,
            _ => 0..0,
        }
    }

    /// Whether raw token `raw` is one space.
    #[inline]
    pub(super) fn is_space(&self, raw: usize) -> bool {
        match self.starts.get(raw..raw + 2) {
            Some(&[start, end]) => {
                end == start + 1 && self.text.as_bytes().get(start as usize) == Some(&b' ')
            }
            _ => false,
        }
    }

    /// Adds the trivia tokens from `*raw` on, if any.
    #[inline]
    pub(super) fn eat<B: TreeSink>(&self, builder: &mut B, raw: &mut usize) {
        // Most tokens have no trivia in front: keep that check inline.
        if self.raw_kinds.get(*raw).is_some_and(|k| k.is_trivia()) {
            self.eat_run(builder, raw);
        }
    }

    pub(super) fn eat_run<B: TreeSink>(&self, builder: &mut B, raw: &mut usize) {
        let (kinds, starts, bytes) = (self.raw_kinds, self.starts, self.text.as_bytes());
        // A line break the layout pass made trivia (a blank line, a line
        // inside brackets).
        let trivial_break = |r: usize| {
            kinds.get(r) == Some(&WHITESPACE)
                && crate::lines::is_line_break(bytes[starts[r] as usize])
        };
        let mut r = *raw;
        // Tokens since the interrupt was last told.
        let mut steps = 0;
        while let Some(&kind) = kinds.get(r)
            && kind.is_trivia()
        {
            // A run of trivial line breaks (blank lines) is one token: a
            // file of ten million empty lines is one token, not ten million.
            let start = r;
            if trivial_break(r) {
                while trivial_break(r + 1) {
                    r += 1;
                    steps += 1;
                    if steps == TICKS {
                        self.interrupt.tick_by(TICKS);
                        steps = 0;
                    }
                }
            }
            builder.token(
                kind,
                self.text,
                starts[start] as usize..starts[r + 1] as usize,
            );
            r += 1;
            steps += 1;
            if steps == TICKS {
                self.interrupt.tick_by(TICKS);
                steps = 0;
            }
        }
        *raw = r;
        self.interrupt.tick_by(steps);
    }
}

/// How many tokens [`Trivia::eat_run`] counts before it tells the
/// interrupt.
const TICKS: u32 = 1024;
