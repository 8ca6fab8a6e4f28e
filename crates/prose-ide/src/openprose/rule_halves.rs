//! A long program's file-wide rules in two halves, for a host with a
//! core to spare.
//!
//! After an edit of a long program most of the time until its diagnostics
//! are ready goes to the rules that look at the whole file (the statement
//! rules are kept per statement, `statement_rules.rs`). They are pure
//! functions of the file and the workspace, and they fall into groups that
//! share nothing but the tree and the names. When the host asks for it
//! ([`Db::parallel_rules`]: the language server on more than one core) and
//! the file is at least [`MIN_TEXT`] and at most [`MAX_TEXT`] bytes long,
//! the rules on variables and on control flow
//! ([`super::rules::second_half`]) are a query of their own,
//! [`second_half`], with a rule context of their own. The server computes
//! that query on its run's thread ([`prefetch`]) while a fork computes the
//! diagnostics, which run the other rules and then take the second
//! half's findings from the query: done by then, or being finished on the
//! other thread (salsa waits for it). Either way the diagnostics depend on
//! the query, so an edit computes it again.
//!
//! The results are those of one run ([`super::rules::run`]) in every case.
//! The findings are merged in code order, as one run makes them. Typing in
//! a prompt keeps the findings of both halves as in one run: each half
//! reads what the last run kept, and the diagnostics keep what both made.
//! The one thing the halves could do differently is "did you mean": a file
//! has one budget of comparisons, spent by its rules in code order
//! (`suggestions.rs`). Each half starts with the whole budget; when the two
//! together spent less than all of it, no rule was refused a comparison in
//! either half, nor would it have been in one run, and the findings stand.
//! Otherwise (generated files with tens of thousands of names) the rules
//! run again in one run, as without halves.

use crate::{
    config::Config,
    db::{Db, SourceFile, Workspace},
    diagnostics::{Acc, file_config},
    openprose::{
        ctx::Ctx,
        prompt_edit,
        rules::{self, run_file_rules},
        statement_rules,
        suggestions::PER_FILE,
    },
};

/// The shortest text whose rules run in halves: below it a run takes about
/// a millisecond or less, and a second thread would gain less than it costs
/// to hand the work over.
pub(crate) const MIN_TEXT: usize = 32 * 1024;

/// The longest text whose rules run in halves: the second half's context
/// holds an index of the whole tree of its own while the first's is alive,
/// which for a program of megabytes is more memory than the wait it saves
/// is worth (docs/performance.md, "Under heavy input").
pub(crate) const MAX_TEXT: usize = 1024 * 1024;

/// Whether `file`'s rules run in halves (see the module's documentation).
pub(crate) fn splits(db: &dyn Db, file: SourceFile) -> bool {
    db.parallel_rules()
        .is_some_and(|min| (min..=MAX_TEXT).contains(&file.text(db).len()))
}

/// Whether `rule` is in the second half.
fn in_second_half(rule: &'static crate::diagnostics::Rule) -> bool {
    rules::second_half().iter().any(|r| std::ptr::eq(*r, rule))
}

/// What the second half found.
pub(crate) struct Half {
    /// The findings, in code order.
    accs: Vec<Acc>,
    /// The findings typing in a prompt may keep.
    keep: Vec<Acc>,
    /// How much of the "did you mean" budget the half spent.
    spent: usize,
}

/// The second half of `file`'s rules, under the configuration of its root.
#[salsa::tracked(returns(ref), no_eq)]
pub(crate) fn second_half(db: &dyn Db, file: SourceFile, workspace: Option<Workspace>) -> Half {
    let config = file_config(db, file, workspace);
    let ctx = Ctx::new(db, file, workspace);
    let kept = prompt_edit::kept_findings(db, file, &config);
    let (mut accs, mut keep) = (Vec::new(), Vec::new());
    run_file_rules(
        db,
        &ctx,
        &config,
        kept.as_deref(),
        in_second_half,
        &mut accs,
        &mut keep,
    );
    Half {
        accs,
        keep,
        spent: ctx.suggestions_spent(),
    }
}

/// Computes the second half of `file`'s rules if they run in halves (a
/// fork of the server's snapshot calls it).
pub(crate) fn prefetch(db: &dyn Db, file: SourceFile, workspace: Option<Workspace>) {
    if splits(db, file) && crate::db::file_kind(db, file, workspace) == crate::FileKind::OpenProse {
        // The names first: the other thread's context walks the tree before
        // it asks for them, and finds them made.
        crate::openprose::semantics::file_semantics(db, file);
        second_half(db, file, workspace);
    }
}

/// The rules of `file` in two halves: what one run gives, or `None` when
/// the halves spent the whole "did you mean" budget between them (the
/// caller then runs the rules in one run).
pub(crate) fn run(
    db: &dyn Db,
    file: SourceFile,
    workspace: Option<Workspace>,
    config: &Config,
) -> Option<Vec<Acc>> {
    let ctx = Ctx::new(db, file, workspace);
    // As in one run: the statement rules first (`rules::run`).
    let mut out = statement_rules::run(db, file, workspace, config, &ctx);
    let kept = prompt_edit::kept_findings(db, file, config);
    let (mut mine, mut keep) = (Vec::new(), Vec::new());
    run_file_rules(
        db,
        &ctx,
        config,
        kept.as_deref(),
        |rule| !in_second_half(rule),
        &mut mine,
        &mut keep,
    );
    let half = second_half(db, file, workspace);
    if ctx.suggestions_spent() + half.spent >= PER_FILE {
        return None;
    }
    mine.extend(half.accs.iter().cloned());
    // Code order, as one run makes them (the codes are distinct).
    mine.sort_by_key(|a| a.code());
    out.extend(mine);
    keep.extend(half.keep.iter().cloned());
    keep.sort_by_key(|a| a.code());
    prompt_edit::keep_findings(db, file, config, keep);
    Some(out)
}

#[cfg(test)]
mod tests {
    use crate::{AnalysisHost, Diagnostic, FileId};

    const PATH: &str = "/ws/p.prose";

    /// A host whose programs' rules all run in halves (`halves`), or in one
    /// run.
    fn host(halves: bool) -> AnalysisHost {
        let mut host = AnalysisHost::new();
        host.set_workspace_root(Some("/ws".into()));
        if halves {
            host.db.set_parallel_rules(Some(0));
        }
        host
    }

    /// `text`'s diagnostics in one run.
    fn one_run(text: &str) -> Vec<Diagnostic> {
        let mut h = host(false);
        let file = h.set_file_text(PATH, text);
        h.analysis().diagnostics(file).unwrap()
    }

    /// The diagnostics of `file` with the second half computed on another
    /// thread at the same time, as the server does.
    fn on_two_threads(host: &AnalysisHost, file: FileId) -> Vec<Diagnostic> {
        let analysis = host.analysis();
        let fork = analysis.fork();
        std::thread::scope(|scope| {
            let ahead = scope.spawn(move || fork.prefetch_rules(file));
            let diagnostics = analysis.diagnostics(file).unwrap();
            ahead.join().unwrap().unwrap();
            diagnostics
        })
    }

    /// Every sample program gives in halves what it gives in one run,
    /// with the second half computed first, last, or on another thread
    /// at the same time; and the halves did run (their findings are kept
    /// for the file).
    #[test]
    fn halves_give_what_one_run_gives() {
        let programs = crate::openprose::rule_tests::sample_programs();
        assert!(programs.len() > 20, "{} programs", programs.len());
        for (name, text) in programs {
            let expected = one_run(&text);
            for how in 0..3 {
                let mut h = host(true);
                let file = h.set_file_text(PATH, text.as_str());
                let got = match how {
                    0 => h.analysis().diagnostics(file).unwrap(),
                    1 => {
                        h.analysis().prefetch_rules(file).unwrap();
                        h.analysis().diagnostics(file).unwrap()
                    }
                    _ => on_two_threads(&h, file),
                };
                assert_eq!(got, expected, "{name}, way {how}");
                let ran = h
                    .analysis()
                    .with_db(|db| {
                        let f = h.analysis().source_file(file);
                        super::splits(db, f)
                    })
                    .unwrap();
                assert!(ran, "{name}: not in halves");
            }
        }
    }

    /// Edits of a long program, in halves on two threads: after each, the
    /// diagnostics are a fresh one-run analysis's (typing in a prompt keeps
    /// the findings of both halves; adding and removing lines changes
    /// them).
    #[test]
    fn edits_in_halves_give_what_one_run_gives() {
        let unit = "agent writer:\n  model: sonnet\n  prompt: \"Write well.\"\n\nlet draft = session: writr\n  prompt: \"Draft {topic}\"\n\nfor item in items:\n  session \"Review {item}\"\n  let draft = session \"again\"\n\nparallel:\n  a = session \"x\"\n  a = session \"y\"\n\n";
        let mut text = unit.repeat(40);
        let mut h = host(true);
        let file = h.set_file_text(PATH, text.as_str());
        assert_eq!(on_two_threads(&h, file), one_run(&text));
        let edits: [(&str, &str); 4] = [
            ("Write well.", "Write very well."),
            ("Draft {topic}", "Draft {topc}"),
            ("  a = session \"y\"\n", ""),
            (
                "for item in items:\n",
                "for item in items:\n  let item = session \"shadow\"\n",
            ),
        ];
        for (i, (from, to)) in edits.into_iter().enumerate() {
            let at = text.match_indices(from).nth(20).map(|(at, _)| at).unwrap();
            text.replace_range(at..at + from.len(), to);
            h.set_file_text(PATH, text.as_str());
            assert_eq!(on_two_threads(&h, file), one_run(&text), "edit {i}");
        }
    }

    /// A file whose two halves spend more than the whole "did you mean"
    /// budget between them (misspelt agents for the first half, misspelt
    /// variables for the second) gives what one run gives, where the rules
    /// of the second half found the budget spent by the first.
    #[test]
    fn a_budget_spent_by_both_halves_gives_one_runs_findings() {
        // The first half compares each misspelt agent with the n agents, the
        // second half spends 5n² on the misspelt variables (measured):
        // n² + 5n² > the budget > 5n².
        let n = 215;
        let mut text = String::new();
        for i in 0..n {
            text.push_str(&format!(
                "agent agent_{i}:\n  model: sonnet\nlet value_{i} = \"v\"\n"
            ));
        }
        for i in 0..n {
            text.push_str(&format!("session: agentx_{i}\nlet copy_{i} = valuex_{i}\n"));
        }
        let expected = one_run(&text);
        let suggested = |d: &[Diagnostic], code: &str| {
            d.iter()
                .filter(|d| d.code.0 == code && d.message.contains("did you mean"))
                .count()
        };
        let mut h = host(true);
        let file = h.set_file_text(PATH, text.as_str());
        let got = on_two_threads(&h, file);
        assert_eq!(got, expected);
        // Both halves asked for suggestions, and one run ran out.
        let halves = h
            .analysis()
            .with_db(|db| {
                let f = h.analysis().source_file(file);
                super::second_half(db, f, Some(h.workspace)).spent
            })
            .unwrap();
        assert!(
            halves > 0 && halves < super::PER_FILE,
            "second half spent {halves}"
        );
        let codes: std::collections::BTreeSet<_> = expected.iter().map(|d| d.code.0).collect();
        assert!(
            codes.iter().any(|c| suggested(&expected, c) > 0),
            "no suggestion at all: {codes:?}"
        );
        assert!(
            codes.iter().any(|c| {
                let all = expected.iter().filter(|d| d.code.0 == *c).count();
                all > 100 && suggested(&expected, c) < all
            }),
            "the budget never ran out"
        );
    }
}
