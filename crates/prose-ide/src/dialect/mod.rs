//! Pattern Dialect files (`*.dialect`, seed 001) in the engine.
//!
//! The language is `prose-dialect`: its parser finds every action of a
//! document and what is wrong with it, each code in a file of its own
//! (`crates/prose-dialect/src/diagnostics/`, whose `//!` comments are the
//! docs pages). This folder turns that into the engine's terms: the rule
//! registry of the `D` codes (`rules`), the parsed document of a file
//! with the block registry of its root ([`document`], [`registry`]), its
//! diagnostics (`diagnostics`), and one file per IDE feature: [`hover`],
//! [`completion`], [`semantic_tokens`], [`code_actions`],
//! [`document_symbols`], [`folding`], [`selection`].
//!
//! **For hosts that embed dialect text** (a ```` ```dialect ```` fence in
//! markdown): every feature has a function over a text and its parsed
//! [`Document`] (parse it with [`parse`]) that answers in that text's
//! offsets, so the caller runs it on the embedded text and shifts the
//! results by the text's offset in its own file. The functions taking a
//! database only fetch the file's document and call those.

pub mod code_actions;
pub mod completion;
pub mod document_symbols;
pub mod folding;
pub mod hover;
pub mod selection;
pub mod semantic_tokens;

use std::sync::{Arc, OnceLock};

use prose_dialect::{
    BlockRegistry, DialectParser, Document, diagnostics::Severity as DialectSeverity,
};
use prose_syntax::{TextRange, TextSize};

use crate::{
    config::{Config, Level},
    db::{Db, SourceFile, Workspace},
    diagnostics::{Acc, Finding, Rule, Severity, file_config, front_end_accs, front_end_rule},
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

/// Parses dialect `text` (a file, or text embedded in another file) with
/// the block registry `registry`: every action, its diagnostics with their
/// fixes, and semantic tokens, in `text`'s byte offsets.
pub fn parse(text: &str, registry: Option<&BlockRegistry>) -> Document {
    let mut parser = DialectParser::new();
    if let Some(r) = registry {
        parser = parser.with_registry(r.clone());
    }
    parser.parse_document(text)
}

/// The block registry of a file's root (`[dialect] registry` in its
/// `prose.toml`, loaded by the host), if it has one. Re-runs only when
/// the file's root or its configuration changes.
#[salsa::tracked(returns(ref), no_eq)]
pub fn registry(
    db: &dyn Db,
    file: SourceFile,
    workspace: Option<Workspace>,
) -> Option<Arc<BlockRegistry>> {
    file_config(db, file, workspace)
        .dialect_registry()
        .map(Arc::new)
}

/// The parsed document of a dialect file (every action, its diagnostics
/// and semantic tokens), with its root's block registry.
#[salsa::tracked(returns(ref), no_eq)]
pub fn document(db: &dyn Db, file: SourceFile, workspace: Option<Workspace>) -> Arc<Document> {
    let registry = registry(db, file, workspace);
    Arc::new(parse(file.text(db), registry.as_deref()))
}

/// A byte span of the parser as a range.
pub(crate) fn range(span: prose_dialect::Span) -> TextRange {
    TextRange::new(
        TextSize::from(span.start as u32),
        TextSize::from(span.end as u32),
    )
}

/// What the parser reports on `file`, grouped by rule.
pub(crate) fn diagnostics(
    db: &dyn Db,
    file: SourceFile,
    workspace: Option<Workspace>,
    config: &Config,
) -> Vec<Acc> {
    accs(document(db, file, workspace), config)
}

/// The diagnostics of dialect text parsed as `doc`, with the severities,
/// selection and overrides of `config`, sorted, in the text's offsets (for
/// text embedded in another file; a file's are in `file_diagnostics`).
pub fn text_diagnostics(doc: &Document, config: &Config) -> Vec<crate::Diagnostic> {
    crate::diagnostics::finish(config, accs(doc, config))
}

/// The parser's findings in `doc`, grouped by rule (those `config` turns
/// off left out); [`crate::diagnostics::finish`] applies the severities.
pub(crate) fn accs(doc: &Document, config: &Config) -> Vec<Acc> {
    front_end_accs(config, rules(), findings(doc))
}

/// What the parser found in `doc` (a file, or a fence another language
/// hands over: see [`crate::injection`]), in the text's ranges.
pub(crate) fn findings(doc: &Document) -> impl Iterator<Item = Finding> + '_ {
    doc.diagnostics().map(|d| Finding {
        code: d.code,
        range: range(d.span),
        message: d.message.clone(),
        related: Vec::new(),
        tags: Vec::new(),
    })
}

/// The analysis of a dialect fixture (see [`crate::fixture`]), the `$0`
/// cursor and the text of its file (the feature tests' start).
#[cfg(test)]
pub(crate) fn at_cursor(fixture: &str) -> (crate::Analysis, crate::FilePosition, String) {
    let f = crate::fixture::Fixture::parse_as(fixture, FileKind::Dialect);
    let (host, pos) = f.position();
    let analysis = host.analysis();
    let text = analysis.file_text(pos.file).unwrap();
    (analysis, pos, text)
}

#[cfg(test)]
mod tests {
    use expect_test::expect;
    use prose_syntax::{TextRange, TextSize};

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
    fn the_registry_of_the_files_root_checks_block_names() {
        let registry = "#- /ws/prose.toml\n[dialect]\nregistry = \"agents/blocks.txt\"\n#- /ws/agents/blocks.txt\nproject_notes\nmeeting_notes\n[context]\npersona\n";
        check(
            &format!(
                "{registry}#- /ws/out.dialect\n/recall read notes\n/recall project_notes\n/context persnoa + \"x\"\n"
            ),
            expect![[r#"
                D012 1:14-1:19 error: 'recall' found multiple blocks matching 'notes' - did you mean project_notes or meeting_notes?
                D012 3:10-3:17 error: 'context' found no block named 'persnoa' - did you mean persona?
            "#]],
        );
        // A root without one checks nothing.
        check(
            "#- /other/prose.toml\n#- /other/out.dialect\n/recall read notes\n",
            expect![""],
        );
    }

    /// Every feature at every byte offset (char boundaries or not) of odd
    /// texts: an answer, never a panic.
    #[test]
    fn features_never_panic_at_any_offset() {
        let texts = [
            "",
            "/",
            "/é\n/rec😀 ?\n",
            "/reply \"\"\"\nno end",
            "/batch {\n/batch {\n  /x ->\n} !!\n",
            "  /send @ @[ ?? -> -> /\r\n> q\n/post “curly ?public",
            "/recall ```diff\n- a\n~~~\n",
        ];
        for text in texts {
            let (host, file) =
                crate::fixture::Fixture::parse_as(text, FileKind::Dialect).host(None);
            let a = host.analysis();
            let all = TextRange::up_to(TextSize::of(text));
            a.document_symbols(file).unwrap();
            a.folding_ranges(file).unwrap();
            a.semantic_tokens(file, None).unwrap();
            a.code_actions(crate::FileRange { file, range: all })
                .unwrap();
            let offsets: Vec<TextSize> = (0..=text.len() as u32).map(TextSize::from).collect();
            a.selection_ranges(file, offsets.clone()).unwrap();
            for &offset in &offsets {
                let pos = crate::FilePosition { file, offset };
                a.hover(pos).unwrap();
                a.completions(pos).unwrap();
                let range = TextRange::empty(offset);
                a.semantic_tokens(file, Some(range)).unwrap();
                a.code_actions(crate::FileRange { file, range }).unwrap();
            }
        }
    }

    #[test]
    fn a_clean_file_has_none() {
        check("/recall notes\n/halt \"disk full\"\n", expect![""]);
    }
}
