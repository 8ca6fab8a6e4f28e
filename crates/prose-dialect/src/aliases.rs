//! The alias table: every other word that names a verb, and how the words
//! that name two verbs are told apart.
//!
//! Shared words (each rule is applied after the arguments are read):
//!
//! - `remember` is /context for the context-only forms (`block "old" ->
//!   "new"`, `load X`, `swap X Y`, `archive X`) and for `block + content`
//!   when the registry lists `block` as a working-memory (`[context]`)
//!   block; otherwise it is /recall, storing what follows.
//! - `archive X` is /context archive when `X` is a working-memory block in
//!   the registry; otherwise /recall, storing what follows.
//! - `get X` is /fetch when `X` is a URL (or `continue`); otherwise /recall
//!   read.
//! - Two-word aliases win over one-word ones: `/look up X` and `/search web
//!   X` are /web, `/look X` and `/lookup X` are /search.

use crate::verbs::Verb;

/// A word (or two) that names a verb.
#[derive(Debug)]
pub struct Alias {
    /// As written after the `/`; two-word aliases have one space.
    pub word: &'static str,
    pub verb: Verb,
    /// What the alias means beyond the verb ("" when nothing more), e.g.
    /// "delete" for `forget`.
    pub meaning: &'static str,
    /// Matched only when spelled exactly (aliases of strict verbs, and
    /// `forget`, which deletes).
    pub exact_only: bool,
}

const fn a(word: &'static str, verb: Verb, meaning: &'static str) -> Alias {
    Alias {
        word,
        verb,
        meaning,
        exact_only: matches!(verb, Verb::Approve | Verb::Deny | Verb::Halt),
    }
}

static ALIASES: [Alias; 31] = [
    a("remember", Verb::Recall, "store what follows"),
    a("store", Verb::Recall, "store what follows"),
    a("save", Verb::Recall, "store what follows"),
    a("archive", Verb::Recall, "store what follows"),
    Alias {
        exact_only: true,
        ..a("forget", Verb::Recall, "delete")
    },
    a("get", Verb::Recall, "read, when the argument is not a URL"),
    a("note", Verb::Context, ""),
    a("update", Verb::Context, ""),
    a(
        "remember",
        Verb::Context,
        "for replace, load, swap and archive, and working-memory blocks",
    ),
    a(
        "archive",
        Verb::Context,
        "when the block is a working-memory block",
    ),
    a("find", Verb::Search, ""),
    a("query", Verb::Search, ""),
    a("look", Verb::Search, ""),
    a("lookup", Verb::Search, ""),
    a("get", Verb::Fetch, "when the argument is a URL"),
    a("search web", Verb::Web, ""),
    a("google", Verb::Web, ""),
    a("look up", Verb::Web, ""),
    a("calculate", Verb::Calc, ""),
    a("compute", Verb::Calc, ""),
    a("math", Verb::Calc, ""),
    a("allow", Verb::Approve, ""),
    a("permit", Verb::Approve, ""),
    a("ok", Verb::Approve, ""),
    a("yes", Verb::Approve, ""),
    a("reject", Verb::Deny, ""),
    a("block", Verb::Deny, ""),
    a("no", Verb::Deny, ""),
    a("abort", Verb::Cancel, ""),
    a("nevermind", Verb::Cancel, ""),
    a("stop", Verb::Cancel, ""),
];

/// Every alias, grouped by verb.
pub fn all() -> &'static [Alias] {
    &ALIASES
}

/// The aliases spelled `word` (one or two rows: shared words have one row
/// per verb).
pub fn lookup(word: &str) -> impl Iterator<Item = &'static Alias> + '_ {
    ALIASES
        .iter()
        .filter(move |a| a.word.eq_ignore_ascii_case(word))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_alias_of_the_seed_is_listed() {
        let seed: &[(&str, &[&str])] = &[
            (
                "recall",
                &["remember", "store", "save", "archive", "forget"],
            ),
            ("context", &["note", "update", "remember"]),
            ("search", &["find", "query", "look", "lookup"]),
            ("fetch", &["get"]),
            ("web", &["search web", "google", "look up"]),
            ("calc", &["calculate", "compute", "math"]),
            ("approve", &["allow", "permit", "ok", "yes"]),
            ("deny", &["reject", "block", "no"]),
            ("cancel", &["abort", "nevermind", "stop"]),
        ];
        for (verb, words) in seed {
            let verb = Verb::from_name(verb).unwrap();
            for w in *words {
                assert!(
                    lookup(w).any(|a| a.verb == verb),
                    "{w} is not an alias of {verb:?}"
                );
            }
        }
    }

    #[test]
    fn shared_words() {
        let shared: Vec<_> = ALIASES
            .iter()
            .filter(|a| lookup(a.word).count() > 1)
            .map(|a| (a.word, a.verb))
            .collect();
        assert_eq!(
            shared,
            [
                ("remember", Verb::Recall),
                ("archive", Verb::Recall),
                ("get", Verb::Recall),
                ("remember", Verb::Context),
                ("archive", Verb::Context),
                ("get", Verb::Fetch),
            ]
        );
    }

    #[test]
    fn aliases_of_strict_verbs_and_forget_are_exact_only() {
        let exact: Vec<_> = ALIASES
            .iter()
            .filter(|a| a.exact_only)
            .map(|a| a.word)
            .collect();
        assert_eq!(
            exact,
            [
                "forget", "allow", "permit", "ok", "yes", "reject", "block", "no"
            ]
        );
    }
}
