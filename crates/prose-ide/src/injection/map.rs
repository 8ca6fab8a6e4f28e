//! How an injected text maps onto the text of its host.
//!
//! A guest text is made of pieces of the host's text, in order: runs
//! copied as they are (a fence's lines, the plain text of a prompt
//! string), and runs the host writes differently (an escape `\n`, two
//! bytes in the host, is one line break in the guest). The pieces need not
//! be contiguous in the host: a fence inside a list item leaves out the
//! item's indentation on every line.

use std::sync::Arc;

use prose_syntax::{TextRange, TextSize};

/// One run of the guest text and where it came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Piece {
    guest: TextRange,
    host: TextRange,
}

impl Piece {
    /// Copied as it is: every guest offset has its host offset.
    fn is_verbatim(&self) -> bool {
        self.guest.len() == self.host.len()
    }
}

/// Maps offsets and ranges of a guest text to its host's, and back.
///
/// The pieces are shared, and their host ranges are kept relative to a
/// shift: the map of a text that moved in its host (an edit before it) is
/// the same pieces with another shift, made without copying them (a long
/// program's thousands of prompts move after every edit).
#[derive(Debug, Clone, Default)]
pub struct OffsetMap {
    /// In guest order, host ranges before the shift.
    pieces: Arc<Vec<Piece>>,
    /// Added to every host offset of `pieces`.
    shift: i64,
    /// Where an empty guest text stands in the host.
    anchor: TextSize,
}

/// Two maps are equal when they map alike, however their pieces are
/// shifted.
impl PartialEq for OffsetMap {
    fn eq(&self, other: &OffsetMap) -> bool {
        self.anchor == other.anchor
            && self.pieces.len() == other.pieces.len()
            && (self.shift == other.shift && Arc::ptr_eq(&self.pieces, &other.pieces)
                || self.pieces().eq(other.pieces()))
    }
}

impl Eq for OffsetMap {}

impl std::hash::Hash for OffsetMap {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.anchor.hash(state);
        self.pieces.len().hash(state);
        self.pieces().for_each(|p| p.hash(state));
    }
}

impl OffsetMap {
    /// Gives back the capacity the pieces do not use.
    pub(crate) fn shrink_to_fit(&mut self) {
        Arc::make_mut(&mut self.pieces).shrink_to_fit();
    }

    /// The pieces, with their host ranges where they are in the host.
    fn pieces(&self) -> impl DoubleEndedIterator<Item = Piece> + '_ {
        self.pieces.iter().map(|p| self.shifted(*p))
    }

    /// `p` with its host range where it is in the host.
    fn shifted(&self, p: Piece) -> Piece {
        if self.shift == 0 {
            return p;
        }
        let at = |o: TextSize| TextSize::new((i64::from(u32::from(o)) + self.shift) as u32);
        Piece {
            guest: p.guest,
            host: TextRange::new(at(p.host.start()), at(p.host.end())),
        }
    }

    /// The piece at `i`, shifted.
    fn piece(&self, i: usize) -> Option<Piece> {
        self.pieces.get(i).map(|p| self.shifted(*p))
    }

    /// The same map for the host text moved: every host offset `from` or
    /// after it is moved to start at `to` instead (none lies before `from`).
    pub(crate) fn moved(&self, from: TextSize, to: TextSize) -> OffsetMap {
        let by = i64::from(u32::from(to)) - i64::from(u32::from(from));
        OffsetMap {
            pieces: self.pieces.clone(),
            shift: self.shift + by,
            anchor: TextSize::new((i64::from(u32::from(self.anchor)) + by) as u32),
        }
    }

    /// The host offset of guest offset `offset`. At the boundary of two
    /// pieces, `end_bias` picks the end of the earlier one (for the end of
    /// a range) rather than the start of the later one. Inside a piece that
    /// is not verbatim, the piece's start (or end, with `end_bias`).
    pub fn to_host(&self, offset: TextSize, end_bias: bool) -> TextSize {
        let i = if end_bias {
            self.pieces.partition_point(|p| p.guest.end() < offset)
        } else {
            self.pieces.partition_point(|p| p.guest.end() <= offset)
        };
        let Some(p) = self.piece(i) else {
            return self
                .pieces()
                .next_back()
                .map_or(self.anchor, |p| p.host.end());
        };
        if offset <= p.guest.start() {
            return p.host.start();
        }
        if p.is_verbatim() {
            p.host.start() + (offset - p.guest.start())
        } else if end_bias {
            p.host.end()
        } else {
            p.host.start()
        }
    }

    /// The host range of a guest range (widened to whole pieces where they
    /// are not verbatim).
    pub fn range_to_host(&self, range: TextRange) -> TextRange {
        let start = self.to_host(range.start(), range.is_empty());
        let end = self.to_host(range.end(), true);
        TextRange::new(start, end.max(start))
    }

    /// The guest offset of host offset `offset`, when it lies in (or at
    /// the end of) a piece.
    pub fn to_guest(&self, offset: TextSize) -> Option<TextSize> {
        if self.pieces.is_empty() {
            return (offset == self.anchor).then_some(TextSize::new(0));
        }
        // A piece that holds the offset, else one that ends at it.
        let p = self
            .pieces()
            .find(|p| p.host.contains(offset))
            .or_else(|| self.pieces().find(|p| p.host.end() == offset))?;
        Some(if p.is_verbatim() {
            p.guest.start() + (offset - p.host.start())
        } else {
            p.guest.start()
        })
    }

    /// Whether the host text of `range` is the guest's, byte for byte, so
    /// an edit of it can be made in the host as it is.
    pub fn is_verbatim(&self, range: TextRange) -> bool {
        if self.pieces.is_empty() {
            return range.is_empty();
        }
        let touched: Vec<&Piece> = self
            .pieces
            .iter()
            .filter(|p| {
                if range.is_empty() {
                    p.guest.contains_inclusive(range.start())
                } else {
                    p.guest.start() < range.end() && range.start() < p.guest.end()
                }
            })
            .collect();
        !touched.is_empty()
            && touched.iter().all(|p| p.is_verbatim())
            && touched
                .windows(2)
                .all(|w| w[0].host.end() == w[1].host.start())
    }

    /// Whether host offset `offset` lies in the guest's text.
    pub fn covers(&self, offset: TextSize) -> bool {
        self.to_guest(offset).is_some()
    }

    /// The host range from the first piece to the last.
    pub fn host_span(&self) -> TextRange {
        match (self.piece(0), self.pieces().next_back()) {
            (Some(a), Some(b)) => TextRange::new(a.host.start(), b.host.end()),
            _ => TextRange::empty(self.anchor),
        }
    }
}

/// Builds a guest text and its [`OffsetMap`] piece by piece.
#[derive(Debug, Default)]
pub struct GuestText {
    pub text: String,
    pub map: OffsetMap,
}

impl GuestText {
    /// An empty guest text standing at host offset `anchor`.
    pub fn at(anchor: TextSize) -> GuestText {
        GuestText {
            text: String::new(),
            map: OffsetMap {
                pieces: Arc::default(),
                shift: 0,
                anchor,
            },
        }
    }

    /// An empty guest text standing at host offset `anchor`, with room for
    /// `bytes` of text in `pieces` pieces (a prompt's text is copied line by
    /// line: grown as it came, it was reallocated a few times per prompt).
    pub fn with_room(anchor: TextSize, bytes: usize, pieces: usize) -> GuestText {
        GuestText {
            text: String::with_capacity(bytes),
            map: OffsetMap {
                pieces: Arc::new(Vec::with_capacity(pieces)),
                shift: 0,
                anchor,
            },
        }
    }

    /// The whole of `host` as it is.
    pub fn whole(host: &str) -> GuestText {
        let mut g = GuestText::at(TextSize::new(0));
        g.copy(host, TextRange::up_to(TextSize::of(host)));
        g
    }

    fn push(&mut self, host: TextRange, guest_text: &str) {
        let start = TextSize::of(self.text.as_str());
        self.text.push_str(guest_text);
        let guest = TextRange::at(start, TextSize::of(guest_text));
        // The pieces are this builder's own, not shifted.
        debug_assert_eq!(self.map.shift, 0);
        let pieces = Arc::make_mut(&mut self.map.pieces);
        // Verbatim runs that continue each other in both texts are one piece.
        if let Some(last) = pieces.last_mut()
            && last.is_verbatim()
            && host.len() == guest.len()
            && last.host.end() == host.start()
            && last.guest.end() == guest.start()
        {
            last.host = last.host.cover(host);
            last.guest = last.guest.cover(guest);
            return;
        }
        pieces.push(Piece { guest, host });
    }

    /// Appends the host's text of `range` as it is.
    pub fn copy(&mut self, host_text: &str, range: TextRange) {
        let s = host_text
            .get(usize::from(range.start())..usize::from(range.end()))
            .unwrap_or("");
        self.push(range, s);
    }

    /// Appends `guest_text`, which the host writes as its text of `range`
    /// (an escape sequence and what it stands for).
    pub fn replace(&mut self, range: TextRange, guest_text: &str) {
        self.push(range, guest_text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(a: u32, b: u32) -> TextRange {
        TextRange::new(a.into(), b.into())
    }

    #[test]
    fn verbatim_and_escaped_pieces() {
        // host: `say "a\nb" x` : the string content starts at 5.
        let host = "say \"a\\nb\" x";
        let mut g = GuestText::at(5.into());
        g.copy(host, r(5, 6));
        g.replace(r(6, 8), "\n");
        g.copy(host, r(8, 9));
        assert_eq!(g.text, "a\nb");
        let m = &g.map;
        assert_eq!(m.to_host(0.into(), false), 5.into());
        assert_eq!(m.to_host(1.into(), false), 6.into(), "start of the escape");
        assert_eq!(m.to_host(2.into(), true), 8.into(), "end of the escape");
        assert_eq!(m.range_to_host(r(2, 3)), r(8, 9));
        assert_eq!(m.range_to_host(r(1, 2)), r(6, 8));
        assert_eq!(m.range_to_host(r(0, 3)), r(5, 9));
        assert_eq!(m.to_guest(8.into()), Some(2.into()));
        assert_eq!(m.to_guest(7.into()), Some(1.into()));
        assert_eq!(m.to_guest(9.into()), Some(3.into()));
        assert_eq!(m.to_guest(3.into()), None);
        assert!(m.is_verbatim(r(0, 1)));
        assert!(!m.is_verbatim(r(0, 2)));
        assert!(m.is_verbatim(r(2, 3)));
        assert_eq!(m.host_span(), r(5, 9));
    }

    #[test]
    fn pieces_that_skip_host_text() {
        // A fence in a list item: "- x\n  ```prose\n  a\n  b\n  ```\n"
        let host = "- x\n  ```prose\n  a\n  b\n  ```\n";
        let mut g = GuestText::at(17.into());
        g.copy(host, r(17, 19));
        g.copy(host, r(21, 23));
        assert_eq!(g.text, "a\nb\n");
        let m = &g.map;
        assert_eq!(m.range_to_host(r(2, 3)), r(21, 22));
        assert_eq!(m.range_to_host(r(0, 3)), r(17, 22));
        assert_eq!(m.to_host(2.into(), true), 19.into());
        assert_eq!(m.to_host(2.into(), false), 21.into());
        assert!(
            !m.is_verbatim(r(0, 3)),
            "the host has the indentation between"
        );
        assert!(m.is_verbatim(r(0, 2)));
        assert_eq!(m.to_guest(20.into()), None);
    }

    /// A moved map maps as the map built where the text moved to, and is
    /// equal to it (with the same hash); moved back, it is the first.
    #[test]
    fn moved_maps_are_maps_built_there() {
        let build = |at: u32| {
            let host = format!("{}say \"a\\nb\" x", " ".repeat(at as usize));
            let mut g = GuestText::at((at + 5).into());
            g.copy(&host, r(at + 5, at + 6));
            g.replace(r(at + 6, at + 8), "\n");
            g.copy(&host, r(at + 8, at + 9));
            g.map
        };
        let hash = |m: &OffsetMap| {
            use std::hash::{BuildHasher, BuildHasherDefault};
            BuildHasherDefault::<rustc_hash::FxHasher>::default().hash_one(m)
        };
        let (here, there) = (build(3), build(40));
        let moved = here.moved(3.into(), 40.into());
        assert_eq!(moved, there);
        assert_eq!(hash(&moved), hash(&there));
        assert_ne!(here, there);
        for offset in 0..4u32 {
            for end_bias in [false, true] {
                assert_eq!(
                    moved.to_host(offset.into(), end_bias),
                    there.to_host(offset.into(), end_bias)
                );
            }
        }
        for offset in 0..60u32 {
            assert_eq!(moved.to_guest(offset.into()), there.to_guest(offset.into()));
        }
        assert_eq!(moved.host_span(), there.host_span());
        // Down to the start of the text and back.
        let back = moved.moved(45.into(), 0.into()).moved(0.into(), 8.into());
        assert_eq!(back, here);
        assert_eq!(back.host_span(), r(8, 12));
        let empty = GuestText::at(7.into()).map;
        assert_eq!(
            empty.moved(7.into(), 2.into()).to_host(0.into(), false),
            2.into()
        );
    }

    #[test]
    fn empty_guests_and_whole_texts() {
        let g = GuestText::at(4.into());
        assert_eq!(g.map.to_host(0.into(), false), 4.into());
        assert_eq!(g.map.to_guest(4.into()), Some(0.into()));
        assert_eq!(g.map.range_to_host(r(0, 0)), r(4, 4));
        let w = GuestText::whole("abc");
        assert_eq!(w.map.range_to_host(r(1, 3)), r(1, 3));
        assert_eq!(w.map.to_guest(3.into()), Some(3.into()));
        assert!(w.map.is_verbatim(r(0, 3)));
    }
}
