//! The rules that look at one top-level statement at a time, run per
//! statement and kept while the statement's tree is unchanged.
//!
//! Most rules check a node against its own children: a `max:` that is not
//! a positive integer, an unknown property, an empty prompt. What such a
//! rule reports inside a top-level statement depends on that statement
//! alone, so [`run`] gives each statement its own rule context
//! ([`Ctx::for_statement`]: the nodes of the statement only) and keeps
//! what the rules found there in the database's per-statement memo
//! ([`crate::statement_memo`]). After an edit, only the statements the
//! edit re-parsed run these rules again; the others' findings are moved to
//! where their statement now starts.
//!
//! Which rules qualify is the list [`STATEMENT_RULES`]. A rule there must
//! not read the file's names, text, line numbers, configuration or
//! workspace (the statement context records such a read, and then keeps
//! nothing for that statement), must not look at neighbouring statements,
//! and must report only inside the statement. The tests below check every
//! rule of the list on every program of the corpus and the examples: it
//! reads nothing outside, and reports in each statement what it reports
//! there when run over the whole file and when the statement is a file of
//! its own.

use prose_syntax::{SyntaxNode, TextRange, TextSize};

use crate::{
    config::Config,
    db::{Db, SourceFile, Workspace, parse},
    diagnostics::{Acc, Check, Rule, is_off},
    openprose::ctx::Ctx,
};

/// The codes of the rules run per statement (see the module's
/// documentation for what qualifies a rule). Checked by hand as well as by
/// the tests: a rule that combines nodes of different statements through
/// the kind index (E026 and E027 match a program call with an `use` or
/// `import` statement) would see only its own statement's and report less,
/// which no test of a single program can tell from a program without
/// them.
#[rustfmt::skip]
pub(crate) const STATEMENT_RULES: &[&str] = &[
    // Sessions and agents: a node and its own properties.
    "E003", "E008", "E009", "E013", "E014", "E015", "P301", "P811",
    "W001", "W002", "W003", "W004", "W005", "W008", "W009", "W010",
    // Declarations and imports, each on its own.
    "E011", "E012", "E020", "E023", "P202", "P506", "W006",
    // Control flow: a node and its parts.
    "P405", "P601", "P602", "P603", "P604", "P605", "P701", "P702", "P705", "P706",
    "P707", "P708", "P709", "P801", "P802", "P804", "P806", "P807", "P808", "P809",
    "P810", "P901", "P902", "P903", "P904", "P905", "P906", "P907",
];

/// Whether `rule` runs per statement.
pub(crate) fn is_statement_rule(rule: &'static Rule) -> bool {
    statement_rules().iter().any(|r| std::ptr::eq(*r, rule))
}

/// What the statement rules reported in one statement.
pub(crate) struct Findings {
    /// One collector per rule that reported something.
    accs: Vec<Acc>,
    /// The ranges are relative to the statement's start (else absolute,
    /// and the findings are not kept: a rule read or reported outside the
    /// statement).
    relative: bool,
}

/// The statement rules' reports on `file` that `config` does not turn
/// off, in the file's offsets.
/// `whole` is the file's rule context, for a run over the whole file
/// when most statements are to compute; without it each statement gets a
/// context of its own.
pub(crate) fn run(
    db: &dyn Db,
    file: SourceFile,
    workspace: Option<Workspace>,
    config: &Config,
    whole: Option<&Ctx<'_>>,
) -> Vec<Acc> {
    let root = parse(db, file).syntax_node();
    let path = file.path(db);
    db.statement_memos().rules.lend_batched(
        file,
        &root,
        |missing| {
            // Most statements to compute (a file opened, or the CLI): one
            // run over the whole file, its reports split by statement.
            if missing.len() > 8
                && let Some(whole) = whole
                && let Some(found) = findings_of_file(db, whole, &root, missing)
            {
                return found;
            }
            missing
                .iter()
                .map(|stmt| findings(db, file, workspace, stmt.clone()))
                .collect()
        },
        |f| f.relative,
        |per_statement| {
            let mut out = Vec::new();
            for &(start, found) in per_statement {
                for acc in &found.accs {
                    if is_off(config, acc.rule()) {
                        continue;
                    }
                    out.push(if found.relative {
                        acc.moved(path, TextSize::new(0), start)
                    } else {
                        acc.clone()
                    });
                }
            }
            out
        },
    )
}

/// The statement rules' reports on `file` ([`run`]) with a rule context of
/// their own, for a file of a batch database (`RootDatabase::batch`, which
/// keeps nothing for later edits) that the host set apart
/// (`AnalysisHost::run_statement_rules_apart`): the other rules then run
/// first, and a spare thread computes these meanwhile (`prose check` of a
/// long file). Each statement gets a context of its own, as after an edit:
/// what the rules report is the same as in the file's context (they read
/// nothing beyond a statement: the tests below), and the nodes of one
/// statement are held at a time, not a second index of the whole file.
#[salsa::tracked(returns(ref))]
pub(crate) fn batch_statement_reports(
    db: &dyn Db,
    file: SourceFile,
    workspace: Option<Workspace>,
) -> Vec<Acc> {
    let config = crate::diagnostics::file_config(db, file, workspace);
    run(db, file, workspace, &config, None)
}

/// Runs every statement rule on `stmt` (all of them: the configuration
/// applies when the findings are used).
fn findings(
    db: &dyn Db,
    file: SourceFile,
    workspace: Option<Workspace>,
    stmt: SyntaxNode,
) -> Findings {
    let range = stmt.text_range();
    let ctx = Ctx::for_statement(db, file, workspace, stmt);
    let mut accs = Vec::new();
    for &rule in statement_rules() {
        let Check::OpenProse(check) = rule.check else {
            continue;
        };
        db.unwind_if_revision_cancelled();
        let mut acc = Acc::new(rule);
        check(&ctx, &mut acc);
        if !acc.is_empty() {
            accs.push(acc);
        }
    }
    let path = ctx.path();
    let inside = accs
        .iter()
        .all(|a| a.ranges_in(path).all(|r| range.contains_range(r)));
    if ctx.escaped() || !inside {
        return Findings {
            accs,
            relative: false,
        };
    }
    Findings {
        accs: accs
            .iter()
            .map(|a| a.moved(path, range.start(), TextSize::new(0)))
            .collect(),
        relative: true,
    }
}

/// The findings in each of `missing` (statements of `file`, in text
/// order), from one run of the statement rules over the whole file; `None`
/// when a rule read outside a statement or reported outside one (the
/// statements are then computed one by one).
fn findings_of_file(
    db: &dyn Db,
    ctx: &Ctx<'_>,
    root: &SyntaxNode,
    missing: &[SyntaxNode],
) -> Option<Vec<Findings>> {
    let ranges: Vec<TextRange> = root.children().map(|s| s.text_range()).collect();
    let (per, read_outside) = ctx.recording(|| {
        let mut per: Vec<Vec<Acc>> = ranges.iter().map(|_| Vec::new()).collect();
        for &rule in statement_rules() {
            let Check::OpenProse(check) = rule.check else {
                continue;
            };
            db.unwind_if_revision_cancelled();
            let mut acc = Acc::new(rule);
            check(ctx, &mut acc);
            for (i, part) in acc.split(ctx.path(), &ranges)?.into_iter().enumerate() {
                if !part.is_empty() {
                    per[i].push(part);
                }
            }
        }
        Some(per)
    });
    let per = per?;
    if read_outside {
        return None;
    }
    let mut per = per.into_iter();
    let mut starts = ranges.iter().map(|r| r.start()).peekable();
    let mut out = Vec::with_capacity(missing.len());
    for stmt in missing {
        let start = stmt.text_range().start();
        // The statements are in text order: skip those kept.
        loop {
            let s = starts.next()?;
            let accs = per.next()?;
            if s == start {
                out.push(Findings {
                    accs,
                    relative: true,
                });
                break;
            }
        }
    }
    Some(out)
}

/// The rules of [`STATEMENT_RULES`], in code order.
pub(crate) fn statement_rules() -> &'static [&'static Rule] {
    static RULES: std::sync::OnceLock<Vec<&'static Rule>> = std::sync::OnceLock::new();
    RULES.get_or_init(|| {
        crate::openprose::rules::rules()
            .iter()
            .copied()
            .filter(|r| STATEMENT_RULES.contains(&r.code))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use prose_syntax::TextRange;

    use super::{STATEMENT_RULES, statement_rules};
    use crate::{
        AnalysisHost,
        db::parse,
        diagnostics::{Acc, Check, Rule},
        openprose::{ctx::Ctx, rules::rules},
    };

    /// The programs the rules are checked on: the examples shipped in the
    /// repository, the parser's test data, both corpora (with
    /// `PROSE_CORPUS`), and every OpenProse rule's documented example and
    /// fix.
    fn programs() -> Vec<(String, String)> {
        let mut out = crate::openprose::rule_tests::sample_programs();
        for rule in rules() {
            for section in ["Example", "Fix"] {
                if let Some((block, _)) =
                    prose_rule_docs::example_with_files(&rule.docs(), section, "prose")
                {
                    out.push((format!("{} {section}", rule.code), block));
                }
            }
        }
        out
    }

    /// What `rule` reports with `ctx`.
    fn run(rule: &'static Rule, ctx: &Ctx<'_>) -> Acc {
        let mut acc = Acc::new(rule);
        if let Check::OpenProse(check) = rule.check {
            check(ctx, &mut acc);
        }
        acc
    }

    /// Why each of `rules` cannot run per statement on `text`, for those
    /// that cannot: (code, why).
    fn problems(rules: &[&'static Rule], name: &str, text: &str) -> Vec<(&'static str, String)> {
        let (statements, mut out) = per_statement(rules, name, text);
        // Each statement as a file of its own (when it parses to the same
        // tree there).
        for (range, green, alone) in statements {
            let mut host = AnalysisHost::new();
            let id = host.set_file_text("/ws/t.prose", green.to_string());
            let analysis = host.analysis();
            let standalone = analysis
                .with_db(|db| {
                    let file = analysis.source_file(id);
                    let root = parse(db, file).syntax_node();
                    let mut kids = root.children();
                    let same =
                        kids.next().is_some_and(|k| *k.green() == *green) && kids.next().is_none();
                    same.then(|| {
                        let whole = TextRange::up_to(root.text_range().end());
                        let ctx = Ctx::new(db, file, Some(analysis.workspace));
                        rules
                            .iter()
                            .map(|&r| run(r, &ctx).describe_in("/ws/t.prose", whole))
                            .collect::<Vec<_>>()
                    })
                })
                .unwrap();
            let Some(standalone) = standalone else {
                continue;
            };
            for ((rule, own), alone) in rules.iter().zip(standalone).zip(alone) {
                if own != alone {
                    out.push((
                        rule.code,
                        format!(
                            "{name}: at {range:?} per statement {alone:?}, as a file of its own {own:?}"
                        ),
                    ));
                }
            }
        }
        out
    }

    /// What each of `rules` reports in each statement of `text` run per
    /// statement, checked against a run over the whole file: the reports
    /// per statement (one list per rule) and the problems found.
    #[allow(clippy::type_complexity)]
    fn per_statement(
        rules: &[&'static Rule],
        name: &str,
        text: &str,
    ) -> (
        Vec<(TextRange, prose_syntax::GreenNode, Vec<Vec<String>>)>,
        Vec<(&'static str, String)>,
    ) {
        let mut host = AnalysisHost::new();
        let id = host.set_file_text("/ws/t.prose", text.to_string());
        let analysis = host.analysis();
        analysis
            .with_db(|db| {
                let file = analysis.source_file(id);
                let ws = Some(analysis.workspace);
                let path = file.path(db).as_str();
                let whole = Ctx::new(db, file, ws);
                let in_file: Vec<Acc> = rules.iter().map(|&r| run(r, &whole)).collect();
                let root = parse(db, file).syntax_node();
                let mut covered = vec![0; rules.len()];
                let mut statements = Vec::new();
                let mut problems = Vec::new();
                for stmt in root.children() {
                    let range = stmt.text_range();
                    let mut reports = Vec::new();
                    for (i, &rule) in rules.iter().enumerate() {
                        let ctx = Ctx::for_statement(db, file, ws, stmt.clone());
                        let alone = run(rule, &ctx).describe_in(path, range);
                        let there = in_file[i].describe_in(path, range);
                        covered[i] += there.len();
                        if ctx.escaped() {
                            problems.push((
                                rule.code,
                                format!("{name}: reads outside the statement at {range:?}"),
                            ));
                        } else if alone != there {
                            problems.push((
                                rule.code,
                                format!(
                                    "{name}: at {range:?} per statement {alone:?}, in the file {there:?}"
                                ),
                            ));
                        }
                        reports.push(alone);
                    }
                    statements.push((range, stmt.green().to_owned(), reports));
                }
                for (i, rule) in rules.iter().enumerate() {
                    if covered[i] != in_file[i].len() {
                        problems.push((rule.code, format!("{name}: reports outside every statement")));
                    }
                }
                (statements, problems)
            })
            .unwrap()
    }

    /// Every rule of [`STATEMENT_RULES`] reads nothing outside its
    /// statement, and reports in each statement of every program what it
    /// reports there when run over the whole file and when the statement
    /// is a file of its own. With `PROSE_STATEMENT_RULES_SURVEY` set, it
    /// checks every rule instead and prints those that qualify.
    #[test]
    fn statement_rules_see_only_their_statement() {
        let programs = programs();
        let survey = std::env::var_os("PROSE_STATEMENT_RULES_SURVEY").is_some();
        let candidates: Vec<&'static Rule> = if survey {
            rules().to_vec()
        } else {
            statement_rules().to_vec()
        };
        assert_eq!(statement_rules().len(), STATEMENT_RULES.len());
        let mut failures: Vec<(&'static str, String)> = Vec::new();
        for (name, text) in &programs {
            failures.extend(problems(&candidates, name, text));
        }
        let local: Vec<&str> = candidates
            .iter()
            .map(|r| r.code)
            .filter(|c| !failures.iter().any(|(f, _)| f == c))
            .collect();
        let failures: Vec<String> = candidates
            .iter()
            .filter_map(|r| {
                let (_, first) = failures.iter().find(|(c, _)| *c == r.code)?;
                Some(format!("{}: {first}", r.code))
            })
            .collect();
        if survey {
            eprintln!("per statement: {local:?}\nnot:\n{}", failures.join("\n"));
            return;
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    /// After an edit, the statement rules run again only in the statements
    /// the edit re-parsed, and the diagnostics are a fresh analysis's.
    #[test]
    fn an_edit_runs_the_statement_rules_of_its_statement_only() {
        let program = "agent a:\n  model: opus\n\nlet x = session: a\n  retry: 0\n\nloop (max: 0):\n  session \"Work\"\n\nsession \"\"\n";
        let mut host = AnalysisHost::new();
        let mut text = program.to_string();
        let file = host.set_file_text("/ws/t.prose", text.clone());
        host.analysis().diagnostics(file).unwrap();
        let computed =
            |host: &AnalysisHost| crate::db::Db::statement_memos(&host.db).rules.computed();
        assert_eq!(computed(&host), 4);
        for (from, to) in [
            ("retry: 0", "retry: -1"),
            ("\"Work\"", "\"Work well\""),
            ("model: opus", "model: gpt"),
        ] {
            let before = computed(&host);
            text = text.replacen(from, to, 1);
            host.set_file_text("/ws/t.prose", text.clone());
            let incremental = host.analysis().diagnostics(file).unwrap();
            let mut fresh = AnalysisHost::new();
            let id = fresh.set_file_text("/ws/t.prose", text.clone());
            assert_eq!(
                incremental,
                fresh.analysis().diagnostics(id).unwrap(),
                "{text}"
            );
            let ran = computed(&host) - before;
            assert!(
                (1..=2).contains(&ran),
                "{ran} statements after {from:?} → {to:?}"
            );
        }
    }
}
