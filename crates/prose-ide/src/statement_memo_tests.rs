//! Tests of the per-statement memos (`statement_memo.rs`).

use crate::{AnalysisHost, db::Db};

const PROGRAM: &str = "agent writer:\n  model: sonnet\n  prompt: \"You write. _terminate_ \\\"DONE\\\"\"\n\nsession \"Draft the plan\"\n\nlet x = session: writer\n  prompt: \"\"\"\n    Polish {x}.\n    _if_ it is long, _then_ cut it\n    \"\"\"\n";

/// A host holding [`PROGRAM`] (kept for as long as the file is used), the
/// program's file, and an empty memo of strings.
fn program_memo() -> (
    AnalysisHost,
    crate::db::SourceFile,
    super::StatementMemo<String>,
) {
    let mut host = AnalysisHost::new();
    let id = host.set_file_text("/ws/a.prose", PROGRAM.to_string());
    let file = host.analysis().source_file(id);
    (host, file, super::StatementMemo::default())
}

/// The injections of `text` in a host that never saw another text.
fn fresh(text: &str) -> Vec<crate::injection::Injection> {
    let mut host = AnalysisHost::new();
    let id = host.set_file_text("/ws/a.prose", text.to_string());
    let analysis = host.analysis();
    analysis
        .with_db(|db| crate::injection::injections(db, analysis.source_file(id), None).clone())
        .unwrap()
}

/// After edits, a file's injections equal a fresh analysis's, and only
/// the statements an edit re-parsed were walked again.
#[test]
fn edits_recompute_only_the_statements_they_touch() {
    let mut host = AnalysisHost::new();
    let mut text = PROGRAM.to_string();
    let file = host.set_file_text("/ws/a.prose", text.clone());
    let injections = |host: &AnalysisHost| {
        let analysis = host.analysis();
        analysis
            .with_db(|db| {
                crate::injection::injections(db, analysis.source_file(file), None).clone()
            })
            .unwrap()
    };
    assert_eq!(injections(&host), fresh(&text));
    assert_eq!(host_computed(&host), 3);
    // Typing in the second statement's prompt moves the third.
    for (from, to) in [
        ("Draft the plan", "Draft the whole plan"),
        ("Polish {x}.", "Polish {x} _now_."),
        ("model: sonnet", "model: opus"),
    ] {
        let at = host_computed(&host);
        text = text.replacen(from, to, 1);
        host.set_file_text("/ws/a.prose", text.clone());
        assert_eq!(injections(&host), fresh(&text), "{text}");
        // The statement edited, and at most one beside it when the
        // re-parse took a window a statement wider.
        let walked = host_computed(&host) - at;
        assert!(
            (1..=2).contains(&walked),
            "{walked} after {from:?} → {to:?}"
        );
    }
    // A new statement at the start moves all of them.
    let at = host_computed(&host);
    text = format!("input topic: \"t\"\n{text}");
    host.set_file_text("/ws/a.prose", text.clone());
    assert_eq!(injections(&host), fresh(&text));
    assert!(host_computed(&host) - at <= 2);
}

/// `statement_at` finds each child of the root from its green node and
/// start, in whole and broken programs (where empty nodes may sit
/// beside others).
#[test]
fn statements_are_found_from_their_green_nodes() {
    for text in [
        PROGRAM,
        "session \"unterminated\n  ) ] }\n\tfoo bar:\n",
        ")\n]\n: x\nlet\nagent\n",
        "session \"a\"\nsession \"a\"\n",
        "",
    ] {
        let root = prose_syntax::parse(text).syntax_node();
        for child in root.children() {
            let start = child.text_range().start();
            let found = super::statement_at(&root, start, child.green());
            assert_eq!(found, child, "{text:?}");
        }
    }
}

/// A computation interrupted halfway (a cancelled revision unwinds
/// through it) loses nothing: the next one computes only what is new.
/// Entries no longer used are dropped by the next complete run.
#[test]
fn an_interrupted_run_keeps_the_entries() {
    let (_host, file, memo) = program_memo();
    let text = |n: &prose_syntax::SyntaxNode| n.text().to_string();
    let root = prose_syntax::parse(PROGRAM).syntax_node();
    let first: Vec<String> = memo
        .each(file, &root, text)
        .iter()
        .map(|(_, v)| v.to_string())
        .collect();
    assert_eq!(memo.computed(), 3);
    // The second statement replaced, the others' green nodes kept (as
    // the re-parse splices them); the run is interrupted.
    let root = second_statement_replaced(&root);
    let interrupted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        memo.each(file, &root, |_| -> String { panic!("cancelled") })
    }));
    assert!(interrupted.is_err());
    let before = memo.computed();
    let again: Vec<String> = memo
        .each(file, &root, text)
        .iter()
        .map(|(_, v)| v.to_string())
        .collect();
    assert_eq!(memo.computed() - before, 1, "only the edited statement");
    assert_eq!(again[0], first[0]);
    assert_eq!(again[2], first[2]);
    assert!(again[1].contains("Draft it"));
    assert_eq!(
        memo.entries()[&file].len(),
        3,
        "the old second statement is gone"
    );
}

/// The statements kept are matched from both ends of the root's
/// children: after deleting, inserting, replacing, moving and
/// repeating statements the answers are each statement's own, and only
/// the statements an edit brought in (and a copy of one beyond the
/// stretch it changed) are computed again.
#[test]
fn edits_at_any_place_keep_the_other_statements() {
    use prose_syntax::{GreenNode, NodeOrToken, SyntaxNode};
    let (_host, file, memo) = program_memo();
    let statement = |t: &str| -> GreenNode {
        prose_syntax::parse(&format!("session \"{t}\"\n"))
            .syntax_node()
            .first_child()
            .unwrap()
            .green()
            .to_owned()
    };
    let mut root = prose_syntax::parse("").syntax_node().green().to_owned();
    for i in 0..6 {
        root = root.insert_child(i, NodeOrToken::Node(statement(&format!("s{i}"))));
    }
    let text = |n: &SyntaxNode| n.text().to_string();
    let check = |root: &GreenNode, computed: u64, what: &str| {
        let before = memo.computed();
        let tree = SyntaxNode::new_root(root.clone());
        let got: Vec<String> = memo
            .each(file, &tree, text)
            .iter()
            .map(|(_, v)| v.to_string())
            .collect();
        let expected: Vec<String> = tree.children().map(|c| c.text().to_string()).collect();
        assert_eq!(got, expected, "{what}");
        assert_eq!(memo.computed() - before, computed, "{what}");
    };
    check(&root, 6, "first");
    check(&root, 0, "again");
    root = root.remove_child(2);
    check(&root, 0, "a statement deleted");
    root = root.insert_child(0, NodeOrToken::Node(statement("new")));
    check(&root, 1, "one inserted at the start");
    root = root.replace_child(3, NodeOrToken::Node(statement("other")));
    check(&root, 1, "one replaced");
    let last = root.children().count() - 1;
    let moved = root.children().nth(1).unwrap().to_owned();
    root = root.remove_child(1).insert_child(last, moved.clone());
    check(&root, 0, "one moved to the end");
    root = root.insert_child(2, moved);
    check(&root, 1, "the same allocation twice");
    root = root.remove_child(0).remove_child(0);
    check(&root, 0, "two deleted at the start");
}

/// A lent result is the one `each` shares; the slots are out of the
/// memo while they are lent, and lending leaves no other holder of a
/// kept result (the memo holds each alone afterwards); after an edit
/// the statements kept are lent as they were.
#[test]
fn lent_results_are_the_kept_ones_uncounted() {
    use prose_syntax::SyntaxNode;
    let (_host, file, memo) = program_memo();
    let text = |n: &SyntaxNode| n.text().to_string();
    let root = prose_syntax::parse(PROGRAM).syntax_node();
    let shared: Vec<(prose_syntax::TextSize, String)> = memo
        .each(file, &root, text)
        .iter()
        .map(|(at, v)| (*at, v.to_string()))
        .collect();
    let before = memo.computed();
    let lent = memo.lend(file, &root, text, |lent| {
        for (at, v) in lent {
            let slots = memo.entries();
            assert!(slots.get(&file).is_none(), "the slots are out while lent");
            drop(slots);
            assert!(!v.is_empty(), "at {at:?}");
        }
        lent.iter()
            .map(|&(at, v)| (at, v.clone()))
            .collect::<Vec<_>>()
    });
    assert_eq!(lent, shared);
    assert_eq!(memo.computed(), before, "all kept");
    for slot in &memo.entries()[&file] {
        let kept = slot.kept.as_ref().expect("kept");
        assert_eq!(std::sync::Arc::strong_count(&kept.value), 1);
    }
    // The second statement replaced, the others' green nodes kept (as
    // the re-parse splices them): they are lent as kept.
    let root = second_statement_replaced(&root);
    let again = memo.lend(file, &root, text, |lent| {
        lent.iter().map(|&(_, v)| v.clone()).collect::<Vec<_>>()
    });
    let expected: Vec<String> = root.children().map(|c| c.text().to_string()).collect();
    assert_eq!(again, expected);
    assert_eq!(memo.computed() - before, 1, "only the edited statement");
}

/// A file's rules run in two parts from `PARALLEL_MIN_BYTES` on, on a
/// host with more than one core; below it never, unless the host says
/// so; a batch database never.
#[test]
fn only_a_long_file_splits_its_rules() {
    let memos = super::StatementMemos::default();
    let min = crate::PARALLEL_MIN_BYTES;
    let cores = std::thread::available_parallelism().is_ok_and(|n| n.get() > 1);
    assert!(!memos.splits_file_rules(min - 1));
    assert_eq!(memos.splits_file_rules(min), cores);
    memos.set_split(true);
    assert!(memos.splits_file_rules(10));
    memos.set_split(false);
    assert!(!memos.splits_file_rules(10 * min));
    assert!(!super::StatementMemos::batch().splits_file_rules(10 * min));
}

fn host_computed(host: &AnalysisHost) -> u64 {
    host.db.statement_memos().injections.computed()
}

/// A batch host's memos keep nothing: after an edit every statement
/// is computed again, and the answers are those of a host that keeps
/// them, before and after edits, for every sample program.
#[test]
fn a_batch_host_keeps_nothing_and_answers_the_same() {
    let memos = |host: &AnalysisHost| {
        let m = host.db.statement_memos();
        [
            m.injections.computed(),
            m.needs.computed(),
            m.rules.computed(),
            m.names.computed(),
        ]
    };
    let kept = |host: &AnalysisHost| {
        let m = host.db.statement_memos();
        [
            m.injections
                .entries()
                .values()
                .map(|e| e.len())
                .sum::<usize>(),
            m.needs.entries().values().map(|e| e.len()).sum(),
            m.rules.entries().values().map(|e| e.len()).sum(),
            m.names.entries().values().map(|e| e.len()).sum(),
        ]
    };
    let mut batch = AnalysisHost::for_batch();
    let mut keeping = AnalysisHost::new();
    let path = "/ws/a.prose";
    let mut text = PROGRAM.to_string();
    let edits = [
        ("Draft the plan", "Draft the whole plan"),
        ("x = session", "y = session"),
    ];
    for step in 0..=edits.len() {
        if step > 0 {
            let (from, to) = edits[step - 1];
            text = text.replacen(from, to, 1);
        }
        let before = memos(&batch);
        let answers: Vec<_> = [&mut batch, &mut keeping]
            .into_iter()
            .map(|host| {
                let id = host.set_file_text(path, text.clone());
                let analysis = host.analysis();
                (
                    analysis.diagnostics(id).unwrap(),
                    analysis.needed_files(id).unwrap(),
                )
            })
            .collect();
        assert_eq!(answers[0], answers[1], "step {step}");
        // The program's statements, every one computed by each memo.
        let after = memos(&batch);
        for (b, a) in before.iter().zip(after) {
            assert_eq!(a - b, 3, "every statement again at step {step}");
        }
        assert_eq!(kept(&batch), [0; 4]);
        assert_ne!(kept(&keeping), [0; 4]);
    }
    // The samples, and a long text (which a batch host parses on two
    // threads): the same diagnostics either way.
    let mut samples = crate::openprose::rule_tests::sample_programs();
    let long = format!("{PROGRAM}\n").repeat(64 * 1024 / PROGRAM.len() + 1);
    // Its halves are joined, not parsed again.
    let seam = prose_syntax::halves_split_point(&long);
    assert!(seam.is_some_and(|at| prose_syntax::parse_in_halves_at(&long, at).1));
    samples.push(("/ws/long.prose".into(), long));
    // A batch host also with the statement rules set apart (computed
    // first on their own, or by the diagnostics last).
    for (path, text) in samples {
        let keeping = {
            let mut host = AnalysisHost::new();
            let id = host.set_file_text(&path, text.clone());
            host.analysis().diagnostics(id).unwrap()
        };
        for (apart, prepared) in [(false, false), (true, false), (true, true)] {
            let mut host = AnalysisHost::for_batch();
            let id = host.set_file_text(&path, text.clone());
            if apart {
                host.run_statement_rules_apart(id);
            }
            let analysis = host.analysis();
            if prepared {
                analysis.prepare_statement_rules(id).unwrap();
            }
            let got = analysis.diagnostics(id).unwrap();
            assert_eq!(got, keeping, "{path} apart {apart} prepared {prepared}");
        }
    }
}

/// A keeping host never sets statement rules apart.
#[test]
fn only_a_batch_host_sets_statement_rules_apart() {
    for (mut host, apart) in [
        (AnalysisHost::new(), false),
        (AnalysisHost::for_batch(), true),
    ] {
        let id = host.set_file_text("/ws/a.prose", PROGRAM);
        host.run_statement_rules_apart(id);
        let file = host.analysis().source_file(id);
        assert_eq!(host.db.statement_memos().apart(file), apart);
    }
}

/// `root` (of [`PROGRAM`]) with its second statement replaced by
/// `session "Draft it"`, the others' green nodes kept (as the re-parse
/// splices them).
fn second_statement_replaced(root: &prose_syntax::SyntaxNode) -> prose_syntax::SyntaxNode {
    let index = root
        .green()
        .children()
        .enumerate()
        .filter(|(_, c)| c.as_node().is_some())
        .nth(1)
        .map(|(i, _)| i)
        .unwrap();
    let new_statement = prose_syntax::parse("session \"Draft it\"\n")
        .syntax_node()
        .first_child()
        .unwrap()
        .green()
        .to_owned();
    prose_syntax::SyntaxNode::new_root(
        root.green()
            .replace_child(index, prose_syntax::NodeOrToken::Node(new_statement)),
    )
}
