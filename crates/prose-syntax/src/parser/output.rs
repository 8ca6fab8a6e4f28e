//! Where the parser's markers and tokens go ([`Output`]): straight into the
//! green tree ([`Direct`], what a parse uses), or into a flat list of
//! [`Event`]s that `replay.rs` turns into the same tree afterwards
//! ([`Events`], for the trees too deep or too large to build directly, and
//! for the tests that hold the two ways to each other).

use std::collections::HashMap;

use rowan::GreenNode;

use super::{
    CompletedMarker, Marker,
    green::{MAX_ELEMENTS, TreeBuilder},
    replay::{MAX_TREE_DEPTH, Trivia},
};
use crate::{SyntaxKind, interrupt::Interrupt, lexer::Lexed};

/// What the grammar's markers and tokens become.
pub(crate) trait Output {
    /// A node starts here; its kind is known when it is completed.
    fn start(&mut self) -> Marker;
    /// The node of `m` ends here, as a `kind`.
    fn complete(&mut self, m: Marker, kind: SyntaxKind) -> CompletedMarker;
    /// A node starts that wraps the completed `c` (`a` -> `a + b`).
    fn precede(&mut self, c: CompletedMarker) -> Marker;
    /// The next real token, stored as `kind`.
    fn token(&mut self, kind: SyntaxKind);
}

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

/// The parser's output as events, and the far forward parents.
pub(crate) struct Events {
    pub(super) list: Vec<Event>,
    /// Start event index -> distance to its forward parent, for distances
    /// of [`FAR`] or more (rare: the wrapped node spans that many events).
    far: HashMap<u32, u32>,
}

impl Events {
    pub(super) fn with_capacity(events: usize) -> Self {
        Events {
            list: Vec::with_capacity(events),
            far: HashMap::new(),
        }
    }

    /// The index of the forward parent of the start event `i`.
    #[inline]
    pub(super) fn forward_parent(&self, i: usize, forward_parent: u16) -> Option<usize> {
        match forward_parent {
            0 => None,
            FAR => self.far.get(&(i as u32)).map(|&d| i + d as usize),
            d => Some(i + d as usize),
        }
    }
}

impl Output for Events {
    #[inline]
    fn start(&mut self) -> Marker {
        let pos = self.list.len() as u32;
        self.list.push(Event::Tombstone);
        Marker { pos, level: 0 }
    }

    #[inline]
    fn complete(&mut self, m: Marker, kind: SyntaxKind) -> CompletedMarker {
        self.list[m.pos as usize] = Event::Start {
            kind,
            forward_parent: 0,
        };
        self.list.push(Event::Finish);
        CompletedMarker {
            pos: m.pos,
            height: 0,
        }
    }

    fn precede(&mut self, c: CompletedMarker) -> Marker {
        let m = self.start();
        let distance = m.pos - c.pos;
        if let Event::Start { forward_parent, .. } = &mut self.list[c.pos as usize] {
            *forward_parent = match u16::try_from(distance) {
                Ok(d) if d != FAR => d,
                _ => {
                    self.far.insert(c.pos, distance);
                    FAR
                }
            };
        }
        m
    }

    #[inline]
    fn token(&mut self, kind: SyntaxKind) {
        self.list.push(Event::Token { kind });
    }
}

/// Builds the green tree as the parser goes, the tree the replay of the
/// events would build, with its trivia in the same places: trivia goes
/// into the tree in front of the next token or node start (not in front
/// of a `precede`, whose node starts where the node it wraps started), as
/// in the replay. A marker's `pos` is the index of its first child in the
/// builder; a node is made of the children added since, when it is
/// completed (a `precede` takes the children from the wrapped node on).
///
/// It cannot leave nodes out as the replay does when the tree gets deeper
/// than [`MAX_TREE_DEPTH`] (a node that `precede` wraps gets deeper after it
/// is built), so it only notices: it keeps the height of each open node's
/// highest child, stops building nodes higher than the limit (so that no
/// tree it builds is too deep to drop), and [`Direct::finish`] gives
/// nothing; the caller then parses again into events.
pub(crate) struct Direct<'a, 'i> {
    builder: TreeBuilder,
    trivia: Trivia<'a, 'i>,
    /// The next raw token to add.
    raw: usize,
    /// One entry per open marker, innermost last: the height of its
    /// highest completed child node (0: none yet).
    levels: Vec<u32>,
    /// A `WHITESPACE` token of one space, the commonest trivia.
    space: u32,
    /// How many more nodes the builder's ids have room for.
    nodes_left: usize,
    /// A node was too deep or too many: the tree is not built.
    overflow: bool,
}

impl<'a, 'i> Direct<'a, 'i> {
    /// A builder for the tree of `lexed` (`tokens`: the number of the
    /// parser's tokens, a capacity hint), if its ids have room for the
    /// tokens.
    pub(super) fn new(
        text: &'a str,
        lexed: &'a Lexed,
        tokens: usize,
        interrupt: &'a Interrupt<'i>,
    ) -> Option<Self> {
        // The tree holds at most one token per raw token, and the root's
        // `ERROR` node for what the parser left.
        let nodes_left = MAX_ELEMENTS.checked_sub(lexed.kinds.len() + 3)?;
        // The replay sized its tables by the number of events, about two
        // per parser token.
        let mut builder = TreeBuilder::new(tokens * 2);
        let space = builder.make_token(SyntaxKind::WHITESPACE, " ");
        Some(Direct {
            builder,
            trivia: Trivia::new(text, &lexed.kinds, &lexed.starts, interrupt),
            raw: 0,
            levels: Vec::new(),
            space,
            nodes_left,
            overflow: false,
        })
    }

    /// Adds the trivia in front of the next token, as [`Trivia::eat`],
    /// with the commonest case inline: one space.
    #[inline(always)]
    fn eat_trivia(&mut self) {
        let kinds = self.trivia.raw_kinds;
        let r = self.raw;
        match kinds.get(r) {
            Some(&SyntaxKind::WHITESPACE)
                if kinds.get(r + 1).is_some_and(|k| !k.is_trivia()) && self.trivia.is_space(r) =>
            {
                self.builder.push_token(self.space);
                self.raw = r + 1;
            }
            Some(k) if k.is_trivia() => self.trivia.eat_run(&mut self.builder, &mut self.raw),
            _ => {}
        }
    }

    /// The tree, unless it was too deep or too large to build this way.
    pub(super) fn finish(self) -> Option<GreenNode> {
        (!self.overflow).then(|| self.builder.finish())
    }

    /// The highest entry of `levels` from `level` on: markers dropped
    /// without being completed (the grammar has none) leave theirs above
    /// the marker being completed, and their children are its children.
    #[cold]
    #[inline(never)]
    fn highest_from(&self, level: usize) -> u32 {
        let above = self.levels.get(level..).unwrap_or_default();
        above.iter().copied().max().unwrap_or(0)
    }

    /// The root is being completed: what is left of the text goes into
    /// it, as in the replay: the trivia, then (only possible after the
    /// parser gave up) the remaining tokens in an `ERROR` node.
    #[cold]
    fn finish_root(&mut self) {
        self.trivia.eat(&mut self.builder, &mut self.raw);
        let raw_kinds = self.trivia.raw_kinds;
        if self.raw < raw_kinds.len() {
            let first = self.builder.checkpoint();
            while self.raw < raw_kinds.len() {
                let range = self.trivia.range(self.raw);
                self.builder
                    .token(raw_kinds[self.raw], self.trivia.text, range);
                self.raw += 1;
            }
            self.builder.finish_node_at(SyntaxKind::ERROR, first);
        }
    }
}

impl Output for Direct<'_, '_> {
    #[inline(always)]
    fn start(&mut self) -> Marker {
        let level = self.levels.len() as u32;
        // The replay adds the trivia before a node inside the enclosing
        // one; before the root, there is none.
        if level > 0 {
            self.eat_trivia();
        }
        self.levels.push(0);
        Marker {
            pos: self.builder.checkpoint() as u32,
            level,
        }
    }

    #[inline]
    fn complete(&mut self, m: Marker, kind: SyntaxKind) -> CompletedMarker {
        let level = m.level as usize;
        let below = match self.levels.get(level..) {
            Some(&[below]) => below,
            _ => self.highest_from(level),
        };
        self.levels.truncate(level);
        let height = below + 1;
        if let Some(top) = self.levels.last_mut() {
            *top = (*top).max(height);
        }
        let done = CompletedMarker { pos: m.pos, height };
        if height > MAX_TREE_DEPTH as u32 || self.nodes_left == 0 {
            // Too deep: every node around this one is higher, so none of
            // them is built either. Too many: no later node is.
            self.overflow = true;
            return done;
        }
        self.nodes_left -= 1;
        if level == 0 {
            self.finish_root();
        }
        self.builder.finish_node_at(kind, m.pos as usize);
        done
    }

    #[inline]
    fn precede(&mut self, c: CompletedMarker) -> Marker {
        let level = self.levels.len() as u32;
        self.levels.push(c.height);
        Marker { pos: c.pos, level }
    }

    #[inline]
    fn token(&mut self, kind: SyntaxKind) {
        self.eat_trivia();
        if self.raw < self.trivia.raw_kinds.len() {
            let range = self.trivia.range(self.raw);
            self.builder.token(kind, self.trivia.text, range);
            self.raw += 1;
        }
    }
}
