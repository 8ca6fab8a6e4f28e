//! # P404 `undefined-context-variable`
//!
//! **Undefined variable in context.** A name under `context:` — a single
//! name, an element of `[…]`, a shorthand field of `{ a, b }` or the value of
//! a keyed field `{ k: v }`, or the base of a field access — is not a
//! variable that exists at that point.
//!
//! ## Why is this bad?
//! `context:` hands earlier results to a session. A name that is not bound
//! passes nothing, and the session runs without the input it was written
//! for.
//!
//! ## Example
//! ```prose
//! parallel:
//!   security = session "Security review"
//!   perf = session "Performance review"
//!
//! session "Synthesize the reviews"
//!   context: { security, performance }
//! ```
//!
//! ## Fix
//! ```prose
//! parallel:
//!   security = session "Security review"
//!   perf = session "Performance review"
//!
//! session "Synthesize the reviews"
//!   context: { security, perf }
//! ```
//!
//! Names resolve as for [P402](P402.md): enclosing loop, parameter, error
//! and pipeline variables, inputs, and bindings earlier in the file (any
//! binding of the program inside a `block` body).
//!
//! ## Specification
//! compiler.md, Variables & Context: "Undefined context variable" (Error,
//! "Undefined variable in context"); Parallel Blocks: "Undefined variable in
//! object context" (Error, same message).
//!
//! ## Profiles
//! `strict` reports every unresolved name as an error. When the name is an
//! **agent** (`context: smith`), `default` reports a warning instead: the
//! intent is clear (the agent's last output) but the runtime binds outputs
//! to variables, not to agents. The official programs do this twice
//! (`examples/37-the-forge.prose:1176`, `context: crucible`, and `:1384`,
//! `context: smith`).

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P404",
    name: "undefined-context-variable",
    summary: "Undefined variable in context",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("undefined_context_variable.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for r in &ctx.sema().refs {
        if r.kind != RefKind::Variable(RefSite::Context) || r.target.is_some() {
            continue;
        }
        if let Some((_, agent)) = ctx.sema().find(DefKind::Agent, &r.name) {
            acc.report_calibrated(
                r.range,
                format!(
                    "Undefined variable in context: `{}` is an agent, not a variable; pass a variable that holds its output",
                    r.name
                ),
                vec![related(ctx, agent.name_range, "agent defined here")],
                Level::On(Severity::Warning),
            );
            continue;
        }
        let hint = super::variables_shared::variable_suggestion(ctx, &r.name);
        let expected = if hint.is_empty() {
            "; pass a variable bound before this point"
        } else {
            ""
        };
        acc.report(
            r.range,
            format!(
                "Undefined variable in context: `{}`{hint}{expected}",
                r.name
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_code_strict, check_no};
    use expect_test::expect;

    #[test]
    fn every_context_form() {
        check_code(
            "P404",
            r#"let a = session "a"
session "single"
  context: nope
session "array"
  context: [a, missing.field]
session "object"
  context: { a, absent, key: gone }
"#,
            expect![[r#"
                P404 3:12-3:16 error: Undefined variable in context: `nope`; pass a variable bound before this point
                P404 5:16-5:23 error: Undefined variable in context: `missing`; pass a variable bound before this point
                P404 7:17-7:23 error: Undefined variable in context: `absent`; pass a variable bound before this point
                P404 7:30-7:34 error: Undefined variable in context: `gone`; pass a variable bound before this point
            "#]],
        );
    }

    #[test]
    fn agent_names_warn_by_default() {
        let text = "agent smith:\n  model: opus\nsession \"forge\"\n  context: smith\n";
        check_code(
            "P404",
            text,
            expect![[r#"
            P404 4:12-4:17 warning: Undefined variable in context: `smith` is an agent, not a variable; pass a variable that holds its output
              related 1:7-1:12: agent defined here
        "#]],
        );
        check_code_strict(
            "P404",
            text,
            expect![[r#"
            P404 4:12-4:17 error: Undefined variable in context: `smith` is an agent, not a variable; pass a variable that holds its output
              related 1:7-1:12: agent defined here
        "#]],
        );
    }

    #[test]
    fn resolved_context_is_fine() {
        check_no(
            "P404",
            r#"input topic: "t"
parallel:
  a = session "a"
  b = session "b"
session "c"
  context: { a, b, topic }
for item, i in [1, 2]:
  session "d"
    context: [item, i, a]
let r = [1] | map:
  session "e"
    context: item
block use_later(p):
  session "f"
    context: [p, later]
let later = session "g"
"#,
        );
    }
}
