//! Incremental reparsing (`prose_syntax::reparse`) against full parses.
//!
//! Every program of the parser's `test_data/`, of the official corpus
//! (`PROSE_CORPUS`) and of the history corpus (`PROSE_HISTORY_CORPUS`, else
//! `openprose-history` beside the official one) goes through a chain of
//! seeded random edits (so do a generated program using every construct
//! and generated garbage): inserting the language's own tokens, pieces of the
//! program itself, line breaks and indentation, deleting ranges, at random
//! offsets and inside prompt strings. After each edit the reparse of the
//! previous result must equal `parse` of the new text: the same tree and
//! the same errors. Without a corpus, the corpora are skipped with a
//! message (`test_data/` is always there). `REPARSE_EDITS` sets the number
//! of edits per program (default 40), `REPARSE_SEED` the first seed.

#[path = "../benches/program_gen/mod.rs"]
mod program_gen;
mod programs;

use prose_syntax::{
    SyntaxKind,
    reparse::{Edit, Outcome, reparse_interruptible},
};
use text_size::{TextRange, TextSize};

/// splitmix64: a small seeded generator, so that a failure repeats.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// Pieces of the language: keywords, punctuation, string and discretion
/// delimiters, comments, line breaks and indentation.
#[rustfmt::skip]
const PIECES: &[&str] = &[
    "session", "agent", "let", "const", "if", "elif", "else", "try", "catch", "finally", "parallel",
    "for", "in", "loop", "until", "repeat", "choice", "option", "block", "do", "use", "input",
    "output", "return", "throw", "resume", "prompt", "model", ":", ": ", "=", "==", "->", "|", ",",
    ".", "(", ")", "[", "]", "{", "}", "{name}", "\"", "\"\"\"", "**", "***", "#", "# note\n", "\n",
    "\r\n", "\r", "\n\n", "  ", "    ", "\t", " ", "\\q", "\\n", "x", "name", "42", "é", "\u{FEFF}",
    "\"text\"", "session \"a\"\n", "\n  prompt: \"b\"\n", "else:\n  x\n", "-> session \"c\"",
];

fn char_floor(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// A random offset: anywhere, inside a string's text (a prompt), or at
/// the start of the text.
fn offset(rng: &mut Rng, text: &str, strings: &[TextRange]) -> usize {
    if rng.below(20) == 0 {
        return 0;
    }
    if !strings.is_empty() && rng.below(3) == 0 {
        let r = strings[rng.below(strings.len())];
        let at = usize::from(r.start()) + rng.below(usize::from(r.len()) + 1);
        return char_floor(text, at);
    }
    char_floor(text, rng.below(text.len() + 1))
}

/// A random edit of `text`: (range deleted, text inserted).
fn random_edit(rng: &mut Rng, text: &str, strings: &[TextRange]) -> (Range, String) {
    let at = offset(rng, text, strings);
    if at == 0 && rng.below(2) == 0 {
        // Everything before one of the first lines, deleted.
        let lines = 1 + rng.below(3);
        let end = text
            .match_indices('\n')
            .nth(lines - 1)
            .map_or(text.len(), |(i, _)| i + 1);
        return (0..end, String::new());
    }
    match rng.below(10) {
        0..=3 => (at..at, PIECES[rng.below(PIECES.len())].to_string()),
        4 | 5 => {
            let end = char_floor(text, at + 1 + rng.below(12));
            (at..end, String::new())
        }
        6 => {
            let from = char_floor(text, rng.below(text.len() + 1));
            let to = char_floor(text, from + rng.below(60));
            (at..at, text[from..to].to_string())
        }
        7 => {
            let end = char_floor(text, at + rng.below(6));
            (at..end, PIECES[rng.below(PIECES.len())].to_string())
        }
        _ => {
            // One character typed, as in an editor.
            let c = ["a", " ", "e", "\"", ":", "\n", "{"][rng.below(7)];
            (at..at, c.to_string())
        }
    }
}

type Range = std::ops::Range<usize>;

fn string_texts(parse: &prose_syntax::Parse) -> Vec<TextRange> {
    parse
        .syntax_node()
        .descendants_with_tokens()
        .filter(|e| e.kind() == SyntaxKind::STRING_TEXT)
        .map(|e| e.text_range())
        .collect()
}

#[derive(Default)]
struct Tally {
    edits: usize,
    spliced: usize,
    relexed: usize,
    full: std::collections::BTreeMap<String, usize>,
}

/// Runs `edits` random edits on `text` in a chain, checking each reparse.
fn check_program(name: &str, text: &str, seed: u64, edits: usize, tally: &mut Tally) {
    let mut rng = Rng(seed);
    let mut text = text.to_string();
    let mut parse = prose_syntax::parse(&text);
    for step in 0..edits {
        let strings = string_texts(&parse);
        let (range, insert) = random_edit(&mut rng, &text, &strings);
        let mut new_text = text.clone();
        new_text.replace_range(range.clone(), &insert);
        let edit = Edit {
            delete: TextRange::new(
                TextSize::try_from(range.start).unwrap(),
                TextSize::try_from(range.end).unwrap(),
            ),
            insert: &insert,
        };
        let (incremental, outcome) = reparse_interruptible(&parse, &text, edit, &new_text, &|| {});
        let full = prose_syntax::parse(&new_text);
        if incremental != full {
            panic!(
                "{name}, seed {seed}, step {step}: edit {range:?} -> {insert:?} ({outcome:?}) \
                 gives a different parse.\n--- old text\n{text}\n--- new text\n{new_text}\n\
                 --- incremental\n{}\n--- full\n{}",
                incremental.debug_dump(),
                full.debug_dump()
            );
        }
        tally.edits += 1;
        match outcome {
            Outcome::Spliced { .. } => tally.spliced += 1,
            Outcome::Relexed { .. } => tally.relexed += 1,
            Outcome::Full(why) => *tally.full.entry(format!("{why:?}")).or_default() += 1,
        }
        text = new_text;
        parse = incremental;
    }
}

fn edits_per_program() -> usize {
    std::env::var("REPARSE_EDITS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(40)
}

fn run(programs: &[(String, String)], seed: u64, edits: usize) -> Tally {
    let seed = std::env::var("REPARSE_SEED")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .map_or(seed, |s| s.wrapping_mul(1_000_003).wrapping_add(seed));
    let mut tally = Tally::default();
    for (i, (name, text)) in programs.iter().enumerate() {
        check_program(name, text, seed + i as u64, edits, &mut tally);
    }
    eprintln!(
        "{} edits of {} programs: {} spliced, {} relexed, full parses: {:?}",
        tally.edits,
        programs.len(),
        tally.spliced,
        tally.relexed,
        tally.full
    );
    tally
}

/// Most random edits of a program land inside a statement and are spliced,
/// some inside a string's text and are relexed; a test whose edits all
/// fell back, or never took one of the two ways, would prove little.
fn assert_mostly_spliced(tally: &Tally) {
    assert!(
        (tally.spliced + tally.relexed) * 3 > tally.edits && tally.relexed > 0,
        "only {} of {} edits were spliced and {} relexed",
        tally.spliced,
        tally.edits,
        tally.relexed
    );
}

#[test]
fn random_edits_of_the_parser_test_data_equal_full_parses() {
    let programs = programs::test_data();
    assert!(
        programs.len() > 50,
        "test_data/ holds the parser's programs"
    );
    assert_mostly_spliced(&run(&programs, 1, edits_per_program()));
}

#[test]
fn random_edits_of_the_corpora_equal_full_parses() {
    let Some(programs) = programs::corpora() else {
        return;
    };
    assert_mostly_spliced(&run(&programs, 1000, edits_per_program()));
}

#[test]
fn random_edits_of_a_generated_program_equal_full_parses() {
    let program = vec![("generated program".into(), program_gen::program(12_000))];
    assert_mostly_spliced(&run(&program, 500, edits_per_program() * 10));
}

#[test]
fn random_edits_of_garbage_equal_full_parses() {
    // Few edits of garbage can be spliced: most statements there are
    // broken at their ends. What is spliced must still be right.
    let garbage = vec![("generated garbage".into(), program_gen::garbage(3_000))];
    let tally = run(&garbage, 700, edits_per_program() * 10);
    assert!(tally.spliced > 0, "no edit of garbage was spliced");
}
