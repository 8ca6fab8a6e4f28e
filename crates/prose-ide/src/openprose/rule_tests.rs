//! Test helpers for OpenProse rules (the registry-wide checks of every
//! language are in `crate::diagnostics::tests`).

use expect_test::Expect;

use crate::{config::Profile, diagnostics::Diagnostic, fixture::Fixture};

/// `line:col` (1-based, columns in chars) of `offset` in `text`.
pub(crate) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, col)
}

pub(crate) fn diagnostics(fixture: &str, profile: Profile) -> (String, Vec<Diagnostic>) {
    diagnostics_as(fixture, crate::FileKind::OpenProse, profile)
}

/// The text and diagnostics of a fixture whose headerless text is a file of `kind`.
pub(crate) fn diagnostics_as(
    fixture: &str,
    kind: crate::FileKind,
    profile: Profile,
) -> (String, Vec<Diagnostic>) {
    let f = Fixture::parse_as(fixture, kind);
    let (host, file) = f.host(Some(profile));
    let analysis = host.analysis();
    (
        analysis.file_text(file).unwrap(),
        analysis.diagnostics(file).unwrap(),
    )
}

pub(crate) fn render(text: &str, diags: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diags {
        let (l1, c1) = line_col(text, d.range.start().into());
        let (l2, c2) = line_col(text, d.range.end().into());
        out.push_str(&format!(
            "{} {l1}:{c1}-{l2}:{c2} {}: {}\n",
            d.code.as_str(),
            d.severity.as_str(),
            d.message
        ));
        for r in &d.related {
            let (l1, c1) = line_col(text, r.range.start().into());
            let (l2, c2) = line_col(text, r.range.end().into());
            out.push_str(&format!("  related {l1}:{c1}-{l2}:{c2}: {}\n", r.message));
        }
    }
    out
}

/// All diagnostics of the fixture under the default profile.
pub(crate) fn check(fixture: &str, expect: Expect) {
    let (text, diags) = diagnostics(fixture, Profile::Default);
    expect.assert_eq(&render(&text, &diags));
}

/// All diagnostics of the fixture under the strict profile.
pub(crate) fn check_strict(fixture: &str, expect: Expect) {
    let (text, diags) = diagnostics(fixture, Profile::Strict);
    expect.assert_eq(&render(&text, &diags));
}

/// Only the diagnostics with `code` (default profile).
pub(crate) fn check_code(code: &str, fixture: &str, expect: Expect) {
    let (text, diags) = diagnostics(fixture, Profile::Default);
    let diags: Vec<_> = diags
        .into_iter()
        .filter(|d| d.code.as_str() == code)
        .collect();
    expect.assert_eq(&render(&text, &diags));
}

/// Only the diagnostics with `code` (strict profile).
pub(crate) fn check_code_strict(code: &str, fixture: &str, expect: Expect) {
    let (text, diags) = diagnostics(fixture, Profile::Strict);
    let diags: Vec<_> = diags
        .into_iter()
        .filter(|d| d.code.as_str() == code)
        .collect();
    expect.assert_eq(&render(&text, &diags));
}

/// Asserts that `code` is reported under neither profile.
pub(crate) fn check_no(code: &str, fixture: &str) {
    for profile in [Profile::Default, Profile::Strict] {
        let (text, diags) = diagnostics(fixture, profile);
        let hits: Vec<_> = diags
            .into_iter()
            .filter(|d| d.code.as_str() == code)
            .collect();
        assert!(
            hits.is_empty(),
            "{code} reported under {profile:?}:\n{}",
            render(&text, &hits)
        );
    }
}

/// The texts of [`sample_programs`].
pub(crate) fn sample_texts() -> Vec<String> {
    sample_programs()
        .into_iter()
        .map(|(_, text)| text)
        .collect()
}

/// Each sample program ([`sample_texts`]) analysed in `host` as
/// `/ws/{i}.prose`, then edited by a comment line added at the top (every
/// statement moves): `f` gets the host after the edit, the file, its path
/// and the edited text.
pub(crate) fn each_sample_after_an_edit(
    host: &mut crate::AnalysisHost,
    mut f: impl FnMut(&mut crate::AnalysisHost, crate::FileId, &str, &str),
) {
    for (i, text) in sample_texts().into_iter().enumerate() {
        let path = format!("/ws/{i}.prose");
        let file = host.set_file_text(&path, text.clone());
        host.analysis().diagnostics(file).unwrap();
        let edited = format!("# edited\n{text}");
        host.set_file_text(&path, edited.clone());
        f(host, file, &path, &edited);
    }
}

/// The programs of the examples shipped in the repository, the parser's
/// test data and both corpora (with `PROSE_CORPUS`): (path, text).
pub(crate) fn sample_programs() -> Vec<(String, String)> {
    let root = prose_test_support::workspace_root();
    let mut dirs = vec![
        root.join("docs/examples"),
        root.join("crates/prose-syntax/test_data"),
    ];
    if let Some(corpus) = prose_test_support::corpus_dir() {
        if let Some(history) = corpus.parent().map(|p| p.join("openprose-history"))
            && history.is_dir()
        {
            dirs.push(history);
        }
        dirs.push(corpus);
    }
    dirs.iter()
        .flat_map(|d| prose_test_support::prose_files(d))
        .map(|p| {
            (
                p.display().to_string(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect()
}
