//! Pattern Dialect files (`*.dialect`, seed 001) in the engine.
//!
//! The language is `prose-dialect`: its parser finds every action of a
//! document and what is wrong with it, each code in a file of its own
//! (`crates/prose-dialect/src/diagnostics/`, whose `//!` comments are the
//! docs pages). This folder turns that into the engine's terms: the rule
//! registry of the `D` codes ([`rules`]) and the diagnostics of a file
//! ([`diagnostics`]); the IDE features join them here.

use std::sync::{Arc, OnceLock};

use prose_dialect::{Document, diagnostics::Severity as DialectSeverity};
use prose_syntax::{TextRange, TextSize};

use crate::{
    config::{Config, Level},
    db::{Db, SourceFile},
    diagnostics::{Acc, Finding, Rule, Severity, front_end_accs, front_end_rule},
    kind::FileKind,
};

/// The rules of every `D` code, built once from the parser's code table.
pub(crate) fn rules() -> &'static [&'static Rule] {
    static RULES: OnceLock<Vec<&'static Rule>> = OnceLock::new();
    RULES.get_or_init(|| {
        prose_dialect::diagnostics::all_codes()
            .iter()
            .map(|c| {
                let severity = severity(c.severity);
                front_end_rule(
                    FileKind::Dialect,
                    c.code,
                    c.name,
                    c.summary,
                    severity,
                    Level::On(severity),
                    c.source(),
                )
            })
            .collect()
    })
}

fn severity(s: DialectSeverity) -> Severity {
    match s {
        DialectSeverity::Error => Severity::Error,
        DialectSeverity::Warning => Severity::Warning,
        DialectSeverity::Info => Severity::Info,
        DialectSeverity::Hint => Severity::Hint,
    }
}

/// The parsed document of a dialect file (every action, its diagnostics
/// and semantic tokens).
#[salsa::tracked(returns(ref), no_eq)]
pub(crate) fn document(db: &dyn Db, file: SourceFile) -> Arc<Document> {
    Arc::new(prose_dialect::parse_document(file.text(db)))
}

/// What the parser reports on `file`, grouped by rule.
pub(crate) fn diagnostics(db: &dyn Db, file: SourceFile, config: &Config) -> Vec<Acc> {
    front_end_accs(config, rules(), findings(document(db, file)))
}

/// What the parser found in a document (a file, or a fence another
/// language hands over: see [`crate::injection`]), in its ranges.
pub(crate) fn findings(doc: &Document) -> impl Iterator<Item = Finding> + '_ {
    doc.actions
        .iter()
        .flat_map(|a| &a.diagnostics)
        .map(|d| Finding {
            code: d.code,
            range: TextRange::new(
                TextSize::from(d.span.start as u32),
                TextSize::from(d.span.end as u32),
            ),
            message: d.message.clone(),
            related: Vec::new(),
            tags: Vec::new(),
        })
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use crate::{config::Profile, kind::FileKind, openprose::rule_tests};

    fn check(text: &str, expect: expect_test::Expect) {
        let (text, diags) = rule_tests::diagnostics_as(text, FileKind::Dialect, Profile::Default);
        expect.assert_eq(&rule_tests::render(&text, &diags));
    }

    #[test]
    fn reports_the_parser_findings_at_their_ranges() {
        check(
            "/summarize meeting notes\n/recal notes\n/halt\n",
            expect![[r#"
                D001 1:2-1:11 error: I don't know the verb /summarize - the common ones are /recall, /search, /reply, /post and /tell
                D002 2:2-2:7 hint: I read /recal as /recall
                D009 3:2-3:6 error: /halt needs a reason - say why everything must stop: /halt "reason for emergency stop" !
            "#]],
        );
    }

    #[test]
    fn a_clean_file_has_none() {
        check("/recall notes\n/halt \"disk full\"\n", expect![""]);
    }
}
