//! The rules of an OpenProse file in two parts, each a query of its own,
//! so that two threads can compute them at once: the language server's
//! fork finds the files a program needs and computes the first part
//! (`Analysis::prepare_first_part`), while its job thread computes the
//! names and the second part (`Analysis::prepare_rules`), then the
//! diagnostics, which take both parts from their queries.
//! The second part is the file-wide rules that compare declarations
//! ([`SECOND`]): they share the places of the file's declarations
//! (`rules/relation.rs`, `declared_places`), about a third of the rules'
//! work after an edit of a long program.
//!
//! What is reported is the same as in one part: each rule runs once, in
//! one of the two contexts, and `diagnostics::finish` orders the reports
//! by position and code (a code is one rule's), so the order of the parts
//! does not show. Each part has its own rule context, so the helpers its
//! rules share are computed once per part: the rules of [`SECOND`] are
//! those that share them, and none of them spends the file's budget for
//! suggestions (`suggestions.rs`), which the first part's rules spend in
//! the order they would in one part. Each part's index of nodes holds only
//! the kinds its rules go through (`kind_index::FIRST_PART`,
//! `SECOND_PART`), from routes kept per statement apart for each part (the
//! two run at once).
//!
//! A batch database (`prose check`) and a process on one core run the
//! rules in one part ([`crate::statement_memo::StatementMemos::splits_file_rules`]).

use crate::{
    db::{Db, SourceFile, Workspace},
    diagnostics::{Diagnostic, Rule, finish_sorted},
};

/// Whether the rules of `file` run in two parts: when it is an OpenProse
/// file, the database splits them for a file of its length
/// ([`crate::statement_memo::StatementMemos::splits_file_rules`]: from
/// [`crate::PARALLEL_MIN_BYTES`]), and the last edit did not only type in a
/// prompt. After such an edit
/// most rules' findings are moved (`prompt_edit.rs`), and the few rules
/// that run are cheaper in one context than the second context's set-up;
/// that run moves the findings kept by both parts of the run before, and
/// keeps all of its own as the first part's.
pub(crate) fn splits(db: &dyn Db, file: SourceFile, workspace: Option<Workspace>) -> bool {
    db.statement_memos().splits_file_rules(file.text(db).len())
        && crate::db::file_kind(db, file, workspace) == crate::kind::FileKind::OpenProse
        && super::prompt_edit::prompt_edit(db, file).is_none()
}

/// Which of a file's OpenProse rules a run computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Part {
    /// Every rule, in one context.
    Whole,
    /// The statement rules and the file-wide rules not in [`SECOND`].
    First,
    /// The file-wide rules of [`SECOND`].
    Second,
}

impl Part {
    /// Whether `rule` runs in this part (a statement rule runs in the
    /// first, or whole).
    pub(crate) fn runs(self, rule: &Rule) -> bool {
        match self {
            Part::Whole => true,
            Part::First => !SECOND.contains(&rule.code),
            Part::Second => SECOND.contains(&rule.code),
        }
    }

    /// Where this part's findings are kept for typing in a prompt
    /// (`prompt_edit.rs`): a whole run keeps its own in the first part's
    /// slot, and moves those of both.
    pub(crate) fn slot(self) -> usize {
        match self {
            Part::Whole | Part::First => 0,
            Part::Second => 1,
        }
    }
}

/// The rules of the second part: those that compare a file's declarations
/// (duplicates, conflicts, shadowing), which find the declaring statements
/// through `declared_places`, and E022 (inputs after executable
/// statements), which shares nothing with the first part's, moved so that
/// the second part ends a little after the first on a long program. The
/// job's thread, which computes the second part, then finds the first
/// part done when it puts them together, rather than waiting to be woken
/// by the fork. (P501 ran here too while the second part looked at every
/// declaration of the file; once it looked only at the names it
/// compares, the job's branch ended about 0.15 ms after the fork's, and
/// P501 in the first part took 0.1 ms off a keystroke of a 5,600-line
/// program.)
pub(crate) const SECOND: &[&str] = &[
    "E019", "E021", "E022", "E024", "E028", "P203", "P403", "P502", "P704", "P803", "P805",
];

/// What the statement rules and the file-wide rules of the first part
/// that the file's configuration does not turn off report on `file`, when
/// the rules run in two parts, finished on the thread that computes them
/// (levels applied, sorted: `finish_sorted`): a query of its own, so that the language
/// server's fork computes it while its job thread computes the second
/// part, and the thread done last (the job's, on a long program) puts the
/// diagnostics together and converts them without waiting for the other
/// to be woken (two wake-ups of about a tenth of a millisecond each when
/// the fork did it: it waited for the second part, then the job for it).
/// Not compared with the previous result (`no_eq`), as [`second_part`];
/// taken by the diagnostics ([`Findings`]).
#[salsa::tracked(returns(ref), no_eq)]
pub(crate) fn first_part(db: &dyn Db, file: SourceFile, workspace: Option<Workspace>) -> Findings {
    let config = crate::diagnostics::file_config(db, file, workspace);
    Findings::new(finished(db, file, workspace, &config, Part::First))
}

/// What the rules of the second part that the file's configuration does
/// not turn off report on `file`. Not compared with the previous result
/// (`no_eq`): the one query that reads it, the file's diagnostics, reads
/// the parse and the names itself (its first part), so it runs again after
/// nearly every edit that makes this one run, and an equal result would
/// spare little; the comparison of a long program's findings stood between
/// this result and the thread waiting for it. Taken by the diagnostics
/// ([`Findings`]).
#[salsa::tracked(returns(ref), no_eq)]
pub(crate) fn second_part(db: &dyn Db, file: SourceFile, workspace: Option<Workspace>) -> Findings {
    let config = crate::diagnostics::file_config(db, file, workspace);
    Findings::new(finished(db, file, workspace, &config, Part::Second))
}

/// What the rules of `part` report on `file`, finished on this thread
/// (levels applied, sorted: `finish_sorted`): a part's query, or the
/// diagnostics when they find the part taken already ([`Findings`]).
pub(crate) fn finished(
    db: &dyn Db,
    file: SourceFile,
    workspace: Option<Workspace>,
    config: &crate::config::Config,
    part: Part,
) -> Vec<Diagnostic> {
    finish_sorted(
        config,
        super::rules::run_part(db, file, workspace, config, part),
    )
}

/// A part's diagnostics (its rules' reports, finished), which the file's
/// diagnostics (the one query that reads a part) merge with the other
/// part's (`diagnostics::merge_finished`), taken out of the part's result
/// instead of copied: a copy of a long program's reports (their messages
/// and notes, a few allocations each) took a tenth of a millisecond on the
/// way to the client after every edit.
///
/// Taking leaves the result empty, which is no loss as long as the
/// diagnostics are not computed again while the part stays valid. They
/// are when something that only they read changes (the prompts' own
/// findings: `crate::injection::features::diagnostics`), or after a run
/// that took a part was cancelled before it stored its result: then
/// [`Findings::take_or`] runs the part's rules again, in the diagnostics'
/// own context, which reads what the part read and so reports the same.
pub(crate) struct Findings(std::sync::Mutex<Option<Vec<Diagnostic>>>);

impl Findings {
    fn new(diagnostics: Vec<Diagnostic>) -> Findings {
        Findings(std::sync::Mutex::new(Some(diagnostics)))
    }

    /// The diagnostics, taken out; `again` computes them when they were
    /// taken already.
    pub(crate) fn take_or(&self, again: impl FnOnce() -> Vec<Diagnostic>) -> Vec<Diagnostic> {
        let taken = self.0.lock().unwrap_or_else(|e| e.into_inner()).take();
        taken.unwrap_or_else(again)
    }
}

#[cfg(test)]
mod tests {
    use super::{Part, SECOND};
    use crate::{
        AnalysisHost, Profile,
        db::Db,
        diagnostics::Check,
        openprose::{
            ctx::Ctx,
            kind_index::walks_for_kinds,
            rule_tests::{each_sample_after_an_edit, sample_texts},
            rules::rules,
            statement_rules::is_statement_rule,
        },
    };

    /// A host whose rules run in two parts, or in one, whatever the machine.
    fn host(split: bool, profile: Profile) -> AnalysisHost {
        let mut host = AnalysisHost::new();
        host.db.statement_memos().set_split(split);
        host.set_config(crate::Config {
            profile,
            ..crate::Config::default()
        });
        host
    }

    /// A host that logs the queries it runs, its rules in two parts or in
    /// one.
    fn logging_host(split: bool) -> (AnalysisHost, crate::fixture::QueryLog) {
        let (db, log) = crate::fixture::logging_db();
        let host = AnalysisHost::with_db(db);
        host.db.statement_memos().set_split(split);
        (host, log)
    }

    /// How many times `query` ran since `log` was last cleared.
    fn ran(log: &crate::fixture::QueryLog, query: &str) -> usize {
        let log = log.lock().unwrap();
        log.iter().filter(|k| k.starts_with(query)).count()
    }

    /// Every code of the second part is a file-wide OpenProse rule, and
    /// each rule runs in exactly one part.
    #[test]
    fn the_parts_share_out_the_rules() {
        for code in SECOND {
            let rule = rules().iter().find(|r| r.code == *code);
            let rule = rule.unwrap_or_else(|| panic!("{code} is no rule"));
            assert!(matches!(rule.check, Check::OpenProse(_)), "{code}");
            assert!(!is_statement_rule(rule), "{code} runs per statement");
        }
        for rule in rules() {
            assert!(Part::Whole.runs(rule), "{}", rule.code);
            assert!(
                Part::First.runs(rule) != Part::Second.runs(rule),
                "{}",
                rule.code
            );
        }
    }

    /// In two parts the rules report what they report in one, over the
    /// sample programs, in both profiles: analysed once, and after an edit
    /// (the second part's index then comes from the statements' routes,
    /// and no rule of either part walks the tree for a kind).
    #[test]
    fn two_parts_report_what_one_does() {
        for profile in [Profile::Default, Profile::Strict] {
            for text in sample_texts() {
                let (mut one, mut two) = (host(false, profile), host(true, profile));
                let a = one.set_file_text("/ws/p.prose", text.clone());
                let b = two.set_file_text("/ws/p.prose", text.clone());
                assert_eq!(
                    one.analysis().diagnostics(a).unwrap(),
                    two.analysis().diagnostics(b).unwrap(),
                    "{profile:?}:\n{text}"
                );
            }
        }
        let walks = walks_for_kinds();
        let mut split = host(true, Profile::Default);
        each_sample_after_an_edit(&mut split, |host, file, path, edited| {
            let mut one = self::host(false, Profile::Default);
            let id = one.set_file_text(path, edited.to_string());
            assert_eq!(
                host.analysis().diagnostics(file).unwrap(),
                one.analysis().diagnostics(id).unwrap(),
                "{path}"
            );
        });
        assert_eq!(
            walks_for_kinds(),
            walks,
            "a rule walked the tree for a kind"
        );
        let memos = split.db.statement_memos();
        assert!(memos.part_kinds[0].computed() > 0, "no routed first index");
        assert!(memos.part_kinds[1].computed() > 0, "no routed second index");
    }

    /// The budget for suggestions, which the first part's rules spend in
    /// the order they would in one part, is not the second part's to
    /// spend: its rules leave it untouched over the sample programs and a
    /// program of undefined and shadowed names (where the first part's
    /// P402 spends it, so the check can fail).
    #[test]
    fn the_second_part_spends_no_suggestions() {
        let names = "let a = session \"x\"\nlet a = session \"y\"\nfor a in items:\n  session \"use {b}\"\n  context: [a, bb, c]\nblock f(a):\n  session \"{a}\"\ndo f(zz)\noutput a = session \"z\"\n";
        let mut texts = sample_texts();
        texts.push(names.to_string());
        let mut host = host(true, Profile::Strict);
        let files: Vec<_> = (texts.iter().enumerate())
            .map(|(i, t)| host.set_file_text(&format!("/ws/{i}.prose"), t.clone()))
            .collect();
        let analysis = host.analysis();
        for (file, text) in files.into_iter().zip(&texts) {
            let spent = analysis
                .with_db(|db| {
                    let ctx = Ctx::new(db, analysis.source_file(file), None);
                    for rule in rules().iter().filter(|r| Part::Second.runs(r)) {
                        if let Check::OpenProse(check) = rule.check {
                            check(&ctx, &mut crate::diagnostics::Acc::new(rule));
                        }
                    }
                    let second = !ctx.suggestions().untouched();
                    let p402 = rules().iter().find(|r| r.code == "P402").unwrap();
                    if let Check::OpenProse(check) = p402.check {
                        check(&ctx, &mut crate::diagnostics::Acc::new(p402));
                    }
                    (second, !ctx.suggestions().untouched())
                })
                .unwrap();
            assert!(!spent.0, "the second part spent suggestions on:\n{text}");
            if text == names {
                assert!(spent.1, "P402 spent nothing");
            }
        }
    }

    /// A file's rule context resolves the file's names when a rule first
    /// asks for them, not when it is made: the language server's fork runs
    /// the first part's statement rules and helpers while the job thread
    /// is still resolving the names (made eagerly, the fork waited for
    /// them before doing anything).
    #[test]
    fn a_context_asks_for_the_names_when_a_rule_does() {
        let (mut host, log) = logging_host(true);
        let file = host.set_file_text("/ws/p.prose", "let a = session \"x\"\nsession \"{a}\"\n");
        let analysis = host.analysis();
        let (before, after, defs) = analysis
            .with_db(|db| {
                let ctx = Ctx::new(db, analysis.source_file(file), None);
                let before = ran(&log, "file_semantics_query(");
                let defs = ctx.sema().defs.len();
                (before, ran(&log, "file_semantics_query("), defs)
            })
            .unwrap();
        assert_eq!((before, after, defs), (0, 1, 1));
    }

    /// After typing in a prompt the rules run in one part, which moves
    /// the findings both parts kept (none of the second part's rules runs
    /// again here: E019 would walk the tree for the `parallel` blocks the
    /// prompt edit's index leaves out), and reports what a fresh analysis
    /// does; the next edit elsewhere splits them again.
    #[test]
    fn typing_in_a_prompt_runs_one_part() {
        let text = "let a = session \"one\"\nlet a = session \"two\"\nagent w:\n  model: opus\nsession: w\n  prompt: \"go on\"\n";
        let (mut host, log) = logging_host(true);
        let file = host.set_file_text("/ws/p.prose", text);
        host.analysis().diagnostics(file).unwrap();
        assert_eq!(ran(&log, "second_part("), 1);
        let moved = |host: &AnalysisHost| host.db.prompt_edits().findings_moved();
        let mut typed = text.to_string();
        for (round, c) in ['x', 'y'].into_iter().enumerate() {
            let before = moved(&host);
            let walks = walks_for_kinds();
            typed.insert(typed.find("\"go").unwrap() + 3, c);
            host.set_file_text("/ws/p.prose", typed.clone());
            log.lock().unwrap().clear();
            let after = host.analysis().diagnostics(file).unwrap();
            assert_eq!(ran(&log, "second_part("), 0, "round {round}");
            assert_eq!(host.analysis().splits_rules(file), Ok(false));
            assert_eq!(moved(&host), before + 1, "round {round}");
            assert_eq!(walks_for_kinds(), walks, "round {round}: a rule ran again");
            assert!(after.iter().any(|d| d.code.as_str() == "E019"), "{after:?}");
            let mut fresh = AnalysisHost::new();
            let id = fresh.set_file_text("/ws/p.prose", typed.clone());
            assert_eq!(
                after,
                fresh.analysis().diagnostics(id).unwrap(),
                "round {round}"
            );
        }
        typed.insert_str(0, "# a comment\n");
        host.set_file_text("/ws/p.prose", typed.clone());
        log.lock().unwrap().clear();
        host.analysis().diagnostics(file).unwrap();
        assert_eq!(ran(&log, "second_part("), 1);
        assert_eq!(host.analysis().splits_rules(file), Ok(true));
    }

    /// `Analysis::prepare_rules` computes the second part, which the
    /// diagnostics then find done; it does nothing for another kind of
    /// file, nor when the rules run in one part.
    #[test]
    fn prepare_rules_computes_the_second_part() {
        for split in [true, false] {
            let (mut host, log) = logging_host(split);
            let program = host.set_file_text("/ws/p.prose", "let a = 1\nlet a = 2\n");
            let notes = host.set_file_text("/ws/README.md", "# Title\n\nWords.\n");
            let analysis = host.analysis();
            let second = |log: &crate::fixture::QueryLog| ran(log, "second_part(");
            assert_eq!(analysis.splits_rules(program), Ok(split));
            assert_eq!(analysis.splits_rules(notes), Ok(false));
            analysis.prepare_rules(notes).unwrap();
            assert_eq!(second(&log), 0, "{:?}", log.lock().unwrap());
            analysis.prepare_rules(program).unwrap();
            assert_eq!(
                second(&log),
                usize::from(split),
                "{:?}",
                log.lock().unwrap()
            );
            log.lock().unwrap().clear();
            let d = analysis.diagnostics(program).unwrap();
            assert_eq!(second(&log), 0, "{:?}", log.lock().unwrap());
            assert!(d.iter().any(|d| d.code.as_str() == "E019"), "{d:?}");
        }
    }

    /// `Analysis::prepare_first_part` computes the first part when the
    /// rules run in two (the diagnostics then compute neither part), and
    /// the diagnostics otherwise; for another kind of file, its
    /// diagnostics.
    #[test]
    fn prepare_first_part_computes_the_first_part() {
        for split in [true, false] {
            let (mut host, log) = logging_host(split);
            let program = host.set_file_text("/ws/p.prose", "let a = 1\nlet a = 2\nuse \"x\"\n");
            let notes = host.set_file_text("/ws/README.md", "# Title\n\nWords.\n");
            let analysis = host.analysis();
            analysis.prepare_first_part(notes).unwrap();
            assert_eq!(ran(&log, "first_part("), 0);
            assert_eq!(ran(&log, "file_diagnostics("), 1);
            log.lock().unwrap().clear();
            analysis.prepare_first_part(program).unwrap();
            let (first, whole) = (ran(&log, "first_part("), ran(&log, "file_diagnostics("));
            assert_eq!((first, whole), (usize::from(split), usize::from(!split)));
            analysis.prepare_rules(program).unwrap();
            log.lock().unwrap().clear();
            let d = analysis.diagnostics(program).unwrap();
            assert_eq!(ran(&log, "first_part("), 0, "{:?}", log.lock().unwrap());
            assert_eq!(ran(&log, "second_part("), 0, "{:?}", log.lock().unwrap());
            // E019 from the second part, E012 from the first.
            let codes: Vec<&str> = d.iter().map(|d| d.code.as_str()).collect();
            assert_eq!(codes, ["E019", "E012"], "split: {split}");
        }
    }

    /// The diagnostics take the parts' findings out of their results. When
    /// they are computed again while both parts stay valid (a `_spawn_`
    /// file appears, which only the prompt's findings read), the parts'
    /// rules run again in the diagnostics' context and report what a
    /// fresh analysis does.
    #[test]
    fn the_diagnostics_again_with_the_parts_taken() {
        use crate::auxiliary::AuxState;
        let text = "let a = session \"one\"\nlet a = session \"two\"\nsession \"Go. _spawn_ `helper.md`\"\nuse \"x\"\n";
        let (mut host, log) = logging_host(true);
        host.set_aux_file("/ws/helper.md", AuxState::Missing);
        let file = host.set_file_text("/ws/p.prose", text);
        let codes = |d: &[crate::Diagnostic]| -> Vec<&'static str> {
            d.iter().map(|d| d.code.as_str()).collect()
        };
        let before = host.analysis().diagnostics(file).unwrap();
        assert_eq!(codes(&before), ["E019", "K007", "E012"]);
        let analysis = host.analysis();
        let left = analysis
            .with_db(|db| {
                let (f, ws) = (analysis.source_file(file), Some(analysis.workspace));
                let first = super::first_part(db, f, ws).take_or(Vec::new).len();
                let second = super::second_part(db, f, ws).take_or(Vec::new).len();
                (first, second)
            })
            .unwrap();
        assert_eq!(left, (0, 0), "the parts' findings were not taken");
        drop(analysis);
        host.set_aux_file("/ws/helper.md", AuxState::Text("Help.".into()));
        log.lock().unwrap().clear();
        let after = host.analysis().diagnostics(file).unwrap();
        assert_eq!(
            ran(&log, "file_diagnostics("),
            1,
            "{:?}",
            log.lock().unwrap()
        );
        assert_eq!(ran(&log, "first_part("), 0, "{:?}", log.lock().unwrap());
        assert_eq!(ran(&log, "second_part("), 0, "{:?}", log.lock().unwrap());
        assert_eq!(codes(&after), ["E019", "E012"]);
        let mut fresh = self::host(false, Profile::Default);
        fresh.set_aux_file("/ws/helper.md", AuxState::Text("Help.".into()));
        let id = fresh.set_file_text("/ws/p.prose", text);
        assert_eq!(after, fresh.analysis().diagnostics(id).unwrap());
    }
}
