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
    let (more, fewer) = counts.iter().fold((0, 0), |(m, f), &c| {
        if c > 0 {
            (m + c as usize, f)
        } else {
            (m, f + c.unsigned_abs() as usize)
        }
    });
    Some(more.max(fewer))
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// Never more than the edit distance, and equal to it for texts
        /// that differ only by what one operation does.
        #[test]
        fn bag_distance_is_a_lower_bound(a in "[a-e_-]{0,10}", b in "[a-e_-]{0,10}") {
            let bag = bag_distance(&a, &b).unwrap();
            proptest::prop_assert!(bag <= strsim::damerau_levenshtein(&a, &b));
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
