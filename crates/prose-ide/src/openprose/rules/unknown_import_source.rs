//! # W006 `unknown-import-source`
//!
//! **Unknown import source format.** A legacy `import "NAME" from "SOURCE"`
//! names a SOURCE that is none of the known forms, so the runtime will not
//! know where to fetch the skill from.
//!
//! Known forms:
//! - `github:OWNER/REPO`, optionally followed by `/path`;
//! - `npm:PACKAGE` or `npm:@SCOPE/PACKAGE`;
//! - a local path starting with `./`, `../` or `/`;
//! - an `http://` or `https://` URL.
//!
//! ## Example
//! ```prose
//! import "web-search" from "gitlab:acme/skills"
//! ```
//!
//! ## Fix
//! ```prose
//! import "web-search" from "github:acme/skills"
//! ```
//!
//! The diagnostic is on the SOURCE string. `use` paths are checked by E011
//! and E012, never by W006.
//!
//! ## Specification
//! compiler.md lists W006 "Unknown import source format" (Warning) in its
//! Validation Rules but never shows a source; spec-rows.md §3.2 decides the
//! known forms from the official programs, which use exactly `github:` (5),
//! `npm:` (1) and `./` (2) in 8 imports (`examples/11-skills-and-imports.prose`).
//! URLs are added because prose.md treats them as first-class sources. Same
//! severity in every profile.

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "W006",
    name: "unknown-import-source",
    summary: "Unknown import source format",
    strict: Severity::Warning,
    default: Level::On(Severity::Warning),
    source: include_str!("unknown_import_source.rs"),
    check: Check::OpenProse(check),
};

fn is_segment(s: &str) -> bool {
    !s.is_empty() && !s.chars().any(|c| c.is_whitespace() || c == ':')
}

/// Whether `source` is one of the known forms.
fn is_known(source: &str) -> bool {
    if let Some(rest) = source.strip_prefix("github:") {
        let mut parts = rest.split('/');
        let (owner, repo) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
        return is_segment(owner) && is_segment(repo) && parts.all(|p| !p.contains(' '));
    }
    if let Some(rest) = source.strip_prefix("npm:") {
        return match rest.strip_prefix('@') {
            Some(scoped) => scoped
                .split_once('/')
                .is_some_and(|(s, p)| is_segment(s) && is_segment(p) && !p.contains('/')),
            None => is_segment(rest) && !rest.contains('/'),
        };
    }
    if ["./", "../", "/"].iter().any(|p| source.starts_with(p)) {
        return source.len() > 1;
    }
    if let Some(rest) = source
        .strip_prefix("https://")
        .or_else(|| source.strip_prefix("http://"))
    {
        return !rest.is_empty() && !rest.chars().any(char::is_whitespace);
    }
    false
}

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for i in nodes::<ast::ImportStmt>(ctx) {
        let Some(source) = i.source() else { continue };
        let value = source.value();
        if !is_known(value.trim()) {
            acc.report(
                source.syntax().text_range(),
                format!(
                    "Unknown import source format: `{value}`; expected `github:owner/repo`, `npm:package`, a local path or an http(s) URL"
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn unknown_forms() {
        check_code(
            "W006",
            r#"import "a" from "gitlab:acme/skills"
import "b" from "github:acme"
import "c" from "skills/web"
import "d" from ""
import "e" from "npm:@scope"
"#,
            expect![[r#"
                W006 1:17-1:37 warning: Unknown import source format: `gitlab:acme/skills`; expected `github:owner/repo`, `npm:package`, a local path or an http(s) URL
                W006 2:17-2:30 warning: Unknown import source format: `github:acme`; expected `github:owner/repo`, `npm:package`, a local path or an http(s) URL
                W006 3:17-3:29 warning: Unknown import source format: `skills/web`; expected `github:owner/repo`, `npm:package`, a local path or an http(s) URL
                W006 4:17-4:19 warning: Unknown import source format: ``; expected `github:owner/repo`, `npm:package`, a local path or an http(s) URL
                W006 5:17-5:29 warning: Unknown import source format: `npm:@scope`; expected `github:owner/repo`, `npm:package`, a local path or an http(s) URL
            "#]],
        );
    }

    #[test]
    fn known_forms() {
        check_no(
            "W006",
            r#"import "a" from "github:anthropic/skills"
import "b" from "github:anthropic/skills/web-search"
import "c" from "npm:@scope/pkg"
import "d" from "npm:pkg"
import "e" from "./skills/e"
import "f" from "../e"
import "g" from "https://example.com/skill"
"#,
        );
    }
}
