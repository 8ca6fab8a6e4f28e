//! Test helpers for rules, and the registry-wide checks:
//! - every rule's docs page in `docs/diagnostics/` is fresh;
//! - every rule's `## Example` triggers it (strict profile) and its
//!   `## Fix` does not.

use expect_test::Expect;

use crate::{
    config::Profile,
    diagnostics::{Diagnostic, all_rules},
    fixture::Fixture,
};

/// `line:col` (1-based, columns in chars) of `offset` in `text`.
pub(crate) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, col)
}

pub(crate) fn diagnostics(fixture: &str, profile: Profile) -> (String, Vec<Diagnostic>) {
    let f = Fixture::parse(fixture);
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

/// The body of the first ```prose block after the heading `## {heading}`.
fn doc_block(docs: &str, heading: &str) -> Option<String> {
    let start = docs.find(&format!("## {heading}"))?;
    let rest = &docs[start..];
    let open = rest.find("```prose\n")? + "```prose\n".len();
    let close = rest[open..].find("```")?;
    Some(rest[open..open + close].to_string())
}

#[test]
fn every_rule_example_triggers_and_fix_does_not() {
    let mut failures = Vec::new();
    for rule in all_rules() {
        let docs = rule.docs();
        let Some(example) = doc_block(&docs, "Example") else {
            failures.push(format!(
                "{}: docs have no `## Example` prose block",
                rule.code
            ));
            continue;
        };
        let (_, diags) = diagnostics(&example, Profile::Strict);
        if !diags.iter().any(|d| d.code.as_str() == rule.code) {
            failures.push(format!("{}: the Example does not trigger it", rule.code));
        }
        let Some(fix) = doc_block(&docs, "Fix") else {
            failures.push(format!("{}: docs have no `## Fix` prose block", rule.code));
            continue;
        };
        let (text, diags) = diagnostics(&fix, Profile::Strict);
        let hits: Vec<_> = diags
            .into_iter()
            .filter(|d| d.code.as_str() == rule.code)
            .collect();
        if !hits.is_empty() {
            failures.push(format!(
                "{}: the Fix still triggers it:\n{}",
                rule.code,
                render(&text, &hits)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn codes_are_unique_sorted_and_named() {
    let rules = all_rules();
    for w in rules.windows(2) {
        assert!(
            w[0].code < w[1].code,
            "registry not sorted or duplicate: {} then {}",
            w[0].code,
            w[1].code
        );
    }
    for r in rules {
        assert!(
            r.docs().starts_with(&format!("# {} `{}`", r.code, r.name)),
            "{}: docs must start with `# CODE `name``",
            r.code
        );
        assert!(
            r.name.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
            "{}: name must be kebab-case",
            r.code
        );
    }
}

/// Renders `docs/diagnostics/` from the rules; fails when the committed
/// pages differ (run with `UPDATE_EXPECT=1` to rewrite them).
#[test]
fn docs_are_fresh() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/diagnostics");
    let mut expected: Vec<(String, String)> = Vec::new();
    let mut index = String::from(
        "# Diagnostics\n\n<!-- Generated from crates/prose-ide/src/diagnostics/rules/*.rs by the `docs_are_fresh` test; do not edit. -->\n\n\
         Every code prose-lsp reports, with its severity under the `default` and `strict` profiles.\n\
         `prose explain CODE` prints a page. See also [spec-rows.md](spec-rows.md): every validation row of the\n\
         specification and the code that implements it.\n\n| Code | Name | Summary | default | strict |\n|---|---|---|---|---|\n",
    );
    for r in all_rules() {
        let default = match r.default {
            crate::config::Level::Off => "off",
            crate::config::Level::On(s) => s.as_str(),
        };
        index.push_str(&format!(
            "| [{0}]({0}.md) | `{1}` | {2} | {3} | {4} |\n",
            r.code,
            r.name,
            r.summary,
            default,
            r.strict.as_str()
        ));
        let page = format!(
            "<!-- Generated from crates/prose-ide/src/diagnostics/rules; do not edit. -->\n\n{}\n**Severity:** {} in the `default` profile, {} in `strict`.\n",
            r.docs(),
            default,
            r.strict.as_str()
        );
        expected.push((format!("{}.md", r.code), page));
    }
    expected.push(("README.md".into(), index));
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let mut stale = Vec::new();
    for (name, content) in &expected {
        let path = dir.join(name);
        let current = std::fs::read_to_string(&path).unwrap_or_default();
        if current != *content {
            if update {
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(&path, content).unwrap();
            } else {
                stale.push(name.clone());
            }
        }
    }
    assert!(
        stale.is_empty(),
        "stale docs (run `UPDATE_EXPECT=1 cargo test -p prose-ide docs_are_fresh`): {stale:?}"
    );
}
