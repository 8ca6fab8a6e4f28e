//! A decoded JSON string that remembers where each part of it came from.

use text_size::{TextRange, TextSize};

/// A string literal: its decoded text, the range of the literal (quotes
/// included), and where its escapes are, so that any range of the decoded
/// text maps back to the exact source bytes ([`JsonString::source_range`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct JsonString {
    text: String,
    range: TextRange,
    /// Offset of the first byte after the opening quote.
    content_start: u32,
    /// The escapes in source order (empty for most strings).
    escapes: Vec<Escape>,
    /// Whether the closing quote is there.
    closed: bool,
}

/// One escape sequence: `source_len` bytes of source decoded to
/// `decoded_len` bytes of text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Escape {
    pub(crate) decoded_start: u32,
    pub(crate) decoded_len: u32,
    pub(crate) source_start: u32,
    pub(crate) source_len: u32,
}

impl JsonString {
    pub(crate) fn new(
        text: String,
        range: TextRange,
        content_start: u32,
        escapes: Vec<Escape>,
        closed: bool,
    ) -> JsonString {
        JsonString {
            text,
            range,
            content_start,
            escapes,
            closed,
        }
    }

    /// A string that is not in any source (a name typed by a caller): its
    /// ranges are all `at`, empty.
    pub fn detached(text: impl Into<String>, at: TextSize) -> JsonString {
        let text = text.into();
        // One "escape" that decodes nothing in the source to the whole
        // text: every range maps to the empty range at `at`.
        let escapes = vec![Escape {
            decoded_start: 0,
            decoded_len: text.len() as u32,
            source_start: at.into(),
            source_len: 0,
        }];
        JsonString {
            text,
            range: TextRange::empty(at),
            content_start: at.into(),
            escapes,
            closed: false,
        }
    }

    /// The decoded text.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The range of the literal, quotes included.
    pub fn range(&self) -> TextRange {
        self.range
    }

    /// The range between the quotes (to the end of the literal when the
    /// closing quote is missing).
    pub fn content_range(&self) -> TextRange {
        let start = TextSize::from(self.content_start).min(self.range.end());
        let end = if self.closed {
            self.range.end() - TextSize::from(1)
        } else {
            self.range.end()
        };
        TextRange::new(start, end.max(start))
    }

    /// Whether the decoded text is the source text between the quotes,
    /// byte for byte (no escapes): then renaming can edit it in place.
    pub fn is_verbatim(&self) -> bool {
        self.escapes.is_empty()
    }

    /// The source range of `start..end`, byte offsets into the decoded text.
    /// A bound inside the output of an escape widens to the whole escape.
    pub fn source_range(&self, start: usize, end: usize) -> TextRange {
        let s = self.source_offset(start, false);
        let e = self.source_offset(end.max(start), true);
        TextRange::new(s.into(), e.max(s).into())
    }

    fn source_offset(&self, decoded: usize, is_end: bool) -> u32 {
        let d = decoded.min(self.text.len()) as u32;
        // The last escape that starts before `d` (at or before it, for a start).
        let n = self.escapes.partition_point(|e| {
            if is_end {
                e.decoded_start < d
            } else {
                e.decoded_start <= d
            }
        });
        let Some(e) = n.checked_sub(1).map(|i| self.escapes[i]) else {
            return self.content_start + d;
        };
        let decoded_end = e.decoded_start + e.decoded_len;
        if d < decoded_end || (is_end && d == decoded_end) {
            if is_end {
                e.source_start + e.source_len
            } else {
                e.source_start
            }
        } else {
            e.source_start + e.source_len + (d - decoded_end)
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::json::{ValueKind, parse};

    fn string(text: &str) -> super::JsonString {
        match parse(text).root.unwrap().kind {
            ValueKind::String(s) => s,
            other => panic!("not a string: {other:?}"),
        }
    }

    #[test]
    fn verbatim_strings_map_by_offset() {
        let s = string(r#"  "ab $cd""#);
        assert_eq!(s.as_str(), "ab $cd");
        assert!(s.is_verbatim());
        assert_eq!(
            s.source_range(3, 6),
            text_size::TextRange::new(6.into(), 9.into())
        );
        assert_eq!(
            s.content_range(),
            text_size::TextRange::new(3.into(), 9.into())
        );
    }

    #[test]
    fn escapes_shift_later_offsets() {
        // "a\n\u00e9 $x"  decoded: a, LF, é (2 bytes), space, $, x
        let text = r#""a\n\u00e9 $x""#;
        let s = string(text);
        assert_eq!(s.as_str(), "a\né $x");
        let start = s.as_str().find('$').unwrap();
        let r = s.source_range(start, start + 2);
        assert_eq!(&text[r], "$x");
        // The range of the é widens to its whole escape.
        let e = s.as_str().find('é').unwrap();
        assert_eq!(&text[s.source_range(e, e + 2)], r"\u00e9");
        assert_eq!(&text[s.source_range(e + 1, e + 2)], r"\u00e9");
        assert_eq!(&text[s.content_range()], r"a\n\u00e9 $x");
    }

    #[test]
    fn a_variable_written_with_escapes_maps_to_its_escapes() {
        let text = r#""\u0024name""#;
        let s = string(text);
        assert_eq!(s.as_str(), "$name");
        assert_eq!(&text[s.source_range(0, 5)], r"\u0024name");
        assert_eq!(&text[s.source_range(1, 5)], "name");
    }

    #[test]
    fn unterminated_string_content_runs_to_the_end() {
        let text = "[\"abc\n]";
        let doc = parse(text);
        let ValueKind::Array(items) = doc.root.unwrap().kind else {
            panic!()
        };
        let ValueKind::String(s) = &items[0].kind else {
            panic!()
        };
        assert_eq!(s.as_str(), "abc");
        assert_eq!(&text[s.content_range()], "abc");
        assert_eq!(&text[s.range()], "\"abc");
    }
}
