//! Quick fixes in Pattern Dialect: the fixes the parser attaches to its
//! diagnostics (`prose_dialect::diagnostics::Fix`), offered for the
//! reported diagnostics that touch the requested range.
//!
//! How each may be applied (see `openprose/features/code_actions.rs` for
//! what preferred and safe mean) is decided per code, because what a fix
//! does to an agent's action depends on the code:
//!
//! | fix | preferred | safe (`prose check --fix`) |
//! |---|---|---|
//! | D002: the canonical spelling of a corrected verb (the action already runs as it) | yes | yes |
//! | D008: `@` before a bare target (`/tell entropy`) | yes | yes |
//! | D013: `/` after `->` before a verb (`-> tell @x`) | yes | yes |
//! | D006: close an unclosed `"` at the end of its line (the text the parser read) | yes | no: the quote may have been meant earlier |
//! | D007, D019, D012: the nearest domain, platform or block | yes | no: a guess of where a message goes or what is touched |
//! | D001: the verb an unknown word is nearest to | no | no: a guess |
//! | D003: the exact spelling of a misspelled strict verb | no | no: a permission decision, a deletion or a stop is never guessed |
//! | D005: a valid marker for a garbled one | no | no: consent is never guessed |
//!
//! A code not in the table offers its fix in the list only.

use prose_dialect::Document;
use prose_syntax::TextRange;

use crate::{
    FileId,
    db::{Db, SourceFile, Workspace},
    diagnostics::{Diagnostic, file_diagnostics},
    features::{
        code_actions::{CodeAction, CodeActionKind},
        rename::{SourceChange, TextEdit},
    },
};

/// How a fix of `code` may be applied: `(preferred, safe)`.
fn policy(code: &str) -> (bool, bool) {
    match code {
        "D002" | "D008" | "D013" => (true, true),
        "D006" | "D007" | "D012" | "D019" => (true, false),
        _ => (false, false),
    }
}

/// The quick fixes for the reported `diagnostics` of dialect text parsed as
/// `doc` that touch `range`, as edits of `file`; all in the text's offsets.
pub fn code_actions(
    file: FileId,
    doc: &Document,
    diagnostics: &[Diagnostic],
    range: TextRange,
) -> Vec<CodeAction> {
    let mut out = Vec::new();
    for d in diagnostics
        .iter()
        .filter(|d| d.range.intersect(range).is_some())
    {
        // The parser's diagnostic behind the reported one (same code and
        // range): its fix.
        let Some(fix) = doc
            .diagnostics()
            .filter(|p| p.code == d.code.as_str() && super::range(p.span) == d.range)
            .find_map(|p| p.fix.as_ref())
        else {
            continue;
        };
        let (is_preferred, is_safe) = policy(d.code.as_str());
        out.push(CodeAction {
            title: fix.title.clone(),
            kind: CodeActionKind::QuickFix,
            diagnostic_code: Some(d.code.as_str()),
            diagnostic_range: Some(d.range),
            is_preferred,
            is_safe,
            edit: SourceChange {
                edits: vec![(
                    file,
                    vec![TextEdit {
                        range: super::range(fix.span),
                        new_text: fix.replacement.clone(),
                    }],
                )],
            },
        });
    }
    out
}

pub(crate) fn file_code_actions(
    db: &dyn Db,
    ws: Workspace,
    file_id: FileId,
    file: SourceFile,
    range: TextRange,
) -> Vec<CodeAction> {
    let doc = super::document(db, file, Some(ws));
    code_actions(file_id, doc, file_diagnostics(db, file, Some(ws)), range)
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};
    use prose_syntax::TextRange;

    use crate::{fixture::Fixture, kind::FileKind};

    /// Every fix of the file: `title [code] (preferred, safe)` and the text
    /// after applying it, with its diagnostics.
    fn check(text: &str, expect: Expect) {
        let (host, file) = Fixture::parse_as(text, FileKind::Dialect).host(None);
        let analysis = host.analysis();
        let whole = TextRange::up_to((text.len() as u32).into());
        let mut out = String::new();
        for a in analysis
            .code_actions(crate::FileRange { file, range: whole })
            .unwrap()
        {
            let mut fixed = text.to_string();
            for (_, edits) in &a.edit.edits {
                for e in edits.iter().rev() {
                    fixed.replace_range(std::ops::Range::<usize>::from(e.range), &e.new_text);
                }
            }
            let flags = match (a.is_preferred, a.is_safe) {
                (true, true) => "preferred, safe",
                (true, false) => "preferred",
                _ => "offered",
            };
            let (host, file) = Fixture::parse_as(&fixed, FileKind::Dialect).host(None);
            let left: Vec<&str> = host
                .analysis()
                .diagnostics(file)
                .unwrap()
                .iter()
                .map(|d| d.code.as_str())
                .collect();
            out.push_str(&format!(
                "{} [{}] ({flags}): {:?} left {left:?}\n",
                a.title,
                a.diagnostic_code.unwrap(),
                fixed.trim_end()
            ));
        }
        expect.assert_eq(&out);
    }

    #[test]
    fn every_fix_and_how_it_may_be_applied() {
        check(
            "/recal notes\n",
            expect![[r#"
            Write /recall [D002] (preferred, safe): "/recall notes" left []
        "#]],
        );
        check(
            "/tell entropy \"hi\"\n",
            expect![[r#"
            Write @entropy [D008] (preferred, safe): "/tell @entropy \"hi\"" left []
        "#]],
        );
        check(
            "/recall notes -> tell @entropy\n",
            expect![[r#"
            Write -> /tell [D013] (preferred, safe): "/recall notes -> /tell @entropy" left []
        "#]],
        );
        check(
            "/reply \"sounds good\n",
            expect![[r#"
            Close the string with " [D006] (preferred): "/reply \"sounds good\"" left []
        "#]],
        );
        check(
            "/send @agnet @entropy hi\n",
            expect![[r#"
            Use @agent [D007] (preferred): "/send @agent @entropy hi" left []
        "#]],
        );
        check(
            "/post blusky \"hi\"\n",
            expect![[r#"
            Use bluesky [D019] (preferred): "/post bluesky \"hi\"" left []
        "#]],
        );
        check(
            "/aprove req-1\n",
            expect![[r#"
            Write /approve [D003] (offered): "/approve req-1" left []
        "#]],
        );
        check(
            "/reply ok !!\n",
            expect![[r#"
            Write ! [D005] (offered): "/reply ok !" left []
        "#]],
        );
    }

    #[test]
    fn the_nearest_block_of_the_registry() {
        let text = "#- /ws/prose.toml\n[dialect]\nregistry = \"blocks.txt\"\n#- /ws/blocks.txt\npersona\n#- /ws/a.dialect\n/recall read persnoa\n";
        let (host, file) = Fixture::parse_as(text, FileKind::Dialect).host(None);
        let whole = TextRange::up_to(20.into());
        let actions = host
            .analysis()
            .code_actions(crate::FileRange { file, range: whole })
            .unwrap();
        let a = &actions[0];
        assert_eq!(
            (
                a.title.as_str(),
                a.diagnostic_code,
                a.is_preferred,
                a.is_safe
            ),
            ("Use persona", Some("D012"), true, false)
        );
        let (_, edits) = &a.edit.edits[0];
        assert_eq!(
            (edits[0].range, edits[0].new_text.as_str()),
            (TextRange::new(13.into(), 20.into()), "persona")
        );
    }

    #[test]
    fn only_the_diagnostics_in_the_range_and_not_those_turned_off() {
        let text = "#- /ws/prose.toml\n[severity]\nD002 = \"off\"\n#- /ws/a.dialect\n/recal notes\n/tell entropy hi\n";
        let f = Fixture::parse_as(text, FileKind::Dialect);
        let (host, file) = f.host(None);
        let analysis = host.analysis();
        let titles = |start: u32, end: u32| -> Vec<String> {
            analysis
                .code_actions(crate::FileRange {
                    file,
                    range: TextRange::new(start.into(), end.into()),
                })
                .unwrap()
                .into_iter()
                .map(|a| a.title)
                .collect()
        };
        assert!(titles(0, 12).is_empty(), "D002 is off");
        assert_eq!(titles(13, 29), ["Write @entropy"]);
    }
}
