//! # P301 `invalid-persist`
//!
//! **Invalid persist value.** An agent's `persist:` value is not `true`,
//! `project`, `user` or a string (a path).
//!
//! ## Example
//! ```prose
//! agent captain:
//!   model: opus
//!   persist: forever
//! ```
//!
//! ## Fix
//! ```prose
//! agent captain:
//!   model: opus
//!   persist: project
//! ```
//!
//! The diagnostic is on the value (on the key when there is none). Values:
//!
//! | Value | Memory |
//! |---|---|
//! | `true` | this run only (`.prose/runs/{id}/agents/{name}/`) |
//! | `project` | `.prose/agents/{name}/` |
//! | `user` | `~/.prose/agents/{name}/` (reported by `strict`) |
//! | `"path"` | the given directory |
//!
//! `persist: false` is reported too: it is no value of the property; leave
//! `persist:` out for an agent without memory.
//!
//! ## Specification
//! compiler.md, Agent Definitions › Properties (`persist`: "`true`,
//! `project`, or STRING") and the grammar (`"persist:" ( "true" | "project"
//! | string )`). No validation row or code: this project code enforces the
//! grammar (spec-rows.md §2.5).
//!
//! ## Profiles
//! `strict`: error for anything but `true`, `project` and a string.
//! `default` also accepts `user`: prose.md's grammar (`"persist:" ("true" |
//! "project" | "user" | STRING)`) and state-filesystem.md both document the
//! user scope, and 4 official programs use it (`lib/cost-analyzer.prose:50`,
//! `lib/inspector.prose:25`, `lib/profiler.prose:144`,
//! `lib/user-memory.prose:27`).

use crate::openprose::rules::prelude::*;

use super::{agent_properties, value_or_key_range};

pub(crate) const RULE: Rule = Rule {
    code: "P301",
    name: "invalid-persist",
    summary: "Invalid persist value",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("invalid_persist.rs"),
    check: Check::OpenProse(check),
};

const MESSAGE: &str = "Invalid persist value: use `true`, `project`, `user` or a path string";

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for p in agent_properties(ctx, "persist") {
        let range = value_or_key_range(&p);
        match p.any_value() {
            Some(ast::Expr::String(_)) => {}
            Some(ast::Expr::Literal(l)) if l.token().is_some_and(|t| t.text() == "true") => {}
            Some(ast::Expr::NameRef(n)) if n.text() == "project" => {}
            Some(ast::Expr::NameRef(n)) if n.text() == "user" => acc.report_calibrated(
                range,
                "Invalid persist value: compiler.md lists `true`, `project` or a path string; `user` is documented by prose.md only",
                Vec::new(),
                Level::Off,
            ),
            Some(ast::Expr::Literal(l)) if l.token().is_some_and(|t| t.text() == "false") => {
                acc.report(range, format!("{MESSAGE} (omit `persist:` for an agent without memory)"))
            }
            Some(v) => {
                let shown: String = v.syntax().text().to_string().chars().take(40).collect();
                let hint = match &v {
                    ast::Expr::NameRef(n) => did_you_mean_hint(&n.text(), vocabulary::PERSIST_VALUES),
                    _ => String::new(),
                };
                acc.report(range, format!("{MESSAGE}: `{shown}`{hint}"));
            }
            None => acc.report(range, format!("{MESSAGE}: `persist:` has no value")),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_code_strict, check_no};
    use expect_test::expect;

    const FIXTURE: &str = "agent a:\n  persist: user\nagent b:\n  persist: projet\nagent c:\n  persist: false\nagent d:\n  persist: 3\nagent e:\n  persist:\n";

    #[test]
    fn default_accepts_user() {
        check_code(
            "P301",
            FIXTURE,
            expect![[r#"
            P301 4:12-4:18 error: Invalid persist value: use `true`, `project`, `user` or a path string: `projet` (did you mean `project`?)
            P301 6:12-6:17 error: Invalid persist value: use `true`, `project`, `user` or a path string (omit `persist:` for an agent without memory)
            P301 8:12-8:13 error: Invalid persist value: use `true`, `project`, `user` or a path string: `3`
            P301 10:3-10:10 error: Invalid persist value: use `true`, `project`, `user` or a path string: `persist:` has no value
        "#]],
        );
    }

    #[test]
    fn strict_reports_user() {
        check_code_strict(
            "P301",
            FIXTURE,
            expect![[r#"
            P301 2:12-2:16 error: Invalid persist value: compiler.md lists `true`, `project` or a path string; `user` is documented by prose.md only
            P301 4:12-4:18 error: Invalid persist value: use `true`, `project`, `user` or a path string: `projet` (did you mean `project`?)
            P301 6:12-6:17 error: Invalid persist value: use `true`, `project`, `user` or a path string (omit `persist:` for an agent without memory)
            P301 8:12-8:13 error: Invalid persist value: use `true`, `project`, `user` or a path string: `3`
            P301 10:3-10:10 error: Invalid persist value: use `true`, `project`, `user` or a path string: `persist:` has no value
        "#]],
        );
    }

    #[test]
    fn valid_values() {
        check_no(
            "P301",
            "agent a:\n  persist: true\nagent b:\n  persist: project\nagent c:\n  persist: \".prose/custom/c/\"\n",
        );
    }
}
