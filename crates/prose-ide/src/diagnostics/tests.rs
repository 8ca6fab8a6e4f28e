//! Registry-wide checks, for the rules of every language:
//! - every rule's docs page in `docs/diagnostics/` is fresh;
//! - every rule's `## Example` triggers it (strict profile) and its
//!   `## Fix` does not (the blocks are fenced in the language of the
//!   rule's file kind: `prose`, `json`, `markdown`, `dialect`).

use crate::{
    config::Profile,
    diagnostics::{Rule, all_rules},
    kind::FileKind,
    openprose::rule_tests::{diagnostics_as, render},
};

/// Where a rule's file is: its language's folder (the front end's own
/// crate for job entries).
fn rule_folder(rule: &Rule) -> &'static str {
    match rule.check.kind() {
        Some(FileKind::OpenProse) => "crates/prose-ide/src/openprose/rules",
        Some(FileKind::JobEntry) => "crates/prose-jobs/src/rules",
        Some(FileKind::Dialect) => "crates/prose-ide/src/dialect/rules",
        Some(FileKind::PromptFile | FileKind::Markdown) => "crates/prose-ide/src/markdown/rules",
        None => "crates/prose-ide/src/host/rules",
    }
}

/// The body of the first fenced block in `lang` after the heading
/// `## {heading}` (a fence of three or more backticks, closed by the same).
fn doc_block(docs: &str, heading: &str, lang: &str) -> Option<String> {
    let start = docs.find(&format!("## {heading}"))?;
    let mut lines = docs[start..].split_inclusive('\n');
    let fence = lines.by_ref().find_map(|l| {
        let ticks = l.len() - l.trim_start_matches('`').len();
        (ticks >= 3 && l[ticks..].trim_end() == lang).then(|| &l[..ticks])
    })?;
    let mut body = String::new();
    for l in lines {
        if l.trim_end() == fence {
            return Some(body);
        }
        body.push_str(l);
    }
    None
}

#[test]
fn every_rule_example_triggers_and_fix_does_not() {
    let mut failures = Vec::new();
    for rule in all_rules() {
        let docs = rule.docs();
        // A host rule is about a file that could not be read: its example
        // is a command line, not a file to check.
        let Some(kind) = rule.check.kind() else {
            continue;
        };
        // D012 (a block the caller's registry does not know) needs the
        // registry of an agent framework, which a lone file does not have:
        // prose-dialect's own tests run its example with one.
        if rule.code == "D012" {
            continue;
        }
        let lang = kind.fence_language();
        let Some(example) = doc_block(&docs, "Example", lang) else {
            failures.push(format!(
                "{}: docs have no `## Example` {lang} block",
                rule.code
            ));
            continue;
        };
        let (_, diags) = diagnostics_as(&example, kind, Profile::Strict);
        if !diags.iter().any(|d| d.code.as_str() == rule.code) {
            failures.push(format!("{}: the Example does not trigger it", rule.code));
        }
        let Some(fix) = doc_block(&docs, "Fix", lang) else {
            failures.push(format!("{}: docs have no `## Fix` {lang} block", rule.code));
            continue;
        };
        let (text, diags) = diagnostics_as(&fix, kind, Profile::Strict);
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
    // A name selects and explains one rule (`--select unknown-property`,
    // `prose explain duplicate-agent`), whatever the language.
    let mut names: Vec<&str> = rules.iter().map(|r| r.name).collect();
    names.sort_unstable();
    for w in names.windows(2) {
        assert_ne!(w[0], w[1], "two rules are named {}", w[0]);
    }
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
        "# Diagnostics\n\n<!-- Generated from the rule files of crates/prose-ide/src/*/rules/ by the `docs_are_fresh` test; do not edit. -->\n\n\
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
            "<!-- Generated from {}; do not edit. -->\n\n{}\n**Severity:** {} in the `default` profile, {} in `strict`.\n",
            rule_folder(r),
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
