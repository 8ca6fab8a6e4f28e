//! # K007 `missing-spawn-file`
//!
//! **`_spawn_` names a file that does not exist.** The path is resolved
//! as `agent-cli` resolves it: relative to the working directory, the
//! workspace root (`$PWD/` at its start means the same). Paths holding a
//! `{variable}` are templates and are not looked up.
//!
//! ## Why is this bad?
//! The sub-agent cannot start without its instructions; the spawning
//! agent gets an error where it expected a reply.
//!
//! ## Example
//! ```markdown
//! _if_ the change is large, _then_ _spawn_ `agents/missing.md`.
//! ```
//!
//! ## Fix
//! ```markdown
//! _if_ the change is large, _then_ _spawn_ `agents/reviewer.md`.
//! ```
//!
//! File `agents/reviewer.md`:
//!
//! ```markdown
//! # Reviewer
//! ```
//!
//! Go to definition on the path opens the file.
//!
//! ## Severity
//! Warning: the file may be written before the instruction runs.

use super::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "K007",
    name: "missing-spawn-file",
    summary: "`_spawn_` names a file that does not exist",
    severity: Severity::Warning,
    source: include_str!("missing_spawn_file.rs"),
};

pub(crate) fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for s in &ctx.ins.spawns {
        if s.templated || !s.path.to_ascii_lowercase().ends_with(".md") {
            continue;
        }
        if ctx.files.lookup(&s.path) == Lookup::Missing {
            acc.report(
                s.range,
                format!(
                    "`{}` does not exist: the sub-agent has no instructions to start with",
                    s.path
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::instructions::tests::{check_code, check_with_files};
    use expect_test::expect;

    #[test]
    fn missing_files_only() {
        check_with_files(
            "K007",
            "- _spawn_ `$PWD/agents/a.md`\n- _spawn_ `agents/gone.md`\n- _spawn_ `{who}.md`\n",
            &[("agents/a.md", Some("# A")), ("agents/gone.md", None)],
            expect![[r#"
                K007 2:12-2:26 warning: `agents/gone.md` does not exist: the sub-agent has no instructions to start with
            "#]],
        );
    }

    #[test]
    fn unknown_files_are_not_reported() {
        let text = "_spawn_ `x.md`\n";
        let ins = crate::instructions::analyze_instructions(
            text,
            crate::instructions::FragmentKind::File,
        );
        assert!(crate::instructions::check(text, &ins, &crate::NoFiles).is_empty());
        assert_eq!(ins.paths_to_check(), ["x.md"]);
        check_code(
            "K007",
            "_spawn_ `x.md`\n",
            expect![[r#"
            K007 1:10-1:14 warning: `x.md` does not exist: the sub-agent has no instructions to start with
        "#]],
        );
    }
}
