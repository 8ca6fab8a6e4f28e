//! References: names for things in context, resolved by the framework that
//! runs the action (the parser classifies them; it has no context).
//!
//! | written | meaning |
//! |---|---|
//! | `@last`, `@last.message` | the last message in context |
//! | `@last.output` | the output of the last action |
//! | `@thread` | the current thread or conversation |
//! | `@parent` | the message being replied to |
//! | `@[uri]` | a specific resource, by URI |
//! | `that`, `this`, `it` | implicit: whatever the conversation points at |
//!
//! A reference is recognised where an argument is expected and the
//! argument is exactly the reference: `/tell @entropy that` passes the
//! reference, `/reply I like that` is text. Any other `@word` is a target
//! (`@entropy`, `@general`) or a /send domain.

use serde::{Deserialize, Serialize};

/// A reference to something in context.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "ref", rename_all = "snake_case")]
pub enum Reference {
    /// `@last` and `@last.message`.
    #[serde(rename = "last.message")]
    LastMessage,
    /// `@last.output`.
    #[serde(rename = "last.output")]
    LastOutput,
    Thread,
    Parent,
    /// `@[uri]`.
    Uri {
        uri: String,
    },
    That,
    This,
    It,
}

/// What an `@` word is.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum At<'t> {
    Reference(Reference),
    /// `@name`: a target or domain (the name without `@`).
    Name(&'t str),
    /// `@last.something`, `@`, `@[` unclosed or empty: the message says why.
    Invalid(String),
}

/// Classifies an `@` token as written (with its `@`).
pub(crate) fn classify_at(word: &str, closed: bool) -> At<'_> {
    let body = &word[1..];
    if let Some(uri) = body.strip_prefix('[') {
        let uri = uri.strip_suffix(']').filter(|_| closed);
        return match uri.map(str::trim) {
            Some("") => At::Invalid("`@[]` needs a URI inside the brackets".into()),
            Some(u) => At::Reference(Reference::Uri { uri: u.to_string() }),
            None => At::Invalid(format!("`{word}` is missing its closing `]`")),
        };
    }
    // Trailing sentence punctuation is not part of the name.
    let name = body.trim_end_matches([',', ';', ':', '!', '?', ')']);
    let name = name.strip_suffix('.').unwrap_or(name);
    let lower = name.to_ascii_lowercase();
    match lower.as_str() {
        "" => At::Invalid("`@` needs a name after it, like @last or @entropy".into()),
        "last" | "last.message" => At::Reference(Reference::LastMessage),
        "last.output" => At::Reference(Reference::LastOutput),
        "thread" => At::Reference(Reference::Thread),
        "parent" => At::Reference(Reference::Parent),
        l if l.starts_with("last.") => At::Invalid(format!(
            "`@{name}` is not a reference I know - use @last.message or @last.output"
        )),
        _ => At::Name(name),
    }
}

/// The implicit reference `word` is (`that`, `this`, `it`), if any.
pub(crate) fn implicit(word: &str) -> Option<Reference> {
    match word.to_ascii_lowercase().as_str() {
        "that" => Some(Reference::That),
        "this" => Some(Reference::This),
        "it" => Some(Reference::It),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reference_of_the_seed() {
        let r = |w| classify_at(w, true);
        assert_eq!(r("@last"), At::Reference(Reference::LastMessage));
        assert_eq!(r("@last.message"), At::Reference(Reference::LastMessage));
        assert_eq!(r("@last.output"), At::Reference(Reference::LastOutput));
        assert_eq!(r("@LAST.Output,"), At::Reference(Reference::LastOutput));
        assert_eq!(r("@thread"), At::Reference(Reference::Thread));
        assert_eq!(r("@parent."), At::Reference(Reference::Parent));
        assert_eq!(
            r("@[https://example.com/a b]"),
            At::Reference(Reference::Uri {
                uri: "https://example.com/a b".into()
            })
        );
        assert_eq!(r("@entropy"), At::Name("entropy"));
        assert_eq!(
            r("@at://did:plc:xxx/post/yyy"),
            At::Name("at://did:plc:xxx/post/yyy")
        );
        assert_eq!(implicit("That"), Some(Reference::That));
        assert_eq!(implicit("this"), Some(Reference::This));
        assert_eq!(implicit("it"), Some(Reference::It));
        assert_eq!(implicit("these"), None);
    }

    #[test]
    fn invalid_references() {
        for (w, closed) in [
            ("@", true),
            ("@last.foo", true),
            ("@[]", true),
            ("@[x", false),
        ] {
            assert!(matches!(classify_at(w, closed), At::Invalid(_)), "{w}");
        }
    }

    #[test]
    fn serde() {
        let json = serde_json::to_string(&Reference::LastOutput).unwrap();
        assert_eq!(json, r#"{"ref":"last.output"}"#);
        let json = serde_json::to_string(&Reference::Uri { uri: "x".into() }).unwrap();
        assert_eq!(json, r#"{"ref":"uri","uri":"x"}"#);
    }
}
