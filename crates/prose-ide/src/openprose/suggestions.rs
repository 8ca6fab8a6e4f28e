//! "Did you mean" suggestions with a bounded cost.
//!
//! A suggestion compares a misspelt name with the candidates (the file's
//! definitions, a vocabulary): edit distances, after a length filter. In a
//! file with tens of thousands of undefined names and definitions, doing
//! that for every name is quadratic; so every file's analysis (and every
//! code-action request) gets a [`SuggestionBudget`] of candidate
//! comparisons, shared by all its rules. Once it is spent, names are
//! reported without a suggestion, and the code that collects candidates
//! is not run either. Real programs spend a tiny fraction of it; the
//! budget only matters for generated or hostile files, whose diagnostics
//! then stay linear in the size of the file.

use std::cell::Cell;

/// How many candidate comparisons one file's analysis may spend on
/// suggestions (a comparison is a length check, and for candidates of
/// about the right length an edit distance).
pub const PER_FILE: usize = 250_000;

/// What is left of a file's budget for suggestions.
#[derive(Debug)]
pub struct SuggestionBudget(Cell<usize>);

impl Default for SuggestionBudget {
    fn default() -> Self {
        SuggestionBudget(Cell::new(PER_FILE))
    }
}

impl SuggestionBudget {
    /// Whether anything is left (callers skip collecting candidates when not).
    pub fn left(&self) -> bool {
        self.0.get() > 0
    }

    /// Spends `n` comparisons; false (and the budget spent) when fewer are left.
    pub fn spend(&self, n: usize) -> bool {
        let left = self.0.get();
        self.0.set(left.saturating_sub(n));
        left >= n
    }

    /// The closest of `candidates` to `name` (see
    /// [`did_you_mean`](crate::openprose::rules::prelude::did_you_mean)),
    /// or `None` when the budget does not cover them.
    pub fn did_you_mean<'a>(&self, name: &str, candidates: &[&'a str]) -> Option<&'a str> {
        if !self.spend(candidates.len().max(1)) {
            return None;
        }
        crate::openprose::rules::prelude::did_you_mean(name, candidates)
    }

    /// ` (did you mean `x`?)`, or nothing (see [`Self::did_you_mean`]).
    pub fn hint(&self, name: &str, candidates: &[&str]) -> String {
        self.did_you_mean(name, candidates)
            .map(|s| format!(" (did you mean `{s}`?)"))
            .unwrap_or_default()
    }
}

/// A lower bound of the edit distance between `a` and `b`, insertions,
/// deletions, substitutions and transpositions alike (what
/// `strsim::damerau_levenshtein` counts), cheap to take: the larger of how
/// many characters of each the other lacks, counted as multisets (one
/// operation changes at most one of each; a transposition changes
/// neither). `None` when either is not ASCII.
pub(crate) fn bag_distance(a: &str, b: &str) -> Option<usize> {
    if !a.is_ascii() || !b.is_ascii() {
        return None;
    }
    let mut counts = [0i32; 128];
    a.bytes().for_each(|c| counts[c as usize] += 1);
    b.bytes().for_each(|c| counts[c as usize] -= 1);
    // Each character's surplus is read where it occurs (then cleared, so
    // that a repeated character counts once), not over the whole table.
    let (mut more, mut fewer) = (0, 0);
    for c in a.bytes() {
        let n = &mut counts[c as usize];
        if *n > 0 {
            more += std::mem::take(n) as usize;
        }
    }
    for c in b.bytes() {
        let n = &mut counts[c as usize];
        if *n < 0 {
            fewer += std::mem::take(n).unsigned_abs() as usize;
        }
    }
    Some(more.max(fewer))
}

/// The longest text (in bytes) [`damerau_levenshtein`] measures on the
/// stack; longer ones go to `strsim`.
const SHORT: usize = 62;

/// `strsim::damerau_levenshtein(a, b)`: the unrestricted edit distance
/// (insertions, deletions, substitutions, and transpositions of adjacent
/// characters even when edited further). For ASCII texts of up to
/// [`SHORT`] bytes it runs `strsim`'s algorithm (Zhao and Sahni's linear
/// space one), step for step, over bytes and rows on the stack, where
/// `strsim` allocates three rows and a 256-entry table per call; other
/// texts go to `strsim` itself.
pub(crate) fn damerau_levenshtein(a: &str, b: &str) -> usize {
    if !a.is_ascii() || !b.is_ascii() || a.len() > SHORT || b.len() > SHORT {
        return strsim::damerau_levenshtein(a, b);
    }
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let max_val = a.len().max(b.len()) as i32 + 1;
    // The row (1-based) of the last occurrence of each byte in `a` so far.
    let mut last_row_id = [-1i32; 128];
    let mut fr = [max_val; SHORT + 2];
    let (mut rows, mut rows1) = ([0i32; SHORT + 2], [max_val; SHORT + 2]);
    let (mut r, mut r1) = (&mut rows, &mut rows1);
    r[0] = max_val;
    for (j, v) in r[1..b.len() + 2].iter_mut().enumerate() {
        *v = j as i32;
    }
    for (i, &ch1) in (1..).zip(a) {
        std::mem::swap(&mut r, &mut r1);
        let mut last_col_id: i32 = -1;
        let mut last_i2l1 = r[1];
        r[1] = i;
        let mut t = max_val;
        for (j, &ch2) in (1..).zip(b) {
            let diag = r1[j] + i32::from(ch1 != ch2);
            let mut temp = diag.min(r[j] + 1).min(r1[j + 1] + 1);
            if ch1 == ch2 {
                last_col_id = j as i32;
                fr[j + 1] = r1[j - 1];
                t = last_i2l1;
            } else {
                let k = last_row_id[usize::from(ch2)];
                let l = last_col_id;
                if j as i32 - l == 1 {
                    temp = temp.min(fr[j + 1] + (i - k));
                } else if i - k == 1 {
                    temp = temp.min(t + (j as i32 - l));
                }
            }
            last_i2l1 = r[j + 1];
            r[j + 1] = temp;
        }
        last_row_id[usize::from(ch1)] = i;
    }
    r[b.len() + 1] as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The distance is `strsim`'s, for short ASCII texts (a small
        /// alphabet, so that transpositions and repeats are frequent), and
        /// for texts that go to `strsim` (long or not ASCII).
        #[test]
        fn damerau_levenshtein_is_strsims(
            a in "[a-d_]{0,12}",
            b in "[a-d_]{0,12}",
            long in "[ab]{60,70}",
            wide in "[aé]{0,6}",
        ) {
            for (x, y) in [(&a, &b), (&long, &a), (&a, &long), (&long, &long), (&wide, &a)] {
                proptest::prop_assert_eq!(
                    damerau_levenshtein(x, y),
                    strsim::damerau_levenshtein(x, y),
                    "{:?} {:?}", x, y
                );
            }
        }

        /// Never more than the edit distance, and equal to it for texts
        /// that differ only by what one operation does.
        #[test]
        fn bag_distance_is_a_lower_bound(a in "[a-e_-]{0,10}", b in "[a-e_-]{0,10}") {
            let bag = bag_distance(&a, &b).unwrap();
            proptest::prop_assert!(bag <= strsim::damerau_levenshtein(&a, &b));
        }
    }

    #[test]
    fn damerau_levenshtein_distances() {
        let max = "x".repeat(SHORT);
        for (a, b) in [
            ("", ""),
            ("", "abc"),
            ("ab", "ba"),
            ("ab", "bca"),
            ("ca", "abc"),
            ("reserch", "research"),
            ("levenshtein", "löwenbräu"),
            (max.as_str(), "y"),
            (max.as_str(), max.as_str()),
        ] {
            assert_eq!(damerau_levenshtein(a, b), strsim::damerau_levenshtein(a, b));
            assert_eq!(damerau_levenshtein(b, a), strsim::damerau_levenshtein(b, a));
        }
    }

    proptest::proptest! {
        /// The surpluses read where the characters occur are those of the
        /// whole table.
        #[test]
        fn bag_distance_reads_the_whole_table(a in "[a-e_-]{0,10}", b in "[a-e_-]{0,10}") {
            let mut counts = [0i32; 128];
            a.bytes().for_each(|c| counts[c as usize] += 1);
            b.bytes().for_each(|c| counts[c as usize] -= 1);
            let more: i32 = counts.iter().filter(|&&c| c > 0).sum();
            let fewer: i32 = -counts.iter().filter(|&&c| c < 0).sum::<i32>();
            proptest::prop_assert_eq!(bag_distance(&a, &b), Some(more.max(fewer) as usize));
        }
    }

    #[test]
    fn bag_distances() {
        assert_eq!(bag_distance("reserch", "research"), Some(1));
        assert_eq!(bag_distance("ab", "ba"), Some(0));
        assert_eq!(bag_distance("abc", "xyz"), Some(3));
        assert_eq!(bag_distance("é", "e"), None);
    }

    #[test]
    fn a_spent_budget_suggests_nothing() {
        let budget = SuggestionBudget(Cell::new(3));
        assert_eq!(
            budget.did_you_mean("reserch", &["research", "other"]),
            Some("research")
        );
        assert!(budget.left());
        assert_eq!(budget.did_you_mean("reserch", &["research", "other"]), None);
        assert!(!budget.left());
        assert_eq!(budget.hint("reserch", &["research"]), "");
    }
}
