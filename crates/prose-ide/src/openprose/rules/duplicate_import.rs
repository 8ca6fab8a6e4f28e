//! # E010 `duplicate-import`
//!
//! **Program already imported.** Two `use` statements import the same
//! program, whatever their aliases.
//!
//! ## Why is this bad?
//! The runtime keys imports by program, not by alias: an imported program's
//! state lives in `imports/{handle}--{slug}/`, so two aliases would share
//! (and clobber) one directory. A second name adds nothing either: the
//! first one can be called any number of times.
//!
//! ## Example
//! ```prose
//! use "@alice/research"
//! use "@alice/research" as deep-research
//! ```
//!
//! ## Fix
//! Keep one import and call it as often as needed:
//! ```prose
//! use "@alice/research"
//! ```
//!
//! Paths are compared after normalising: `@h/s`, `h/s` and
//! `https://p.prose.md/h/s` name the same program; local paths are
//! resolved against the file's directory; other URLs are compared as
//! written. The diagnostic is on the later path and links to the first
//! `use`.
//!
//! ## Specification
//! compiler.md, Use Statements › Validation Rules: "Duplicate import"
//! (Error, "Program already imported"); Validation Rules: E010. Same
//! severity in every profile. Importing one program twice under different
//! aliases is E010 too, not P201 (spec-rows.md §3.8).

use super::program_shared::imports;
use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "E010",
    name: "duplicate-import",
    summary: "Program already imported",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("duplicate_import.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    let all = imports(ctx);
    for (i, imp) in all.iter().enumerate() {
        if !imp.duplicate {
            continue;
        }
        let Some(first) = all[..i].iter().find(|f| f.key == imp.key) else {
            continue;
        };
        acc.report_related(
            imp.path_range,
            format!("Program already imported: `{}`", imp.path.trim()),
            vec![related(ctx, first.path_range, "first imported here")],
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn same_program_under_other_spellings() {
        check_code(
            "E010",
            r#"use "@alice/research"
use "alice/research" as r2
use "https://p.prose.md/@alice/research" as r3
use "./lib/x.prose"
use "lib/../lib/x.prose" as x2
"#,
            expect![[r#"
                E010 2:5-2:21 error: Program already imported: `alice/research`
                  related 1:5-1:22: first imported here
                E010 3:5-3:41 error: Program already imported: `https://p.prose.md/@alice/research`
                  related 1:5-1:22: first imported here
                E010 5:5-5:25 error: Program already imported: `lib/../lib/x.prose`
                  related 4:5-4:20: first imported here
            "#]],
        );
    }

    #[test]
    fn different_programs_are_fine() {
        check_no(
            "E010",
            "use \"@alice/research\"\nuse \"@bob/research\" as other\nuse \"\"\nuse \"\"\n",
        );
    }
}
