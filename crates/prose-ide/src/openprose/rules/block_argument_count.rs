//! # P501 `block-argument-count`
//!
//! **Argument count mismatch.** `do name(…)` passes a different number of
//! arguments than `block name(…)` declares parameters. `do name` without a
//! list passes none.
//!
//! ## Why is this bad?
//! A missing argument leaves a parameter unbound inside the body; an extra
//! one is silently dropped.
//!
//! ## Example
//! ```prose
//! block review(topic, depth):
//!   session "Review {topic} at {depth} depth"
//!
//! do review("quantum computing")
//! ```
//!
//! ## Fix
//! ```prose
//! block review(topic, depth):
//!   session "Review {topic} at {depth} depth"
//!
//! do review("quantum computing", "shallow")
//! ```
//!
//! The diagnostic is on the argument list (on the block name when there is
//! no list) and links to the block's parameters.
//!
//! ## Specification
//! compiler.md, Composition Blocks › Block Parameters: "Argument count
//! mismatch" (Warning, "Block expects N parameters but got M arguments").
//! Same severity in every profile.

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P501",
    name: "block-argument-count",
    summary: "Block argument count mismatch",
    strict: Severity::Warning,
    default: Level::On(Severity::Warning),
    source: include_str!("block_argument_count.rs"),
    check: Check::OpenProse(check),
};

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// Reports each `do` call whose number of arguments differs from the
/// number of parameters of the block it calls (found by the name's text,
/// without a copy).
fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    // The first block of each name (calls resolve to it), with its number
    // of parameters; keyed by the names' token text (the tokens are kept).
    let named: Vec<(Option<SyntaxToken>, ast::BlockDef)> = nodes::<ast::BlockDef>(ctx)
        .filter_map(|b| Some((b.name()?.ident_token(), b)))
        .collect();
    let mut blocks: rustc_hash::FxHashMap<&str, (&ast::BlockDef, usize)> = Default::default();
    for (ident, b) in &named {
        // As `Name::text` reads it: no token is "".
        let text = ident.as_ref().map_or("", |t| t.text());
        blocks
            .entry(text)
            .or_insert_with(|| (b, b.params().count()));
    }
    for call in nodes::<ast::DoCall>(ctx) {
        let Some(name) = call.name_ref() else {
            continue;
        };
        // The called name as `NameRef::text` reads it, without a copy.
        let ident = name.ident_token();
        let Some((block, expected)) = blocks.get(ident.as_ref().map_or("", |t| t.text())) else {
            continue; // P503
        };
        let expected = *expected;
        let got = call.args().count();
        if expected == got {
            continue;
        }
        let range = call
            .arg_list()
            .map_or_else(|| name.syntax().text_range(), |l| l.syntax().text_range());
        let target = block
            .param_list()
            .map(|l| l.syntax().text_range())
            .or_else(|| block.name().map(|n| n.syntax().text_range()))
            .unwrap_or_else(|| block.syntax().text_range());
        acc.report_related(
            range,
            format!(
                "Block expects {} but got {}: `{}`",
                plural(expected, "parameter"),
                plural(got, "argument"),
                name.text()
            ),
            vec![related(ctx, target, "parameters declared here")],
        );
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn too_few_too_many_and_none() {
        check_code(
            "P501",
            r#"block review(topic, depth):
  session "{topic} {depth}"
block plain:
  session "p"
do review("a")
do review
do plain("x")
do review("a", "b", "c")
"#,
            expect![[r#"
                P501 5:10-5:15 warning: Block expects 2 parameters but got 1 argument: `review`
                  related 1:13-1:27: parameters declared here
                P501 6:4-6:10 warning: Block expects 2 parameters but got 0 arguments: `review`
                  related 1:13-1:27: parameters declared here
                P501 7:9-7:14 warning: Block expects 0 parameters but got 1 argument: `plain`
                  related 3:7-3:12: parameters declared here
                P501 8:10-8:25 warning: Block expects 2 parameters but got 3 arguments: `review`
                  related 1:13-1:27: parameters declared here
            "#]],
        );
    }

    #[test]
    fn matching_counts_are_fine() {
        check_no(
            "P501",
            r#"do review("a", "b")
do plain
do plain()
do unknown(1, 2)
block review(topic, depth):
  session "{topic} {depth}"
block plain:
  session "p"
"#,
        );
    }
}
