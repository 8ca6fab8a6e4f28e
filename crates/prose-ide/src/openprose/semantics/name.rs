//! [`Name`]: a name as a file's definitions and references hold it.

use std::{borrow::Borrow, fmt, ops::Deref, sync::Arc};

/// A name of a definition or reference, shared: the walk makes it once
/// per statement, and the replay of every later edit (and the rules that
/// keep names) copy a pointer instead of the text. Reads as a `&str`.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Name(Arc<str>);

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
        Name(Arc::from(s))
    }
}

impl From<String> for Name {
    fn from(s: String) -> Name {
        Name(Arc::from(s))
    }
}

impl From<Name> for String {
    fn from(n: Name) -> String {
        n.0.to_string()
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
}
