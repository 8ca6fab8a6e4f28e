//! # D012 `unknown-block`
//!
//! **No block with that name.** With a block registry, the block of an
//! explicit read, append, delete or patch (and every /context block) must
//! exist. Without a registry nothing is checked.
//!
//! The examples use a registry with the blocks `project_notes` and `meeting_notes`.
//!
//! ## Why is this bad?
//! The action would fail, or touch the wrong block. The message offers the
//! blocks whose names contain the one written (the seed: "'recall' found
//! multiple blocks matching 'notes' - did you mean project_notes or
//! meeting_notes?").
//!
//! ## Example
//! ```dialect
//! /recall read notes
//! ```
//!
//! ## Fix
//! ```dialect
//! /recall read project_notes
//! ```
//!
//! A bare `/recall notes` is not checked: when no block has that name, it is a
//! search.

use super::{Code, Severity};

pub(crate) const CODE: Code = Code {
    code: "D012",
    name: "unknown-block",
    summary: "No block with that name",
    severity: Severity::Error,
    source: include_str!("unknown_block.rs"),
};

#[cfg(test)]
mod tests {
    use crate::diagnostics::tests::{check, check_registry};
    use expect_test::expect;

    const REGISTRY: &str = "project_notes\nmeeting_notes\n[context]\npersona\n";

    #[test]
    fn the_seed_message_and_suggestions() {
        check_registry(
            REGISTRY,
            "/recall read notes\n/recall append persnoa + \"x\"\n/recall -zzz\n/recall patch Project_Notes ```diff\n-a\n```\n/context human + \"x\"\n/recall notes\n",
            expect![[r#"
                D012 1:14-1:19 error: 'recall' found multiple blocks matching 'notes' - did you mean project_notes or meeting_notes?
                D012 2:16-2:23 error: 'recall' found no block named 'persnoa' - did you mean persona?
                  fix 2:16-2:23: Use persona => "persona"
                D012 3:10-3:13 error: 'recall' found no block named 'zzz'
                D012 7:10-7:15 error: 'context' found no block named 'human'
            "#]],
        );
    }

    #[test]
    fn nothing_is_checked_without_a_registry() {
        check(
            "/recall read notes\n/recall -zzz\n/context human + \"x\"\n",
            expect![[""]],
        );
    }
}
