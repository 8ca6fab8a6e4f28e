//! Line breaks, as the Language Server Protocol defines them: `\n`, `\r\n`
//! and a lone `\r` each end a line. The lexer makes each of them one
//! `NEWLINE` token, and every tool that counts lines (the server's
//! positions, the formatter, folding, line numbers in messages) uses these
//! helpers, so a file written with old Mac line ends has as many lines for
//! all of them as for the editor.

/// Whether `b` starts a line break.
#[inline]
pub fn is_line_break(b: u8) -> bool {
    b == b'\n' || b == b'\r'
}

/// Whether `text` holds a line break.
pub fn has_line_break(text: &str) -> bool {
    text.bytes().any(is_line_break)
}

/// The length of the line break at the start of `bytes` (0 when there is
/// none, 2 for `\r\n`).
#[inline]
pub fn break_len(bytes: &[u8]) -> usize {
    match bytes {
        [b'\r', b'\n', ..] => 2,
        [b'\r' | b'\n', ..] => 1,
        _ => 0,
    }
}

/// The offsets where lines start after the first: right after each line
/// break, in order.
///
/// The breaks are found with `memchr` (many bytes at a time): editors and
/// the rules ask for the line starts of long files after every edit.
pub fn line_starts(text: &str) -> impl Iterator<Item = usize> + '_ {
    let bytes = text.as_bytes();
    memchr::memchr2_iter(b'\n', b'\r', bytes).filter_map(move |i| match bytes[i] {
        // The `\r` of a `\r\n`: the line starts after the `\n`.
        b'\r' if bytes.get(i + 1) == Some(&b'\n') => None,
        _ => Some(i + 1),
    })
}

/// The start of the line holding offset `at` (clamped to the text).
pub fn line_start(text: &str, at: usize) -> usize {
    let at = at.min(text.len());
    let bytes = &text.as_bytes()[..at];
    match memchr::memrchr2(b'\n', b'\r', bytes) {
        // Between the `\r` and the `\n` of a `\r\n`: still the line before.
        Some(i) if bytes[i] == b'\r' && text.as_bytes().get(i + 1) == Some(&b'\n') => {
            line_start(text, i)
        }
        Some(i) => i + 1,
        None => 0,
    }
}

/// The end of the line holding offset `at`: the offset of its line break,
/// or the end of the text.
pub fn line_end(text: &str, at: usize) -> usize {
    let at = at.min(text.len());
    memchr::memchr2(b'\n', b'\r', &text.as_bytes()[at..]).map_or(text.len(), |i| at + i)
}

/// The lines of `text` without their line breaks (like `str::lines`, but
/// a lone `\r` ends a line too).
pub fn lines(text: &str) -> impl Iterator<Item = &str> + '_ {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let s = rest?;
        match s.bytes().position(is_line_break) {
            Some(i) => {
                let n = break_len(&s.as_bytes()[i..]);
                rest = Some(&s[i + n..]).filter(|r| !r.is_empty());
                Some(&s[..i])
            }
            None => {
                rest = None;
                Some(s).filter(|s| !s.is_empty())
            }
        }
    })
}

/// The number of line breaks in `text`.
pub fn count_breaks(text: &str) -> usize {
    breaks_ending_in(text.as_bytes(), 0, text.len())
}

/// The number of line breaks of `bytes` whose last byte lies in
/// `from..to`: the line starts in `from + 1..=to`. Counts add up over
/// adjacent ranges, wherever they split (even inside a `\r\n`), so the
/// line of an offset can be counted on from that of an earlier one.
/// Counted many bytes at a time: the `\n`s, then the `\r`s (rare) one by
/// one, a lone one being a break of its own.
pub fn breaks_ending_in(bytes: &[u8], from: usize, to: usize) -> usize {
    let part = &bytes[from..to];
    // In chunks whose counts fit a byte: the compiler sums those with
    // vector instructions.
    let newlines: usize = part
        .chunks(255)
        .map(|c| usize::from(c.iter().map(|&b| u8::from(b == b'\n')).sum::<u8>()))
        .sum();
    let lone_returns = memchr::memchr_iter(b'\r', part)
        .filter(|&i| bytes.get(from + i + 1) != Some(&b'\n'))
        .count();
    newlines + lone_returns
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_break_ends_a_line() {
        let text = "a\nb\r\nc\rd";
        assert_eq!(line_starts(text).collect::<Vec<_>>(), [2, 5, 7]);
        assert_eq!(lines(text).collect::<Vec<_>>(), ["a", "b", "c", "d"]);
        assert_eq!(count_breaks(text), 3);
        assert_eq!(lines("x\n").collect::<Vec<_>>(), ["x"]);
        assert_eq!(lines("\n\nx").collect::<Vec<_>>(), ["", "", "x"]);
        assert_eq!(lines("").count(), 0);
        assert!(has_line_break("a\rb") && !has_line_break("ab"));
    }

    proptest::proptest! {
        /// The line starts are those a byte-by-byte reading finds, on text
        /// made mostly of line breaks and multi-byte characters.
        #[test]
        fn line_starts_are_those_read_byte_by_byte(text in "[\r\na é\u{2028}]{0,64}") {
            let bytes = text.as_bytes();
            let expected: Vec<usize> = (0..bytes.len())
                .filter(|&i| bytes[i] == b'\n' || (bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n')))
                .map(|i| i + 1)
                .collect();
            proptest::prop_assert_eq!(line_starts(&text).collect::<Vec<_>>(), expected);
        }

        /// Counted from any earlier offset, the breaks before an offset are
        /// the line starts up to it.
        #[test]
        fn breaks_ending_in_counts_line_starts(
            text in "[\r\na é\u{2028}]{0,64}",
            a in 0usize..80,
            b in 0usize..80,
        ) {
            let len = text.len();
            let (from, to) = (a.min(b).min(len), a.max(b).min(len));
            let starts = |at: usize| line_starts(&text).filter(|&s| s <= at).count();
            let bytes = text.as_bytes();
            proptest::prop_assert_eq!(breaks_ending_in(bytes, 0, to), starts(to));
            proptest::prop_assert_eq!(
                breaks_ending_in(bytes, 0, from) + breaks_ending_in(bytes, from, to),
                starts(to)
            );
            proptest::prop_assert_eq!(count_breaks(&text), line_starts(&text).count());
        }
    }

    #[test]
    fn starts_and_ends_of_lines() {
        let text = "ab\r\ncd\ref";
        assert_eq!(line_start(text, 0), 0);
        assert_eq!(line_start(text, 2), 0);
        assert_eq!(line_start(text, 3), 0, "between \\r and \\n");
        assert_eq!(line_start(text, 4), 4);
        assert_eq!(line_start(text, 7), 7);
        assert_eq!(line_start(text, 99), 7);
        assert_eq!(line_end(text, 0), 2);
        assert_eq!(line_end(text, 4), 6);
        assert_eq!(line_end(text, 8), 9);
        assert_eq!(break_len(b"\r\nx"), 2);
        assert_eq!(break_len(b"\rx"), 1);
        assert_eq!(break_len(b"x"), 0);
    }
}
