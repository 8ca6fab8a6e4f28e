//! # P801 `invalid-pipe-operator`
//!
//! **Invalid pipe operator.** A `|` in a pipeline is followed by something
//! other than `map`, `filter`, `reduce` or `pmap` (`| sort:`), or by
//! nothing at all.
//!
//! ## Example
//! ```prose
//! let ranked = ["a", "b", "c"] | sort:
//!   session "Rank {item}"
//! ```
//!
//! ## Fix
//! ```prose
//! let ranked = ["a", "b", "c"] | map:
//!   session "Rank {item}"
//! ```
//!
//! The diagnostic is on the word after `|`, or on the `|` itself when
//! nothing usable follows. The parser keeps an unknown operation in the
//! tree without a syntax error, so this is the only diagnostic for it.
//!
//! ## Specification
//! compiler.md, Pipeline Operations, Validation Rules: "Invalid pipe
//! operator" (Error, "Expected pipe operator (map, filter, reduce, pmap)").
//! Reported instead of E004/E005 (spec-rows.md §2.6). Same severity in
//! every profile.

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P801",
    name: "invalid-pipe-operator",
    summary: "Invalid pipe operator",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("invalid_pipe_operator.rs"),
    check: Check::OpenProse(check),
};

const MESSAGE: &str = "Expected pipe operator (map, filter, reduce, pmap)";

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for op in nodes::<ast::PipeOp>(ctx) {
        let name = op.op_name();
        if matches!(name.as_str(), "map" | "filter" | "reduce" | "pmap") {
            continue;
        }
        // The first token after `|` that is not trivia nor the end of the line.
        let after = op
            .syntax()
            .descendants_with_tokens()
            .filter_map(|e| e.into_token())
            .skip_while(|t| t.kind() != SyntaxKind::PIPE)
            .skip(1)
            .find(|t| !t.kind().is_trivia() && t.kind() != SyntaxKind::NEWLINE);
        let pipe = child_token(op.syntax(), SyntaxKind::PIPE);
        match (after, pipe) {
            (Some(t), _) if t.kind() != SyntaxKind::COLON => {
                acc.report(t.text_range(), format!("{MESSAGE}, found `{}`", t.text()))
            }
            (_, Some(p)) => acc.report(p.text_range(), MESSAGE),
            _ => acc.report(op.syntax().text_range(), MESSAGE),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check, check_code, check_no};
    use expect_test::expect;

    #[test]
    fn unknown_and_missing_operators() {
        check_code(
            "P801",
            "let a = xs | sort:\n  session \"a\"\nlet b = xs | 42\nlet c = xs |\nsession \"d\"\n",
            expect![[r#"
                P801 1:14-1:18 error: Expected pipe operator (map, filter, reduce, pmap), found `sort`
                P801 3:14-3:16 error: Expected pipe operator (map, filter, reduce, pmap), found `42`
                P801 4:12-4:13 error: Expected pipe operator (map, filter, reduce, pmap)
            "#]],
        );
    }

    #[test]
    fn no_syntax_error_besides_p801() {
        check(
            "let a = [\"x\"] | sort:\n  session \"a\"\n",
            expect![[r#"
                P801 1:17-1:21 error: Expected pipe operator (map, filter, reduce, pmap), found `sort`
            "#]],
        );
    }

    #[test]
    fn known_operators_are_fine() {
        check_no(
            "P801",
            "let r = xs\n  | filter:\n      session \"a\"\n  | map: session \"b\"\n  | pmap:\n      session \"c\"\n  | reduce(acc, x):\n      session \"d\"\n",
        );
    }
}
