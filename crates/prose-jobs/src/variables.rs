//! Prompt variables inside prompt text: `$` followed by one or more words
//! joined by hyphens, a word being ASCII letters (`$cppjob`,
//! `$user-input`, `$defineRepoRoot`). The match is greedy, like the
//! original's `/\$[a-zA-Z]+(?:-[a-zA-Z]+)*/g`: `$a-b` is one variable,
//! `$a-` is `$a` then `-`, `$a1` is `$a` then `1`, and `$$a` is `$` then
//! `$a`.

/// The runtime variables (seed 002): kept by static expansion, given a
/// value by dynamic expansion.
pub const RUNTIME_VARIABLES: [&str; 4] = [
    "$user-input",
    "$reported-document",
    "$reported-true-reason",
    "$reported-false-reason",
];

/// The tools a driving or task session may call (seed 002).
pub const AVAILABLE_TOOLS: [&str; 4] = [
    "job_prepare_document",
    "job_boolean_true",
    "job_boolean_false",
    "job_prerequisite_failed",
];

/// Whether `name` (without `$`) is a runtime variable.
pub fn is_runtime_variable(name: &str) -> bool {
    RUNTIME_VARIABLES.iter().any(|r| &r[1..] == name)
}

/// Whether `$name` reads as exactly this one variable: words of ASCII
/// letters joined by single hyphens.
pub fn is_variable_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .split('-')
            .all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_alphabetic()))
}

/// The byte ranges (`$` included) of the variables in `text`, in order.
pub fn find_variables(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let letters = |mut i: usize| {
        while b.get(i).is_some_and(u8::is_ascii_alphabetic) {
            i += 1;
        }
        i
    };
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(off) = b[i..].iter().position(|&c| c == b'$') {
        let start = i + off;
        let mut end = letters(start + 1);
        if end == start + 1 {
            i = start + 1;
            continue;
        }
        while b.get(end) == Some(&b'-') && b.get(end + 1).is_some_and(u8::is_ascii_alphabetic) {
            end = letters(end + 1);
        }
        out.push((start, end));
        i = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{find_variables, is_variable_name};

    fn names(text: &str) -> Vec<&str> {
        find_variables(text)
            .into_iter()
            .map(|(s, e)| &text[s..e])
            .collect()
    }

    #[test]
    fn variables_are_hyphen_joined_words() {
        assert_eq!(names("$cppjob"), ["$cppjob"]);
        assert_eq!(names("a $user-input."), ["$user-input"]);
        assert_eq!(names("$a-b-c-"), ["$a-b-c"]);
        assert_eq!(names("$a--b"), ["$a"]);
        assert_eq!(names("$a1 $$b $ 5$ $-x"), ["$a", "$b"]);
        assert_eq!(
            names("$buildSucceededFragment."),
            ["$buildSucceededFragment"]
        );
        assert_eq!(names("$a$b"), ["$a", "$b"]);
        assert_eq!(names("$café"), ["$caf"]);
        assert_eq!(names("no variables, $5"), Vec::<&str>::new());
    }

    #[test]
    fn variable_names() {
        assert!(is_variable_name("defineRepoRoot"));
        assert!(is_variable_name("user-input"));
        for bad in ["", "a-", "-a", "a--b", "a1", "$a", "a b", "é"] {
            assert!(!is_variable_name(bad), "{bad}");
        }
    }
}
