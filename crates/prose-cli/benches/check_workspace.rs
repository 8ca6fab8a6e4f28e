//! `prose check` end to end, in one process, over a generated workspace of
//! about 1,000 files / 10 MB: file discovery, reading, analysis (every
//! rule), and the JSON report. Reports throughput and peak memory.
//!
//!     cargo bench -p prose-cli --bench check_workspace
//!
//! The report (JSON) goes to a temporary file; the measurements go to
//! stderr. Results: docs/performance/validation.md.

#[path = "../../prose-syntax/benches/program_gen/mod.rs"]
mod program_gen;

use std::{path::PathBuf, time::Instant};

// The allocator of the `prose` binary.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::Parser;

const FILES: usize = 1000;
const BYTES_PER_FILE: usize = 10 * 1024;

fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// `(path, text)` of every `.prose` file under `dir`.
fn walk(dir: &std::path::Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else if path.extension().is_some_and(|e| e == "prose") {
            out.push((
                path.display().to_string(),
                std::fs::read_to_string(&path).unwrap(),
            ));
        }
    }
    out
}

fn main() {
    // `cargo bench` passes `--bench`; this harness takes no options.
    let dir = std::env::temp_dir().join(format!("prose-bench-ws-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut total = 0usize;
    for i in 0..FILES {
        let text = program_gen::program(BYTES_PER_FILE);
        total += text.len();
        let sub = dir.join(format!("team-{:02}", i % 50));
        std::fs::create_dir_all(&sub).unwrap();
        std::fs::write(sub.join(format!("program-{i:04}.prose")), text).unwrap();
    }
    let report = dir.join("report.json");
    let rss_before = peak_rss_kib().unwrap_or(0);

    let start = Instant::now();
    // The same code path as `prose check --format json DIR > report.json`.
    let stdout = std::fs::File::create(&report).unwrap();
    let args = prose_cli::args::Cli::parse_from([
        "prose",
        "check",
        "--format",
        "json",
        dir.to_str().unwrap(),
    ]);
    let prose_cli::args::Command::Check(check) = args.command else {
        unreachable!()
    };
    let status = prose_cli::check::run_with_output(&check, Box::new(stdout));
    let elapsed = start.elapsed();

    let peak = peak_rss_kib().unwrap_or(0);
    let report_len = std::fs::metadata(&report).map(|m| m.len()).unwrap_or(0);
    let mb = total as f64 / (1024.0 * 1024.0);
    eprintln!("prose check --format json: {FILES} files, {mb:.1} MiB");
    eprintln!("  time        {:.3} s", elapsed.as_secs_f64());
    eprintln!("  throughput  {:.1} MiB/s", mb / elapsed.as_secs_f64());
    eprintln!(
        "  peak RSS    {:.0} MiB (before the check: {:.0} MiB)",
        peak as f64 / 1024.0,
        rss_before as f64 / 1024.0
    );
    eprintln!(
        "  report      {:.1} MiB of JSON, exit status {status:?}",
        report_len as f64 / (1024.0 * 1024.0)
    );
    // The analysis alone (no IO, no rendering), for comparison.
    let texts: Vec<(String, String)> = walk(&dir);
    let start = Instant::now();
    let mut host = prose_ide::AnalysisHost::new();
    let ids: Vec<_> = texts
        .iter()
        .map(|(p, t)| host.set_file_text(p, t.clone()))
        .collect();
    let analysis = host.analysis();
    let count: usize = ids
        .iter()
        .map(|&id| analysis.diagnostics(id).map_or(0, |d| d.len()))
        .sum();
    let analysis_time = start.elapsed();
    eprintln!(
        "  analysis    {:.3} s alone ({:.1} MiB/s), {count} diagnostics",
        analysis_time.as_secs_f64(),
        mb / analysis_time.as_secs_f64()
    );

    if std::env::var_os("PROSE_BENCH_KEEP").is_some() {
        eprintln!("  kept        {}", dir.display());
    } else {
        let _ = std::fs::remove_dir_all(&dir);
    }
    let _: PathBuf = dir;
}
