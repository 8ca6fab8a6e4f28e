//! Long texts parsed in two halves (`src/halves.rs`) against one parse.
//!
//! Every program of the parser's `test_data/`, of the official corpus
//! (`PROSE_CORPUS`) and of the history corpus (`PROSE_HISTORY_CORPUS`, else
//! `openprose-history` beside the official one), a generated program using
//! every construct and generated garbage are split at many line starts
//! (every one for short texts), each half parsed on its own thread and the
//! halves joined: the result must be the parse on one thread, the same
//! tree and the same errors, whether the seam was kept or the text parsed
//! again. Seams at the empty lines between statements, where the parallel
//! parse splits, must mostly be kept: a check that always parsed again would
//! prove nothing and gain nothing. Without a corpus, the corpora are
//! skipped with a message.

#[path = "../benches/program_gen/mod.rs"]
mod program_gen;
mod programs;

use prose_syntax::{halves_split_point, parse, parse_in_halves_at};

/// How the seams of a set of programs went.
#[derive(Default, Debug)]
struct Tally {
    seams: usize,
    kept: usize,
    /// Seams where a top-level statement starts after an empty line, with
    /// no fence near them (what the parallel parse looks for).
    blank: usize,
    blank_kept: usize,
}

/// Splits `text` at up to `max` line starts spread over it, checking each.
fn check_program(name: &str, text: &str, max: usize, tally: &mut Tally) {
    let whole = parse(text);
    let statements: std::collections::HashSet<usize> = whole
        .syntax_node()
        .children()
        .map(|n| usize::from(n.text_range().start()))
        .collect();
    let starts: Vec<usize> = text
        .match_indices('\n')
        .map(|(i, _)| i + 1)
        .filter(|&at| at < text.len())
        .collect();
    let step = starts.len().div_ceil(max).max(1);
    let mut seams: Vec<usize> = starts.iter().copied().step_by(step).collect();
    seams.extend(halves_split_point(text));
    for at in seams {
        let (halves, kept) = parse_in_halves_at(text, at);
        assert!(
            halves == whole,
            "{name}: split at {at} ({:?}) differs from one parse:\n{}\n---\n{}",
            &text[at..text.len().min(at + 40)],
            halves.debug_dump(),
            whole.debug_dump()
        );
        let bytes = text.as_bytes();
        let blank =
            at >= 2 && bytes[at - 2] == b'\n' && statements.contains(&at) && !near_fence(text, at);
        tally.seams += 1;
        tally.kept += usize::from(kept);
        tally.blank += usize::from(blank);
        tally.blank_kept += usize::from(blank && kept);
    }
}

/// Whether a fence at column 0 comes within 600 lines before `at`, or any
/// fence in the 300 lines around it (a seam there may be refused: see
/// `reparse.rs`).
fn near_fence(text: &str, at: usize) -> bool {
    let from = text[..at]
        .rmatch_indices('\n')
        .nth(600)
        .map_or(0, |(i, _)| i);
    let column_zero = text[from..at]
        .match_indices("```")
        .any(|(i, _)| from + i == 0 || matches!(text.as_bytes()[from + i - 1], b'\n' | b'\r'));
    let near_from = text[..at]
        .rmatch_indices('\n')
        .nth(300)
        .map_or(0, |(i, _)| i);
    let to = text[at..]
        .match_indices('\n')
        .nth(300)
        .map_or(text.len(), |(i, _)| at + i);
    column_zero || text[near_from..to].contains("```")
}

fn run(programs: &[(String, String)], max: usize) -> Tally {
    let mut tally = Tally::default();
    for (name, text) in programs {
        check_program(name, text, max, &mut tally);
    }
    eprintln!("{} programs: {tally:?}", programs.len());
    tally
}

fn assert_mostly_kept(tally: &Tally) {
    assert!(
        tally.blank_kept * 10 > tally.blank * 9,
        "only {} of {} seams at empty lines were kept",
        tally.blank_kept,
        tally.blank
    );
}

#[test]
fn halves_of_the_parser_test_data_equal_one_parse() {
    let programs = programs::test_data();
    assert!(
        programs.len() > 50,
        "test_data/ has {} programs",
        programs.len()
    );
    run(&programs, usize::MAX);
}

#[test]
fn halves_of_the_corpora_equal_one_parse() {
    let Some(programs) = programs::corpora() else {
        eprintln!("no corpus (PROSE_CORPUS): skipped");
        return;
    };
    let tally = run(&programs, 60);
    assert_mostly_kept(&tally);
}

/// The corpora's programs one after the other: fences all along, most
/// of them in prompts indented under their statements, some at column 0.
#[test]
fn halves_of_the_corpora_in_one_text_equal_one_parse() {
    let Some(corpus) = prose_test_support::corpus_dir() else {
        eprintln!("no corpus (PROSE_CORPUS): skipped");
        return;
    };
    let text: String = programs::programs_in(&corpus)
        .into_iter()
        .map(|(_, text)| text + "\n\n")
        .collect();
    let whole = parse(&text);
    let bytes = text.as_bytes();
    // Statement starts after empty lines, spread over the text.
    let seams: Vec<usize> = whole
        .syntax_node()
        .children()
        .map(|n| usize::from(n.text_range().start()))
        .filter(|&at| at >= 2 && bytes[at - 1] == b'\n' && bytes[at - 2] == b'\n')
        .collect();
    let mut kept = 0;
    let picked: Vec<usize> = seams
        .iter()
        .copied()
        .step_by(seams.len() / 16 + 1)
        .collect();
    for &at in &picked {
        let (halves, was_kept) = parse_in_halves_at(&text, at);
        assert!(halves == whole, "split at {at} differs from one parse");
        kept += usize::from(was_kept);
    }
    eprintln!("{kept} of {} seams kept", picked.len());
    assert!(
        kept * 2 > picked.len(),
        "only {kept} of {} seams kept",
        picked.len()
    );
    let at = halves_split_point(&text).expect("a seam");
    assert!(
        parse_in_halves_at(&text, at).1,
        "the seam `parse` picks is kept"
    );
}

#[test]
fn halves_of_a_generated_program_equal_one_parse() {
    let text = program_gen::program(256 * 1024);
    let tally = run(&[("generated".into(), text.clone())], 60);
    assert_mostly_kept(&tally);
    // Where the parallel parse splits it, the seam is kept, and that parse
    // is one parse.
    let at = halves_split_point(&text).expect("a generated program has empty lines");
    assert!(parse_in_halves_at(&text, at).1);
    let parallel = prose_syntax::parse_interruptible_parallel(&text, &|| ());
    assert!(parallel == parse(&text));
}

#[test]
fn halves_of_garbage_equal_one_parse() {
    let text = program_gen::garbage(128 * 1024);
    run(&[("garbage".into(), text)], 60);
}
