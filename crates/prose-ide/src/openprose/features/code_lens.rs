//! Code lenses of a program: `▶ Run program` and `Dry run` above its first
//! line, or, when it has errors (with the severities the file's
//! configuration gives), one lens saying how many errors block the run,
//! which reveals the first (docs/lsp.md, "Running programs"). A program
//! with errors is never run, so its lenses never offer it.
//!
//! Whether the workspace is trusted is the host's business: the server
//! replaces these lenses with [`crate::code_lens::untrusted`] in a
//! workspace the editor has not trusted.

use prose_syntax::{TextRange, TextSize};

use crate::{
    code_lens::{CodeLens, LensCommand, blocked_title},
    db::{Db, SourceFile, Workspace},
    diagnostics::{Severity, file_diagnostics},
};

/// The title of the run lens.
pub const RUN: &str = "▶ Run program";
/// The title of the dry run lens.
pub const DRY_RUN: &str = "Dry run";

/// The lenses of the program `file`.
pub fn code_lenses(db: &dyn Db, ws: Workspace, file: SourceFile) -> Vec<CodeLens> {
    let text = file.text(db);
    let end = text.find('\n').unwrap_or(text.len());
    let range = TextRange::new(TextSize::from(0), TextSize::from(end as u32));
    let errors = file_diagnostics(db, file, Some(ws))
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    if errors > 0 {
        return vec![CodeLens {
            range,
            title: blocked_title(errors),
            command: LensCommand::RevealErrors,
        }];
    }
    vec![
        CodeLens {
            range,
            title: RUN.to_string(),
            command: LensCommand::RunProgram,
        },
        CodeLens {
            range,
            title: DRY_RUN.to_string(),
            command: LensCommand::DryRun,
        },
    ]
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};

    use super::*;
    use crate::{code_lens::untrusted, fixture::Fixture};

    fn check(fixture: &str, expect: Expect) {
        let f = Fixture::parse(fixture);
        let (host, file) = f.host(None);
        let lenses = host.analysis().code_lenses(file).unwrap();
        expect.assert_debug_eq(&lenses);
    }

    #[test]
    fn a_program_without_errors_can_run() {
        check(
            "# Says hello.\nlet greeting = session \"Say hello\"\noutput message = greeting\n",
            expect![[r#"
                [
                    CodeLens {
                        range: 0..13,
                        title: "▶ Run program",
                        command: RunProgram,
                    },
                    CodeLens {
                        range: 0..13,
                        title: "Dry run",
                        command: DryRun,
                    },
                ]
            "#]],
        );
    }

    #[test]
    fn warnings_do_not_block_the_run_and_errors_do() {
        // W005, an unknown property.
        check(
            "agent a:\n  colour: red\nsession: a\n",
            expect![[r#"
                [
                    CodeLens {
                        range: 0..8,
                        title: "▶ Run program",
                        command: RunProgram,
                    },
                    CodeLens {
                        range: 0..8,
                        title: "Dry run",
                        command: DryRun,
                    },
                ]
            "#]],
        );
        check(
            "session: nobody\nsession \"Bad \\q escape\"\n",
            expect![[r#"
                [
                    CodeLens {
                        range: 0..15,
                        title: "2 errors block the run",
                        command: RevealErrors,
                    },
                ]
            "#]],
        );
        check(
            "session: nobody",
            expect![[r#"
                [
                    CodeLens {
                        range: 0..15,
                        title: "1 error blocks the run",
                        command: RevealErrors,
                    },
                ]
            "#]],
        );
    }

    #[test]
    fn an_empty_file_has_its_lenses_at_its_start() {
        check(
            "",
            expect![[r#"
                [
                    CodeLens {
                        range: 0..0,
                        title: "▶ Run program",
                        command: RunProgram,
                    },
                    CodeLens {
                        range: 0..0,
                        title: "Dry run",
                        command: DryRun,
                    },
                ]
            "#]],
        );
    }

    #[test]
    fn untrusted_workspaces_get_one_lens_without_a_command() {
        for text in ["session \"hi\"\n", "session: nobody\n"] {
            let f = Fixture::parse(text);
            let (host, file) = f.host(None);
            let lenses = untrusted(host.analysis().code_lenses(file).unwrap());
            assert_eq!(
                lenses,
                [CodeLens {
                    range: TextRange::new(0.into(), (text.len() as u32 - 1).into()),
                    title: "Run disabled: workspace not trusted".into(),
                    command: LensCommand::None,
                }]
            );
        }
    }
}
