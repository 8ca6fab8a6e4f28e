//! # D002 `corrected-verb`
//!
//! **Verb read as a near spelling.** The verb was misspelled, and read as the
//! verb or alias it is closest to; the action runs.
//!
//! ## Why is this bad?
//! It is not: matching generously is the point (the seed: "hard to fail").
//! The hint shows what was understood, and an editor offers the canonical
//! spelling as a quick fix. How far a guess may go depends on the verb's
//! strictness: see the table in docs/dialect.md; strict verbs are never
//! guessed (D003).
//!
//! ## Example
//! ```dialect
//! /recal project deadlines
//! ```
//!
//! ## Fix
//! ```dialect
//! /recall project deadlines
//! ```

use super::{Code, Severity};

pub(crate) const CODE: Code = Code {
    code: "D002",
    name: "corrected-verb",
    summary: "Verb read as a near spelling",
    severity: Severity::Hint,
    source: include_str!("corrected_verb.rs"),
};

#[cfg(test)]
mod tests {
    use crate::diagnostics::tests::check;
    use expect_test::expect;

    #[test]
    fn loose_normal_and_prefix() {
        check(
            "/serch in archival deadlines\n/repyl sounds good\n/rec notes\n/Recall notes\n",
            expect![[r#"
                D002 1:2-1:7 hint: I read /serch as /search
                  fix 1:2-1:7: Write /search => "search"
                D002 2:2-2:7 hint: I read /repyl as /reply
                  fix 2:2-2:7: Write /reply => "reply"
                D002 3:2-3:5 hint: I read /rec as /recall
                  fix 3:2-3:5: Write /recall => "recall"
            "#]],
        );
    }
}
