//! "Did you mean": the closest candidate to a misspelled name.

/// The candidate closest to `name`: the same name in other letter case,
/// or the one at the smallest edit distance if that is at most a third of
/// the longer name (at least 1). `None` when nothing is close.
pub fn nearest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    Candidates::new(candidates).nearest(name)
}

/// Names to suggest from, each read once (its lower case and length in
/// characters) for any number of [`Candidates::nearest`] questions: a job
/// entry with thousands of prompt variables asks about each unknown use.
pub struct Candidates<'a> {
    /// Each name, its lower case and its length in characters.
    items: Vec<(&'a str, String, usize)>,
}

impl<'a> Candidates<'a> {
    pub fn new(names: impl IntoIterator<Item = &'a str>) -> Candidates<'a> {
        Candidates {
            items: names
                .into_iter()
                .map(|c| (c, c.to_lowercase(), c.chars().count()))
                .collect(),
        }
    }

    /// The names, in order.
    pub fn names(&self) -> impl Iterator<Item = &'a str> + '_ {
        self.items.iter().map(|&(c, _, _)| c)
    }

    /// [`nearest`] among these names.
    pub fn nearest(&self, name: &str) -> Option<&'a str> {
        let lower = name.to_lowercase();
        let chars = name.chars().count();
        let mut best: Option<(usize, &'a str)> = None;
        for (c, c_lower, c_chars) in &self.items {
            let (c, c_chars) = (*c, *c_chars);
            if c == name {
                continue;
            }
            let d = if *c_lower == lower {
                0
            } else {
                let bound = (chars.max(c_chars) / 3).max(1);
                // The distance is at least the difference in length.
                if chars.abs_diff(c_chars) > bound {
                    continue;
                }
                let d = strsim::damerau_levenshtein(name, c);
                if d > bound {
                    continue;
                }
                d
            };
            if best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, c));
            }
        }
        best.map(|(_, c)| c)
    }
}

/// Whether `best`, the name [`nearest`] chose for the misspelled `name`,
/// is the one obvious correction among `candidates`: the only one that
/// differs from `name` in letter case alone, or strictly nearer than every
/// other candidate and by fewer edits than half the length of `name`. A
/// tool may apply an obvious correction unattended; a near name that is a
/// guess (one letter off in a two-letter name, as near as another) is only
/// suggested.
pub fn is_obvious<'a>(
    name: &str,
    best: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> bool {
    let lower = name.to_lowercase();
    let distance = |c: &str| strsim::damerau_levenshtein(&lower, &c.to_lowercase());
    let d = distance(best);
    let others: Vec<usize> = candidates
        .into_iter()
        .filter(|c| *c != best && *c != name)
        .map(distance)
        .collect();
    (d == 0 || 2 * d < lower.chars().count()) && others.iter().all(|&o| o > d)
}

#[cfg(test)]
mod tests {
    use super::{is_obvious, nearest};

    #[test]
    fn finds_typos_and_case() {
        let models = ["driving", "planning", "coding"];
        assert_eq!(nearest("planing", models), Some("planning"));
        assert_eq!(nearest("Coding", models), Some("coding"));
        assert_eq!(nearest("reviewers", models), None);
        assert_eq!(nearest("x", ["y", "xy"]), Some("y"));
        assert_eq!(nearest("", ["a"]), Some("a"));
        assert_eq!(nearest("abc", ["abc"]), None);
    }

    #[test]
    fn obvious_corrections() {
        let models = ["driving", "planning", "coding"];
        assert!(is_obvious("planing", "planning", models));
        assert!(is_obvious("Coding", "coding", models));
        // One letter off in a two-letter name is a guess.
        assert!(!is_obvious("ab", "ac", ["ac", "xy"]));
        // As near as another candidate: a guess.
        assert!(!is_obvious("cat", "bat", ["bat", "hat"]));
        assert!(is_obvious(
            "previousTask",
            "previousTasks",
            ["previousTasks", "previousJobKeywords", "condition"]
        ));
        // Letter case alone, but two candidates differ only in case.
        assert!(!is_obvious("Plan", "plan", ["plan", "PLAN"]));
    }
}
