//! # P401 `const-reassignment`
//!
//! **Const reassignment.** An assignment `name = …` targets a variable that
//! cannot change: a `const`, a block parameter, or a loop or `as` variable
//! (`for x in …`, `for x, i in …`, `repeat N as i`, `loop … as i`), which
//! compiler.md calls implicitly `const`.
//!
//! ## Example
//! ```prose
//! const config = session "Get configuration settings"
//! config = session "Try to change"
//! ```
//!
//! ## Fix
//! Use `let` for a value that changes, or bind a new name:
//! ```prose
//! let config = session "Get configuration settings"
//! config = session "Refine the configuration"
//!   context: config
//! ```
//!
//! The diagnostic is on the assigned name and links to the declaration.
//! A second `const x = …` / `let x = …` is a redeclaration,
//! [E019](E019.md), not a reassignment.
//!
//! ## Specification
//! compiler.md, Variables & Context: "Const reassignment" (Error, "Cannot
//! reassign const variable"), and Const Binding ("This would be an error:
//! `config = session …`"). Block Parameters › Parameter Scope and Fixed
//! Loops › Variable Scoping: parameters and loop variables "are implicitly
//! `const`". Same severity in every profile.

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P401",
    name: "const-reassignment",
    summary: "Const reassignment",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("const_reassignment.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for r in &ctx.sema().refs {
        if r.kind != RefKind::Variable(RefSite::AssignTarget) {
            continue;
        }
        let Some(id) = r.target else { continue };
        let def = ctx.sema().def(id);
        let (what, note) = match def.kind {
            DefKind::Const => ("", "declared `const` here"),
            DefKind::Param => (
                " (block parameters are implicitly const)",
                "parameter declared here",
            ),
            DefKind::LoopVar | DefKind::IndexVar => (
                " (loop variables are implicitly const)",
                "loop variable declared here",
            ),
            _ => continue,
        };
        acc.report_related(
            r.range,
            format!("Cannot reassign const variable: `{}`{what}", r.name),
            vec![related(ctx, def.name_range, note)],
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn const_param_and_loop_variables() {
        check_code(
            "P401",
            r#"const config = session "a"
config = session "b"
parallel:
  config = session "c"
block review(topic):
  topic = session "d"
for item, i in [1, 2]:
  item = session "e"
  i = session "f"
repeat 2 as n:
  n = session "g"
"#,
            expect![[r#"
                P401 2:1-2:7 error: Cannot reassign const variable: `config`
                  related 1:7-1:13: declared `const` here
                P401 4:3-4:9 error: Cannot reassign const variable: `config`
                  related 1:7-1:13: declared `const` here
                P401 6:3-6:8 error: Cannot reassign const variable: `topic` (block parameters are implicitly const)
                  related 5:14-5:19: parameter declared here
                P401 8:3-8:7 error: Cannot reassign const variable: `item` (loop variables are implicitly const)
                  related 7:5-7:9: loop variable declared here
                P401 9:3-9:4 error: Cannot reassign const variable: `i` (loop variables are implicitly const)
                  related 7:11-7:12: loop variable declared here
                P401 11:3-11:4 error: Cannot reassign const variable: `n` (loop variables are implicitly const)
                  related 10:13-10:14: loop variable declared here
            "#]],
        );
    }

    #[test]
    fn let_reassignment_is_fine() {
        check_no(
            "P401",
            r#"let draft = session "a"
draft = session "b"
  context: draft
catch_me = session "c"
catch_me = session "d"
const k = session "k"
let other = session "uses {k}"
"#,
        );
    }
}
