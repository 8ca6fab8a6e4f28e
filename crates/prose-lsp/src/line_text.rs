//! A document's text with its line index: byte offsets <-> LSP positions.
//!
//! Lines end at `\n`, `\r\n` or a lone `\r`, as LSP says (and as the lexer
//! and every line count of the analysis do: `prose_syntax::lines`); a
//! column never points inside a line break, so between the `\r` and the
//! `\n` of a `\r\n` is the end of the line's content.
//!
//! Columns count UTF-16 code units unless the client agreed on UTF-8. The
//! index keeps the start of every line and the non-ASCII characters of the
//! text with running sums of what they save in UTF-16, so converting a
//! position in either direction is a binary search, whatever the length of
//! the line.
//!
//! Two directions, two policies:
//! - offsets -> positions never fail: an offset past the end, inside a
//!   character or inside a `\r\n` is moved back to the nearest valid place;
//! - positions -> offsets come strict ([`LineText::offset`], `None` when the
//!   position is not in the document: for requests, which then answer with
//!   an error) or clamped ([`LineText::offset_clamped`]: the LSP rule that a
//!   column past the end of a line means its end; used for edits).
//!
//! The text is an `Arc<String>`, shared with the analysis input and with
//! running diagnostics jobs rather than copied.

use std::sync::Arc;

use ls_types::{Position, Range};
use prose_ide::{TextRange, TextSize};
use prose_syntax::lines;

use crate::convert::Encoding;

/// A non-ASCII character of the text.
#[derive(Debug, Clone, Copy)]
struct Wide {
    offset: u32,
    /// UTF-8 bytes minus UTF-16 units of the characters of the text before
    /// this one (what they save in UTF-16).
    saved_before: u32,
    len8: u8,
    len16: u8,
}

impl Wide {
    fn saved(&self) -> u32 {
        u32::from(self.len8 - self.len16)
    }
}

/// A document's text with its line index.
#[derive(Debug, Clone)]
pub struct LineText {
    text: Arc<String>,
    /// Where each line starts; `starts[0] == 0`.
    starts: Vec<u32>,
    /// The non-ASCII characters, in order.
    wide: Vec<Wide>,
}

impl LineText {
    pub fn new(text: String) -> LineText {
        Self::shared(Arc::new(text))
    }

    /// A text shared with its other owners (the analysis input).
    pub fn shared(text: Arc<String>) -> LineText {
        let mut t = LineText {
            text,
            starts: Vec::new(),
            wide: Vec::new(),
        };
        t.reindex();
        t
    }

    fn reindex(&mut self) {
        let text = self.text.as_str();
        // Counted first: growing the vector by doubling would take up to
        // twice the room (10 M empty lines are 40 MB of starts).
        let mut starts = Vec::with_capacity(lines::count_breaks(text) + 1);
        starts.push(0);
        starts.extend(lines::line_starts(text).map(|s| s as u32));
        self.starts = starts;
        self.wide.clear();
        if !text.is_ascii() {
            let mut saved = 0;
            for (offset, c) in text.char_indices().filter(|(_, c)| !c.is_ascii()) {
                let wide = Wide {
                    offset: offset as u32,
                    saved_before: saved,
                    len8: c.len_utf8() as u8,
                    len16: c.len_utf16() as u8,
                };
                saved += wide.saved();
                self.wide.push(wide);
            }
        }
        self.wide.shrink_to_fit();
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// The text, shared.
    pub fn shared_text(&self) -> &Arc<String> {
        &self.text
    }

    pub fn len(&self) -> usize {
        self.text.len()
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// The first line that starts at or after `offset`: its index and
    /// where it starts (`None` past the last line start).
    pub(crate) fn first_line_from(&self, offset: u32) -> Option<(u32, u32)> {
        let line = self.starts.partition_point(|&s| s < offset);
        Some((line as u32, *self.starts.get(line)?))
    }

    /// The index of the line starting at `offset`, if one does.
    pub(crate) fn line_starting_at(&self, offset: u32) -> Option<u32> {
        self.starts.binary_search(&offset).ok().map(|l| l as u32)
    }

    /// The byte range of line `line` without its line break, or `None`
    /// past the last line.
    fn line_content(&self, line: u32) -> Option<TextRange> {
        let start = *self.starts.get(line as usize)?;
        let end = match self.starts.get(line as usize + 1) {
            Some(&next) => {
                let bytes = self.text.as_bytes();
                let mut end = next as usize - 1;
                if bytes[end] == b'\n' && end > start as usize && bytes[end - 1] == b'\r' {
                    end -= 1;
                }
                end as u32
            }
            None => self.text.len() as u32,
        };
        Some(TextRange::new(start.into(), end.into()))
    }

    /// `offset` moved back to a character boundary inside the text.
    fn floor_boundary(&self, offset: TextSize) -> TextSize {
        let mut at = usize::from(offset).min(self.text.len());
        while !self.text.is_char_boundary(at) {
            at -= 1;
        }
        TextSize::from(at as u32)
    }

    /// The index in `wide` of the first non-ASCII character at or after
    /// `offset`.
    fn wide_from(&self, offset: u32) -> usize {
        self.wide.partition_point(|w| w.offset < offset)
    }

    /// What the non-ASCII characters before index `i` save in UTF-16.
    fn saved_before(&self, i: usize) -> u32 {
        match self.wide.get(i) {
            Some(w) => w.saved_before,
            None => self.wide.last().map_or(0, |w| w.saved_before + w.saved()),
        }
    }

    /// The UTF-16 length of `text[from..to]` (both character boundaries).
    fn utf16_len(&self, from: u32, to: u32) -> u32 {
        (to - from)
            - (self.saved_before(self.wide_from(to)) - self.saved_before(self.wide_from(from)))
    }

    /// The position of a byte offset. Never fails: see the module docs.
    pub fn position(&self, enc: Encoding, offset: TextSize) -> Position {
        let offset = u32::from(self.floor_boundary(offset));
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let content = self
            .line_content(line as u32)
            .expect("the line of an offset exists");
        // Inside a `\r\n`: the end of the line's content.
        let offset = offset.min(u32::from(content.end()));
        let start = u32::from(content.start());
        let col = match enc {
            Encoding::Utf8 => offset - start,
            Encoding::Utf16 => self.utf16_len(start, offset),
        };
        Position::new(line as u32, col)
    }

    pub fn range(&self, enc: Encoding, range: TextRange) -> Range {
        Range::new(
            self.position(enc, range.start()),
            self.position(enc, range.end()),
        )
    }

    /// The offset a column of a line lands on: `(line content, offset,
    /// whether it is inside a character)`, the offset possibly past the
    /// line's end.
    fn raw_offset(&self, enc: Encoding, pos: Position) -> Option<(TextRange, u64, bool)> {
        let content = self.line_content(pos.line)?;
        let start = u32::from(content.start());
        let col = u64::from(pos.character);
        let (offset, inside) = match enc {
            Encoding::Utf8 => (u64::from(start) + col, false),
            Encoding::Utf16 => {
                // The non-ASCII characters of the line, and the first of
                // them whose UTF-16 column is at or past `col`.
                let first = self.wide_from(start);
                let end = self.wide_from(u32::from(content.end()));
                let base = self.saved_before(first);
                let column = |w: &Wide| u64::from(w.offset - start - (w.saved_before - base));
                let k = first + self.wide[first..end].partition_point(|w| column(w) < col);
                // Every character before `k` lies before the position.
                let saved = u64::from(self.saved_before(k) - base);
                let inside = k > first && {
                    let prev = &self.wide[k - 1];
                    column(prev) + u64::from(prev.len16) > col
                };
                if inside {
                    (u64::from(self.wide[k - 1].offset), true)
                } else {
                    (u64::from(start) + col + saved, false)
                }
            }
        };
        Some((content, offset, inside))
    }

    /// The offset of a position, or `None` when it is not in the document:
    /// a line past the last one, a column past the end of its line or
    /// inside a character (the middle of a surrogate pair or, in UTF-8
    /// mode, of a multi-byte character).
    pub fn offset(&self, enc: Encoding, pos: Position) -> Option<TextSize> {
        let (content, offset, inside) = self.raw_offset(enc, pos)?;
        if inside || offset > u64::from(u32::from(content.end())) {
            return None;
        }
        let offset = offset as usize;
        self.text
            .is_char_boundary(offset)
            .then(|| TextSize::from(offset as u32))
    }

    /// The offset of a position, clamped into the document: a line past the
    /// last one means the end of the text, a column past the end of a line
    /// means the end of that line (before its line break), a column inside
    /// a character means the start of that character.
    pub fn offset_clamped(&self, enc: Encoding, pos: Position) -> TextSize {
        let Some((content, offset, _)) = self.raw_offset(enc, pos) else {
            return TextSize::of(self.text.as_str());
        };
        let offset = offset.min(u64::from(u32::from(content.end())));
        self.floor_boundary(TextSize::from(offset as u32))
    }

    /// The byte range of an LSP range, strictly (see [`LineText::offset`]);
    /// `None` also when the end comes before the start.
    pub fn text_range(&self, enc: Encoding, range: Range) -> Option<TextRange> {
        let start = self.offset(enc, range.start)?;
        let end = self.offset(enc, range.end)?;
        (start <= end).then(|| TextRange::new(start, end))
    }

    /// Applies one `didChange` content change: the whole text when `range`
    /// is `None`, else the clamped range (a reversed range is read forwards).
    pub fn apply_change(&mut self, enc: Encoding, range: Option<Range>, new_text: &str) {
        match range {
            None => self.text = Arc::new(new_text.to_string()),
            Some(range) => {
                let a = usize::from(self.offset_clamped(enc, range.start));
                let b = usize::from(self.offset_clamped(enc, range.end));
                let (a, b) = (a.min(b), a.max(b));
                match Arc::get_mut(&mut self.text) {
                    Some(text) => text.replace_range(a..b, new_text),
                    // Shared (with the analysis's input, after every
                    // edit): the new text made in one copy, where a clone
                    // then `replace_range` copied the text, grew it (a
                    // clone has no room to spare: another copy) and moved
                    // what follows the edit.
                    None => {
                        let old = self.text.as_str();
                        let mut text = String::with_capacity(old.len() - (b - a) + new_text.len());
                        text.push_str(&old[..a]);
                        text.push_str(new_text);
                        text.push_str(&old[b..]);
                        self.text = Arc::new(text);
                    }
                }
                self.reindex_edit(a, b, new_text);
                return;
            }
        }
        self.reindex();
    }

    /// Updates the index after `text[a..b]` (old offsets, character
    /// boundaries) became `inserted`, instead of indexing the whole text
    /// again. Whether an offset starts a line depends on the byte before
    /// it and the byte at it only, so the starts before `a` and those past
    /// `b` are the old ones (the latter moved); only the inserted text and
    /// its two edges are read. The non-ASCII characters before `a` and from
    /// `b` on are the old ones too, those after moved, with what the
    /// characters before them save adjusted.
    fn reindex_edit(&mut self, a: usize, b: usize, inserted: &str) {
        let bytes = self.text.as_bytes();
        let end = a + inserted.len();
        let moved = |offset: u32| (i64::from(offset) + end as i64 - b as i64) as u32;
        // Line starts: `starts[0] == 0` stays; those in `a..=b` are read
        // again from the new text.
        let lo = if a == 0 {
            1
        } else {
            self.starts.partition_point(|&s| (s as usize) < a)
        };
        let hi = self.starts.partition_point(|&s| s as usize <= b);
        let fresh: Vec<u32> = (a.saturating_sub(1)..end)
            .filter(|&i| match bytes[i] {
                b'\n' => true,
                b'\r' => bytes.get(i + 1) != Some(&b'\n'),
                _ => false,
            })
            .map(|i| (i + 1) as u32)
            .collect();
        let tail = lo + fresh.len();
        self.starts.splice(lo..hi, fresh);
        for s in &mut self.starts[tail..] {
            *s = moved(*s);
        }
        // Non-ASCII characters.
        if self.wide.is_empty() && inserted.is_ascii() {
            return;
        }
        let lo = self.wide_from(a as u32);
        let hi = self.wide_from(b as u32);
        let before = self.saved_before(lo);
        let old_after = self.saved_before(hi);
        let mut saved = before;
        let fresh: Vec<Wide> = inserted
            .char_indices()
            .filter(|(_, c)| !c.is_ascii())
            .map(|(offset, c)| {
                let wide = Wide {
                    offset: (a + offset) as u32,
                    saved_before: saved,
                    len8: c.len_utf8() as u8,
                    len16: c.len_utf16() as u8,
                };
                saved += wide.saved();
                wide
            })
            .collect();
        let tail = lo + fresh.len();
        self.wide.splice(lo..hi, fresh);
        for w in &mut self.wide[tail..] {
            w.offset = moved(w.offset);
            w.saved_before = w.saved_before - old_after + saved;
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    pub(crate) fn pos(line: u32, character: u32) -> Position {
        Position::new(line, character)
    }

    pub(crate) fn off(n: u32) -> TextSize {
        TextSize::from(n)
    }

    #[test]
    fn ascii_round_trips() {
        let t = LineText::new("ab\ncd\n".into());
        for enc in [Encoding::Utf8, Encoding::Utf16] {
            assert_eq!(t.position(enc, off(0)), pos(0, 0));
            assert_eq!(t.position(enc, off(2)), pos(0, 2));
            assert_eq!(t.position(enc, off(3)), pos(1, 0));
            assert_eq!(t.position(enc, off(6)), pos(2, 0));
            for o in 0..=6 {
                assert_eq!(t.offset(enc, t.position(enc, off(o))), Some(off(o)));
            }
        }
    }

    #[test]
    fn utf16_counts_non_bmp_as_two_units() {
        // "é" is 2 bytes / 1 unit; "😀" is 4 bytes / 2 units (a surrogate pair).
        let t = LineText::new("é😀x\n😀".into());
        let e = Encoding::Utf16;
        assert_eq!(t.position(e, off(2)), pos(0, 1)); // after é
        assert_eq!(t.position(e, off(6)), pos(0, 3)); // after 😀
        assert_eq!(t.position(e, off(7)), pos(0, 4)); // after x
        assert_eq!(t.position(e, off(12)), pos(1, 2)); // end of text
        assert_eq!(t.offset(e, pos(0, 3)), Some(off(6)));
        assert_eq!(t.offset(e, pos(0, 4)), Some(off(7)));
        assert_eq!(t.offset(e, pos(1, 2)), Some(off(12)));
        assert_eq!(t.offset(e, pos(1, 0)), Some(off(8)));
        // The middle of the surrogate pair is not a position in the text...
        assert_eq!(t.offset(e, pos(0, 2)), None);
        assert_eq!(t.offset(e, pos(1, 1)), None);
        // ...and clamps to the start of the character.
        assert_eq!(t.offset_clamped(e, pos(0, 2)), off(2));
        // An offset inside a character moves back to its start.
        assert_eq!(t.position(e, off(4)), pos(0, 1));
    }

    #[test]
    fn utf16_round_trips_on_mixed_text() {
        let text = "aé😀\r\nß日本\rx😀😀y\n\n€";
        let t = LineText::new(text.into());
        for (o, _) in text.char_indices().chain([(text.len(), ' ')]) {
            let p = t.position(Encoding::Utf16, off(o as u32));
            let back = t.offset(Encoding::Utf16, p).unwrap();
            // Offsets inside a line break map to the end of the line.
            let within_break = text[..o].ends_with('\r') && text[o..].starts_with('\n');
            if !within_break {
                assert_eq!(back, off(o as u32), "{o} -> {p:?}");
            }
        }
        assert_eq!(t.position(Encoding::Utf16, off(5)), pos(0, 2));
        assert_eq!(t.position(Encoding::Utf16, off(7)), pos(0, 4));
        assert_eq!(
            t.position(Encoding::Utf16, off(8)),
            pos(0, 4),
            "inside \\r\\n"
        );
        assert_eq!(t.position(Encoding::Utf16, off(9)), pos(1, 0));
    }

    #[test]
    fn utf8_mode_counts_bytes() {
        let t = LineText::new("é😀x".into());
        let e = Encoding::Utf8;
        assert_eq!(t.position(e, off(6)), pos(0, 6));
        assert_eq!(t.offset(e, pos(0, 6)), Some(off(6)));
        assert_eq!(t.offset(e, pos(0, 1)), None); // inside é
        assert_eq!(t.offset_clamped(e, pos(0, 1)), off(0));
        assert_eq!(t.offset_clamped(e, pos(0, 4)), off(2)); // inside 😀
    }

    #[test]
    fn crlf_line_breaks_are_not_columns() {
        let t = LineText::new("ab\r\ncd\r\n".into());
        for enc in [Encoding::Utf8, Encoding::Utf16] {
            assert_eq!(t.position(enc, off(2)), pos(0, 2));
            // Between `\r` and `\n`: the end of the line's content.
            assert_eq!(t.position(enc, off(3)), pos(0, 2));
            assert_eq!(t.position(enc, off(4)), pos(1, 0));
            assert_eq!(t.offset(enc, pos(1, 2)), Some(off(6)));
            assert_eq!(t.offset(enc, pos(0, 3)), None);
            assert_eq!(t.offset_clamped(enc, pos(0, 3)), off(2));
            assert_eq!(t.offset(enc, pos(2, 0)), Some(off(8)));
        }
    }

    #[test]
    fn a_lone_cr_ends_a_line() {
        let t = LineText::new("ab\rcd\r\n\ref".into());
        for enc in [Encoding::Utf8, Encoding::Utf16] {
            assert_eq!(t.position(enc, off(3)), pos(1, 0));
            assert_eq!(t.position(enc, off(7)), pos(2, 0), "after \\r\\n");
            assert_eq!(t.position(enc, off(8)), pos(3, 0), "after a lone \\r");
            assert_eq!(t.offset(enc, pos(3, 1)), Some(off(9)));
            assert_eq!(t.offset(enc, pos(0, 3)), None, "the \\r is not a column");
            assert_eq!(t.offset_clamped(enc, pos(0, 9)), off(2));
        }
    }

    #[test]
    fn positions_past_the_end() {
        let t = LineText::new("ab\ncd".into());
        for enc in [Encoding::Utf8, Encoding::Utf16] {
            assert_eq!(t.offset(enc, pos(0, 9)), None);
            assert_eq!(t.offset(enc, pos(2, 0)), None);
            assert_eq!(t.offset(enc, pos(u32::MAX, u32::MAX)), None);
            assert_eq!(t.offset_clamped(enc, pos(0, 9)), off(2));
            assert_eq!(t.offset_clamped(enc, pos(1, u32::MAX)), off(5));
            assert_eq!(t.offset_clamped(enc, pos(7, 1)), off(5));
            assert_eq!(t.position(enc, off(99)), pos(1, 2));
            assert_eq!(
                t.text_range(enc, Range::new(pos(1, 1), pos(0, 0))),
                None,
                "reversed"
            );
        }
        let empty = LineText::new(String::new());
        assert_eq!(empty.position(Encoding::Utf16, off(0)), pos(0, 0));
        assert_eq!(empty.offset(Encoding::Utf16, pos(0, 0)), Some(off(0)));
        assert_eq!(empty.offset(Encoding::Utf16, pos(0, 1)), None);
        let t = LineText::new("😀".into());
        assert_eq!(t.offset(Encoding::Utf16, pos(0, u32::MAX)), None);
        assert_eq!(t.offset_clamped(Encoding::Utf16, pos(0, u32::MAX)), off(4));
    }

    /// The index of `t` is the one a fresh indexing of its text makes.
    fn assert_fresh_index(t: &LineText, context: &str) {
        let fresh = LineText::new(t.text().to_string());
        assert_eq!(t.starts, fresh.starts, "line starts after {context}");
        assert_eq!(
            format!("{:?}", t.wide),
            format!("{:?}", fresh.wide),
            "non-ASCII characters after {context}"
        );
    }

    /// Random edits (line breaks of every kind, non-ASCII text, deletions
    /// across lines) of `text`, each applied incrementally and checked
    /// against a fresh index.
    fn check_random_edits(text: &str, seed: u64, edits: usize) {
        const INSERTS: [&str; 10] = [
            "",
            "#",
            "\n",
            "\r",
            "\r\n",
            "é",
            "😀x\r",
            "ab\ncd",
            "\n\r",
            "日本\r\n",
        ];
        let mut state = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mut next = move |n: usize| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) as usize) % n.max(1)
        };
        let mut t = LineText::new(text.to_string());
        for i in 0..edits {
            let enc = if i % 2 == 0 {
                Encoding::Utf16
            } else {
                Encoding::Utf8
            };
            let len = t.len();
            let a = next(len + 1);
            // Mostly small spans; sometimes up to a few lines.
            let b = (a + if next(4) == 0 { next(200) } else { next(3) }).min(len);
            let (a, b) = (
                t.floor_boundary(off(a as u32)),
                t.floor_boundary(off(b as u32)),
            );
            let range = t.range(enc, TextRange::new(a, b));
            let insert = INSERTS[next(INSERTS.len())];
            // Where the range lands (an offset inside a `\r\n` moves).
            let a = usize::from(t.offset_clamped(enc, range.start));
            let b = usize::from(t.offset_clamped(enc, range.end));
            let mut expected = t.text().to_string();
            expected.replace_range(a..b, insert);
            // Every third edit with the text shared (as the analysis's
            // input shares it), which makes the new text in a copy.
            let held = (i % 3 == 0).then(|| (t.shared_text().clone(), t.text().to_string()));
            t.apply_change(enc, Some(range), insert);
            assert_eq!(t.text(), expected);
            if let Some((held, before)) = held {
                assert_eq!(held.as_str(), before, "the other owner's text changed");
            }
            assert_fresh_index(
                &t,
                &format!("edit {i} of seed {seed}: {range:?} <- {insert:?}"),
            );
        }
    }

    #[test]
    fn incremental_index_is_a_fresh_index() {
        for (seed, text) in [
            "",
            "a",
            "ab\r\ncd\ref\n",
            "aé😀\r\nß日本\rx😀😀y\n\n€",
            "\r\n\r\n\r",
            "session \"x\"\n  prompt: \"é\"\n",
        ]
        .iter()
        .enumerate()
        {
            check_random_edits(text, seed as u64, 400);
        }
    }

    /// Over the examples and the corpora, when they are there.
    #[test]
    fn incremental_index_is_a_fresh_index_on_programs() {
        for (i, path) in crate::test_programs().iter().enumerate() {
            let text = std::fs::read_to_string(path).unwrap();
            check_random_edits(&text, i as u64, 60);
        }
    }

    #[test]
    fn applies_incremental_changes() {
        let mut t = LineText::new("a😀b\nline two\n".into());
        let e = Encoding::Utf16;
        // Replace the emoji (UTF-16 columns 1..3) with "é".
        t.apply_change(e, Some(Range::new(pos(0, 1), pos(0, 3))), "é");
        assert_eq!(t.text(), "aéb\nline two\n");
        // Insert at the end of line 2, and past the end of the document.
        t.apply_change(e, Some(Range::new(pos(1, 99), pos(1, 99))), "!");
        t.apply_change(e, Some(Range::new(pos(9, 0), pos(9, 0))), "tail");
        assert_eq!(t.text(), "aéb\nline two!\ntail");
        // Delete across lines, then replace everything.
        t.apply_change(e, Some(Range::new(pos(0, 2), pos(1, 5))), "");
        assert_eq!(t.text(), "aétwo!\ntail");
        assert_eq!(t.position(e, off(9)), pos(1, 1));
        t.apply_change(e, None, "new");
        assert_eq!(t.text(), "new");
        assert_eq!(t.position(e, off(3)), pos(0, 3));
        // A shared text is copied on write; the other owner keeps its own.
        let shared = t.shared_text().clone();
        t.apply_change(e, Some(Range::new(pos(0, 0), pos(0, 0))), ">");
        assert_eq!((t.text(), shared.as_str()), (">new", "new"));
    }
}
