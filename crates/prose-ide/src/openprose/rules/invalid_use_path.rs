//! # E012 `invalid-use-path`
//!
//! **Path must be @handle/slug format.** A `use` path is not a program
//! reference the registry can resolve.
//!
//! ## Example
//! ```prose
//! use "@alice"
//! ```
//!
//! ## Fix
//! ```prose
//! use "@alice/research"
//! ```
//!
//! The diagnostic is on the string literal; the message says what is wrong.
//!
//! ## Specification
//! compiler.md, Use Statements › Validation Rules: "Invalid path format"
//! (Error, "Path must be @handle/slug format"); Validation Rules: E012.
//! `strict` accepts only `@HANDLE/SLUG`, where HANDLE and SLUG are
//! non-empty and hold no whitespace and no further `/`.
//!
//! ## Profiles
//! `default` also accepts the forms prose.md's resolution rules give
//! ("Program Composition", "Remote Programs"): `HANDLE/SLUG` without the
//! `@` (`use "alice/research" as research`), `http://` and `https://` URLs
//! (`use "https://example.com/my-program.prose"`), and local file paths
//! (starting with `./`, `../` or `/`, or ending in `.prose`). It still
//! reports a path containing whitespace, an `@` path that is not
//! `@HANDLE/SLUG`, a `scheme:` other than `http`/`https`, and anything else
//! that is none of these forms. No official program uses `use` (they use
//! the legacy `import … from`), so the corpus has no case either way.

use super::program_shared::invalid_path_reason;
use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "E012",
    name: "invalid-use-path",
    summary: "Path must be @handle/slug format",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("invalid_use_path.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for u in nodes::<ast::UseStmt>(ctx) {
        let Some(path) = u.path() else { continue };
        let value = path.value();
        if value.trim().is_empty() {
            continue; // E011
        }
        if let Some((reason, in_default)) = invalid_path_reason(&value) {
            let level = if in_default {
                Level::On(Severity::Error)
            } else {
                Level::Off
            };
            acc.report_calibrated(
                path.syntax().text_range(),
                format!("Path must be @handle/slug format: {reason}"),
                Vec::new(),
                level,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_code_strict, check_no};
    use expect_test::expect;

    const PATHS: &str = r#"use "@alice"
use "@alice/research/v2"
use "@ alice/research"
use "ftp://example.com/x.prose"
use "research"
use "alice/research"
use "https://example.com/my-program.prose"
use "./lib/helper.prose"
use "lib/helper.prose"
"#;

    #[test]
    fn default_reports_only_malformed_paths() {
        check_code(
            "E012",
            PATHS,
            expect![[r#"
            E012 1:5-1:13 error: Path must be @handle/slug format: `@` must be followed by `handle/slug`
            E012 2:5-2:25 error: Path must be @handle/slug format: `@` must be followed by `handle/slug`
            E012 3:5-3:23 error: Path must be @handle/slug format: `@` must be followed by `handle/slug`
            E012 4:5-4:32 error: Path must be @handle/slug format: only `http:` and `https:` URLs are supported
            E012 5:5-5:15 error: Path must be @handle/slug format: expected `@handle/slug`
        "#]],
        );
    }

    #[test]
    fn strict_reports_every_other_form() {
        check_code_strict(
            "E012",
            PATHS,
            expect![[r#"
            E012 1:5-1:13 error: Path must be @handle/slug format: `@` must be followed by `handle/slug`
            E012 2:5-2:25 error: Path must be @handle/slug format: `@` must be followed by `handle/slug`
            E012 3:5-3:23 error: Path must be @handle/slug format: `@` must be followed by `handle/slug`
            E012 4:5-4:32 error: Path must be @handle/slug format: only `http:` and `https:` URLs are supported
            E012 5:5-5:15 error: Path must be @handle/slug format: expected `@handle/slug`
            E012 6:5-6:21 error: Path must be @handle/slug format: the `@` is missing
            E012 7:5-7:43 error: Path must be @handle/slug format: a URL is not an `@handle/slug` path
            E012 8:5-8:25 error: Path must be @handle/slug format: a local file path is not an `@handle/slug` path
            E012 9:5-9:23 error: Path must be @handle/slug format: a local file path is not an `@handle/slug` path
        "#]],
        );
    }

    #[test]
    fn handle_slug_is_fine() {
        check_no(
            "E012",
            "use \"@alice/research\"\nuse \"@bob/critique\" as critic\n",
        );
    }
}
