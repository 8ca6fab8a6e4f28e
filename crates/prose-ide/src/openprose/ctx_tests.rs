//! Tests of the rule context (`ctx.rs`).

use prose_syntax::{AstNode, SyntaxKind};

use crate::fixture::Fixture;

/// Whether or not a kind is indexed, the nodes of that kind come in
/// pre-order, all of them.
#[test]
fn nodes_come_from_the_index_or_a_walk_alike() {
    let (host, file) =
        Fixture::parse("agent a:\n  model: opus\nlet x = session: a\nsession \"{x}\"\n").host(None);
    let analysis = host.analysis();
    // Twice: the first file may index every kind, later ones only
    // the kinds the rules ask for.
    for _ in 0..2 {
        analysis
            .with_db(|db| {
                let f = analysis.source_file(file);
                let ctx = super::Ctx::new(db, f, None);
                for pred in [
                    (|k| k == SyntaxKind::NAME_REF) as fn(SyntaxKind) -> bool,
                    |k| k == SyntaxKind::AGENT_DEF || k == SyntaxKind::SESSION_EXPR,
                ] {
                    let got: Vec<_> = ctx.nodes_matching(pred).collect();
                    let walk: Vec<_> = ctx
                        .root
                        .syntax()
                        .descendants()
                        .filter(|n| pred(n.kind()))
                        .collect();
                    assert_eq!(got, walk);
                    assert!(!got.is_empty());
                }
            })
            .unwrap();
    }
}

/// `line_of` finds the line starts as far as it is asked: asked first
/// at each offset, in order, and after every line start was found, it
/// gives the same lines, with `\n`, `\r\n`, a lone `\r` and
/// multi-byte characters, in whatever order the offsets are asked.
#[test]
fn line_of_agrees_however_far_it_has_scanned() {
    let text = "let a = \"é\"\r\nlet b = 1\rlet c = 2\n\nsession \"ü\"\r\n\r";
    let (host, file) = Fixture::parse(text).host(None);
    let analysis = host.analysis();
    analysis
        .with_db(|db| {
            let f = analysis.source_file(file);
            let end = text.len() as u32;
            let whole = super::Ctx::new(db, f, None);
            whole.line_of(end.into());
            let in_order = super::Ctx::new(db, f, None);
            let mut lines = Vec::new();
            for at in 0..=end {
                let first = super::Ctx::new(db, f, None).line_of(at.into());
                assert_eq!(first, whole.line_of(at.into()), "at {at}");
                assert_eq!(first, in_order.line_of(at.into()), "at {at}");
                lines.push(first);
            }
            assert_eq!(lines[..14], [1; 14]);
            assert_eq!(lines.last(), Some(&7));
            // Asked from the end back, and from the middle outwards.
            let backwards = super::Ctx::new(db, f, None);
            for at in (0..=end).rev() {
                assert_eq!(backwards.line_of(at.into()), lines[at as usize], "at {at}");
            }
            let outwards = super::Ctx::new(db, f, None);
            for k in 0..=end {
                let at = if k % 2 == 0 {
                    end / 2 + k / 2
                } else {
                    end / 2 - k.div_ceil(2).min(end / 2)
                };
                let at = at.min(end);
                assert_eq!(outwards.line_of(at.into()), lines[at as usize], "at {at}");
            }
        })
        .unwrap();
}

/// The rules ask only for the node types `kind_index::ALL` lists,
/// over every program of the corpus and the examples shipped in the
/// repository: the first file a process analyses indexes no more than
/// later ones do, and no rule walks the tree for its nodes.
#[test]
fn rules_ask_only_for_the_listed_kinds() {
    use crate::diagnostics::Check;
    let mut files = prose_test_support::prose_files(
        &prose_test_support::workspace_root().join("docs/examples"),
    );
    files.extend(
        prose_test_support::corpus_dir()
            .map_or_else(Vec::new, |dir| prose_test_support::prose_files(&dir)),
    );
    let listed = crate::openprose::kind_index::ALL.listed();
    let mut host = crate::AnalysisHost::new();
    let ids: Vec<_> = files
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).unwrap();
            (p, host.set_file_text(&p.display().to_string(), text))
        })
        .collect();
    let analysis = host.analysis();
    for (path, id) in ids {
        analysis
            .with_db(|db| {
                let ctx = super::Ctx::new(db, analysis.source_file(id), None);
                for rule in crate::openprose::rules::rules() {
                    if let Check::OpenProse(check) = rule.check {
                        check(&ctx, &mut crate::diagnostics::Acc::new(rule));
                    }
                }
                let requested = ctx.requested.borrow();
                let outside: Vec<_> = (0u16..)
                    .map_while(SyntaxKind::from_raw)
                    .filter(|&k| requested[k as usize] && !listed[k as usize])
                    .collect();
                assert!(
                    outside.is_empty(),
                    "{}: the rules asked for {outside:?}, which kind_index::ALL does not list",
                    path.display()
                );
            })
            .unwrap();
    }
}

/// Two helpers kept under one key (functions the compiler merged into one
/// address) keep a value each, each computed once.
#[test]
fn helpers_under_one_address_keep_a_value_each() {
    let (host, file) = Fixture::parse("session \"a\"\n").host(None);
    let analysis = host.analysis();
    let made = analysis
        .with_db(|db| {
            let ctx = super::Ctx::new(db, analysis.source_file(file), None);
            let made = std::cell::Cell::new(0);
            let number = || {
                ctx.shared_as(1, |_| {
                    made.set(made.get() + 1);
                    7u32
                })
            };
            let text = || {
                ctx.shared_as(1, |_| {
                    made.set(made.get() + 1);
                    String::from("seven")
                })
            };
            for _ in 0..3 {
                assert_eq!(*number(), 7);
                assert_eq!(*text(), "seven");
            }
            made.get()
        })
        .unwrap();
    assert_eq!(made, 2);
}
