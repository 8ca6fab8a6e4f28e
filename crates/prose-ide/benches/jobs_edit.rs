//! Job entries under typing, without the server: the generated entry of
//! `prose-jobs`' benchmark (1,000 tasks, 1,000 prompt variables, 635 KB),
//! 100 one-character edits in a prompt string in the middle (type a
//! letter, then delete it), each followed by the file's diagnostics; then
//! the editor features on the edited file. Reports p50 / p99.
//!
//!     cargo bench -p prose-ide --bench jobs_edit
//!
//! Results: docs/performance/jobs.md, "In the editor".

#[path = "../../prose-jobs/benches/entry_gen/mod.rs"]
mod entry_gen;

use std::time::{Duration, Instant};

use prose_ide::{AnalysisHost, FilePosition, TextSize};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const EDITS: usize = 100;
const PATH: &str = "/ws/big.jobs.json";

fn pct(v: &mut [Duration], p: f64) -> String {
    v.sort();
    let i = ((v.len() as f64 - 1.0) * p).round() as usize;
    format!("{:.2} ms", v[i].as_secs_f64() * 1000.0)
}

/// `f` run `n` times, each timed.
fn times(n: usize, mut f: impl FnMut()) -> Vec<Duration> {
    (0..n)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect()
}

fn main() {
    let text = entry_gen::entry(1000, 1000);
    // Inside the text of task-500's heading line, `# Task 500`.
    let edit_at = text.find("# Task 500").unwrap() + 2;
    let mut host = AnalysisHost::new();
    let file = host.set_file_text(PATH, text.clone());
    let t = Instant::now();
    let first = host.analysis().diagnostics(file).unwrap();
    println!(
        "{} KiB, {} diagnostics; first analysis {:.2} ms",
        text.len() / 1024,
        first.len(),
        t.elapsed().as_secs_f64() * 1000.0
    );
    let mut edit = Vec::new();
    for i in 0..EDITS {
        let edited = if i % 2 == 0 {
            format!("{}x{}", &text[..edit_at], &text[edit_at..])
        } else {
            text.clone()
        };
        let t = Instant::now();
        host.set_file_text(PATH, edited);
        std::hint::black_box(host.analysis().diagnostics(file).unwrap());
        edit.push(t.elapsed());
    }
    let a = host.analysis();
    let at = |needle: &str, delta: usize| FilePosition {
        file,
        offset: TextSize::from((text.find(needle).unwrap() + delta) as u32),
    };
    // A `$variable` of task-900's prompt, and the cursor after a `$`.
    let variable = at("\"task-900\"", 0);
    let variable = FilePosition {
        offset: variable.offset
            + TextSize::from(text[usize::from(variable.offset)..].find('$').unwrap() as u32 + 2),
        ..variable
    };
    let dollar = at("\"$last\"", 2);
    let mut rows = vec![
        ("edit + diagnostics", edit),
        (
            "hover on a $variable",
            times(20, || {
                std::hint::black_box(a.hover(variable).unwrap());
            }),
        ),
        (
            "completion after $",
            times(20, || {
                std::hint::black_box(a.completions(dollar).unwrap());
            }),
        ),
        (
            "references",
            times(20, || {
                std::hint::black_box(a.references(variable, true).unwrap());
            }),
        ),
        (
            "rename",
            times(20, || {
                std::hint::black_box(a.rename(variable, "renamed").unwrap().unwrap());
            }),
        ),
        (
            "document symbols",
            times(20, || {
                std::hint::black_box(a.document_symbols(file).unwrap());
            }),
        ),
        (
            "code lenses",
            times(20, || {
                std::hint::black_box(a.code_lenses(file).unwrap());
            }),
        ),
        (
            "semantic tokens",
            times(20, || {
                std::hint::black_box(a.semantic_tokens(file, None).unwrap());
            }),
        ),
        (
            "expanded prompt (lens)",
            times(20, || {
                std::hint::black_box(a.expanded_prompt(file, "task-900").unwrap());
            }),
        ),
    ];
    for (name, v) in &mut rows {
        println!(
            "{name:<24} p50 {:>10}  p99 {:>10}",
            pct(v, 0.5),
            pct(v, 0.99)
        );
    }
}
