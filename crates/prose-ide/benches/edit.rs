//! The analysis under typing, without the server: a generated program of
//! about 5,000 lines, 200 one-character edits (type `#` at the start of a
//! line in the middle, then delete it), each followed by the file's
//! diagnostics; then 200 more typing `a` inside a prompt string in the
//! middle. Reports p50 / p99 of the whole re-analysis and of its phases
//! (parse, names, rules).
//!
//!     cargo bench -p prose-ide --bench edit
//!
//! Results: docs/performance/language-server.md.

#[path = "../../prose-syntax/benches/program_gen/mod.rs"]
mod program_gen;

use std::time::{Duration, Instant};

use prose_ide::AnalysisHost;

// The allocator the binaries use (rowan allocates per node and token).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const TARGET_LINES: usize = 5_000;
const EDITS: usize = 200;

fn pct(v: &mut [Duration], p: f64) -> String {
    v.sort();
    let i = ((v.len() as f64 - 1.0) * p).round() as usize;
    format!("{:.2} ms", v[i].as_secs_f64() * 1000.0)
}

fn main() {
    let text = program_gen::program_of_lines(TARGET_LINES);
    let lines: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let middle = lines[lines.len() / 2];
    let mut host = AnalysisHost::new();
    let file = host.set_file_text("/ws/big.prose", text.clone());
    let t = Instant::now();
    let first = host.analysis().diagnostics(file).unwrap();
    println!(
        "{} lines, {} KiB, {} diagnostics; first analysis {:.2} ms",
        lines.len(),
        text.len() / 1024,
        first.len(),
        t.elapsed().as_secs_f64() * 1000.0
    );
    let at_line_start = middle;
    println!("typing `#` at the start of a line in the middle:");
    measure(&mut host, file, &text, at_line_start, "#");
    // Inside the first prompt string of the second half: plain text typed.
    let prompt = text[middle..]
        .find("prompt: \"")
        .map(|i| middle + i + "prompt: \"".len() + 1)
        .expect("the generated program has prompts");
    println!("typing `a` inside a prompt string in the middle:");
    measure(&mut host, file, &text, prompt, "a");
    let mut slow = host.analysis().debug_rule_timings(file).unwrap();
    slow.sort_by_key(|(_, d)| std::cmp::Reverse(*d));
    let list: Vec<String> = slow
        .iter()
        .take(8)
        .map(|(code, d)| format!("{code} {:.2} ms", d.as_secs_f64() * 1000.0))
        .collect();
    println!("slowest rules: {}", list.join(", "));
}

/// `EDITS` edits at `at` (typing `typed`, then deleting it), each followed
/// by the file's diagnostics; prints p50 / p99 of each phase.
fn measure(host: &mut AnalysisHost, file: prose_ide::FileId, text: &str, at: usize, typed: &str) {
    let (mut total, mut parse, mut names, mut rules) = (vec![], vec![], vec![], vec![]);
    for i in 0..EDITS {
        let edited = if i % 2 == 0 {
            format!("{}{typed}{}", &text[..at], &text[at..])
        } else {
            text.to_string()
        };
        let t = Instant::now();
        host.set_file_text("/ws/big.prose", edited);
        let analysis = host.analysis();
        let t0 = Instant::now();
        analysis.debug_phase_parse(file).unwrap();
        let t1 = Instant::now();
        analysis.prepare_names(file).unwrap();
        let t2 = Instant::now();
        let d = analysis.diagnostics(file).unwrap();
        let t3 = Instant::now();
        std::hint::black_box(d);
        total.push(t3 - t);
        parse.push(t1 - t0);
        names.push(t2 - t1);
        rules.push(t3 - t2);
    }
    for (name, v) in [
        ("whole re-analysis", &mut total),
        ("  parse", &mut parse),
        ("  names", &mut names),
        ("  rules", &mut rules),
    ] {
        println!(
            "{name:<20} p50 {:>10}  p99 {:>10}",
            pct(v, 0.5),
            pct(v, 0.99)
        );
    }
}
