//! Quick fixes in job entries: the fixes the checks attach to their
//! diagnostics (`prose_jobs::Fix`), for the diagnostics touching a range.
//!
//! Each check says how sure its fix is ([`prose_jobs::Confidence`]), which
//! becomes `is_preferred` / `is_safe`:
//!
//! | safe (`prose check --fix` applies it) | preferred (an editor may apply it alone) | offered |
//! |---|---|---|
//! | a misspelled name with one obvious correction (J004, J006, J010, J012–J015: strictly nearer than any other name and by fewer edits than half its length, or only its letter case differs); a model id where its key belongs, when one key has it (J010); a prompt variable's name without its `$` (J008); a string wrapped in the array a prompt is, `"true"` made `true` (J002) | a nearest name that is one guess among others; `"runConditionInSameSession": true` added (J007, the seed runner's default) | flipping `requireUserInput` (J011: the prompt may be what is wrong); renaming a key to one the object has already (J004) |
//!
//! A fix is offered only for a diagnostic that is reported (the
//! configuration can turn its code off).

use prose_jobs::Confidence;
use prose_syntax::TextRange;

use crate::{
    FileId,
    db::{Db, SourceFile, Workspace},
    diagnostics::file_diagnostics,
    features::{
        code_actions::{CodeAction, CodeActionKind},
        rename::{SourceChange, TextEdit},
    },
    jobs::findings,
};

pub(crate) fn code_actions(
    db: &dyn Db,
    file_id: FileId,
    file: SourceFile,
    ws: Workspace,
    range: TextRange,
) -> Vec<CodeAction> {
    let reported = file_diagnostics(db, file, Some(ws));
    let findings = findings(db, file);
    let mut out = Vec::new();
    for d in reported
        .iter()
        .filter(|d| d.range.intersect(range).is_some())
    {
        let fixes = findings
            .iter()
            .filter(|f| f.code == d.code.as_str() && f.range == d.range && f.message == d.message);
        for fix in fixes.filter_map(|f| f.fix.as_ref()) {
            let mut edits: Vec<TextEdit> = fix
                .edits
                .iter()
                .map(|e| TextEdit {
                    range: e.range,
                    new_text: e.new_text.clone(),
                })
                .collect();
            edits.sort_by_key(|e| e.range.start());
            out.push(CodeAction {
                title: fix.title.clone(),
                kind: CodeActionKind::QuickFix,
                diagnostic_code: Some(d.code.as_str()),
                diagnostic_range: Some(d.range),
                is_preferred: fix.confidence >= Confidence::Preferred,
                is_safe: fix.confidence == Confidence::Safe,
                edit: SourceChange {
                    edits: vec![(file_id, edits)],
                },
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};

    use crate::{TextRange, TextSize, fixture::Fixture, jobs::tests::BROKEN, kind::FileKind};

    /// Every action on the whole file.
    fn check(fixture: &str, expect: Expect) {
        let (host, file) = Fixture::parse_as(fixture, FileKind::JobEntry).host(None);
        let a = host.analysis();
        let text = a.file_text(file).unwrap();
        let all = TextRange::up_to(TextSize::of(text.as_str()));
        let actions = a
            .code_actions(crate::FileRange { file, range: all })
            .unwrap();
        let shown: Vec<String> = actions
            .iter()
            .map(|c| {
                let edits: Vec<String> = c.edit.edits[0]
                    .1
                    .iter()
                    .map(|e| format!("{:?}->{:?}", &text[e.range], e.new_text))
                    .collect();
                let how = match (c.is_safe, c.is_preferred) {
                    (true, _) => "safe",
                    (false, true) => "preferred",
                    _ => "offered",
                };
                format!(
                    "{} {how}: {} [{}]",
                    c.diagnostic_code.unwrap_or("-"),
                    c.title,
                    edits.join(", ")
                )
            })
            .collect();
        expect.assert_eq(&shown.join("\n"));
    }

    #[test]
    fn the_broken_example_fixes() {
        check(
            BROKEN,
            expect![[r#"
            J010 safe: Change to "planning" ["\"planing\""->"\"planning\""]
            J015 safe: Change to $rules ["$rule"->"$rules"]
            J007 preferred: Add "runConditionInSameSession": true [""->"\"runConditionInSameSession\": true, "]
            J006 safe: Change to "RetryWithUserPrompt" ["\"RetryWithUserPromt\""->"\"RetryWithUserPrompt\""]
            J011 offered: Change to false ["true"->"false"]
            J014 safe: Change to "job_prepare_document" ["\"job_prepare_doc\""->"\"job_prepare_document\""]
            J004 safe: Change to "availability" ["\"avaliability\""->"\"availability\""]"#]],
        );
    }

    #[test]
    fn guesses_are_not_safe_and_off_codes_offer_nothing() {
        let entry = r#"{"models": {"driving": "d", "planning": "p", "coding": "c", "reviewers": []},
  "promptVariables": {"ab": ["x"], "ac": ["y"]}, "grid": [],
  "tasks": {"t": {"model": "Coding", "prompt": ["$ad $ab $ac", "$reported-documnt"], "requireUserInput": "true", "promt": []}}}
"#;
        check(
            entry,
            expect![[r#"
            J010 safe: Change to "coding" ["\"Coding\""->"\"coding\""]
            J015 preferred: Change to $ab ["$ad"->"$ab"]
            J015 safe: Change to $reported-document ["$reported-documnt"->"$reported-document"]
            J002 safe: Change to true ["\"true\""->"true"]
            J004 offered: Change to "prompt" ["\"promt\""->"\"prompt\""]"#]],
        );
        check(
            &format!("#- /ws/prose.toml\n[severity]\nJ015 = \"off\"\n#- /ws/a.jobs.json\n{entry}"),
            expect![[r#"
                J010 safe: Change to "coding" ["\"Coding\""->"\"coding\""]
                J002 safe: Change to true ["\"true\""->"true"]
                J004 offered: Change to "prompt" ["\"promt\""->"\"prompt\""]"#]],
        );
    }
}
