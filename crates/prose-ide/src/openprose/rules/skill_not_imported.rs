//! # W007 `skill-not-imported`
//!
//! **Skill not imported.** A name in an agent's `skills: [...]` matches
//! neither an `import "name" from "..."` nor a name bound by `use`.
//!
//! ## Why is this bad?
//! Skills must be imported before they can be assigned; the runtime has
//! nothing to give the agent under that name.
//!
//! ## Example
//! ```prose
//! agent researcher:
//!   model: sonnet
//!   skills: ["web-search"]
//! ```
//!
//! ## Fix
//! ```prose
//! use "@anthropic/web-search"
//!
//! agent researcher:
//!   model: sonnet
//!   skills: ["web-search"]
//! ```
//!
//! The diagnostic is on the string. A skill is imported when its name is:
//! - the NAME of a legacy `import "NAME" from "SOURCE"`;
//! - the name a `use` binds: its `as` alias, or else the last segment of
//!   the path (`use "@anthropic/web-search"` binds `web-search`; a URL or
//!   a local path binds its file name without `.prose`).
//!
//! ## Specification
//! compiler.md, Agent Definitions › Skills Property: "Skills must be
//! imported before they can be assigned. Referencing an unimported skill
//! generates a warning." Validation Rules: W007. Which name a `use` binds
//! is spec-rows.md §3.7. Warning in every profile.

use crate::openprose::rules::prelude::*;

use std::sync::{Mutex, PoisonError};

use super::skill_elements;
use crate::db::SourceFile;

pub(crate) const RULE: Rule = Rule {
    code: "W007",
    name: "skill-not-imported",
    summary: "Skill not imported",
    strict: Severity::Warning,
    default: Level::On(Severity::Warning),
    source: include_str!("skill_not_imported.rs"),
    check: Check::OpenProse(check),
};

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    let mut imported: Vec<String> = Vec::new();
    // `use` statements whose alias hides the slug: slug -> alias.
    let mut aliased: Vec<(String, String)> = Vec::new();
    for i in nodes::<ast::ImportStmt>(ctx) {
        if let Some(n) = i.name() {
            imported.push(n.value());
        }
    }
    for u in nodes::<ast::UseStmt>(ctx) {
        let slug = u.path().map(|p| use_bound_name(&p.value()));
        if let Some(alias) = u.alias() {
            imported.push(alias.text());
            if let Some(slug) = slug {
                aliased.push((slug, alias.text()));
            }
        } else if let Some(slug) = slug {
            imported.push(slug);
        }
    }
    let imported_set: rustc_hash::FxHashSet<&str> = imported.iter().map(String::as_str).collect();
    let mut candidates: Vec<&str> = imported_set.iter().copied().collect();
    // Sorted, to be compared with the last run's ([`HintMemo`]); a
    // suggestion does not depend on their order.
    candidates.sort_unstable();
    let (file, memos) = ctx.statement_memos();
    let memo = (!memos.is_batch()).then_some(&memos.skill_hints);
    let mut last = memo
        .and_then(|m| m.take(file))
        .filter(|h| h.chosen_for(&candidates, &aliased));
    // The hint per distinct skill name (the same names recur).
    let mut hints: rustc_hash::FxHashMap<String, String> = Default::default();
    // Each skill's name, read into one buffer.
    let mut name = String::new();
    for el in skill_elements(ctx) {
        let ast::Expr::String(s) = el else { continue };
        s.value_into(&mut name);
        if imported_set.contains(name.as_str()) {
            continue;
        }
        if !hints.contains_key(name.as_str()) {
            let hint = last
                .as_mut()
                .and_then(|h| h.by_name.remove(name.as_str()))
                .unwrap_or_else(|| hint(&name, &candidates, &aliased));
            hints.insert(name.clone(), hint);
        }
        acc.report(
            s.syntax().text_range(),
            format!("Skill not imported: `{name}`{}", hints[name.as_str()]),
        );
    }
    if let Some(memo) = memo {
        let imported = match last {
            Some(h) => h.imported,
            None => candidates.iter().map(|c| c.to_string()).collect(),
        };
        memo.keep(
            file,
            Hints {
                imported,
                aliased,
                by_name: hints,
            },
        );
    }
}

/// What follows an unimported skill's name in W007's message: how it is
/// imported under an alias, the closest imported name, or how to import
/// it.
fn hint(name: &str, candidates: &[&str], aliased: &[(String, String)]) -> String {
    #[cfg(test)]
    HINTS_CHOSEN.set(HINTS_CHOSEN.get() + 1);
    if let Some((_, alias)) = aliased.iter().find(|(s, _)| s == name) {
        format!(" (it is imported as `{alias}`)")
    } else if let Some(c) = did_you_mean(name, candidates) {
        format!(" (did you mean `{c}`?)")
    } else {
        format!("; add `use \"@handle/{name}\"` or an `import`")
    }
}

#[cfg(test)]
thread_local! {
    /// How many hints [`hint`] chose on this thread (tests).
    static HINTS_CHOSEN: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The hints of each file's last run of W007, with the imports they were
/// chosen from. A skill's hint depends on its name and on the file's
/// imported names and aliases alone; so after an edit that leaves those
/// as they were (most edits), each name's hint is the last run's, not
/// chosen again. Choosing one compares the name with every imported name
/// (a "did you mean"): about 0.3 M instructions per keystroke in a
/// generated 5,600-line program with 71 imported names and two unimported
/// skills (docs/performance/peer-2026-12-03.md). A database that analyses
/// each text once keeps nothing.
#[derive(Default)]
pub(crate) struct HintMemo(Mutex<rustc_hash::FxHashMap<SourceFile, Hints>>);

/// The hints of one run ([`HintMemo`]).
pub(crate) struct Hints {
    /// The distinct imported names, sorted.
    imported: Vec<String>,
    /// The `use` statements whose alias hides the slug (slug, alias), in
    /// order.
    aliased: Vec<(String, String)>,
    /// The hint of each skill name that was not imported.
    by_name: rustc_hash::FxHashMap<String, String>,
}

impl Hints {
    /// Whether these hints were chosen from the same imports.
    fn chosen_for(&self, candidates: &[&str], aliased: &[(String, String)]) -> bool {
        self.aliased == aliased
            && self
                .imported
                .iter()
                .map(String::as_str)
                .eq(candidates.iter().copied())
    }
}

impl HintMemo {
    /// The hints of the last run over `file`, taken out (a run cancelled
    /// halfway leaves none, and the next chooses them again).
    fn take(&self, file: SourceFile) -> Option<Hints> {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&file)
    }

    /// Keeps the hints of this run over `file`: those of the names it
    /// reported, and no others.
    fn keep(&self, file: SourceFile, hints: Hints) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(file, hints);
    }
}

/// The name `use "PATH"` binds without `as`: the last path segment,
/// without a `.prose` extension.
fn use_bound_name(path: &str) -> String {
    let last = path.trim_end_matches('/').rsplit('/').next().unwrap_or("");
    last.strip_suffix(".prose").unwrap_or(last).to_string()
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn unimported_skills() {
        check_code(
            "W007",
            "use \"@anthropic/web-search\" as search\nimport \"summarizer\" from \"npm:x\"\nagent a:\n  skills: [\"web-search\", \"sumarizer\", \"other\"]\n",
            expect![[r#"
                W007 4:12-4:24 warning: Skill not imported: `web-search` (it is imported as `search`)
                W007 4:26-4:37 warning: Skill not imported: `sumarizer` (did you mean `summarizer`?)
                W007 4:39-4:46 warning: Skill not imported: `other`; add `use "@handle/other"` or an `import`
            "#]],
        );
    }

    #[test]
    fn imported_by_import_use_slug_alias_and_url() {
        check_no(
            "W007",
            "import \"web-search\" from \"github:anthropic/skills\"\nuse \"@anthropic/summarizer\"\nuse \"@x/y\" as reader\nuse \"https://example.com/tools/lint.prose\"\nagent a:\n  skills: [\"web-search\", \"summarizer\", \"reader\", \"lint\"]\n",
        );
    }

    /// A skill's hint is chosen once while the imports stay as they are:
    /// after an edit elsewhere the reports take the last run's hints,
    /// after an edit of the imports (or with a new skill name) they are
    /// chosen again; the reports are a fresh analysis's either way.
    #[test]
    fn hints_kept_while_the_imports_stay() {
        use crate::AnalysisHost;
        let program = "use \"@x/research\" as finder\nimport \"summarizer\" from \"npm:x\"\nagent a:\n  skills: [\"research\", \"sumarizer\", \"other\", \"other\"]\nsession: a\n";
        let more = format!("{program}session \"More\"\n");
        let renamed = more.replace("\"summarizer\" from", "\"summariser\" from");
        let added = renamed.replace("[\"research\",", "[\"research\", \"reserch\",");
        let realiased = added.replace("as finder", "as seeker");
        let mut host = AnalysisHost::new();
        let mut messages = Vec::new();
        for (text, chosen) in [
            (program.to_string(), 3),
            (more, 0),
            (renamed, 3),
            (added, 1),
            (realiased, 4),
        ] {
            let before = super::HINTS_CHOSEN.get();
            let file = host.set_file_text("/ws/a.prose", text.clone());
            let mine = host.analysis().diagnostics(file).unwrap();
            assert_eq!(super::HINTS_CHOSEN.get() - before, chosen, "{text}");
            let mut fresh = AnalysisHost::new();
            let id = fresh.set_file_text("/ws/a.prose", text.clone());
            assert_eq!(mine, fresh.analysis().diagnostics(id).unwrap(), "{text}");
            messages.extend(
                mine.iter()
                    .filter(|d| d.code.as_str() == "W007")
                    .map(|d| d.message.clone()),
            );
        }
        messages.dedup();
        expect![[r#"
            [
                "Skill not imported: `research` (it is imported as `finder`)",
                "Skill not imported: `sumarizer` (did you mean `summarizer`?)",
                "Skill not imported: `other`; add `use \"@handle/other\"` or an `import`",
                "Skill not imported: `research` (it is imported as `finder`)",
                "Skill not imported: `sumarizer` (did you mean `summarizer`?)",
                "Skill not imported: `other`; add `use \"@handle/other\"` or an `import`",
                "Skill not imported: `research` (it is imported as `finder`)",
                "Skill not imported: `sumarizer` (did you mean `summariser`?)",
                "Skill not imported: `other`; add `use \"@handle/other\"` or an `import`",
                "Skill not imported: `research` (it is imported as `finder`)",
                "Skill not imported: `reserch`; add `use \"@handle/reserch\"` or an `import`",
                "Skill not imported: `sumarizer` (did you mean `summariser`?)",
                "Skill not imported: `other`; add `use \"@handle/other\"` or an `import`",
                "Skill not imported: `research` (it is imported as `seeker`)",
                "Skill not imported: `reserch`; add `use \"@handle/reserch\"` or an `import`",
                "Skill not imported: `sumarizer` (did you mean `summariser`?)",
                "Skill not imported: `other`; add `use \"@handle/other\"` or an `import`",
            ]
        "#]]
        .assert_debug_eq(&messages);
    }
}
