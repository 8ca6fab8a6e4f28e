//! # P201 `import-alias-required`
//!
//! **Alias required when importing multiple.** Two `use` statements import
//! different programs that bind the same name, so a call `name(…)` would
//! be ambiguous.
//!
//! Without `as`, a `use` binds the last segment of its path: `@a/research`
//! and `@b/research` both bind `research` (spec-rows.md §3.7).
//!
//! ## Example
//! ```prose
//! use "@alice/research"
//! use "@bob/research"
//! ```
//!
//! ## Fix
//! Give the second one its own name:
//! ```prose
//! use "@alice/research"
//! use "@bob/research" as bob-research
//! ```
//!
//! The diagnostic is on the later statement's alias if it has one, else on
//! its path, and links to the earlier `use`. Two `use`s of the *same*
//! program are E010 instead.
//!
//! ## Specification
//! compiler.md, Use Statements › Validation Rules: "Missing alias for dup"
//! (Error, "Alias required when importing multiple"). compiler.md gives the
//! row no E-code; this project numbers it P201. Same severity in every
//! profile.

use super::program_shared::{Import, bound_name, imports};
use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P201",
    name: "import-alias-required",
    summary: "Alias required when importing multiple",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("import_alias_required.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    let all = imports(ctx);
    // Per bound name, among the earlier imports that are not duplicates:
    // the first, and the first whose program differs from the first's.
    // The first earlier one whose program differs from a later import's
    // is one of these two (found without scanning every earlier import).
    let mut earlier: rustc_hash::FxHashMap<&str, (&Import, Option<&Import>)> = Default::default();
    for imp in all.iter() {
        let Some(name) = &imp.name else { continue };
        let first = earlier.get(name.as_str()).and_then(|&(first, other)| {
            if first.key != imp.key {
                Some(first)
            } else {
                other
            }
        });
        if !imp.duplicate {
            earlier
                .entry(name.as_str())
                .and_modify(|(first, other)| {
                    if other.is_none() && first.key != imp.key {
                        *other = Some(imp);
                    }
                })
                .or_insert((imp, None));
        }
        if imp.duplicate || imp.path.trim().is_empty() {
            continue;
        }
        let Some(first) = first else {
            continue;
        };
        let range = bound_name(&imp.stmt).map_or(imp.path_range, |(_, r)| r);
        let fix = if imp.stmt.alias().is_some() {
            "choose another alias"
        } else {
            "add `as other-name`"
        };
        acc.report_related(
            range,
            format!(
                "Alias required when importing multiple: `{name}` already names `{}`; {fix}",
                first.path.trim()
            ),
            vec![related(ctx, first.path_range, "imported here")],
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn same_slug_and_same_alias() {
        check_code(
            "P201",
            r#"use "@alice/research"
use "@bob/research"
use "@carol/critique" as critic
use "@dave/critique" as critic
"#,
            expect![[r#"
                P201 2:5-2:20 error: Alias required when importing multiple: `research` already names `@alice/research`; add `as other-name`
                  related 1:5-1:22: imported here
                P201 4:25-4:31 error: Alias required when importing multiple: `critic` already names `@carol/critique`; choose another alias
                  related 3:5-3:22: imported here
            "#]],
        );
    }

    /// Each later import is reported against the first one of its name,
    /// a repeat of the first (E010) against nothing.
    #[test]
    fn every_later_import_points_at_the_first() {
        check_code(
            "P201",
            r#"use "@alice/research"
use "@alice/research"
use "@bob/research"
use "@carol/research"
"#,
            expect![[r#"
                P201 3:5-3:20 error: Alias required when importing multiple: `research` already names `@alice/research`; add `as other-name`
                  related 1:5-1:22: imported here
                P201 4:5-4:22 error: Alias required when importing multiple: `research` already names `@alice/research`; add `as other-name`
                  related 1:5-1:22: imported here
            "#]],
        );
    }

    #[test]
    fn aliased_apart_or_same_program() {
        check_no(
            "P201",
            "use \"@alice/research\"\nuse \"@bob/research\" as bob-research\nuse \"alice/research\"\n",
        );
    }
}
