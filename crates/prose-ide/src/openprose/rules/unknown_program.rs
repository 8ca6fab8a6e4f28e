//! # E025 `unknown-program`
//!
//! **Program not imported.** A call `NAME(…)` (not after `do`) names no
//! program that a `use` statement imports.
//!
//! A `use` binds its alias, or else the last segment of its path without a
//! `.prose` extension (`use "@alice/research"` binds `research`).
//!
//! ## Example
//! ```prose
//! use "@alice/research" as research
//!
//! let result = reserch(topic: "quantum computing")
//! ```
//!
//! ## Fix
//! ```prose
//! use "@alice/research" as research
//!
//! let result = research(topic: "quantum computing")
//! ```
//!
//! The diagnostic is on the name. When the name is a `block`, the message
//! says that blocks are invoked with `do NAME(…)`; otherwise it suggests the
//! closest imported name.
//!
//! ## Specification
//! compiler.md, Program Invocation › Validation Rules: "Unknown program"
//! (Error, "Program not imported"); Validation Rules: E025. Same severity in
//! every profile. In the official programs it fires once, on `env(…)` in
//! `examples/46-run-endpoint-ux-test-fast.prose:22`, a line that is not
//! OpenProse (the parser reports E004 on it too).

use super::program_shared::{imports, program_call};
use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "E025",
    name: "unknown-program",
    summary: "Program not imported",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("unknown_program.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    let all = imports(ctx);
    let names: Vec<&str> = all.iter().filter_map(|i| i.name.as_deref()).collect();
    for call in nodes::<ast::CallExpr>(ctx) {
        let Some(callee) = program_call(&call) else {
            continue;
        };
        let name = callee.text();
        if names.contains(&name.as_str()) {
            continue;
        }
        let detail = if ctx.sema().find(DefKind::Block, &name).is_some() {
            format!("; `{name}` is a block: invoke it with `do {name}(…)`")
        } else if let Some(s) = did_you_mean(&name, &names) {
            format!(" (did you mean `{s}`?)")
        } else {
            format!("; no `use` statement binds `{name}`")
        };
        acc.report(
            callee.syntax().text_range(),
            format!("Program not imported: `{name}`{detail}"),
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn typo_block_and_unknown() {
        check_code(
            "E025",
            r#"use "@alice/research"
block review(x):
  session "Review {x}"
let a = reserch(topic: "q")
let b = review(x: a)
let c = env("HOME")
"#,
            expect![[r#"
                E025 4:9-4:16 error: Program not imported: `reserch` (did you mean `research`?)
                E025 5:9-5:15 error: Program not imported: `review`; `review` is a block: invoke it with `do review(…)`
                E025 6:9-6:12 error: Program not imported: `env`; no `use` statement binds `env`
            "#]],
        );
    }

    #[test]
    fn imported_names_do_calls_and_indexing() {
        check_no(
            "E025",
            r#"use "@alice/research"
use "@bob/critique" as critic
use "./lib/helper.prose"
block review(x):
  session "Review {x}"
let xs = [1, 2]
let a = research(topic: "q")
let b = critic(draft: a)
let c = helper(x: xs[0])
do review(a)
"#,
        );
    }
}
