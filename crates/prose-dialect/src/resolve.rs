//! Verb resolution: the word after `/` to a verb.
//!
//! In order: an exact canonical name, an exact alias (ASCII case is
//! ignored in both), then the edit distance (optimal string alignment, so a
//! swap of two neighbouring letters is one edit) against every name and
//! alias, with a budget set by the strictness of the word's verb:
//!
//! | word length | strict | normal | loose |
//! |---|---|---|---|
//! | 1–3 | never | never | never |
//! | 4 | never | 1 | 1 |
//! | 5–7 | never | 1 | 2 |
//! | 8+ | never | 2 | 2 |
//!
//! Loose verbs (recall, search and their aliases) also match a unique
//! prefix of three letters or more (`/rec`, `/sea`).
//!
//! Strict verbs (approve, deny, halt), their aliases and `forget` (which
//! deletes) are never guessed: a word within the *normal* budget of one of
//! them, or one of their short aliases lengthened by a letter or two
//! (`okay`, `nope`), is reported as a near miss, an error, even when it is
//! equally close to some other verb. Words equally close to two different verbs
//! are ambiguous ("I couldn't tell if you meant /store or /stop - which
//! one?").

use std::sync::OnceLock;

use crate::{
    aliases,
    verbs::{self, Strictness, Verb},
};

/// A name or alias that can follow `/`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Word {
    /// The known spelling (lower case).
    pub text: &'static str,
    /// The verb it names (for a shared word, its first row in the alias
    /// table; the parser then decides by the arguments).
    pub verb: Verb,
    /// Whether the word is an alias rather than the canonical name.
    pub alias: bool,
    /// Never matched by a guess.
    pub exact_only: bool,
    /// Whether another verb shares the word (`remember`, `archive`, `get`).
    pub shared: bool,
}

impl Word {
    fn strictness(&self) -> Strictness {
        if self.exact_only {
            Strictness::Strict
        } else if self.text == "remember" || self.text == "archive" {
            // Shared by recall (loose) and context (normal): the looser.
            Strictness::Loose
        } else {
            self.verb.strictness()
        }
    }
}

/// How the written word resolved.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum VerbMatch {
    /// A name or alias spelled exactly (any case).
    Exact(Word),
    /// A misspelling read as `word`; `confidence` in (0, 1).
    Corrected { word: Word, confidence: f32 },
    /// Close to a word that is never guessed.
    StrictNearMiss(Word),
    /// Equally close to two words of different verbs.
    Ambiguous(Word, Word),
    /// Nothing close enough; `suggestion` is the nearest word, if any is
    /// somewhat near.
    Unknown { suggestion: Option<Word> },
}

/// Every word, canonical names first, then the one-word aliases.
pub fn words() -> &'static [Word] {
    static WORDS: OnceLock<Vec<Word>> = OnceLock::new();
    WORDS.get_or_init(|| {
        let mut out: Vec<Word> = verbs::all()
            .iter()
            .map(|s| Word {
                text: s.name,
                verb: s.verb,
                alias: false,
                exact_only: s.strictness == Strictness::Strict,
                shared: false,
            })
            .collect();
        for a in aliases::all() {
            if a.word.contains(' ') || out.iter().any(|w| w.text == a.word) {
                continue;
            }
            out.push(Word {
                text: a.word,
                verb: a.verb,
                alias: true,
                exact_only: a.exact_only,
                shared: aliases::lookup(a.word).count() > 1,
            });
        }
        out
    })
}

/// The word spelled exactly `written` (ASCII case ignored).
pub fn exact(written: &str) -> Option<Word> {
    words()
        .iter()
        .find(|w| w.text.len() == written.len() && w.text.eq_ignore_ascii_case(written))
        .copied()
}

/// Longest word worth comparing by edit distance.
const MAX_FUZZY_LEN: usize = 24;

/// Resolves the word written after `/`.
pub fn match_verb(written: &str) -> VerbMatch {
    if let Some(w) = exact(written) {
        return VerbMatch::Exact(w);
    }
    let lower = written.to_lowercase();
    let Some(chars) = Chars::new(&lower).filter(|c| c.len >= 2) else {
        return VerbMatch::Unknown { suggestion: None };
    };
    let n = chars.len;
    // `okay`, `nope`, `yess`: a short never-guessed word, lengthened.
    if let Some(w) = words().iter().find(|w| {
        w.exact_only && w.text.len() <= 3 && lower.starts_with(w.text) && n <= w.text.len() + 2
    }) {
        return VerbMatch::StrictNearMiss(*w);
    }
    if let Some(m) = by_distance(&chars) {
        return m;
    }
    if let Some(m) = by_prefix(&lower, n) {
        return m;
    }
    VerbMatch::Unknown {
        suggestion: nearest(&chars),
    }
}

/// A short word as chars, on the stack.
struct Chars {
    buf: [char; MAX_FUZZY_LEN],
    len: usize,
}

impl Chars {
    /// `None` when `s` has more than [`MAX_FUZZY_LEN`] chars.
    fn new(s: &str) -> Option<Chars> {
        let mut buf = ['\0'; MAX_FUZZY_LEN];
        let mut len = 0;
        for c in s.chars() {
            *buf.get_mut(len)? = c;
            len += 1;
        }
        Some(Chars { buf, len })
    }

    fn as_slice(&self) -> &[char] {
        &self.buf[..self.len]
    }

    /// The optimal string alignment distance to the ASCII word `b` (a swap
    /// of neighbours is one edit), without allocating.
    fn distance(&self, b: &str) -> usize {
        const N: usize = MAX_FUZZY_LEN + 1;
        let a = self.as_slice();
        let b = b.as_bytes();
        if b.len() > MAX_FUZZY_LEN {
            return usize::MAX;
        }
        let (n, m) = (a.len(), b.len());
        // Three rows (i - 2, i - 1, i), used in turn.
        let mut rows = [[0u8; N]; 3];
        for (j, d) in rows[0].iter_mut().enumerate() {
            *d = j as u8;
        }
        for i in 1..=n {
            let [r2, r1, r0] = [(i + 1) % 3, (i + 2) % 3, i % 3];
            rows[r0][0] = i as u8;
            for j in 1..=m {
                let cost = u8::from(a[i - 1] != char::from(b[j - 1]));
                let mut d = (rows[r1][j] + 1)
                    .min(rows[r0][j - 1] + 1)
                    .min(rows[r1][j - 1] + cost);
                if i > 1
                    && j > 1
                    && a[i - 1] == char::from(b[j - 2])
                    && a[i - 2] == char::from(b[j - 1])
                {
                    d = d.min(rows[r2][j - 2] + 1);
                }
                rows[r0][j] = d;
            }
        }
        usize::from(rows[n % 3][m])
    }
}

/// The edit budget for a misspelling of `w` (for a never-guessed word, the
/// budget within which a near miss is reported).
fn budget(w: &Word) -> usize {
    let len = w.text.len();
    let loose = w.strictness() == Strictness::Loose;
    match len {
        0..=3 => 0,
        4 => 1,
        5..=7 if loose => 2,
        5..=7 => 1,
        _ => 2,
    }
}

fn by_distance(chars: &Chars) -> Option<VerbMatch> {
    let n = chars.len;
    let mut best = usize::MAX;
    let mut found: Vec<Word> = Vec::new();
    for w in words() {
        let b = budget(w);
        if b == 0 || n.abs_diff(w.text.len()) > b {
            continue;
        }
        let d = chars.distance(w.text);
        if d > b || d > best {
            continue;
        }
        if d < best {
            best = d;
            found.clear();
        }
        found.push(*w);
    }
    let confidence = 1.0 - best as f32 / n.max(found.first()?.text.len()) as f32;
    Some(decide(&found, confidence))
}

fn by_prefix(lower: &str, n: usize) -> Option<VerbMatch> {
    if n < 3 {
        return None;
    }
    let found: Vec<Word> = words()
        .iter()
        .filter(|w| {
            !w.exact_only && w.strictness() == Strictness::Loose && w.text.starts_with(lower)
        })
        .copied()
        .collect();
    let first = found.first()?;
    Some(decide(&found, n as f32 / first.text.len() as f32))
}

/// One verb among the candidates: corrected; a never-guessed one: a near
/// miss; several verbs: ambiguous.
fn decide(found: &[Word], confidence: f32) -> VerbMatch {
    if let Some(w) = found.iter().find(|w| w.exact_only) {
        return VerbMatch::StrictNearMiss(*w);
    }
    let first = found[0];
    if let Some(other) = found.iter().find(|w| w.verb != first.verb) {
        return VerbMatch::Ambiguous(first, *other);
    }
    // Prefer the canonical spelling when a name and an alias tie.
    let word = found.iter().find(|w| !w.alias).copied().unwrap_or(first);
    VerbMatch::Corrected { word, confidence }
}

/// The nearest word within about half its length, for "did you mean".
fn nearest(chars: &Chars) -> Option<Word> {
    words()
        .iter()
        .filter_map(|w| {
            let bound = (w.text.len() / 2).max(1);
            if chars.len.abs_diff(w.text.len()) > bound {
                return None;
            }
            let d = chars.distance(w.text);
            (d <= bound).then_some((d, *w))
        })
        .min_by_key(|(d, _)| *d)
        .map(|(_, w)| w)
}

/// The candidate within two edits of `word` (one for candidates of four
/// letters or fewer), for "did you mean" on argument words.
pub(crate) fn closest_of<'c>(word: &str, candidates: &[&'c str]) -> Option<&'c str> {
    let chars = Chars::new(&word.to_lowercase())?;
    candidates
        .iter()
        .filter(|c| chars.len.abs_diff(c.len()) <= 2)
        .map(|c| (chars.distance(c), *c))
        .filter(|(d, c)| *d <= if c.len() <= 4 { 1 } else { 2 })
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(written: &str) -> String {
        match match_verb(written) {
            VerbMatch::Exact(w) => format!("exact {} ({:?})", w.text, w.verb),
            VerbMatch::Corrected { word, confidence } => {
                format!("corrected {} ({:?}) {confidence:.2}", word.text, word.verb)
            }
            VerbMatch::StrictNearMiss(w) => format!("near miss {}", w.text),
            VerbMatch::Ambiguous(a, b) => format!("ambiguous {} {}", a.text, b.text),
            VerbMatch::Unknown { suggestion } => {
                format!("unknown {}", suggestion.map_or("-", |w| w.text))
            }
        }
    }

    fn check(cases: &[(&str, &str)]) {
        let got: Vec<String> = cases
            .iter()
            .map(|(w, _)| format!("{w}: {}", show(w)))
            .collect();
        let want: Vec<String> = cases.iter().map(|(w, e)| format!("{w}: {e}")).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn exact_names_and_aliases_any_case() {
        check(&[
            ("recall", "exact recall (Recall)"),
            ("RECALL", "exact recall (Recall)"),
            ("Remember", "exact remember (Recall)"),
            ("forget", "exact forget (Recall)"),
            ("google", "exact google (Web)"),
            ("ok", "exact ok (Approve)"),
            ("dm", "exact dm (Dm)"),
            ("uncertain", "exact uncertain (Uncertain)"),
            ("batch", "exact batch (Batch)"),
        ]);
    }

    #[test]
    fn every_canonical_name_and_one_word_alias_is_exact() {
        for s in verbs::all() {
            assert!(matches!(match_verb(s.name), VerbMatch::Exact(w) if w.verb == s.verb));
        }
        for a in aliases::all().iter().filter(|a| !a.word.contains(' ')) {
            assert!(
                matches!(match_verb(a.word), VerbMatch::Exact(w) if w.text == a.word),
                "{}",
                a.word
            );
        }
    }

    #[test]
    fn loose_verbs_take_two_edits_and_prefixes() {
        check(&[
            ("recal", "corrected recall (Recall) 0.83"),
            ("reacll", "corrected recall (Recall) 0.83"),
            ("rcal", "corrected recall (Recall) 0.67"),
            ("reclal", "corrected recall (Recall) 0.83"),
            ("rceall", "corrected recall (Recall) 0.83"),
            ("serch", "corrected search (Search) 0.83"),
            ("saerhc", "corrected search (Search) 0.67"),
            ("rec", "corrected recall (Recall) 0.50"),
            ("sea", "corrected search (Search) 0.50"),
            ("loo", "corrected look (Search) 0.75"),
            ("fnd", "corrected find (Search) 0.75"),
            ("fidn", "corrected find (Search) 0.75"),
        ]);
    }

    #[test]
    fn normal_verbs_take_one_edit_from_four_letters() {
        check(&[
            ("repyl", "corrected reply (Reply) 0.80"),
            ("rpely", "corrected reply (Reply) 0.80"),
            ("pots", "corrected post (Post) 0.75"),
            ("fecth", "corrected fetch (Fetch) 0.80"),
            ("escalte", "corrected escalate (Escalate) 0.88"),
            ("esclate", "corrected escalate (Escalate) 0.88"),
            ("ecsalte", "corrected escalate (Escalate) 0.75"),
            ("cancle", "corrected cancel (Cancel) 0.83"),
            ("dn", "unknown dm"),
            ("wbe", "unknown web"),
            ("calcc", "corrected calc (Calc) 0.80"),
        ]);
    }

    #[test]
    fn strict_verbs_are_never_guessed() {
        check(&[
            ("aprove", "near miss approve"),
            ("approv", "near miss approve"),
            ("apporve", "near miss approve"),
            ("dney", "near miss deny"),
            ("halr", "near miss halt"),
            ("hlat", "near miss halt"),
            ("alow", "near miss allow"),
            ("rejct", "near miss reject"),
            ("forgte", "near miss forget"),
            ("yse", "unknown yes"),
            ("nope", "near miss no"),
            ("okay", "near miss ok"),
            ("yess", "near miss yes"),
            ("nots", "near miss no"),
            ("notes", "corrected note (Context) 0.80"),
        ]);
    }

    #[test]
    fn ties_between_verbs_are_ambiguous() {
        check(&[("stor", "ambiguous store stop")]);
    }

    #[test]
    fn distance_agrees_with_strsim() {
        let words = [
            "", "a", "recall", "reacll", "rcal", "réçall", "ab", "ba", "abc", "ca", "xyzzy",
            "escalate",
        ];
        for a in words {
            for b in ["recall", "search", "ba", "abc", "escalate", "no", ""] {
                assert_eq!(
                    Chars::new(a).unwrap().distance(b),
                    strsim::osa_distance(a, b),
                    "{a} {b}"
                );
            }
        }
        assert!(Chars::new(&"x".repeat(25)).is_none());
    }

    #[test]
    fn unknown_words() {
        check(&[
            ("summarize", "unknown -"),
            ("x", "unknown -"),
            (&"r".repeat(1000), "unknown -"),
            ("réçall", "corrected recall (Recall) 0.67"),
        ]);
    }
}
