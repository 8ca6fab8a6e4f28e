//! Dev helper for profiling: parses the bench's generated 4 MiB program
//! (or the files given) `PARSES` times (default 1) and prints the fastest
//! and the mean parse. Under callgrind, `--toggle-collect=prose_syntax::parse`
//! (that exact name: a pattern such as `prose_syntax::parse*` also matches
//! `parse_window`, inside it, and toggles the count off again there) counts
//! the parse alone.
//!
//!     cargo run --release -p prose-syntax --example parse_time [files]

#[path = "../benches/program_gen/mod.rs"]
mod program_gen;

use std::time::{Duration, Instant};

// The allocator of the `prose` and `prose-lsp` binaries, as in the bench.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let files: Vec<String> = std::env::args().skip(1).collect();
    let texts: Vec<String> = if files.is_empty() {
        vec![program_gen::program(4 * 1024 * 1024)]
    } else {
        files
            .iter()
            .map(|f| std::fs::read_to_string(f).expect("readable file"))
            .collect()
    };
    let bytes: usize = texts.iter().map(String::len).sum();
    let parses: usize = std::env::var("PARSES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    let mut best = Duration::MAX;
    let mut total = Duration::ZERO;
    for _ in 0..parses {
        let start = Instant::now();
        for text in &texts {
            drop(std::hint::black_box(prose_syntax::parse(text)));
        }
        best = best.min(start.elapsed());
        total += start.elapsed();
    }
    let mean = total / parses.max(1) as u32;
    let mib = |d: Duration| bytes as f64 / (1024.0 * 1024.0) / d.as_secs_f64();
    println!(
        "{bytes} bytes, {parses} parses: best {best:?} ({:.1} MiB/s), mean {mean:?} ({:.1} MiB/s)",
        mib(best),
        mib(mean)
    );
}
