//! The rule registry: one module per diagnostic code.

#[allow(unused_imports)]
pub(crate) mod prelude {
    pub(crate) use prose_syntax::{
        AstNode, SyntaxErrorCode, SyntaxKind, SyntaxNode, SyntaxToken, TextRange, TextSize, ast,
    };

    pub(crate) use crate::{
        config::Level,
        diagnostics::{Acc, Check, Related, Rule, Severity, Tag},
        openprose::ctx::Ctx,
        semantics::{Def, DefId, DefKind, Name, RefKind, RefSite},
        vocabulary,
    };

    /// Reports the parser's errors with `code`.
    pub(crate) fn syntax_errors(ctx: &Ctx<'_>, acc: &mut Acc, code: SyntaxErrorCode) {
        for e in ctx.parse().errors().iter().filter(|e| e.code == code) {
            acc.report(e.range, e.message.clone());
        }
    }

    /// A related location in the same file.
    pub(crate) fn related(ctx: &Ctx<'_>, range: TextRange, message: &str) -> Related {
        Related {
            path: ctx.path().to_string(),
            range,
            message: message.to_string(),
        }
    }

    /// The closest candidate to `name` by edit distance, if close enough.
    pub(crate) fn did_you_mean<'a>(name: &str, candidates: &[&'a str]) -> Option<&'a str> {
        let chars = name.chars().count();
        candidates
            .iter()
            .filter_map(|c| {
                let bound = (name.len().max(c.len()) / 3).max(1);
                let d = crate::openprose::suggestions::distance_within(name, chars, c, bound)?;
                Some((d, *c))
            })
            .min()
            .map(|(_, c)| c)
    }

    /// ` (did you mean `x`?)` for the closest candidate to `name`, or nothing.
    pub(crate) fn did_you_mean_hint(name: &str, candidates: &[&str]) -> String {
        did_you_mean(name, candidates)
            .map(|s| format!(" (did you mean `{s}`?)"))
            .unwrap_or_default()
    }

    /// Every node of type `N` in the file.
    pub(crate) fn nodes<'c, 'a, N: AstNode + 'static>(
        ctx: &'c Ctx<'a>,
    ) -> impl Iterator<Item = N> + use<'c, 'a, N> {
        ctx.nodes_of::<N>()
    }

    /// The innermost node covering `range` (the parent of a covering token).
    pub(crate) fn node_at(ctx: &Ctx<'_>, range: TextRange) -> Option<SyntaxNode> {
        match ctx.syntax().covering_element(range) {
            prose_syntax::NodeOrToken::Node(n) => Some(n),
            prose_syntax::NodeOrToken::Token(t) => t.parent(),
        }
    }

    /// The first token of `kind` directly in `node` (not in a child node).
    pub(crate) fn child_token(node: &SyntaxNode, kind: SyntaxKind) -> Option<SyntaxToken> {
        node.children_with_tokens()
            .filter_map(|e| e.into_token())
            .find(|t| t.kind() == kind)
    }

    /// The 1-based line of `offset`.
    pub(crate) fn line_of(ctx: &Ctx<'_>, offset: TextSize) -> usize {
        ctx.line_of(offset)
    }

    /// Reports every item whose key an earlier item already has, on the
    /// item's range, with `message(key)` and a related location on the
    /// first item with that key (`first_here`, e.g. "first defined here").
    pub(crate) fn report_repeats<K: Eq + std::hash::Hash>(
        ctx: &Ctx<'_>,
        acc: &mut Acc,
        items: impl IntoIterator<Item = (K, TextRange)>,
        message: impl Fn(&K) -> String,
        first_here: &str,
    ) {
        let mut seen: rustc_hash::FxHashMap<K, TextRange> = Default::default();
        for (key, range) in items {
            if let Some(first) = seen.get(&key) {
                acc.report_related(range, message(&key), vec![related(ctx, *first, first_here)]);
            } else {
                seen.insert(key, range);
            }
        }
    }

    /// Reports every later definition of `kind` whose name an earlier one
    /// already has: "{what} already defined: `name`", linked to the first
    /// definition (E006, P504).
    pub(crate) fn report_duplicate_defs(ctx: &Ctx<'_>, acc: &mut Acc, kind: DefKind, what: &str) {
        report_repeats(
            ctx,
            acc,
            ctx.sema()
                .defs_of(kind)
                .map(|(_, d)| (d.name.as_str(), d.name_range)),
            |name| format!("{what} already defined: `{name}`"),
            "first defined here",
        );
    }

    /// Reports every unresolved reference of `kind`: "{what} not defined:
    /// `name`", with the closest name of the definitions of `def_kind`.
    pub(crate) fn report_undefined(
        ctx: &Ctx<'_>,
        acc: &mut Acc,
        kind: RefKind,
        def_kind: DefKind,
        what: &str,
    ) {
        for (range, name) in undefined_refs(ctx, kind, def_kind) {
            acc.report(range, format!("{what} not defined: {name}"));
        }
    }

    /// Every unresolved reference of `kind`: its range and its name in
    /// backticks, followed by the closest name of the definitions of
    /// `def_kind` (` (did you mean `x`?)`) when there is one.
    pub(crate) fn undefined_refs(
        ctx: &Ctx<'_>,
        kind: RefKind,
        def_kind: DefKind,
    ) -> Vec<(TextRange, String)> {
        // A name defined again is one candidate (the closest is the same),
        // though the budget is spent on every definition.
        let mut listed = 0;
        let mut seen = rustc_hash::FxHashSet::default();
        let names: Vec<&str> = ctx
            .sema()
            .defs_of(def_kind)
            .map(|(_, d)| d.name.as_str())
            .inspect(|_| listed += 1)
            .filter(|n| seen.insert(*n))
            .collect();
        ctx.sema()
            .refs
            .iter()
            .filter(|r| r.kind == kind && r.target.is_none())
            .map(|r| {
                let hint = ctx.suggestions().hint_listed(&r.name, &names, listed);
                (r.range, format!("`{}`{hint}", r.name))
            })
            .collect()
    }
}

// Helpers shared across the groups (not rules).
pub(crate) mod places;
mod relation;

// Rules are registered per group (one registry file each, so the groups
// can grow independently); `RULES` merges them ordered by code.
pub(crate) mod group_agents;
mod group_control;
mod group_program;
mod group_syntax;
mod group_variables;

use std::sync::OnceLock;

use crate::{
    config::Config,
    db::{Db, SourceFile, Workspace},
    diagnostics::{Acc, Check, Diagnostic, Rule, finish, is_off, merge_finished},
    openprose::{
        ctx::Ctx,
        rule_parts::{self, Part},
    },
};

/// Every rule, ordered by code.
pub(crate) fn rules() -> &'static [&'static Rule] {
    static RULES: OnceLock<Vec<&'static Rule>> = OnceLock::new();
    RULES.get_or_init(|| {
        let mut all: Vec<&'static Rule> = [
            group_syntax::RULES,
            group_program::RULES,
            group_agents::RULES,
            group_variables::RULES,
            group_control::RULES,
        ]
        .concat();
        all.sort_by_key(|r| r.code);
        all
    })
}

/// What every OpenProse rule that `config` does not turn off reports on
/// `file`, finished ([`finish`]).
pub(crate) fn diagnostics(
    db: &dyn Db,
    file: SourceFile,
    workspace: Option<Workspace>,
    config: &Config,
) -> Vec<Diagnostic> {
    if !rule_parts::splits(db, file, workspace) {
        return finish(config, run_part(db, file, workspace, config, Part::Whole));
    }
    // Each part from its own query, which another thread may be computing
    // meanwhile (`rule_parts.rs`), finished there. The diagnostics are
    // taken out of them, not copied (`rule_parts::Findings`).
    let first = rule_parts::first_part(db, file, workspace);
    let second = rule_parts::second_part(db, file, workspace);
    let again = |part| rule_parts::finished(db, file, workspace, config, part);
    let first = first.take_or(|| again(Part::First));
    merge_finished(first, second.take_or(|| again(Part::Second)))
}

/// Runs the rules of `part` that `config` does not turn off on `file`.
pub(crate) fn run_part(
    db: &dyn Db,
    file: SourceFile,
    workspace: Option<Workspace>,
    config: &Config,
    part: Part,
) -> Vec<Acc> {
    use crate::openprose::{prompt_edit, statement_edit, statement_rules};
    let ctx = Ctx::new(db, file, workspace);
    // A file of a batch database, which keeps nothing for later edits,
    // may have its statement rules run in a context of their own, after
    // the others (a spare thread runs them meanwhile: `prose check` of a
    // long file).
    let apart = db.statement_memos().apart(file);
    // Else the rules that look at one statement at a time first, so that
    // the helpers they share with the others are computed while their
    // reads are recorded (`statement_rules.rs`).
    let mut out = if apart || part == Part::Second {
        Vec::new()
    } else {
        statement_rules::run(db, file, workspace, config, Some(&ctx))
    };
    // After typing in a prompt, the findings of the rules that read
    // neither the prompt nor the file's text nor the workspace are the
    // previous ones, moved (`prompt_edit.rs`).
    let mut kept = prompt_edit::kept_findings(db, file, config, part);
    if part == Part::Second {
        // Its rules go through few kinds, whatever the profile (and it
        // never runs after typing in a prompt: `rule_parts::splits`).
        ctx.index_for_rules_of(part);
    } else if kept.is_some() {
        // Most rules' findings are moved: the few that run go through a
        // few rare kinds.
        ctx.index_for_prompt_edit();
    } else if rules()
        .iter()
        .filter(|r| SILENT_BY_DEFAULT.contains(&r.code))
        .all(|r| silent(config, r))
    {
        // The file-wide rules go through fewer kinds than the statement
        // rules; the rules that go through the strings (P102, P103) do
        // not run.
        ctx.index_for_rules_of(part);
    }
    let keeps = db.prompt_edits().keeps();
    // After an edit of a few statements (not in a prompt), the rules that
    // report per name take their reports about the names the edit did not
    // touch from before it (`statement_edit.rs`).
    if keeps
        && kept.is_none()
        && rules()
            .iter()
            .any(|r| statement_edit::BY_NAME.contains(&r.code) && part.runs(r))
        && let Some(edit) = statement_edit::StatementEdit::of(db, file, config)
    {
        ctx.set_statement_edit(edit);
    }
    let mut keep = Vec::new();
    #[cfg(test)]
    if kept.is_some() {
        db.prompt_edits().note_ran_again(None);
    }
    for &rule in rules() {
        // Rules are pure loops that call few queries: check between them
        // for a newer edit or a cancelled snapshot (`CancelToken`).
        db.unwind_if_revision_cancelled();
        if !part.runs(rule)
            || is_off(config, rule)
            || statement_rules::is_statement_rule(rule)
            || silent(config, rule)
        {
            continue;
        }
        let Check::OpenProse(check) = rule.check else {
            continue;
        };
        // Taken out of the kept list (one rule's findings each), not
        // copied: only the copy kept for the next edit is made.
        let moved = kept.as_mut().and_then(|kept| {
            let at = kept
                .iter()
                .position(|(a, reads)| std::ptr::eq(a.rule(), rule) && reads.hold(&ctx))?;
            Some(kept.swap_remove(at))
        });
        if let Some((acc, reads)) = moved {
            if keeps {
                keep.push((acc.clone(), reads));
            }
            out.push(acc);
            continue;
        }
        #[cfg(test)]
        if kept.is_some() {
            db.prompt_edits().note_ran_again(Some(rule.code));
        }
        let (acc, read_file, reads) = ctx.watching_file(|| {
            // What the configuration drops is not made (the findings kept
            // for the next edit are kept under the same configuration).
            let mut acc = Acc::for_config(rule, config);
            check(&ctx, &mut acc);
            acc
        });
        if keeps && !read_file && !prompt_edit::READ_STRINGS.contains(&rule.code) {
            keep.push((acc.clone(), reads));
        }
        out.push(acc);
    }
    if keeps && ctx.suggestions_left() {
        prompt_edit::keep_findings(db, file, config, part, keep);
    }
    if apart {
        let statements = statement_rules::batch_statement_reports(db, file, workspace);
        out.splice(0..0, statements.iter().cloned());
    }
    out
}

/// The rules off in the `default` profile whose every report is at the
/// rule's own level (none calls `Acc::report_calibrated`): under that
/// profile, with no level set for their code, nothing they report is
/// shown (`diagnostics::finish` drops it), so they are not run.
const SILENT_BY_DEFAULT: &[&str] = &["P102", "P103"];

/// Whether nothing `rule` reports would be shown under `config`
/// ([`SILENT_BY_DEFAULT`]).
fn silent(config: &Config, rule: &Rule) -> bool {
    use crate::config::{Level, Profile};
    config.profile == Profile::Default
        && rule.default == Level::Off
        && !config.severity.contains_key(rule.code)
        && SILENT_BY_DEFAULT.contains(&rule.code)
}

/// How long each rule takes on a file (benchmarks use it to find the
/// slow ones); runs the rules outside salsa, one by one.
#[doc(hidden)]
pub fn rule_timings(
    db: &dyn Db,
    file: SourceFile,
    workspace: Option<Workspace>,
) -> Vec<(&'static str, std::time::Duration)> {
    let ctx = Ctx::new(db, file, workspace);
    rules()
        .iter()
        .filter_map(|&rule| {
            let Check::OpenProse(check) = rule.check else {
                return None;
            };
            let mut acc = Acc::new(rule);
            let t = std::time::Instant::now();
            check(&ctx, &mut acc);
            Some((rule.code, t.elapsed()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use crate::{
        config::{Config, Level, Profile},
        diagnostics::{Acc, Check, finish},
    };

    /// The rules skipped as silent are off by default, never choose a level
    /// per report, and what they report over the corpus and the examples
    /// is dropped under the `default` profile and shown under `strict`
    /// (the sample programs: the examples, the parser's test data, the
    /// corpora).
    #[test]
    fn silent_rules_report_nothing_that_is_shown() {
        let mut texts = crate::openprose::rule_tests::sample_texts();
        // A program both rules report on.
        texts.push("session \"\"\"Review.\nThe \"draft\".\n\"\"\"\n".into());
        let mut host = crate::AnalysisHost::new();
        let ids: Vec<_> = (texts.into_iter().enumerate())
            .map(|(i, text)| host.set_file_text(&format!("/ws/{i}.prose"), text))
            .collect();
        let analysis = host.analysis();
        let strict = Config {
            profile: Profile::Strict,
            ..Config::default()
        };
        let mut reported = 0;
        for &code in super::SILENT_BY_DEFAULT {
            let rule = super::rules().iter().find(|r| r.code == code).unwrap();
            assert_eq!(rule.default, Level::Off, "{code}");
            assert!(!rule.source.contains("report_calibrated"), "{code}");
            assert!(super::silent(&Config::default(), rule));
            assert!(!super::silent(&strict, rule));
            let Check::OpenProse(check) = rule.check else {
                panic!("{code} is an OpenProse rule");
            };
            for &id in &ids {
                let accs = analysis
                    .with_db(|db| {
                        let ctx = super::Ctx::new(db, analysis.source_file(id), None);
                        let mut acc = Acc::new(rule);
                        check(&ctx, &mut acc);
                        vec![acc]
                    })
                    .unwrap();
                assert!(
                    finish(&Config::default(), accs.clone()).is_empty(),
                    "{code}"
                );
                reported += finish(&strict, accs).len();
            }
        }
        assert!(reported > 0, "the rules report under strict");
    }
}
