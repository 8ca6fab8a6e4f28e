//! Program order for E018 and W011 (not a rule itself): where each
//! position runs, with every `block` body placed at the block's first call
//! from outside it.

use rustc_hash::FxHashMap as HashMap;

use crate::openprose::rules::prelude::*;

/// Program order: source order, with each `block` body placed at the
/// block's first invocation from outside its own body.
///
/// A position's place is the path of call offsets from the top level down
/// to its frame, then its own offset, compared as a sequence: a block body
/// runs where its first call (the least such path) runs. The paths are not
/// kept: the frames are entered depth first, each at its first call in
/// that order (which is the least path to it), and numbered in the order
/// of a walk through them; a position is then placed by the number of the
/// stretch of its frame it lies in (between two calls that entered a
/// frame) and its offset. Comparing those pairs compares the paths. (A
/// chain of thousands of blocks, each calling the next, made paths as long
/// as the chain, and placing them again round after round took cubic time.)
pub(super) struct ProgramOrder {
    /// Every block definition, in pre-order.
    every: Vec<SyntaxNode>,
    /// For each of `every`, the nearest definition holding it (definitions
    /// nest: the one holding a range is the nearest before it that holds
    /// it, or one holding that).
    holder: Vec<Option<usize>>,
    /// Positions among the first block definitions of each name, by
    /// definition node.
    index: HashMap<SyntaxNode, usize>,
    /// The top level (0) and each first block definition (1 + its index):
    /// how its body is placed, if it runs.
    frames: Vec<Option<Placed>>,
}

/// How the positions of a frame that runs are placed.
#[derive(Clone, Default)]
struct Placed {
    /// The number of the stretch before the frame's first call that
    /// entered another frame.
    entry: u32,
    /// The offset of each call that entered another frame, in order, and
    /// the number of the stretch after it.
    after_calls: Vec<(u32, u32)>,
}

/// Where a node sits: outside every block, in the body of a first block
/// definition of its name, or in a block that is not the first of its
/// name (never run).
#[derive(Clone, Copy)]
pub(super) enum Frame {
    Top,
    Block(usize),
    Dead,
}

impl Frame {
    /// Its place in `ProgramOrder::frames` (none for a block that never
    /// runs).
    fn slot(self) -> Option<usize> {
        match self {
            Frame::Top => Some(0),
            Frame::Block(i) => Some(i + 1),
            Frame::Dead => None,
        }
    }
}

impl ProgramOrder {
    /// Places every block body at its first invocation from outside it.
    pub(super) fn new(ctx: &Ctx<'_>) -> ProgramOrder {
        let mut defs: Vec<SyntaxNode> = Vec::new();
        let mut by_name: HashMap<String, usize> = HashMap::default();
        let every: Vec<SyntaxNode> = nodes::<ast::BlockDef>(ctx)
            .map(|b| b.syntax().clone())
            .collect();
        for b in every.iter().filter_map(|n| ast::BlockDef::cast(n.clone())) {
            if let Some(n) = b.name() {
                let len = defs.len();
                by_name.entry(n.text()).or_insert_with(|| {
                    defs.push(b.syntax().clone());
                    len
                });
            }
        }
        let mut holder = Vec::with_capacity(every.len());
        let mut open: Vec<usize> = Vec::new();
        for (i, def) in every.iter().enumerate() {
            let range = def.text_range();
            while let Some(&o) = open.last() {
                if every[o].text_range().contains_range(range) {
                    break;
                }
                open.pop();
            }
            holder.push(open.last().copied());
            open.push(i);
        }
        let mut this = ProgramOrder {
            every,
            holder,
            index: defs
                .iter()
                .enumerate()
                .map(|(i, n)| (n.clone(), i))
                .collect(),
            frames: vec![None; defs.len() + 1],
        };
        // The calls in each frame (offset, the frame of the block called),
        // without those inside the called block's own body: each
        // definition meets only its own calls from outside.
        let mut calls: Vec<Vec<(u32, usize)>> = vec![Vec::new(); defs.len() + 1];
        for c in nodes::<ast::DoCall>(ctx) {
            let Some(n) = c.name_ref() else { continue };
            // The name as `NameRef::text` reads it, without a copy.
            let tok = n.ident_token();
            let Some(&target) = by_name.get(tok.as_ref().map_or("", |t| t.text())) else {
                continue;
            };
            let call = c.syntax();
            if call.ancestors().any(|a| a == defs[target]) {
                continue;
            }
            if let Some(slot) = this.frame(call).slot() {
                calls[slot].push((u32::from(call.text_range().start()), target + 1));
            }
        }
        for list in &mut calls {
            list.sort_by_key(|&(offset, _)| offset);
        }
        // Depth first from the top level, the calls of each frame in
        // order: a frame is entered at its first call met, the least path
        // to it. Each entry and each return starts a new stretch.
        let mut stretch = 0;
        this.frames[0] = Some(Placed::default());
        // The frames entered: each with its next call, and the offset of
        // the call that entered it.
        let mut stack: Vec<(usize, usize, u32)> = vec![(0, 0, 0)];
        while let Some(top) = stack.last_mut() {
            let (frame, next) = (top.0, top.1);
            let Some(&(offset, target)) = calls[frame].get(next) else {
                let (_, _, entered_at) = stack.pop().expect("a frame on the stack");
                if let Some(&(parent, _, _)) = stack.last() {
                    stretch += 1;
                    (this.frames[parent].as_mut())
                        .expect("a frame on the stack is placed")
                        .after_calls
                        .push((entered_at, stretch));
                }
                continue;
            };
            top.1 += 1;
            if this.frames[target].is_none() {
                stretch += 1;
                this.frames[target] = Some(Placed {
                    entry: stretch,
                    after_calls: Vec::new(),
                });
                stack.push((target, 0, offset));
            }
        }
        this
    }

    /// The frame `node` sits in: its nearest enclosing block definition.
    fn frame(&self, node: &SyntaxNode) -> Frame {
        self.frame_of(
            node.ancestors()
                .skip(1)
                .find(|a| a.kind() == SyntaxKind::BLOCK_DEF),
        )
    }

    /// The frame of a node that is no block definition and covers `range`
    /// (not empty): the nearest block definition whose range holds it (a
    /// node's ancestors are the nodes whose ranges hold a range it covers,
    /// and the nearest comes last in pre-order).
    ///
    /// The last definition starting at or before the range is the one, or
    /// one holding it is (a definition that starts before it and holds the
    /// range holds it too): its holders are tried, not every definition
    /// before it.
    pub(super) fn frame_at(&self, range: TextRange) -> Frame {
        let before = self
            .every
            .partition_point(|b| b.text_range().start() <= range.start());
        let mut at = before.checked_sub(1);
        while let Some(i) = at {
            if self.every[i].text_range().contains_range(range) {
                return self.frame_of(Some(self.every[i].clone()));
            }
            at = self.holder[i];
        }
        self.frame_of(None)
    }

    /// The frame of the body of `block` (none: outside every block).
    fn frame_of(&self, block: Option<SyntaxNode>) -> Frame {
        match block {
            None => Frame::Top,
            Some(block) => self
                .index
                .get(&block)
                .map_or(Frame::Dead, |&i| Frame::Block(i)),
        }
    }

    /// Where something at `offset` in `frame` runs first, if it runs at
    /// all: the number of its frame's stretch, then the offset.
    pub(super) fn place(&self, frame: Frame, offset: u32) -> Option<Vec<u32>> {
        let placed = self.frames[frame.slot()?].as_ref()?;
        let before = placed
            .after_calls
            .partition_point(|&(call, _)| call < offset);
        let stretch = match before {
            0 => placed.entry,
            n => placed.after_calls[n - 1].1,
        };
        Some(vec![stretch, offset])
    }

    /// Where `node` runs first in program order, if it runs at all.
    pub(super) fn position(&self, node: &SyntaxNode) -> Option<Vec<u32>> {
        self.place(self.frame(node), u32::from(node.text_range().start()))
    }
}
