//! Permission markers: how the agent flags the consent an action needs.
//!
//! | marker | meaning |
//! |---|---|
//! | (none) | normal: the system checks silently |
//! | `.` | routine, don't bug them |
//! | `?` | this might need checking |
//! | `?ask` | please confirm with the partner |
//! | `!` | serious, definitely confirm |
//! | `?word` | a flag for the permission system, e.g. `?public` |
//!
//! A marker is the last word of an action (before its chain `->`), written
//! on its own: `/reply sounds good .` is routine, while in `/reply sounds
//! good.` the full stop belongs to the sentence. It may touch a closing
//! quote (`"hello"?`) and may come before a multi-line block (`/post
//! bluesky ?public` above `>` lines). Markers are case-insensitive and
//! kept in lower case.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A permission marker. Serialized as written: `"."`, `"?"`, `"?ask"`,
/// `"!"`, `"?public"`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum PermissionMarker {
    /// `.`
    Routine,
    /// `?`
    Check,
    /// `?ask`
    Ask,
    /// `!`
    Serious,
    /// `?word`: a flag, in lower case, without the `?`.
    Flag(String),
}

impl PermissionMarker {
    /// The marker `word` spells, if it spells one.
    pub fn parse(word: &str) -> Option<PermissionMarker> {
        match word {
            "." => Some(PermissionMarker::Routine),
            "?" => Some(PermissionMarker::Check),
            "!" => Some(PermissionMarker::Serious),
            _ => {
                let flag = word.strip_prefix('?')?;
                let mut chars = flag.chars();
                let ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
                    && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
                if !ok {
                    None
                } else if flag.eq_ignore_ascii_case("ask") {
                    Some(PermissionMarker::Ask)
                } else {
                    Some(PermissionMarker::Flag(flag.to_ascii_lowercase()))
                }
            }
        }
    }

    /// Whether `word` looks like an attempt at a marker: `.`, or starting
    /// with `?` or `!`.
    pub(crate) fn looks_like(word: &str) -> bool {
        word == "." || word.starts_with(['?', '!'])
    }

    /// What it asks of the permission system, in words.
    pub fn meaning(&self) -> String {
        match self {
            PermissionMarker::Routine => "routine: don't bug them".into(),
            PermissionMarker::Check => "might need checking".into(),
            PermissionMarker::Ask => "please confirm with the partner".into(),
            PermissionMarker::Serious => "serious: definitely confirm".into(),
            PermissionMarker::Flag(f) => format!("flagged `{f}` for the permission system"),
        }
    }
}

impl fmt::Display for PermissionMarker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PermissionMarker::Routine => f.write_str("."),
            PermissionMarker::Check => f.write_str("?"),
            PermissionMarker::Ask => f.write_str("?ask"),
            PermissionMarker::Serious => f.write_str("!"),
            PermissionMarker::Flag(w) => write!(f, "?{w}"),
        }
    }
}

impl From<PermissionMarker> for String {
    fn from(m: PermissionMarker) -> String {
        m.to_string()
    }
}

impl TryFrom<String> for PermissionMarker {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        PermissionMarker::parse(&s).ok_or_else(|| format!("not a permission marker: {s:?}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_marker_of_the_seed() {
        let cases = [
            (".", Some(PermissionMarker::Routine)),
            ("?", Some(PermissionMarker::Check)),
            ("?ask", Some(PermissionMarker::Ask)),
            ("?ASK", Some(PermissionMarker::Ask)),
            ("!", Some(PermissionMarker::Serious)),
            ("?public", Some(PermissionMarker::Flag("public".into()))),
            ("?Public-2", Some(PermissionMarker::Flag("public-2".into()))),
            ("??", None),
            ("?!", None),
            ("!!", None),
            ("!ask", None),
            ("?1", None),
            ("..", None),
            ("ask", None),
        ];
        for (word, want) in cases {
            assert_eq!(PermissionMarker::parse(word), want, "{word}");
        }
    }

    #[test]
    fn serde_as_written() {
        for w in [".", "?", "?ask", "!", "?public"] {
            let m = PermissionMarker::parse(w).unwrap();
            let json = serde_json::to_string(&m).unwrap();
            assert_eq!(json, format!("\"{w}\""));
            assert_eq!(serde_json::from_str::<PermissionMarker>(&json).unwrap(), m);
        }
        assert!(serde_json::from_str::<PermissionMarker>("\"??\"").is_err());
    }
}
