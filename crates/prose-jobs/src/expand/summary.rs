//! What the checks need to know about an expanded prompt, computed without
//! building its text: its length, whether it mentions a boolean tool or
//! `$user-input`, and whether its expansion met an error.
//!
//! Summaries compose: the summary of `a + b` comes from the summaries of
//! `a` and `b` in constant time. A phrase split across the boundary is
//! found in the last bytes of `a` and the first bytes of `b`, which a
//! summary keeps ([`EDGE`] of each). So each prompt variable is summarized
//! once however often it is used, and a variable that doubles at every
//! level (`$a` = `$b $b`, `$b` = `$c $c`, ...) costs as much as its
//! definitions, not as much as its expansion.

use text_size::TextRange;

/// The phrases the checks look for in an expanded prompt.
pub(crate) const PHRASES: [&[u8]; 3] = [b"job_boolean_true", b"job_boolean_false", b"$user-input"];
pub(crate) const BOOLEAN_TRUE: u8 = 1;
pub(crate) const BOOLEAN_FALSE: u8 = 2;
pub(crate) const USER_INPUT: u8 = 4;

/// Bytes kept at each end: one less than the longest phrase.
const EDGE: usize = 16;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Summary {
    /// Length of the expanded text in bytes (saturating).
    pub(crate) len: u64,
    /// The first bytes (up to [`EDGE`]), from index 0.
    head: [u8; EDGE],
    /// The last bytes (up to [`EDGE`]), ending at index `EDGE`.
    tail: [u8; EDGE],
    /// Which of [`PHRASES`] occur (bit i for phrase i).
    pub(crate) found: u8,
    /// Whether the expansion met no error (no unknown variable, cycle,
    /// empty prompt or limit): only then do checks on the text apply.
    pub(crate) complete: bool,
    /// The first `$user-input` written in the source that the expansion
    /// reaches, for the user-input check to point at.
    pub(crate) user_input_at: Option<TextRange>,
}

fn scan(bytes: &[u8]) -> u8 {
    let mut found = 0;
    for (i, phrase) in PHRASES.iter().enumerate() {
        if bytes.windows(phrase.len()).any(|w| w == *phrase) {
            found |= 1 << i;
        }
    }
    found
}

impl Summary {
    /// The empty text.
    pub(crate) fn empty() -> Summary {
        Summary {
            len: 0,
            head: [0; EDGE],
            tail: [0; EDGE],
            found: 0,
            complete: true,
            user_input_at: None,
        }
    }

    /// A piece of literal text.
    pub(crate) fn text(text: &str) -> Summary {
        let b = text.as_bytes();
        let mut s = Summary::empty();
        s.len = b.len() as u64;
        let n = b.len().min(EDGE);
        s.head[..n].copy_from_slice(&b[..n]);
        s.tail[EDGE - n..].copy_from_slice(&b[b.len() - n..]);
        s.found = scan(b);
        s
    }

    /// A summary that carries an error: checks on its text do not apply.
    pub(crate) fn incomplete(mut self) -> Summary {
        self.complete = false;
        self
    }

    fn edge_len(&self) -> usize {
        (self.len.min(EDGE as u64)) as usize
    }

    /// The summary of `self` followed by `next`.
    pub(crate) fn then(self, next: Summary) -> Summary {
        let (a, b) = (self.edge_len(), next.edge_len());
        // The bytes around the boundary: the end of `self`, the start of `next`.
        let mut around = [0u8; 2 * EDGE];
        around[..a].copy_from_slice(&self.tail[EDGE - a..]);
        around[a..a + b].copy_from_slice(&next.head[..b]);
        let around = &around[..a + b];
        let mut head = self.head;
        if a < EDGE {
            let n = (a + b).min(EDGE);
            head[..n].copy_from_slice(&around[..n]);
        }
        let mut tail = next.tail;
        if b < EDGE {
            let n = (a + b).min(EDGE);
            tail[EDGE - n..].copy_from_slice(&around[a + b - n..]);
        }
        Summary {
            len: self.len.saturating_add(next.len),
            head,
            tail,
            found: self.found | next.found | scan(around),
            complete: self.complete && next.complete,
            user_input_at: self.user_input_at.or(next.user_input_at),
        }
    }

    pub(crate) fn has(&self, phrase: u8) -> bool {
        self.found & phrase != 0
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{BOOLEAN_FALSE, BOOLEAN_TRUE, Summary, USER_INPUT, scan};

    fn of(parts: &[&str]) -> Summary {
        parts
            .iter()
            .fold(Summary::empty(), |s, p| s.then(Summary::text(p)))
    }

    #[test]
    fn phrases_split_across_pieces_are_found() {
        assert!(of(&["call job_bool", "ean_true now"]).has(BOOLEAN_TRUE));
        assert!(of(&["j", "o", "b", "_boolean_fals", "", "e"]).has(BOOLEAN_FALSE));
        assert!(of(&["$", "user-", "input"]).has(USER_INPUT));
        assert!(!of(&["job_boolean_", "maybe"]).has(BOOLEAN_TRUE | BOOLEAN_FALSE));
        assert_eq!(of(&["ab", "", "cd"]).len, 4);
    }

    proptest! {
        /// Composing summaries finds exactly what scanning the joined text finds.
        #[test]
        fn composition_matches_the_joined_text(parts in prop::collection::vec("(job_boolean_|true|false|\\$user-|input|[a-z_$-]{0,5}){0,4}", 0..8)) {
            let joined: String = parts.concat();
            let s = of(&parts.iter().map(String::as_str).collect::<Vec<_>>());
            prop_assert_eq!(s.found, scan(joined.as_bytes()));
            prop_assert_eq!(s.len, joined.len() as u64);
            // And grouping does not matter.
            let (left, right) = parts.split_at(parts.len() / 2);
            let grouped = of(&left.iter().map(String::as_str).collect::<Vec<_>>())
                .then(of(&right.iter().map(String::as_str).collect::<Vec<_>>()));
            prop_assert_eq!(grouped, s);
        }
    }
}
