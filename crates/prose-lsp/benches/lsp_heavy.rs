//! The language server under heavy input (issue 16's table), as an editor
//! sees it: the release `prose-lsp` in a child process, driven over stdio
//! by the end-to-end tests' client, a fresh server per case (so each peak
//! is the case's own).
//!
//!     PROSE_CORPUS=../shared/corpus/openprose-examples \
//!         cargo bench -p prose-lsp --bench lsp_heavy
//!
//! Prints, per case, the time (wall clock) and the server's resident
//! memory (`VmRSS`, peak `VmHWM`). The robustness tests (`tests/robust_*`)
//! assert the behaviour; this records the figures. Results:
//! docs/performance/heavy-input.md.

#[path = "../../../tests/common/lsp.rs"]
mod lsp;
#[path = "../../prose-syntax/benches/program_gen/mod.rs"]
mod program_gen;

use std::{
    path::{Path, PathBuf},
    time::{Duration, Instant},
};

use lsp::{LspClient, file_uri, pull_capabilities};
use serde_json::{Value, json};

/// The table's "10 MB" (just under the server's 10 MiB limit on analysed
/// documents, as a generated program overshoots its size a little).
const TEN_MB: usize = 10_000_000;

const SMALL: &str = "agent alpha:\n  model: opus\nsession: alpha\n  prompt: \"hi\"\n";

fn server(dir: &Path, pull: bool) -> LspClient {
    let bin = Path::new(env!("CARGO_BIN_EXE_prose-lsp"));
    let caps = if pull { pull_capabilities() } else { json!({}) };
    let mut c = LspClient::spawn(bin, &[], dir);
    c.initialize(dir, caps, Value::Null);
    c
}

fn secs(d: Duration) -> String {
    format!("{:.2} s", d.as_secs_f64())
}

fn memory(c: &LspClient) -> String {
    match c.memory_mib() {
        Some((rss, peak)) => format!("RSS {rss} MiB, peak {peak} MiB"),
        None => "memory unknown".into(),
    }
}

fn whole(uri: &str) -> Value {
    json!({
        "textDocument": { "uri": uri },
        "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 100000000, "character": 0 } },
        "context": { "diagnostics": [] },
    })
}

fn pull(c: &mut LspClient, uri: &str) -> Value {
    c.call_retrying(
        "textDocument/diagnostic",
        json!({ "textDocument": { "uri": uri } }),
    )
}

fn hover(c: &mut LspClient, uri: &str) -> Value {
    c.call(
        "textDocument/hover",
        json!({ "textDocument": { "uri": uri }, "position": { "line": 2, "character": 9 } }),
    )
}

/// Opens, analyses and closes `count` documents of about 2 KB (`reuse`:
/// all under one URI).
fn open_close(c: &mut LspClient, dir: &Path, from: usize, count: usize, reuse: bool) {
    for n in from..from + count {
        let uri = if reuse {
            file_uri(&dir.join("same.prose"))
        } else {
            file_uri(&dir.join(format!("doc{n}.prose")))
        };
        let text = format!("# {n}\n{}", program_gen::program(2000));
        c.open(&uri, 1, &text);
        pull(c, &uri);
        c.notify(
            "textDocument/didClose",
            json!({ "textDocument": { "uri": uri } }),
        );
    }
    c.call("workspace/symbol", json!({ "query": "x" }));
}

fn case_open_close(dir: &Path, reuse: bool) {
    let mut c = server(dir, true);
    open_close(&mut c, dir, 0, 300, reuse);
    let before = memory(&c);
    let start = Instant::now();
    open_close(&mut c, dir, 300, 3000, reuse);
    let what = if reuse {
        "one URI reopened 3,000 times"
    } else {
        "3,000 documents opened and closed"
    };
    eprintln!(
        "{what} (2 KB each, analysed): after 300: {before}; after 3,300: {} ({})",
        memory(&c),
        secs(start.elapsed())
    );
    c.shutdown_and_exit();
}

fn case_newlines(dir: &Path) {
    let mut c = server(dir, true);
    let uri = file_uri(&dir.join("newlines.prose"));
    let start = Instant::now();
    c.open(&uri, 1, &"\n".repeat(10_000_000));
    pull(&mut c, &uri);
    eprintln!(
        "10,000,000 newlines: diagnostics after {}; {}",
        secs(start.elapsed()),
        memory(&c)
    );
    c.shutdown_and_exit();
}

fn case_real(dir: &Path) {
    let Some(corpus) = std::env::var_os("PROSE_CORPUS").map(PathBuf::from) else {
        eprintln!("16 MB of real programs: skipped (set PROSE_CORPUS)");
        return;
    };
    let mut programs: Vec<String> = prose_files(&corpus)
        .into_iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .collect();
    programs.sort();
    if programs.is_empty() {
        eprintln!(
            "16 MB of real programs: no programs in {}",
            corpus.display()
        );
        return;
    }
    let mut c = server(dir, true);
    let start = Instant::now();
    let mut total = 0;
    for d in 0..4 {
        let mut text = String::new();
        let mut i = d;
        while text.len() < 4 * 1024 * 1024 {
            text.push_str(&programs[i % programs.len()]);
            text.push('\n');
            i += 1;
        }
        total += text.len();
        let uri = file_uri(&dir.join(format!("real{d}.prose")));
        c.open(&uri, 1, &text);
        pull(&mut c, &uri);
    }
    eprintln!(
        "{:.1} MB of real programs in 4 documents: all diagnostics after {}; {}",
        total as f64 / 1e6,
        secs(start.elapsed()),
        memory(&c)
    );
    c.shutdown_and_exit();
}

/// The `.prose` files under `dir`, at any depth.
fn prose_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(prose_files(&path));
        } else if path.extension().is_some_and(|e| e == "prose") {
            out.push(path);
        }
    }
    out
}

fn case_code_action(dir: &Path, bytes: usize) {
    let mut c = server(dir, true);
    let uri = file_uri(&dir.join("big.prose"));
    let text = program_gen::program(bytes);
    let mb = text.len() as f64 / 1e6;
    c.open(&uri, 1, &text);
    let start = Instant::now();
    let actions = c.call("textDocument/codeAction", whole(&uri));
    eprintln!(
        "whole-document codeAction, {mb:.1} MB: {} actions in {}; {}",
        actions.as_array().map_or(0, Vec::len),
        secs(start.elapsed()),
        memory(&c)
    );
    c.shutdown_and_exit();
}

/// Cancels a whole-document code action on 10 MB, then measures how long
/// the server keeps a core busy, and an edit + hover of another document.
fn case_cancel(dir: &Path) {
    let mut c = server(dir, true);
    let big = file_uri(&dir.join("big.prose"));
    let small = file_uri(&dir.join("small.prose"));
    c.open(&small, 1, SMALL);
    c.open(&big, 1, &program_gen::program(TEN_MB));
    let id = c.request("textDocument/codeAction", whole(&big));
    std::thread::sleep(Duration::from_millis(500));
    let cancelled = Instant::now();
    c.notify("$/cancelRequest", json!({ "id": id }));
    let answer = c.response(id);
    let answered = cancelled.elapsed();
    // Busy until the CPU time stops growing for 50 ms.
    let mut last = c.cpu_ticks().unwrap_or(0);
    let mut quiet_since = Instant::now();
    let mut busy = Duration::ZERO;
    while quiet_since.elapsed() < Duration::from_millis(50) {
        std::thread::sleep(Duration::from_millis(5));
        let now = c.cpu_ticks().unwrap_or(0);
        if now != last {
            last = now;
            quiet_since = Instant::now();
            busy = cancelled.elapsed();
        }
    }
    let start = Instant::now();
    c.change(&small, 2, &[(0, 6, 0, 11, "omega"), (2, 9, 2, 14, "omega")]);
    hover(&mut c, &small);
    eprintln!(
        "cancelled codeAction on 10 MB: answered {} after {:.0} ms, CPU busy for {:.0} ms after the cancel; then edit + hover of another document: {:.0} ms",
        answer["error"]["code"],
        answered.as_secs_f64() * 1000.0,
        busy.as_secs_f64() * 1000.0,
        start.elapsed().as_secs_f64() * 1000.0
    );
    c.shutdown_and_exit();
}

/// Edits and hovers of a small document while a 10 MB one is analysed
/// (push diagnostics: the server analyses the big one on its own).
fn case_beside(dir: &Path) {
    let mut c = server(dir, false);
    let big = file_uri(&dir.join("big.prose"));
    let small = file_uri(&dir.join("small.prose"));
    c.open(&small, 1, SMALL);
    c.open(&big, 1, &program_gen::program(TEN_MB));
    let mut times = Vec::new();
    for v in 2..12 {
        let name = if v % 2 == 0 { "omega" } else { "alpha" };
        let start = Instant::now();
        c.change(&small, v, &[(0, 6, 0, 11, name), (2, 9, 2, 14, name)]);
        hover(&mut c, &small);
        times.push(start.elapsed());
    }
    times.sort();
    eprintln!(
        "edit + hover of a small document while a 10 MB one is analysed: median {:.0} ms, max {:.0} ms",
        times[times.len() / 2].as_secs_f64() * 1000.0,
        times.last().unwrap().as_secs_f64() * 1000.0
    );
    c.shutdown_and_exit();
}

fn case_duplicates(dir: &Path) {
    let mut c = server(dir, true);
    let uri = file_uri(&dir.join("dup.prose"));
    let mut text = String::from("parallel:\n");
    while text.len() < 600 * 1024 {
        text.push_str("  a = session \"x\"\n");
    }
    c.open(&uri, 1, &text);
    let start = Instant::now();
    let report = pull(&mut c, &uri);
    eprintln!(
        "600 KB parallel block binding one name: {} diagnostics after {}",
        report["items"].as_array().map_or(0, Vec::len),
        secs(start.elapsed())
    );
    c.shutdown_and_exit();
}

fn case_selection(dir: &Path) {
    let mut c = server(dir, true);
    let uri = file_uri(&dir.join("big.prose"));
    let text = program_gen::program(1024 * 1024);
    let lines: Vec<&str> = text.lines().collect();
    c.open(&uri, 1, &text);
    pull(&mut c, &uri);
    let positions: Vec<Value> = (0..2001)
        .map(|i| {
            let line = i * lines.len() / 2001;
            json!({ "line": line, "character": (i * 7) % (lines[line].len() + 1) })
        })
        .collect();
    let start = Instant::now();
    c.call(
        "textDocument/selectionRange",
        json!({ "textDocument": { "uri": uri }, "positions": positions }),
    );
    eprintln!(
        "selectionRange with 2,001 positions on 1 MiB: {:.0} ms",
        start.elapsed().as_secs_f64() * 1000.0
    );
    c.shutdown_and_exit();
}

/// One case of the table, run in a directory of its own.
type Case = Box<dyn Fn(&Path)>;

fn main() {
    let dir = std::env::temp_dir().join(format!("prose-lsp-heavy-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // Case names to run (any that contains one of the arguments; all
    // without arguments).
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let cases: Vec<(&str, Case)> = vec![
        ("open_close", Box::new(|d| case_open_close(d, false))),
        ("reopen", Box::new(|d| case_open_close(d, true))),
        ("newlines", Box::new(case_newlines)),
        ("real", Box::new(case_real)),
        (
            "code_action",
            Box::new(|d| {
                for bytes in [1_000_000, 4_000_000, TEN_MB] {
                    case_code_action(d, bytes);
                }
            }),
        ),
        ("cancel", Box::new(case_cancel)),
        ("beside", Box::new(case_beside)),
        ("duplicates", Box::new(case_duplicates)),
        ("selection", Box::new(case_selection)),
    ];
    for (name, case) in &cases {
        if only.is_empty() || only.iter().any(|o| name.contains(o.as_str())) {
            case(&dir);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
