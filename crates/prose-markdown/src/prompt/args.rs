//! The arguments of a slash command: words separated by blanks, where a
//! word may hold a double-quoted part (`"two words"`, `name="a b"`) with
//! the escapes `\"`, `\\`, `\n` and `\t` (the seed's `/push` prompt
//! `"/read spec.md\nComplete Phase 2"` holds a line break).

use text_size::TextRange;

use crate::text::range;

/// Maps offsets in a decoded value back to the source text.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct OffsetMap {
    /// `(decoded offset, source offset)` at the start of each run where
    /// the two advance together, ascending.
    points: Vec<(u32, u32)>,
}

impl OffsetMap {
    fn push(&mut self, decoded: usize, source: usize) {
        let (d, s) = (decoded as u32, source as u32);
        if let Some(&(ld, ls)) = self.points.last()
            && ls + (d - ld) == s
        {
            return;
        }
        self.points.push((d, s));
    }

    /// The source offset of decoded offset `d`.
    pub fn source(&self, d: usize) -> usize {
        let d = d as u32;
        let i = self.points.partition_point(|&(pd, _)| pd <= d);
        match i.checked_sub(1).and_then(|i| self.points.get(i)) {
            Some(&(pd, ps)) => (ps + (d - pd)) as usize,
            None => d as usize,
        }
    }

    /// The source range of decoded range `r`.
    pub fn source_range(&self, r: TextRange) -> TextRange {
        let s = self.source(usize::from(r.start()));
        let e = if r.is_empty() {
            s
        } else {
            // The end is one past the last byte: map that byte, then step over it.
            self.source(usize::from(r.end()) - 1) + 1
        };
        range(s, e)
    }
}

/// One argument word.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Arg {
    /// The word as written, quotes included.
    pub range: TextRange,
    /// The word with quotes removed and escapes decoded.
    pub value: String,
    /// Whether the word starts with a double quote.
    pub quoted: bool,
    /// Whether a quote in it is never closed (it then runs to the end of
    /// the line).
    pub unterminated: bool,
    /// Text glued right after a closing quote (`"a"b`): its range.
    pub after_quote: Option<TextRange>,
    /// Where each byte of `value` comes from.
    pub map: OffsetMap,
}

/// Splits `text[start..end]` into arguments.
pub(crate) fn split(text: &str, start: usize, end: usize) -> Vec<Arg> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = start;
    while i < end {
        if b[i] == b' ' || b[i] == b'\t' {
            i += 1;
            continue;
        }
        let word_start = i;
        let mut value = String::new();
        let mut map = OffsetMap::default();
        let mut unterminated = false;
        let mut after_quote = None;
        let mut closed_quote_at = None;
        while i < end && b[i] != b' ' && b[i] != b'\t' {
            if b[i] == b'"' {
                i += 1;
                let mut closed = false;
                while i < end {
                    match b[i] {
                        b'"' => {
                            i += 1;
                            closed = true;
                            break;
                        }
                        b'\\' if i + 1 < end => {
                            let decoded = match b[i + 1] {
                                b'n' => Some('\n'),
                                b't' => Some('\t'),
                                b'"' => Some('"'),
                                b'\\' => Some('\\'),
                                _ => None,
                            };
                            map.push(value.len(), i);
                            match decoded {
                                Some(c) => {
                                    value.push(c);
                                    i += 2;
                                    map.push(value.len(), i);
                                }
                                None => {
                                    value.push('\\');
                                    i += 1;
                                }
                            }
                        }
                        _ => {
                            let ch_len = utf8_len(b[i]);
                            map.push(value.len(), i);
                            value.push_str(text.get(i..i + ch_len).unwrap_or(""));
                            i += ch_len;
                        }
                    }
                }
                if closed {
                    closed_quote_at = Some(i);
                } else {
                    unterminated = true;
                    // An open quote takes the rest of the line, blanks included.
                    break;
                }
            } else {
                if let Some(q) = closed_quote_at
                    && after_quote.is_none()
                {
                    let stop = (q..end)
                        .find(|&k| b[k] == b' ' || b[k] == b'\t')
                        .unwrap_or(end);
                    after_quote = Some(range(q, stop));
                }
                let ch_len = utf8_len(b[i]);
                map.push(value.len(), i);
                value.push_str(text.get(i..i + ch_len).unwrap_or(""));
                i += ch_len;
            }
        }
        out.push(Arg {
            range: range(word_start, i),
            value,
            quoted: b[word_start] == b'"',
            unterminated,
            after_quote,
            map,
        });
    }
    out
}

fn utf8_len(first: u8) -> usize {
    match first {
        0xF0..=0xFF => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::slice;

    fn words(t: &str) -> Vec<(String, String, bool, bool)> {
        split(t, 0, t.len())
            .into_iter()
            .map(|a| {
                (
                    slice(t, a.range).to_string(),
                    a.value,
                    a.quoted,
                    a.unterminated,
                )
            })
            .collect()
    }

    #[test]
    fn words_quotes_and_escapes() {
        assert_eq!(
            words(r#"name=a "two words" x="y z" "a\nb\"c" é"#),
            [
                ("name=a".into(), "name=a".into(), false, false),
                (r#""two words""#.into(), "two words".into(), true, false),
                (r#"x="y z""#.into(), "x=y z".into(), false, false),
                (r#""a\nb\"c""#.into(), "a\nb\"c".into(), true, false),
                ("é".into(), "é".into(), false, false),
            ]
        );
    }

    #[test]
    fn unterminated_quote_takes_the_rest() {
        assert_eq!(
            words(r#"a "b c"#),
            [
                ("a".into(), "a".into(), false, false),
                (r#""b c"#.into(), "b c".into(), true, true),
            ]
        );
    }

    #[test]
    fn text_glued_after_a_quote() {
        let t = r#""a"b c"#;
        let args = split(t, 0, t.len());
        assert_eq!(slice(t, args[0].after_quote.unwrap()), "b");
        assert_eq!(args[0].value, "ab");
    }

    #[test]
    fn offsets_map_back_through_escapes() {
        let t = r#"x "ab\ncd""#;
        let a = &split(t, 0, t.len())[1];
        assert_eq!(a.value, "ab\ncd");
        // `c` is decoded offset 3, source offset 7.
        assert_eq!(a.map.source(3), 7);
        assert_eq!(a.map.source(0), 3);
        let r = a.map.source_range(range(3, 5));
        assert_eq!(slice(t, r), "cd");
        let r = a.map.source_range(range(0, 2));
        assert_eq!(slice(t, r), "ab");
    }
}
