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

use super::skill_elements;

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
    let candidates: Vec<&str> = imported_set.iter().copied().collect();
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
        let hint = hints.entry(name.clone()).or_insert_with(|| {
            if let Some((_, alias)) = aliased.iter().find(|(s, _)| *s == name) {
                format!(" (it is imported as `{alias}`)")
            } else if let Some(c) = did_you_mean(&name, &candidates) {
                format!(" (did you mean `{c}`?)")
            } else {
                format!("; add `use \"@handle/{name}\"` or an `import`")
            }
        });
        acc.report(
            s.syntax().text_range(),
            format!("Skill not imported: `{name}`{hint}"),
        );
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
}
