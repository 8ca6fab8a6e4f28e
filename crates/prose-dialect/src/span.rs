//! Byte ranges into the parsed text.

use serde::{Deserialize, Serialize};

/// A byte range `start..end` into the text that was parsed (for
/// [`crate::parse_document`], the whole document). `end` is exclusive; both
/// ends always fall on `char` boundaries.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub const fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// An empty span at `at`.
    pub const fn empty(at: usize) -> Span {
        Span { start: at, end: at }
    }

    pub const fn len(self) -> usize {
        self.end - self.start
    }

    pub const fn is_empty(self) -> bool {
        self.start == self.end
    }

    /// The smallest span covering both.
    pub fn cover(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }

    /// Whether `offset` lies inside the span or at its end.
    pub const fn touches(self, offset: usize) -> bool {
        self.start <= offset && offset <= self.end
    }

    /// The text of the span in `text` (empty when out of bounds).
    pub fn text(self, text: &str) -> &str {
        text.get(self.start..self.end).unwrap_or("")
    }

    /// The span moved right by `by` bytes (for text parsed out of a larger
    /// document, such as a fenced block in markdown).
    pub const fn shift(self, by: usize) -> Span {
        Span::new(self.start + by, self.end + by)
    }
}

impl From<Span> for std::ops::Range<usize> {
    fn from(s: Span) -> Self {
        s.start..s.end
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cover_touches_text_shift() {
        let a = Span::new(2, 4);
        assert_eq!(a.cover(Span::new(6, 9)), Span::new(2, 9));
        assert!(a.touches(4) && !a.touches(5));
        assert_eq!(a.text("0123456"), "23");
        assert_eq!(Span::new(5, 99).text("0123456"), "");
        assert_eq!(a.shift(10), Span::new(12, 14));
        assert_eq!(std::ops::Range::from(a), 2..4);
        assert!(Span::empty(3).is_empty() && a.len() == 2);
    }
}
