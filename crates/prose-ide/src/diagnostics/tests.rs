//! Registry-wide checks, for the rules of every language:
//! - every rule's docs page in `docs/diagnostics/` is fresh;
//! - every rule's `## Example` triggers it (strict profile) and its
//!   `## Fix` does not (the blocks are fenced in the language of the
//!   rule's file kind: `prose`, `json`, `markdown`, `dialect`). Blocks of
//!   that language captioned ``File `PATH`:`` in the same section are
//!   files the example reads (`/read`, `_spawn_`); every other file it
//!   names does not exist.

use crate::{
    auxiliary::AuxState,
    config::Profile,
    diagnostics::{Diagnostic, Rule, all_rules},
    fixture::{Fixture, ROOT},
    kind::FileKind,
    openprose::rule_tests::render,
};

/// Where a rule's file is (said at the top of its generated page): its
/// language's folder of rules (front ends keep theirs in their crate).
fn rule_folder(rule: &Rule) -> &'static str {
    match rule.check.kind() {
        Some(FileKind::OpenProse) => "crates/prose-ide/src/openprose/rules",
        Some(FileKind::JobEntry) => "crates/prose-jobs/src/rules",
        Some(FileKind::Dialect) => "crates/prose-dialect/src/diagnostics",
        Some(FileKind::PromptFile) => "crates/prose-markdown/src/prompt/rules",
        Some(FileKind::Markdown) => "crates/prose-markdown/src/instructions/rules",
        None => "crates/prose-ide/src/host/rules",
    }
}

/// A docs block as the fixture to check: as it is, or, for a dialect
/// rule whose examples assume a block registry
/// (`prose_dialect::diagnostics::Code::example_blocks`), in a workspace
/// whose `prose.toml` names a registry of those blocks (`[dialect]
/// registry`).
fn with_context(rule: &Rule, kind: FileKind, block: &str) -> String {
    let blocks = match kind {
        FileKind::Dialect => prose_dialect::diagnostics::code(rule.code)
            .map(|c| c.example_blocks())
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    if blocks.is_empty() {
        return block.to_string();
    }
    format!(
        "#- /ws/prose.toml\n[dialect]\nregistry = \"blocks.txt\"\n#- /ws/blocks.txt\n{}\n#- /ws/{}\n{block}",
        blocks.join("\n"),
        kind.example_file_name()
    )
}

/// The diagnostics of a docs example, as a file of `kind` (strict
/// profile), where `files` exist and every other file it reads does not.
fn example_diagnostics(
    text: &str,
    kind: FileKind,
    files: &[(String, String)],
) -> (String, Vec<Diagnostic>) {
    let (mut host, file) = Fixture::parse_as(text, kind).host(Some(Profile::Strict));
    let aux = host.analysis().external_paths(file).unwrap().aux;
    for path in aux {
        let given = files
            .iter()
            .find(|(p, _)| crate::auxiliary::resolve(ROOT, p) == path);
        let state = match given {
            Some((_, body)) => AuxState::Text(body.clone()),
            None => AuxState::Missing,
        };
        host.set_aux_file(&path, state);
    }
    let analysis = host.analysis();
    (
        analysis.file_text(file).unwrap(),
        analysis.diagnostics(file).unwrap(),
    )
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
        let lang = kind.fence_language();
        let Some((example, files)) = prose_rule_docs::example_with_files(&docs, "Example", lang)
        else {
            failures.push(format!(
                "{}: docs have no `## Example` {lang} block",
                rule.code
            ));
            continue;
        };
        let example = with_context(rule, kind, &example);
        let (_, diags) = example_diagnostics(&example, kind, &files);
        if !diags.iter().any(|d| d.code.as_str() == rule.code) {
            failures.push(format!("{}: the Example does not trigger it", rule.code));
        }
        let Some((fix, files)) = prose_rule_docs::example_with_files(&docs, "Fix", lang) else {
            failures.push(format!("{}: docs have no `## Fix` {lang} block", rule.code));
            continue;
        };
        let (text, diags) = example_diagnostics(&with_context(rule, kind, &fix), kind, &files);
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
        "# Diagnostics\n\n<!-- Generated from the rule file of each code (named at the top of its page) by the `docs_are_fresh` test; do not edit. -->\n\n\
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

/// `Analysis::prepare_names` computes an OpenProse file's names, which its
/// diagnostics then find done, and does nothing for another kind of file.
#[test]
fn prepare_names_computes_the_names_the_diagnostics_read() {
    let (db, log) = crate::fixture::logging_db();
    let mut host = crate::AnalysisHost::with_db(db);
    let program = host.set_file_text("/ws/p.prose", "agent a:\n  model: opus\nsession: a\n");
    let notes = host.set_file_text("/ws/README.md", "# Title\n\nWords.\n");
    let analysis = host.analysis();
    let names = |log: &crate::fixture::QueryLog| {
        let log = log.lock().unwrap();
        log.iter().filter(|k| k.contains("file_semantics")).count()
    };
    analysis.prepare_names(notes).unwrap();
    assert_eq!(names(&log), 0, "{:?}", log.lock().unwrap());
    analysis.prepare_names(program).unwrap();
    assert_eq!(names(&log), 1, "{:?}", log.lock().unwrap());
    log.lock().unwrap().clear();
    analysis.diagnostics(program).unwrap();
    assert_eq!(names(&log), 0, "{:?}", log.lock().unwrap());
    assert!(
        log.lock()
            .unwrap()
            .iter()
            .any(|k| k.contains("file_diagnostics"))
    );
}

proptest::proptest! {
    /// Two parts' reports finished apart and merged are what finishing
    /// them together gives: the same order where positions and codes tie
    /// (the first part's reports first, in the order reported) and the
    /// same repeats dropped, within a part and across the two.
    #[test]
    fn parts_finished_apart_merge_into_the_whole(
        reports in proptest::collection::vec((0u32..4, 0u32..3, 0usize..3, 0u8..2, proptest::bool::ANY), 0..24),
    ) {
        use super::{Acc, finish, finish_sorted, merge_finished};
        let rules: Vec<&'static Rule> = ["E007", "E019", "W007"]
            .iter()
            .map(|code| all_rules().iter().copied().find(|r| r.code == *code).expect(code))
            .collect();
        let (mut first, mut second): (Vec<Acc>, Vec<Acc>) = Default::default();
        for (start, len, rule, message, in_first) in reports {
            let part = if in_first { &mut first } else { &mut second };
            let mut acc = Acc::new(rules[rule]);
            let range = prose_syntax::TextRange::at(start.into(), len.into());
            acc.report(range, format!("message {message}"));
            part.push(acc);
        }
        let config = crate::Config::default();
        let whole = finish(&config, first.iter().chain(&second).cloned().collect());
        let merged = merge_finished(
            finish_sorted(&config, first),
            finish_sorted(&config, second),
        );
        proptest::prop_assert_eq!(merged, whole);
    }
}

/// A collector made for a configuration leaves out what finishing under
/// it drops (reports off in the `default` profile), and nothing else:
/// finished, it gives what a collector keeping every report gives, in the
/// `default` profile, the `strict` profile, and with a level set for the
/// code (which turns such reports on).
#[test]
fn collectors_for_a_configuration_leave_out_only_what_it_drops() {
    use super::{Acc, finish};
    use crate::config::{Level, Profile};
    use crate::diagnostics::Severity;
    let rule = all_rules()
        .iter()
        .copied()
        .find(|r| r.code == "E024")
        .unwrap();
    let report = |acc: &mut Acc| {
        let at = |n: u32| prose_syntax::TextRange::at(n.into(), 1.into());
        acc.report_calibrated(at(0), "shown", Vec::new(), Level::On(Severity::Hint));
        acc.report_calibrated(at(2), "off", Vec::new(), Level::Off);
        acc.report(at(4), "the rule's level");
    };
    // A level set for the code.
    let set = || {
        let mut config = crate::Config::default();
        config
            .severity
            .insert("E024".to_string(), Level::On(Severity::Warning));
        config
    };
    let strict = crate::Config {
        profile: Profile::Strict,
        ..crate::Config::default()
    };
    for (config, drops) in [
        (crate::Config::default(), true),
        (strict, false),
        (set(), false),
    ] {
        let (mut all, mut made) = (Acc::new(rule), Acc::for_config(rule, &config));
        report(&mut all);
        report(&mut made);
        assert_eq!(made.shows(Level::Off), !drops);
        assert_eq!(finish(&config, vec![made]), finish(&config, vec![all]));
    }
    let messages = |config: &crate::Config| -> Vec<String> {
        let mut made = Acc::for_config(rule, config);
        report(&mut made);
        finish(config, vec![made])
            .into_iter()
            .map(|d| d.message)
            .collect()
    };
    assert_eq!(
        messages(&crate::Config::default()),
        ["shown", "the rule's level"]
    );
    assert_eq!(messages(&set()), ["shown", "off", "the rule's level"]);
}
