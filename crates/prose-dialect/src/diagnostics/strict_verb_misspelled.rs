//! # D003 `strict-verb-misspelled`
//!
//! **Strict verb misspelled: never guessed.** The verb is close to `approve`,
//! `deny`, `halt`, one of their aliases, or `forget` (which deletes), and
//! those are matched only when spelled exactly.
//!
//! ## Why is this bad?
//! A guess could grant a permission, refuse one, stop the system or delete a
//! memory that nobody asked for ("hard to be dangerous"). The action does not
//! run; the agent is asked to write the verb exactly.
//!
//! ## Example
//! ```dialect
//! /aprove req-42
//! ```
//!
//! ## Fix
//! ```dialect
//! /approve req-42
//! ```
//!
//! A word equally close to a strict verb and to another verb is reported here
//! too: safety wins a tie.

use super::{Code, Severity};

pub(crate) const CODE: Code = Code {
    code: "D003",
    name: "strict-verb-misspelled",
    summary: "Strict verb misspelled: never guessed",
    severity: Severity::Error,
    source: include_str!("strict_verb_misspelled.rs"),
};

#[cfg(test)]
mod tests {
    use crate::diagnostics::tests::check;
    use expect_test::expect;

    #[test]
    fn every_strict_word() {
        check(
            "/aprove req-1\n/dney req-1\n/hlat \"x\" !\n/alow req-1\n/forgte notes\n",
            expect![[r#"
                D003 1:2-1:8 error: /aprove looks like /approve, but I never guess a permission decision - write /approve exactly
                  fix 1:2-1:8: Write /approve => "approve"
                D003 2:2-2:6 error: /dney looks like /deny, but I never guess a permission decision - write /deny exactly
                  fix 2:2-2:6: Write /deny => "deny"
                D003 3:2-3:6 error: /hlat looks like /halt, but I never guess an emergency stop - write /halt exactly
                  fix 3:2-3:6: Write /halt => "halt"
                D003 4:2-4:6 error: /alow looks like /allow, but I never guess a permission decision - write /allow exactly
                  fix 4:2-4:6: Write /allow => "allow"
                D003 5:2-5:8 error: /forgte looks like /forget, but I never guess a deletion - write /forget exactly
                  fix 5:2-5:8: Write /forget => "forget"
            "#]],
        );
    }
}
