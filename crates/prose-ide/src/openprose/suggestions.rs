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
    /// Whether nothing was spent (tests).
    #[cfg(test)]
    pub(crate) fn untouched(&self) -> bool {
        self.0.get() == PER_FILE
    }

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
        self.did_you_mean_listed(name, candidates, candidates.len())
    }

    /// [`Self::did_you_mean`] over `distinct` candidates that stand for
    /// `listed` ones with repeats (the closest is the same), spending
    /// `listed`.
    pub fn did_you_mean_listed<'a>(
        &self,
        name: &str,
        distinct: &[&'a str],
        listed: usize,
    ) -> Option<&'a str> {
        if !self.spend(listed.max(1)) {
            return None;
        }
        crate::openprose::rules::prelude::did_you_mean(name, distinct)
    }

    /// ` (did you mean `x`?)`, or nothing (see [`Self::did_you_mean`]).
    pub fn hint(&self, name: &str, candidates: &[&str]) -> String {
        self.hint_listed(name, candidates, candidates.len())
    }

    /// [`Self::hint`] over distinct candidates ([`Self::did_you_mean_listed`]).
    pub fn hint_listed(&self, name: &str, distinct: &[&str], listed: usize) -> String {
        self.did_you_mean_listed(name, distinct, listed)
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

/// The edit distance between `name` (of `name_chars` characters) and
/// `candidate` when it is at most `bound`: the difference in length and
/// the letters' [`bag_distance`] are lower bounds of the distance, taken
/// first, and the distance is computed only where they allow.
pub(crate) fn distance_within(
    name: &str,
    name_chars: usize,
    candidate: &str,
    bound: usize,
) -> Option<usize> {
    if name_chars.abs_diff(candidate.chars().count()) > bound
        || bag_distance(name, candidate).is_some_and(|b| b > bound)
    {
        return None;
    }
    let d = damerau_levenshtein(name, candidate);
    (d <= bound).then_some(d)
}

/// The longest text (in bytes) [`damerau_levenshtein`] measures in a table
/// on the stack; longer ones go to `strsim`.
const SHORT: usize = 30;

/// `strsim::damerau_levenshtein(a, b)`: the unrestricted edit distance
/// (insertions, deletions, substitutions, and transpositions of adjacent
/// characters even when edited further). Names are short: for ASCII texts
/// of up to [`SHORT`] bytes it fills the textbook table (Lowrance and
/// Wagner's) on the stack, where `strsim` allocates its rows and a map of
/// characters per call; other texts go to `strsim` itself.
pub(crate) fn damerau_levenshtein(a: &str, b: &str) -> usize {
    if !a.is_ascii() || !b.is_ascii() || a.len() > SHORT || b.len() > SHORT {
        return strsim::damerau_levenshtein(a, b);
    }
    let (a, b) = (a.as_bytes(), b.as_bytes());
    // Every entry is at most twice `SHORT`: bytes will do.
    let far = (a.len() + b.len()) as u8;
    // `d[i + 1][j + 1]`: the distance between the first `i` bytes of `a`
    // and the first `j` of `b`; row and column 0 stand beyond every
    // transposition.
    let mut d = [[0u8; SHORT + 2]; SHORT + 2];
    d[0][0] = far;
    for i in 0..=a.len() {
        d[i + 1][0] = far;
        d[i + 1][1] = i as u8;
    }
    for j in 0..=b.len() {
        d[0][j + 1] = far;
        d[1][j + 1] = j as u8;
    }
    // The last row of `a` (1-based) holding each byte, so far.
    let mut last_in_a = [0usize; 128];
    for i in 1..=a.len() {
        // The last column of `b` (1-based) matching `a[i - 1]`, in this row.
        let mut last_match = 0;
        for j in 1..=b.len() {
            let k = last_in_a[usize::from(b[j - 1])];
            let l = last_match;
            let same = a[i - 1] == b[j - 1];
            if same {
                last_match = j;
            }
            let swapped = d[k][l] + (i - k - 1) as u8 + 1 + (j - l - 1) as u8;
            d[i + 1][j + 1] = (d[i][j] + u8::from(!same))
                .min(d[i + 1][j] + 1)
                .min(d[i][j + 1] + 1)
                .min(swapped);
        }
        last_in_a[usize::from(a[i - 1])] = i;
    }
    usize::from(d[a.len() + 1][b.len() + 1])
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
            long in "[ab]{28,40}",
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

        /// The distance when it is within the bound, else nothing, with the
        /// cheap bounds taken first.
        #[test]
        fn distance_within_is_the_distance_when_close(
            a in "[a-dé_]{0,10}",
            b in "[a-dé_]{0,10}",
            bound in 0usize..5,
        ) {
            let d = strsim::damerau_levenshtein(&a, &b);
            proptest::prop_assert_eq!(
                distance_within(&a, a.chars().count(), &b, bound),
                (d <= bound).then_some(d)
            );
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

    /// Distinct candidates standing for a list with repeats spend what
    /// the list would, and suggest what it would.
    #[test]
    fn distinct_candidates_spend_for_the_repeats() {
        let listed = ["research", "other", "research", "reseach"];
        let distinct = ["research", "other", "reseach"];
        let (a, b) = (
            SuggestionBudget(Cell::new(8)),
            SuggestionBudget(Cell::new(8)),
        );
        for _ in 0..2 {
            assert_eq!(
                a.hint("reserch", &listed),
                b.hint_listed("reserch", &distinct, listed.len())
            );
            assert_eq!(a.0.get(), b.0.get());
        }
        assert_eq!(b.0.get(), 0);
        assert_eq!(b.hint_listed("reserch", &distinct, 4), "");
    }

    proptest::proptest! {
        /// Repeating a candidate never changes the suggestion.
        #[test]
        fn repeats_do_not_change_the_suggestion(
            name in "[a-d]{1,6}",
            names in proptest::collection::vec("[a-d]{1,6}", 0..8),
            repeats in proptest::collection::vec(0usize..8, 0..8),
        ) {
            let distinct: Vec<&str> = names.iter().map(String::as_str).collect();
            let mut listed = distinct.clone();
            listed.extend(repeats.iter().filter_map(|&i| distinct.get(i).copied()));
            proptest::prop_assert_eq!(
                crate::openprose::rules::prelude::did_you_mean(&name, &listed),
                crate::openprose::rules::prelude::did_you_mean(&name, &distinct)
            );
        }
    }
}
