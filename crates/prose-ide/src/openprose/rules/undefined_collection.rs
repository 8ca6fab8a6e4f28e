//! # P703 `undefined-collection`
//!
//! **Undefined collection variable.** The collection of `for … in X` /
//! `parallel for … in X`, or the input `X` of a pipeline `X | map: …`, is a
//! name that is not a variable at that point.
//!
//! ## Why is this bad?
//! The loop or pipeline has nothing to iterate over: the runtime would
//! iterate over an empty or invented value.
//!
//! ## Example
//! ```prose
//! let topics = session "List five research topics"
//! for topic in topcs:
//!   session "Research {topic}"
//! ```
//!
//! ## Fix
//! ```prose
//! let topics = session "List five research topics"
//! for topic in topics:
//!   session "Research {topic}"
//! ```
//!
//! The diagnostic is on the undefined name (the base of `X.field`), with
//! the closest variable name suggested when there is one. Inline arrays
//! (`for x in ["a", "b"]:`) are never a missing collection; a name written
//! inside one that does not resolve is reported here too, because it is
//! part of the collection.
//!
//! A name resolves as for [P402](P402.md): a loop, parameter, error or
//! pipeline variable of an enclosing construct, an `input`, or a binding
//! earlier in the file (anywhere in the program inside a `block` body).
//!
//! ## Specification
//! compiler.md, Fixed Loops, Validation Rules: "Undefined collection
//! variable" (Error, "Undefined collection variable"); Pipeline Operations,
//! Validation Rules: "Undefined input collection" (Error, same message).
//! Same severity in every profile.

use super::control_shared::variable_suggestion;
use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P703",
    name: "undefined-collection",
    summary: "Undefined collection variable",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("undefined_collection.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for r in &ctx.sema().refs {
        if r.kind == RefKind::Variable(RefSite::Collection)
            && r.target.is_none()
            && !declared_for_block_body(ctx, r.range, &r.name)
        {
            let hint = variable_suggestion(ctx, &r.name, r.range);
            acc.report(
                r.range,
                format!("Undefined collection variable: `{}`{hint}", r.name),
            );
        }
    }
}

/// Inside a `block` body every declaration of the program counts, even a
/// later one: the body runs where the block is called (spec-rows.md P101
/// "Resolution" (b)).
fn declared_for_block_body(ctx: &Ctx<'_>, at: TextRange, name: &str) -> bool {
    let in_block = ctx
        .syntax()
        .covering_element(at)
        .parent()
        .is_some_and(|n| n.ancestors().any(|a| a.kind() == SyntaxKind::BLOCK_DEF));
    in_block
        && ctx
            .sema()
            .named(name)
            .map(|id| ctx.sema().def(id))
            .any(|d| d.kind.is_flat_binding() || d.kind == DefKind::Input)
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn for_and_pipeline_sources() {
        check_code(
            "P703",
            r#"let topics = session "a"
for t in topcs:
  session "{t}"
parallel for t in report.sections:
  session "{t}"
let r = missing | map:
  session "{item}"
"#,
            expect![[r#"
                P703 2:10-2:15 error: Undefined collection variable: `topcs` (did you mean `topics`?)
                P703 4:19-4:25 error: Undefined collection variable: `report`
                P703 6:9-6:16 error: Undefined collection variable: `missing`
            "#]],
        );
    }

    #[test]
    fn defined_collections_are_fine() {
        check_no(
            "P703",
            r#"input sources: "s"
let topics = session "a"
for t in topics:
  for u in t.parts:
    session "{u}"
let r = topics | filter:
  session "{item}"
for x in ["a", "b"]:
  session "{x}"
block b(xs):
  for x in xs:
    session "{x}"
  for y in later:
    session "{y}"
let later = session "c"
"#,
        );
    }
}
