//! Reading a backend's answer to a condition, a judgement or a choice.
//!
//! The rules are the same for every backend (they are part of the
//! `command` contract in docs/runner.md):
//!
//! - **condition / judgement**: the first word of the trimmed answer,
//!   ignoring case, surrounding punctuation and markdown emphasis:
//!   `true`/`yes`/`y` is true, `false`/`no`/`n` is false
//!   (`**Yes.** The report...` is true);
//! - **choice**: the label of one option: the whole answer, or its first
//!   line, equal to a label ignoring case, surrounding quotes, punctuation
//!   and emphasis (`"Critical"`, `critical.`, `**Critical**`).
//!
//! Anything else cannot be read (`None`); the runner then asks once more,
//! saying why, and fails the request if the second answer cannot be read
//! either.

/// Characters stripped around a word or a label.
fn is_decoration(c: char) -> bool {
    matches!(
        c,
        '*' | '_' | '`' | '"' | '\'' | '.' | ',' | '!' | '?' | ':' | ';' | '(' | ')' | '[' | ']'
    ) || c.is_whitespace()
}

/// Reads a condition or judgement answer.
pub fn read_condition(answer: &str) -> Option<bool> {
    let first = answer.split_whitespace().next()?;
    let word = first.trim_matches(is_decoration).to_lowercase();
    match word.as_str() {
        "true" | "yes" | "y" => Some(true),
        "false" | "no" | "n" => Some(false),
        _ => None,
    }
}

/// Reads a choice answer: the index of the chosen label.
pub fn read_choice(answer: &str, labels: &[String]) -> Option<usize> {
    let norm = |s: &str| s.trim().trim_matches(is_decoration).to_lowercase();
    let whole = norm(answer);
    let first_line = norm(answer.trim().lines().next().unwrap_or(""));
    let find = |candidate: &str| {
        (!candidate.is_empty())
            .then(|| labels.iter().position(|l| norm(l) == candidate))
            .flatten()
    };
    find(&whole).or_else(|| find(&first_line))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions() {
        for (text, expected) in [
            ("true", Some(true)),
            ("  Yes, the report is done", Some(true)),
            ("**TRUE**", Some(true)),
            ("y", Some(true)),
            ("No.", Some(false)),
            ("false\nbecause...", Some(false)),
            ("`false`", Some(false)),
            ("N", Some(false)),
            ("", None),
            ("maybe", None),
            ("The answer is yes", None),
            ("yesterday", None),
        ] {
            assert_eq!(read_condition(text), expected, "{text:?}");
        }
    }

    #[test]
    fn choices() {
        let labels: Vec<String> = ["Critical", "Minor issue", "None"]
            .into_iter()
            .map(String::from)
            .collect();
        for (text, expected) in [
            ("Critical", Some(0)),
            ("\"minor issue\"", Some(1)),
            ("**None**.", Some(2)),
            ("Critical\nBecause the build is broken.", Some(0)),
            ("critical!", Some(0)),
            ("I would pick Critical", None),
            ("Major", None),
            ("", None),
        ] {
            assert_eq!(read_choice(text, &labels), expected, "{text:?}");
        }
    }
}
