//! The language server over stdio, as an editor sees it: the release
//! `prose-lsp` binary in a child process, driven by the end-to-end tests'
//! JSON-RPC client.
//!
//!     cargo bench -p prose-lsp --bench lsp_latency
//!
//! Measures, with a generated program of about 5,000 lines open:
//! - time from `didOpen` to its first `publishDiagnostics` (cold server);
//! - time from a one-character `didChange` to the `publishDiagnostics` of
//!   that version, p50 / p99 / max over 200 edits (each edit waits for the
//!   previous one's diagnostics, as a typist who pauses would);
//! - the same number of edits typing inside a prompt string of that
//!   program (a character typed, then deleted);
//! - the same edits in a program of about 300 lines (the 65 official
//!   examples average 170 lines; the largest has 1,572);
//! - VmRSS of the server process after initialize, with the big program
//!   open, and with 200 documents open (~10 KB each).
//!
//! Results: docs/performance/language-server.md.

#[path = "../../../tests/common/lsp.rs"]
mod lsp;
#[path = "../../prose-syntax/benches/program_gen/mod.rs"]
mod program_gen;

use std::{
    path::Path,
    time::{Duration, Instant},
};

use lsp::{LspClient, file_uri};
use serde_json::{Value, json};

const TARGET_LINES: usize = 5_000;
const EDITS: usize = 200;
/// A program of a size people write by hand (twice the official average).
const SMALL_LINES: usize = 300;
const OPEN_DOCS: usize = 200;
const BYTES_PER_DOC: usize = 10 * 1024;

fn vm_rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

/// One-character edits in the middle of an open document (`version` 1):
/// type a character at the start of a line, then delete it; each timed
/// from the `didChange` to the `publishDiagnostics` of its version.
fn edit_latencies(client: &mut LspClient, uri: &str, line_count: usize) -> Vec<Duration> {
    let line = (line_count / 2) as u32;
    let mut latencies = Vec::with_capacity(EDITS);
    for i in 0..EDITS {
        let version = 2 + i as i64;
        let start = Instant::now();
        if i % 2 == 0 {
            client.change(uri, version, &[(line, 0, line, 0, "#")]);
        } else {
            client.change(uri, version, &[(line, 0, line, 1, "")]);
        }
        client.diagnostics(uri, Some(version));
        latencies.push(start.elapsed());
    }
    latencies.sort();
    latencies
}

/// The same edits typed inside a prompt string in the middle (`a` typed
/// after the first character of the first `prompt: "` on or after the
/// middle line, then deleted).
fn prompt_latencies(
    client: &mut LspClient,
    uri: &str,
    text: &str,
    first_version: i64,
) -> Vec<Duration> {
    let lines: Vec<&str> = text.lines().collect();
    let (line, col) = (lines.len() / 2..lines.len())
        .find_map(|l| {
            let c = lines[l].find("prompt: \"")?;
            Some((l as u32, (c + "prompt: \"".len() + 1) as u32))
        })
        .expect("the generated program has prompts");
    let mut latencies = Vec::with_capacity(EDITS);
    for i in 0..EDITS {
        let version = first_version + i as i64;
        let start = Instant::now();
        if i % 2 == 0 {
            client.change(uri, version, &[(line, col, line, col, "a")]);
        } else {
            client.change(uri, version, &[(line, col, line, col + 1, "")]);
        }
        client.diagnostics(uri, Some(version));
        latencies.push(start.elapsed());
    }
    latencies.sort();
    latencies
}

fn main() {
    let dir = std::env::temp_dir().join(format!("prose-lsp-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let bin = Path::new(env!("CARGO_BIN_EXE_prose-lsp"));
    let mut client = LspClient::spawn(bin, &[], &dir);
    client.initialize(&dir, json!({}), Value::Null);
    // Let `initialized` settle before the first measurement.
    std::thread::sleep(Duration::from_millis(200));
    let rss_initialized = vm_rss_kib(client.pid());

    // Time to first diagnostics.
    let text = program_gen::program_of_lines(TARGET_LINES);
    let line_count = text.lines().count();
    let uri = file_uri(&dir.join("big.prose"));
    let start = Instant::now();
    client.open(&uri, 1, &text);
    let first = client.diagnostics(&uri, Some(1));
    let open_latency = start.elapsed();
    let diagnostics = first["diagnostics"].as_array().map_or(0, Vec::len);
    let rss_big = vm_rss_kib(client.pid());

    let latencies = edit_latencies(&mut client, &uri, line_count);
    let prompt = prompt_latencies(&mut client, &uri, &text, 2 + EDITS as i64);

    // The same with a program of a size people write by hand.
    let small = program_gen::program_of_lines(SMALL_LINES);
    let small_lines = small.lines().count();
    let small_uri = file_uri(&dir.join("small.prose"));
    client.open(&small_uri, 1, &small);
    client.diagnostics(&small_uri, Some(1));
    let small_latencies = edit_latencies(&mut client, &small_uri, small_lines);
    client.notify(
        "textDocument/didClose",
        json!({ "textDocument": { "uri": small_uri } }),
    );

    // Many open documents.
    let start = Instant::now();
    for i in 0..OPEN_DOCS {
        let uri = file_uri(&dir.join(format!("doc-{i:03}.prose")));
        client.open(&uri, 1, &program_gen::program(BYTES_PER_DOC));
    }
    let mut waiting: std::collections::HashSet<String> = (0..OPEN_DOCS)
        .map(|i| file_uri(&dir.join(format!("doc-{i:03}.prose"))))
        .collect();
    while !waiting.is_empty() {
        let p = client.wait_notification("textDocument/publishDiagnostics", |p| {
            p["uri"].as_str().is_some_and(|u| waiting.contains(u))
        });
        waiting.remove(p["uri"].as_str().unwrap());
    }
    let many_latency = start.elapsed();
    let rss_many = vm_rss_kib(client.pid());

    let status = client.shutdown_and_exit();
    let _ = std::fs::remove_dir_all(&dir);

    eprintln!(
        "program: {line_count} lines, {:.0} KiB, {diagnostics} diagnostics",
        text.len() as f64 / 1024.0
    );
    eprintln!("didOpen -> first publishDiagnostics: {}", ms(open_latency));
    eprintln!(
        "didChange (1 char) -> publishDiagnostics over {EDITS} edits: p50 {}, p99 {}, max {}",
        ms(percentile(&latencies, 0.50)),
        ms(percentile(&latencies, 0.99)),
        ms(*latencies.last().unwrap()),
    );
    eprintln!(
        "typing in a prompt of that program: p50 {}, p99 {}, max {}",
        ms(percentile(&prompt, 0.50)),
        ms(percentile(&prompt, 0.99)),
        ms(*prompt.last().unwrap()),
    );
    eprintln!(
        "same with a {small_lines}-line program: p50 {}, p99 {}, max {}",
        ms(percentile(&small_latencies, 0.50)),
        ms(percentile(&small_latencies, 0.99)),
        ms(*small_latencies.last().unwrap()),
    );
    eprintln!(
        "{OPEN_DOCS} more documents opened at once: all diagnostics after {}",
        ms(many_latency)
    );
    eprintln!(
        "VmRSS: {} MiB after initialize, {} MiB with the program open, {} MiB with {} documents open",
        rss_initialized / 1024,
        rss_big / 1024,
        rss_many / 1024,
        OPEN_DOCS + 1,
    );
    assert!(status.success(), "the server exited with {status}");
}
