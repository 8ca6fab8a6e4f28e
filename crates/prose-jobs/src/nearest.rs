//! "Did you mean": the closest candidate to a misspelled name.

/// The candidate closest to `name`: the same name in other letter case,
/// or the one at the smallest edit distance if that is at most a third of
/// the longer name (at least 1). `None` when nothing is close.
pub fn nearest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = name.to_lowercase();
    let chars = name.chars().count();
    let mut best: Option<(usize, &'a str)> = None;
    for c in candidates {
        if c == name {
            continue;
        }
        let d = if c.to_lowercase() == lower {
            0
        } else {
            let bound = (chars.max(c.chars().count()) / 3).max(1);
            // The distance is at least the difference in length.
            if chars.abs_diff(c.chars().count()) > bound {
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

#[cfg(test)]
mod tests {
    use super::nearest;

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
}
