//! Small text helpers shared by both languages: lines with their ranges,
//! ranges from `usize` offsets, and the 1-based line of an offset.

use text_size::{TextRange, TextSize};

/// `start..end` as a [`TextRange`] (offsets are clamped to `u32`).
pub(crate) fn range(start: usize, end: usize) -> TextRange {
    let s = TextSize::new(u32::try_from(start).unwrap_or(u32::MAX));
    let e = TextSize::new(u32::try_from(end.max(start)).unwrap_or(u32::MAX));
    TextRange::new(s, e)
}

/// `range` as `start..end` in `usize`.
pub(crate) fn span(r: TextRange) -> std::ops::Range<usize> {
    usize::from(r.start())..usize::from(r.end())
}

/// The text of `r` in `text`, or `""` when `r` is not a valid range of it.
pub(crate) fn slice(text: &str, r: TextRange) -> &str {
    text.get(span(r)).unwrap_or("")
}

/// One line of a text: its range without the line terminator, and the
/// offset where the next line starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Line {
    pub start: usize,
    /// End of the line's text (before `\r\n` or `\n`).
    pub end: usize,
    /// Start of the next line (after the terminator).
    pub next: usize,
}

impl Line {
    pub fn text(self, text: &str) -> &str {
        text.get(self.start..self.end).unwrap_or("")
    }
}

/// Every line of `text` (an empty text has one empty line; a text ending
/// with a newline has an empty last line).
pub(crate) fn lines(text: &str) -> Vec<Line> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    loop {
        let nl = bytes[start..].iter().position(|&b| b == b'\n');
        match nl {
            Some(i) => {
                let nl_at = start + i;
                let end = if nl_at > start && bytes[nl_at - 1] == b'\r' {
                    nl_at - 1
                } else {
                    nl_at
                };
                out.push(Line {
                    start,
                    end,
                    next: nl_at + 1,
                });
                start = nl_at + 1;
            }
            None => {
                out.push(Line {
                    start,
                    end: text.len(),
                    next: text.len(),
                });
                return out;
            }
        }
    }
}

/// The 1-based line number of `offset` in `text`.
pub(crate) fn line_number(text: &str, offset: usize) -> usize {
    let before = text.get(..offset.min(text.len())).unwrap_or(text);
    before.bytes().filter(|&b| b == b'\n').count() + 1
}

/// Width of the leading blanks of `s` in columns (a tab advances to the
/// next multiple of 4, as in CommonMark), and their length in bytes.
pub(crate) fn indent(s: &str) -> (u32, usize) {
    let mut col = 0u32;
    let mut bytes = 0;
    for b in s.bytes() {
        match b {
            b' ' => col += 1,
            b'\t' => col = (col / 4 + 1) * 4,
            _ => break,
        }
        bytes += 1;
    }
    (col, bytes)
}

/// The longest run of backticks in `s`, so a fence around it can be longer.
pub(crate) fn longest_backtick_run(s: &str) -> usize {
    let mut best = 0;
    let mut run = 0;
    for b in s.bytes() {
        if b == b'`' {
            run += 1;
            best = best.max(run);
        } else {
            run = 0;
        }
    }
    best
}

/// `body` in a fenced block with info string `info`, fenced with enough
/// backticks that nothing inside closes it.
pub(crate) fn fenced(info: &str, body: &str) -> String {
    let fence = "`".repeat(longest_backtick_run(body).max(2) + 1);
    let nl = if body.ends_with('\n') || body.is_empty() {
        ""
    } else {
        "\n"
    };
    format!("{fence}{info}\n{body}{nl}{fence}\n")
}

/// Damerau-Levenshtein distance (optimal string alignment), which counts a
/// swap of two neighbouring letters as one edit.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    strsim::osa_distance(a, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_terminators() {
        let t = "a\r\nbc\n\nd";
        let ls: Vec<_> = lines(t).iter().map(|l| l.text(t)).collect();
        assert_eq!(ls, ["a", "bc", "", "d"]);
        assert_eq!(lines("x\n").len(), 2);
        assert_eq!(lines("").len(), 1);
    }

    #[test]
    fn indent_counts_tabs_to_four() {
        assert_eq!(indent("  x"), (2, 2));
        assert_eq!(indent("\tx"), (4, 1));
        assert_eq!(indent(" \tx"), (4, 2));
    }

    #[test]
    fn fences_outgrow_their_content() {
        assert_eq!(fenced("text", "a ``` b"), "````text\na ``` b\n````\n");
        assert_eq!(fenced("", "x\n"), "```\nx\n```\n");
    }
}
