//! # M004 `invalid-read-path`
//!
//! **`/read` needs exactly one file path.** The command has no path, or
//! more than one word after it.
//!
//! ## Why is this bad?
//! `/read` injects one file. Without a path there is nothing to read; with
//! several words it is unclear whether they are several files (each needs
//! its own line) or one path with spaces (which needs quotes).
//!
//! ## Example
//! ```markdown
//! /read docs/design.md docs/testing.md
//! Implement the feature.
//! ```
//!
//! ## Fix
//! ```markdown
//! /read docs/design.md
//! /read docs/testing.md
//! Implement the feature.
//! ```
//!
//! A path with spaces is quoted: `/read "docs/design notes.md"`.
//!
//! ## Severity
//! Error: the command cannot do what it is for.

use super::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "M004",
    name: "invalid-read-path",
    summary: "`/read` needs exactly one file path",
    severity: Severity::Error,
    source: include_str!("invalid_read_path.rs"),
};

pub(crate) fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for cmd in ctx.file.processed().filter(|c| c.kind == CommandKind::Read) {
        match cmd.args.as_slice() {
            [] => {
                acc.report(cmd.name_range, "`/read` needs a file path");
            }
            [first, ..] if first.value.trim().is_empty() && !first.unterminated => {
                acc.report(
                    first.range,
                    "`/read` needs a file path, not an empty string",
                );
            }
            [_] => {}
            [_, extra @ ..] => {
                let r = extra[0].range.cover(extra[extra.len() - 1].range);
                acc.report(
                    r,
                    "`/read` reads one file: give each file its own `/read` line, or quote a path that contains spaces",
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::prompt::tests::check_code;
    use expect_test::expect;

    #[test]
    fn missing_empty_and_extra_paths() {
        check_code(
            "M004",
            "/read\n/read \"\"\n/read a.md b.md c.md\n/read \"with space.md\"\nText.\n",
            expect![[r#"
                M004 1:1-1:6 error: `/read` needs a file path
                M004 2:7-2:9 error: `/read` needs a file path, not an empty string
                M004 3:12-3:21 error: `/read` reads one file: give each file its own `/read` line, or quote a path that contains spaces
            "#]],
        );
    }
}
