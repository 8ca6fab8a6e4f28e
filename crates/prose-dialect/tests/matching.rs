//! Fuzzy verb matching at its boundaries, over every known word: what one
//! and two typos do for each strictness, and that strict words are never
//! guessed.

use prose_dialect::{
    Strictness, Verb, parse,
    resolve::{self, VerbMatch, Word},
};

/// Every word one edit (deletion, substitution with `x`/`q`, insertion of
/// `z`, swap of neighbours) away from `w`.
fn one_edit(w: &str) -> Vec<String> {
    let c: Vec<char> = w.chars().collect();
    let mut out = Vec::new();
    for i in 0..c.len() {
        let mut d = c.clone();
        d.remove(i);
        out.push(d.iter().collect());
        for sub in ['x', 'q'] {
            if c[i] != sub {
                let mut s = c.clone();
                s[i] = sub;
                out.push(s.iter().collect());
            }
        }
        if i + 1 < c.len() && c[i] != c[i + 1] {
            let mut s = c.clone();
            s.swap(i, i + 1);
            out.push(s.iter().collect());
        }
    }
    for i in 0..=c.len() {
        let mut s = c.clone();
        s.insert(i, 'z');
        out.push(s.iter().collect());
    }
    out.retain(|v: &String| resolve::exact(v).is_none());
    out
}

fn strictness(w: &Word) -> Strictness {
    if w.exact_only {
        Strictness::Strict
    } else if matches!(w.text, "remember" | "archive") {
        Strictness::Loose
    } else {
        w.verb.strictness()
    }
}

#[test]
fn one_typo_in_a_word_of_four_letters_or_more_is_read_unless_strict() {
    for w in resolve::words() {
        if w.text.len() < 4 {
            continue;
        }
        for typo in one_edit(w.text) {
            match (resolve::match_verb(&typo), strictness(w)) {
                (VerbMatch::StrictNearMiss(_), _) => {}
                (VerbMatch::Corrected { word, .. }, s) => {
                    assert_ne!(
                        s,
                        Strictness::Strict,
                        "{typo} guessed from strict {}",
                        w.text
                    );
                    assert!(!word.exact_only, "{typo} corrected to {}", word.text);
                }
                // Equally close to two verbs: asked, never guessed.
                (VerbMatch::Ambiguous(a, b), _) => assert_ne!(a.verb, b.verb),
                (m, s) => panic!("{typo} (from {}, {s:?}): {m:?}", w.text),
            }
        }
    }
}

#[test]
fn one_typo_in_a_strict_word_is_an_error() {
    for w in resolve::words()
        .iter()
        .filter(|w| w.exact_only && w.text.len() >= 4)
    {
        for typo in one_edit(w.text) {
            assert!(
                matches!(resolve::match_verb(&typo), VerbMatch::StrictNearMiss(_)),
                "{typo} from {}",
                w.text
            );
            let p = parse(&format!("/{typo} req-1"));
            assert!(
                p.action.is_none() && p.error().unwrap().code == "D003",
                "{typo}"
            );
        }
    }
}

/// A correction is always within the budget of the word it chose: two
/// typos only for loose words of 5 letters or more and normal words of 8 or
/// more, and never to a strict word.
#[test]
fn two_typos_only_for_loose_words_and_long_normal_words() {
    let mut corrected = 0;
    for w in resolve::words() {
        for once in one_edit(w.text) {
            for twice in one_edit(&once) {
                if let VerbMatch::Corrected { word, .. } = resolve::match_verb(&twice) {
                    let n = word.text.len();
                    let d = strsim::osa_distance(&twice.to_lowercase(), word.text);
                    let budget = match strictness(&word) {
                        Strictness::Strict => 0,
                        Strictness::Normal if n >= 8 => 2,
                        Strictness::Normal => 1,
                        Strictness::Loose if n >= 5 => 2,
                        Strictness::Loose => 1,
                    };
                    // Or a unique prefix of a loose word.
                    let prefix = strictness(&word) == Strictness::Loose
                        && word.text.starts_with(&twice)
                        && twice.len() >= 3;
                    assert!(
                        d <= budget || prefix,
                        "{twice} read as {} ({d} edits)",
                        word.text
                    );
                    corrected += 1;
                }
            }
        }
    }
    assert!(corrected > 1000, "{corrected}");
}

#[test]
fn short_words_are_never_guessed() {
    for w in ["dn", "wbe", "ko", "on", "ys", "gte", "dms"] {
        assert!(
            matches!(
                resolve::match_verb(w),
                VerbMatch::Unknown { .. } | VerbMatch::StrictNearMiss(_)
            ),
            "{w}"
        );
    }
}

#[test]
fn loose_prefixes() {
    for (prefix, verb) in [
        ("rec", Verb::Recall),
        ("reca", Verb::Recall),
        ("sea", Verb::Search),
        ("sear", Verb::Search),
        ("archi", Verb::Recall),
        ("quer", Verb::Search),
    ] {
        match resolve::match_verb(prefix) {
            VerbMatch::Corrected { word, .. } => assert_eq!(word.verb, verb, "{prefix}"),
            m => panic!("{prefix}: {m:?}"),
        }
    }
    // Two letters are not enough; a prefix of a normal verb is not used.
    assert!(matches!(
        resolve::match_verb("re"),
        VerbMatch::Unknown { .. }
    ));
    assert!(matches!(
        resolve::match_verb("esc"),
        VerbMatch::Unknown { .. }
    ));
    // A prefix of forget (deletes) is never used.
    assert!(!matches!(
        resolve::match_verb("forg"),
        VerbMatch::Corrected { .. }
    ));
}

#[test]
fn corrected_actions_run_with_a_hint_and_lower_confidence() {
    let p = parse("/recal project deadlines");
    assert!(p.error().is_none());
    let a = p.action.clone().unwrap();
    assert_eq!(a.verb, Verb::Recall);
    assert_eq!(a.written, "recal");
    assert!(a.confidence > 0.5 && a.confidence < 1.0);
    assert_eq!(p.diagnostics.len(), 1);
    assert_eq!(p.diagnostics[0].code, "D002");
    let exact = parse("/recall project deadlines").action.unwrap();
    assert_eq!(exact.confidence, 1.0);
}
