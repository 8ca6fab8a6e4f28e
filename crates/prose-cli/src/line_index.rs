//! Byte offsets to the 1-based `line:column` positions the CLI prints.
//!
//! The conventions (they are part of the `--format json` contract):
//!
//! - lines and columns are **1-based**;
//! - a line ends after each `\n`, `\r\n` or lone `\r` (as in the lexer, the
//!   language server and LSP: `prose_syntax::lines`); in a CRLF file the
//!   `\r` is the last character of its line;
//! - columns count **Unicode scalar values** (Rust `char`s), not bytes and
//!   not UTF-16 code units: in `é x`, `x` is at column 3;
//! - a byte order mark at the very start of the file is **not** a column:
//!   line 1 starts after it, so the first visible character of a file is at
//!   `1:1` whether or not the file has a BOM (editors hide the BOM too). An
//!   offset inside the BOM maps to `1:1`;
//! - an offset at the end of a file that ends with `\n` is on the (empty)
//!   line after it, at column 1.

/// A 1-based line and column (column in Unicode scalar values).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct LineCol {
    pub line: u32,
    pub column: u32,
}

const BOM: char = '\u{FEFF}';

/// The start offsets of every line of one text.
#[derive(Debug, Clone)]
pub struct LineIndex<'a> {
    text: &'a str,
    /// Byte offset where each line starts; `line_starts[0]` is after the BOM.
    /// (`u32`, and counted before they are collected: a file of ten million
    /// empty lines has ten million of them.)
    line_starts: Vec<u32>,
}

impl<'a> LineIndex<'a> {
    pub fn new(text: &'a str) -> Self {
        let first = if text.starts_with(BOM) {
            BOM.len_utf8()
        } else {
            0
        };
        let mut line_starts = Vec::with_capacity(prose_syntax::lines::count_breaks(text) + 1);
        line_starts.push(first as u32);
        line_starts.extend(prose_syntax::lines::line_starts(text).map(|s| s as u32));
        LineIndex { text, line_starts }
    }

    /// The text this index was built for.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// Clamps `offset` into the text (after the BOM) and down to a `char`
    /// boundary, so any offset is safe to slice at.
    pub fn clamp(&self, offset: usize) -> usize {
        let mut offset = offset.clamp(self.line_starts[0] as usize, self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        offset
    }

    /// The 0-based index of the line containing `offset` (after clamping).
    fn line_of(&self, offset: usize) -> usize {
        self.line_starts
            .partition_point(|&start| start as usize <= offset)
            - 1
    }

    /// The position of a byte offset (see the module docs for conventions).
    pub fn line_col(&self, offset: usize) -> LineCol {
        let offset = self.clamp(offset);
        let line = self.line_of(offset);
        let column = self.text[self.line_starts[line] as usize..offset]
            .chars()
            .count();
        LineCol {
            line: line as u32 + 1,
            column: column as u32 + 1,
        }
    }

    /// The byte range of the whole lines `range` touches, each line with its
    /// terminator; used to cut a snippet for rendering. A non-empty range
    /// ending right after a line break does not touch the next line.
    pub fn lines_around(&self, start: usize, end: usize) -> std::ops::Range<usize> {
        let start = self.clamp(start);
        let end = self.clamp(end).max(start);
        let first = self.line_of(start);
        let last = if end > start {
            self.line_of(end - 1)
        } else {
            first
        };
        let from = self.line_starts[first] as usize;
        let to = self
            .line_starts
            .get(last + 1)
            .map_or(self.text.len(), |&s| s as usize);
        from..to
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lc(text: &str, offset: usize) -> (u32, u32) {
        let p = LineIndex::new(text).line_col(offset);
        (p.line, p.column)
    }

    #[test]
    fn one_based_lines_and_columns() {
        let text = "ab\ncd\n";
        assert_eq!(lc(text, 0), (1, 1));
        assert_eq!(lc(text, 1), (1, 2));
        assert_eq!(lc(text, 2), (1, 3)); // the `\n` itself
        assert_eq!(lc(text, 3), (2, 1));
        assert_eq!(lc(text, 4), (2, 2));
    }

    #[test]
    fn end_of_file() {
        assert_eq!(lc("ab\n", 3), (2, 1));
        assert_eq!(lc("ab", 2), (1, 3));
        assert_eq!(lc("", 0), (1, 1));
        // Offsets past the end are clamped to it.
        assert_eq!(lc("ab", 99), (1, 3));
    }

    #[test]
    fn columns_count_scalar_values() {
        // `é` is 2 bytes, `€` 3 bytes, `😀` 4 bytes (2 UTF-16 units): each
        // is one column.
        let text = "é€😀x";
        let x = text.find('x').unwrap();
        assert_eq!(x, 9);
        assert_eq!(lc(text, x), (1, 4));
        // Combining characters are scalar values of their own.
        let text = "e\u{301}x";
        assert_eq!(lc(text, text.find('x').unwrap()), (1, 3));
    }

    #[test]
    fn offsets_inside_a_char_round_down() {
        let text = "aéb";
        assert_eq!(lc(text, 2), (1, 2)); // inside `é`: its start
        assert_eq!(lc(text, 3), (1, 3));
    }

    #[test]
    fn crlf() {
        let text = "ab\r\ncd\r\n";
        assert_eq!(lc(text, 2), (1, 3)); // `\r`
        assert_eq!(lc(text, 3), (1, 4)); // `\n`
        assert_eq!(lc(text, 4), (2, 1));
        assert_eq!(lc(text, 5), (2, 2));
        assert_eq!(lc(text, 8), (3, 1));
    }

    #[test]
    fn lone_cr_is_a_line_break() {
        assert_eq!(lc("a\rb", 1), (1, 2)); // `\r`
        assert_eq!(lc("a\rb", 2), (2, 1));
    }

    #[test]
    fn bom_is_not_a_column() {
        let text = "\u{FEFF}ab\ncd";
        assert_eq!(lc(text, 0), (1, 1)); // inside the BOM
        assert_eq!(lc(text, 3), (1, 1)); // `a`
        assert_eq!(lc(text, 4), (1, 2)); // `b`
        assert_eq!(lc(text, 6), (2, 1)); // `c`
        // Only a leading BOM is special; elsewhere U+FEFF is a character.
        let text = "a\u{FEFF}b";
        assert_eq!(lc(text, 4), (1, 3));
    }

    #[test]
    fn lines_around() {
        let text = "ab\ncd\nef";
        let index = LineIndex::new(text);
        assert_eq!(index.lines_around(0, 1), 0..3);
        assert_eq!(index.lines_around(3, 3), 3..6);
        // A range ending just after the `\n` stays on its line.
        assert_eq!(index.lines_around(3, 6), 3..6);
        assert_eq!(index.lines_around(1, 4), 0..6);
        assert_eq!(index.lines_around(7, 8), 6..8);
        // The empty line after a final newline.
        let index = LineIndex::new("ab\n");
        assert_eq!(index.lines_around(3, 3), 3..3);
        // The BOM is never part of a snippet.
        let index = LineIndex::new("\u{FEFF}ab\n");
        assert_eq!(index.lines_around(0, 4), 3..6);
    }
}
