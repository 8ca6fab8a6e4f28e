//! # M012 `malformed-quote`
//!
//! **Unterminated quote, or text glued to a closing quote.** A quoted
//! argument of a command (a `/read` path, a `/push` option value or
//! prompt) has no closing `"` on its line, or a closing `"` is followed
//! directly by more text.
//!
//! ## Why is this bad?
//! A command is one line: an open quote swallows the rest of it, and
//! `"a"b` reads as one word where two were probably meant. A `"` inside a
//! quoted prompt is written `\"`, a line break `\n`.
//!
//! ## Example
//! ```markdown
//! /push name=docs "Write the docs
//! Implement the feature.
//! ```
//!
//! ## Fix
//! ```markdown
//! /push name=docs "Write the docs"
//! Implement the feature.
//! ```
//!
//! ## Severity
//! Error: the command's arguments cannot be read as intended.

use super::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "M012",
    name: "malformed-quote",
    summary: "Unterminated quote, or text glued to a closing quote",
    severity: Severity::Error,
    source: include_str!("malformed_quote.rs"),
};

pub(crate) fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for cmd in ctx.file.processed() {
        for a in &cmd.args {
            if a.unterminated {
                acc.report(
                    a.range,
                    "Unterminated quote: add the closing `\"` on this line",
                );
            } else if let Some(r) = a.after_quote {
                acc.report(r, "Text right after a closing quote: separate the words with a space, or quote them all");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::prompt::tests::check_code;
    use expect_test::expect;

    #[test]
    fn open_and_glued_quotes() {
        check_code(
            "M012",
            "/push name=docs \"Write the docs\n/read \"a.md\"b\n/push name=\"x\" \"fine\"\nText.\n",
            expect![[r#"
                M012 1:17-1:32 error: Unterminated quote: add the closing `"` on this line
                M012 2:13-2:14 error: Text right after a closing quote: separate the words with a space, or quote them all
            "#]],
        );
    }
}
