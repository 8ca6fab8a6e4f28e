//! # E019 `duplicate-variable`
//!
//! **Duplicate variable name.** A variable is declared twice: by `input`,
//! `let`, `const`, a destructured `let { a, b }`, `session name:`, an
//! assignment that creates a name, or a named parallel result
//! (`x = session …` in a `parallel:` body).
//!
//! ## Why is this bad?
//! Every binding is stored as `bindings/{name}.md`. A second declaration
//! overwrites the first one's file, so the earlier result is lost for every
//! later reader.
//!
//! ## Example
//! ```prose
//! let draft = session "Write a first draft"
//! let draft = session "Write a second draft"
//! ```
//!
//! ## Fix
//! Rename one, or assign to the existing variable:
//! ```prose
//! let draft = session "Write a first draft"
//! draft = session "Improve the draft"
//!   context: draft
//! ```
//!
//! The diagnostic is on the later name and links to the first declaration.
//! Two `input`s are [E021](E021.md), two `output`s [E024](E024.md), and an
//! `output` against any other declaration [P203](P203.md). Loop, parameter,
//! error and pipeline variables are scoped; reusing an outer name there is
//! a shadowing warning ([P502](P502.md), [P704](P704.md), [P803](P803.md),
//! [P805](P805.md)). A parallel result that reassigns a `const` is
//! [P401](P401.md).
//!
//! ## Specification
//! compiler.md, Variables & Context: "Duplicate variable name" (Error,
//! "Variable already defined") and the Flat Namespace Requirement ("All
//! variable names must be unique within a program"); Parallel Blocks:
//! "Duplicate variable in parallel" (Error, same message).
//!
//! `session name:` is not in spec-rows.md's list of declarations; it binds
//! a name in the same flat namespace (prose.md), so it is counted here.
//!
//! ## Profiles
//! `strict` reports every reuse in the file as an error. `default` decides
//! by where the later declaration sits relative to the earlier ones
//! (spec-rows.md §3.1), taking the strongest collision:
//!
//! | Relation | `default` |
//! |---|---|
//! | same statement list | error |
//! | one nested inside the other's list (a loop or `if` body) | warning, suggesting `name = …` |
//! | sibling lists (two `if`s, loops or `parallel`s in a row) | warning |
//! | different arms of one `if`/`elif`/`else`, different `option`s of one `choice`, a `try` body and its `catch` | off |
//! | one inside a `block` body and the other outside it or in another block | off |
//!
//! Only one arm of an `if` or `choice` runs, so only one file is written;
//! a binding made inside a block invocation is stored per invocation
//! (`bindings/{name}__{execution_id}.md`, prose.md and
//! state-filesystem.md), so it cannot collide with a program binding.
//!
//! On the official programs `strict` reports 16 reuses in 9 files and
//! `default` 5 warnings and no error. Off by default: `final_plan` in both
//! arms of an `if` (`examples/29-captains-chair.prose:177`), `plan` both at
//! top level and inside a block (`examples/28-gas-town.prose:1421`).
//! Warnings: `let snapshot_count = snapshot_count + 1` inside a loop
//! (`examples/44-run-endpoint-ux-test.prose:165`), an intended reassignment
//! written as a declaration, and three more like it; `perf` bound by two
//! `parallel` blocks in a row in the roadmap sketch
//! (`examples/roadmap/syntax/open-prose-syntax.prose:209`).

use super::variables_shared::{Decl, DeclKind, declarations_named, names_declared_again};
use crate::openprose::rules::{
    prelude::*,
    relation::{Earlier, Relation},
};

pub(crate) const RULE: Rule = Rule {
    code: "E019",
    name: "duplicate-variable",
    summary: "Duplicate variable name",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("duplicate_variable.rs"),
    check: Check::OpenProse(check),
};

/// Reports each declaration (not an output) whose name an earlier one
/// declares: an input against the earlier declarations that are not
/// inputs, anything else against every earlier one.
///
/// What is reported about a name depends on its declarations alone, and
/// on the top-level statements holding them: after an edit of a few
/// statements, the reports about the names they neither declare nor
/// assign, before or after the edit, are the previous ones, moved
/// (`statement_edit.rs`), and only the others are worked out.
fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    if let Some(edit) = ctx.statement_edit()
        && let Some(before) = edit.kept(RULE.code)
    {
        let touched = edit.touched();
        let mut fresh = Acc::new(&RULE);
        report(ctx, &mut fresh, &declarations_named(ctx, &touched));
        let untouched = |range| Some(!touched.contains(ctx.name_text(range)?));
        if let Some(moved) = before.moved_merged(ctx.path(), |r| edit.moved(r), untouched, fresh) {
            edit.note_moved();
            *acc = moved;
            return;
        }
    }
    report(
        ctx,
        acc,
        &declarations_named(ctx, &names_declared_again(ctx)),
    );
}

/// Reports the declarations of `decls` (those of some names, in source
/// order, [`declarations_named`]) that collide with an earlier one.
fn report(ctx: &Ctx<'_>, acc: &mut Acc, decls: &[Decl]) {
    // Every earlier declaration but outputs (E024 / P203). An input is
    // compared with those that are not inputs (two inputs are E021): the
    // same answer while no earlier input has its name, so those are kept
    // apart only once one does.
    let mut all = Earlier::with_capacity(ctx, decls.len());
    let mut input_names: rustc_hash::FxHashSet<&str> = Default::default();
    let mut not_inputs: Option<Earlier<&Decl>> = None;
    for (at, later) in decls.iter().enumerate() {
        if later.kind == DeclKind::Output {
            continue;
        }
        let earlier = if later.kind == DeclKind::Input && !input_names.insert(&later.name) {
            &*not_inputs.get_or_insert_with(|| {
                let mut not_inputs = Earlier::new(ctx);
                for d in decls[..at]
                    .iter()
                    .filter(|d| !matches!(d.kind, DeclKind::Output | DeclKind::Input))
                {
                    not_inputs.insert(&d.name, d.stmt, d);
                }
                not_inputs
            })
        } else {
            &all
        };
        // A parallel result reassigning a const, parameter or loop variable
        // is P401: recorded, but not compared.
        let p401 = later.reassigns.is_some_and(|id| {
            matches!(
                ctx.sema().def(id).kind,
                DefKind::Const | DefKind::Param | DefKind::LoopVar | DefKind::IndexVar
            )
        });
        // The first declaration is looked up only for a collision.
        let found = (!p401)
            .then(|| earlier.strongest(&later.name, &later.stmt))
            .flatten()
            .and_then(|(relation, _)| Some((relation, *earlier.first(&later.name)?)));
        if later.kind != DeclKind::Input
            && let Some(not_inputs) = &mut not_inputs
        {
            not_inputs.insert(&later.name, later.stmt, later);
        }
        all.insert(&later.name, later.stmt, later);
        let Some((strongest, first)) = found else {
            continue;
        };
        let name = later.name.as_str();
        let mut message = ["Variable already defined: `", name, "`"].concat();
        if strongest == Relation::Nested && later.kind == DeclKind::Let {
            message.extend(["; to update it, assign without `let`: `", name, " = …`"]);
        }
        acc.report_calibrated(
            later.name_range,
            message,
            vec![related(
                ctx,
                first.name_range,
                &["first defined here (", first.kind.describe(), ")"].concat(),
            )],
            strongest.default_level(Severity::Warning),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_code_strict, check_no};
    use expect_test::expect;

    const RELATIONS: &str = r#"let a = session "1"
let a = session "2"
let b = session "3"
loop until **done** (max: 3):
  let b = session "4"
if **x**:
  let c = session "5"
else:
  let c = session "6"
if **y**:
  let d = session "7"
if **z**:
  let d = session "8"
block blk:
  let e = session "9"
let e = session "10"
try:
  let f = session "11"
catch:
  let f = session "12"
choice **best**:
  option "A":
    let g = session "13"
  option "B":
    let g = session "14"
"#;

    #[test]
    fn default_calibrates_by_relation() {
        check_code(
            "E019",
            RELATIONS,
            expect![[r#"
            E019 2:5-2:6 error: Variable already defined: `a`
              related 1:5-1:6: first defined here (let variable)
            E019 5:7-5:8 warning: Variable already defined: `b`; to update it, assign without `let`: `b = …`
              related 3:5-3:6: first defined here (let variable)
            E019 13:7-13:8 warning: Variable already defined: `d`
              related 11:7-11:8: first defined here (let variable)
        "#]],
        );
    }

    #[test]
    fn strict_reports_every_reuse() {
        check_code_strict(
            "E019",
            RELATIONS,
            expect![[r#"
            E019 2:5-2:6 error: Variable already defined: `a`
              related 1:5-1:6: first defined here (let variable)
            E019 5:7-5:8 error: Variable already defined: `b`; to update it, assign without `let`: `b = …`
              related 3:5-3:6: first defined here (let variable)
            E019 9:7-9:8 error: Variable already defined: `c`
              related 7:7-7:8: first defined here (let variable)
            E019 13:7-13:8 error: Variable already defined: `d`
              related 11:7-11:8: first defined here (let variable)
            E019 16:5-16:6 error: Variable already defined: `e`
              related 15:7-15:8: first defined here (let variable)
            E019 20:7-20:8 error: Variable already defined: `f`
              related 18:7-18:8: first defined here (let variable)
            E019 25:9-25:10 error: Variable already defined: `g`
              related 23:9-23:10: first defined here (let variable)
        "#]],
        );
    }

    #[test]
    fn parallel_results() {
        check_code(
            "E019",
            r#"let sec = session "earlier"
parallel:
  sec = session "Security review"
  perf = session "Performance review"
  perf = session "Performance again"
input sec: "an input, declared late"
"#,
            expect![[r#"
                E019 3:3-3:6 warning: Variable already defined: `sec`
                  related 1:5-1:8: first defined here (let variable)
                E019 5:3-5:7 error: Variable already defined: `perf`
                  related 4:3-4:7: first defined here (parallel result)
                E019 6:7-6:10 error: Variable already defined: `sec`
                  related 1:5-1:8: first defined here (let variable)
            "#]],
        );
    }

    #[test]
    fn a_repeated_input_meets_the_declarations_that_are_not_inputs() {
        check_code(
            "E019",
            r#"let x = session "a"
input x: "first"
if **y**:
  let x = session "b"
input x: "second"
"#,
            expect![[r#"
                E019 2:7-2:8 error: Variable already defined: `x`
                  related 1:5-1:6: first defined here (let variable)
                E019 4:7-4:8 warning: Variable already defined: `x`; to update it, assign without `let`: `x = …`
                  related 1:5-1:6: first defined here (let variable)
                E019 5:7-5:8 error: Variable already defined: `x`
                  related 1:5-1:6: first defined here (let variable)
            "#]],
        );
    }

    #[test]
    fn other_codes_own_these_pairs() {
        check_no(
            "E019",
            r#"input topic: "a"
input topic: "b"
output r = session "x"
output r = session "y"
let r2 = session "z"
output r2 = r2
const k = session "k"
parallel:
  k = session "reassigning a const is P401"
for item in [1]:
  session "{item}"
let { p, q } = session "pq"
x = session "assignment creates x"
x = session "assignment updates x"
"#,
        );
    }
}
