//! [`Name`]: a name as a file's definitions and references hold it.

use std::{borrow::Borrow, fmt, ops::Deref};

use smol_str::SmolStr;

/// A name of a definition or reference. The walk makes it once per
/// statement; the replay of every later edit, and the rules that keep
/// names, copy it. A name of up to 23 bytes (nearly every one) is held
/// inline, so a copy is a copy of its bytes, with no allocation and no
/// count; a longer one is shared behind an atomic count. (Shared always,
/// each copy raised an atomic count and each drop lowered it: the replay
/// of a 5,600-line program's names took 129 µs with them, and 112 µs
/// without them and with the replay's map its own,
/// docs/performance/peer-2026-11-30b.md.) Reads as a `&str`.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Name(SmolStr);

impl Name {
    /// The name as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for Name {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl From<&str> for Name {
    fn from(s: &str) -> Name {
        Name(SmolStr::new(s))
    }
}

impl From<String> for Name {
    fn from(s: String) -> Name {
        Name(SmolStr::from(s))
    }
}

impl From<Name> for String {
    fn from(n: Name) -> String {
        String::from(n.0)
    }
}

/// Written as the text is (`"x"`), as a `String` was.
impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&*self.0, f)
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

impl PartialEq<String> for Name {
    fn eq(&self, other: &String) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<Name> for str {
    fn eq(&self, other: &Name) -> bool {
        self == &*other.0
    }
}

impl PartialEq<Name> for &str {
    fn eq(&self, other: &Name) -> bool {
        *self == &*other.0
    }
}

impl PartialEq<Name> for String {
    fn eq(&self, other: &Name) -> bool {
        **self == *other.0
    }
}

#[cfg(test)]
mod tests {
    use super::Name;

    /// Compared, hashed, looked up and printed as its text is.
    #[test]
    fn reads_as_its_text() {
        let n = Name::from("draft");
        assert_eq!(n, "draft");
        assert_eq!("draft", n);
        assert_eq!(n, "draft".to_string());
        assert_eq!(format!("{n} {n:?}"), r#"draft "draft""#);
        let mut map = std::collections::HashMap::new();
        map.insert(n.clone(), 1);
        assert_eq!(map.get("draft"), Some(&1));
        assert_eq!(String::from(n), "draft");
    }

    /// A name too long to be held inline (shared instead) reads, compares
    /// and hashes as its text too, and as the same name held inline would.
    #[test]
    fn a_long_name_reads_as_its_text() {
        let text = "a_name_of_more_than_twenty_three_bytes";
        let long = Name::from(text);
        let copy = long.clone();
        assert_eq!(copy, text);
        assert_eq!(copy, long);
        assert_eq!(copy.len(), text.len());
        let mut map = std::collections::HashMap::new();
        map.insert(long, 1);
        map.insert(Name::from("short"), 2);
        assert_eq!(map.get(text), Some(&1));
        assert_eq!(map.get("short"), Some(&2));
        assert_eq!(String::from(copy), text);
        let mut sorted = [Name::from("b"), Name::from(text), Name::from("a")];
        sorted.sort();
        assert_eq!(sorted, ["a", text, "b"]);
    }
}
