//! # P402 `undefined-variable`
//!
//! **Undefined variable reference.** A name used as a value (the right side
//! of `let`/`const`/`output`/an assignment, a `do` argument, a condition, the
//! base of a field access, an object-literal value) is not a variable that
//! exists at that point.
//!
//! ## Why is this bad?
//! The runtime has nothing to read: the session receives an empty or
//! hallucinated value instead of the result you meant to pass.
//!
//! ## Example
//! ```prose
//! let draft = session "Write a first draft"
//! let final = session "Polish it"
//!   context: draft
//! output result = finall
//! ```
//!
//! ## Fix
//! ```prose
//! let draft = session "Write a first draft"
//! let final = session "Polish it"
//!   context: draft
//! output result = final
//! ```
//!
//! ## What resolves
//! A name resolves when a loop, parameter, error or pipeline variable of an
//! enclosing construct has that name, when an `input` declares it anywhere,
//! or when a `let`/`const`/`output`/assignment/`session name:` binding with
//! that name appears earlier in the file. Inside a `block` body, bindings
//! anywhere in the program count: the body runs where the block is called.
//!
//! Other positions have their own codes: names under `context:` are
//! [P404](P404.md), `for` and pipeline collections [P703](P703.md), `{name}`
//! interpolations [P101](P101.md), and agent, block and program names E007,
//! [P503](P503.md) and E025.
//!
//! ## Specification
//! compiler.md, Variables & Context, Validation Rules: "Undefined variable
//! reference" (Error, "Undefined variable"). Same severity in every profile.

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P402",
    name: "undefined-variable",
    summary: "Undefined variable reference",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("undefined_variable.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for r in &ctx.sema().refs {
        let RefKind::Variable(site) = r.kind else {
            continue;
        };
        if r.target.is_some() || !matches!(site, RefSite::Expr | RefSite::ObjectShorthand) {
            continue;
        }
        let hint = super::variables_shared::variable_suggestion(ctx, &r.name);
        let expected = if hint.is_empty() {
            "; nothing binds it before this point (`let`, `const`, `input`, a parameter or a loop variable)"
        } else {
            ""
        };
        acc.report(
            r.range,
            format!("Undefined variable: `{}`{hint}{expected}", r.name),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn undefined_names_in_expressions() {
        check_code(
            "P402",
            r#"let draft = session "a"
output result = drafts
if status == "done":
  session "b"
let n = api.get(draft)
do review(topic)
block review(t):
  session "{t}"
agent writer:
  model: opus
let w = writer
let r = review
for item in [1]:
  session "{item}"
let last = item
let s = soon
let soon = session "s"
"#,
            expect![[r#"
                P402 2:17-2:23 error: Undefined variable: `drafts` (did you mean `draft`?)
                P402 3:4-3:10 error: Undefined variable: `status`; nothing binds it before this point (`let`, `const`, `input`, a parameter or a loop variable)
                P402 5:9-5:12 error: Undefined variable: `api`; nothing binds it before this point (`let`, `const`, `input`, a parameter or a loop variable)
                P402 6:11-6:16 error: Undefined variable: `topic`; nothing binds it before this point (`let`, `const`, `input`, a parameter or a loop variable)
                P402 11:9-11:15 error: Undefined variable: `writer` (`writer` is an agent, not a variable)
                P402 12:9-12:15 error: Undefined variable: `review` (`review` is a block; run it with `do review`)
                P402 15:12-15:16 error: Undefined variable: `item` (a loop variable `item` exists, but only inside its body)
                P402 16:9-16:13 error: Undefined variable: `soon` (`soon` is bound only later, at line 17)
            "#]],
        );
    }

    #[test]
    fn defined_names_are_fine() {
        check_no(
            "P402",
            r#"input topic: "t"
let draft = session "a"
output result = draft
do review(topic, draft)
block review(t, d):
  let x = d
  output out = later
for item in [1, 2]:
  let y = item
catch_all = try:
  session "c"
let later = session "late"
"#,
        );
    }

    #[test]
    fn other_sites_are_not_reported_here() {
        check_no(
            "P402",
            "session \"{nope}\"\n  context: missing\nfor x in absent:\n  session \"a\"\n",
        );
    }
}
