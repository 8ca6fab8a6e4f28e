//! Side by side with the peer: our `prose check` and language server
//! against the OpenProse organisation's own linter and language server
//! (`openprose-lint`, `openprose-lsp`; ../shared/peer/README.md), on the
//! same inputs, alternating the two so that the machine's drift hits both.
//!
//!     PROSE_PEER_LINT=/path/to/openprose-lint \
//!     PROSE_PEER_LSP=/path/to/openprose-lsp \
//!     cargo bench -p prose-cli --bench peer
//!
//! The peer's binaries are not part of this repository: build them outside
//! it and name them in those variables. Without them, the benchmark says so
//! and measures ours alone (no ratios). `PROSE_PEER_ROUNDS` sets the rounds
//! of the whole-process measurements (default 15), `PROSE_PEER_BLOCKS` the
//! blocks of 20 keystrokes given each server in turn (default 5: on a busy
//! machine the keystroke rows move by a third from run to run with 100
//! keystrokes, less with more); the corpus is every `.prose` file under
//! `../shared/corpus` (or `PROSE_PEER_CORPUS`).
//!
//! Measures:
//! - the whole process over the corpus: ours `prose check FILES...`, the
//!   peer's `openprose-lint lint-legacy FILES...` (same files, same order):
//!   wall time and peak RSS (each run's own, from `getrusage` in a tiny
//!   wrapper process: this benchmark re-executing itself);
//! - the same over one generated 5,000-line program;
//! - keystroke to `publishDiagnostics` in each server with that program
//!   open: one character typed then deleted (`#` at the start of the
//!   middle line, then `x` in a prompt after it), each change sent the way the
//!   server asked (ranged edits to ours, the full text to the peer, which
//!   syncs full documents), timed to the last byte of the diagnostics that
//!   follow it; and, as before 2026-11-29, to the client's JSON tree of
//!   them (the client's parse included).
//!
//! Prints medians (and min / max), p50 / p99, and ours ÷ the peer's.
//! Results: docs/performance/peer.md, "Side by side with the peer"; the
//! later sessions in peer-2026-11-29.md and peer-2026-11-30.md beside it.

#[path = "../../../tests/common/lsp.rs"]
mod lsp;
#[path = "../../prose-syntax/benches/program_gen/mod.rs"]
mod program_gen;

use std::{
    path::{Path, PathBuf},
    process::{Command, Stdio},
    time::{Duration, Instant},
};

use lsp::{LspClient, file_uri};
use serde_json::{Value, json};

/// Set in the wrapper process that runs one measured command.
const CHILD: &str = "PROSE_PEER_BENCH_CHILD";
const PROGRAM_LINES: usize = 5_000;
const EDITS_PER_BLOCK: usize = 20;
const BLOCKS: usize = 5;

fn main() {
    if std::env::var_os(CHILD).is_some() {
        return child();
    }
    let rounds: usize = std::env::var("PROSE_PEER_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(15);
    let blocks: usize = std::env::var("PROSE_PEER_BLOCKS")
        .ok()
        .and_then(|r| r.parse().ok())
        .filter(|&b| b > 0)
        .unwrap_or(BLOCKS);
    let lint = peer_binary("PROSE_PEER_LINT", "openprose-lint");
    let lsp_bin = peer_binary("PROSE_PEER_LSP", "openprose-lsp");
    let ours = ours_binary();

    let dir = std::env::temp_dir().join(format!("prose-peer-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let program = program_gen::program_of_lines(PROGRAM_LINES);
    let big = dir.join("big.prose");
    std::fs::write(&big, &program).unwrap();

    let corpus = corpus_files();
    let corpus_bytes: u64 = corpus
        .iter()
        .map(|p| std::fs::metadata(p).map_or(0, |m| m.len()))
        .sum();
    eprintln!(
        "load average at the start: {}",
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .trim()
    );
    let mut table = Vec::new();

    let corpus_args: Vec<String> = corpus.iter().map(|p| p.display().to_string()).collect();
    let label = format!(
        "whole process, {} programs / {:.2} MB",
        corpus.len(),
        corpus_bytes as f64 / 1e6
    );
    table.extend(whole_process(
        &label,
        rounds,
        (&ours, &["check"]),
        lint.as_deref().map(|l| (l, &["lint-legacy"][..])),
        &corpus_args,
        &dir,
    ));
    let label = format!(
        "whole process, one {}-line program / {:.0} KB",
        program.lines().count(),
        program.len() as f64 / 1e3
    );
    table.extend(whole_process(
        &label,
        rounds,
        (&ours, &["check"]),
        lint.as_deref().map(|l| (l, &["lint-legacy"][..])),
        &[big.display().to_string()],
        &dir,
    ));
    for key in [Key::comment(&program), Key::prompt(&program)] {
        table.extend(keystrokes(
            &ours,
            lsp_bin.as_deref(),
            &dir,
            &program,
            blocks,
            key,
        ));
    }
    let _ = std::fs::remove_dir_all(&dir);

    eprintln!(
        "load average at the end: {}",
        std::fs::read_to_string("/proc/loadavg")
            .unwrap_or_default()
            .trim()
    );
    println!("\n| measurement | ours | peer | ours ÷ peer |\n|---|---|---|---|");
    for row in table {
        println!("{row}");
    }
}

/// The peer's binary from `var`, or why there is none.
fn peer_binary(var: &str, name: &str) -> Option<PathBuf> {
    match std::env::var_os(var) {
        Some(p) if Path::new(&p).is_file() => Some(PathBuf::from(p)),
        Some(p) => {
            eprintln!(
                "{var}={}: no such file; measuring ours alone",
                Path::new(&p).display()
            );
            None
        }
        None => {
            eprintln!(
                "{var} is not set: the peer's {name} is not measured, and no ratio is printed (see ../shared/peer/README.md)"
            );
            None
        }
    }
}

/// Every `.prose` file of the corpus, sorted.
fn corpus_files() -> Vec<PathBuf> {
    let root = std::env::var_os("PROSE_PEER_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus"));
    let mut out = Vec::new();
    walk(&root, &mut out);
    out.sort();
    assert!(
        !out.is_empty(),
        "no .prose file under {}: set PROSE_PEER_CORPUS",
        root.display()
    );
    out
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(&path, out);
        } else if path.extension().is_some_and(|e| e == "prose") {
            out.push(path);
        }
    }
}

/// The wrapper: runs its arguments (output discarded), then prints the
/// wall time in nanoseconds and the command's peak RSS in KiB.
fn child() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let start = Instant::now();
    let status = Command::new(&args[0])
        .args(&args[1..])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("start the measured command");
    let elapsed = start.elapsed();
    let usage = nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN)
        .expect("getrusage");
    println!(
        "{} {} {}",
        elapsed.as_nanos(),
        usage.max_rss(),
        status.code().unwrap_or(-1)
    );
}

/// One measured run of `bin args files` in `cwd`: (wall time, peak RSS KiB).
fn measure(bin: &Path, args: &[&str], files: &[String], cwd: &Path) -> (Duration, u64) {
    let out = Command::new(std::env::current_exe().unwrap())
        .env(CHILD, "1")
        .arg(bin)
        .args(args)
        .args(files)
        .current_dir(cwd)
        .output()
        .expect("start the wrapper");
    let text = String::from_utf8_lossy(&out.stdout);
    let mut parts = text.split_whitespace();
    let nanos: u64 = parts.next().and_then(|n| n.parse().ok()).expect("time");
    let rss: u64 = parts.next().and_then(|n| n.parse().ok()).expect("rss");
    (Duration::from_nanos(nanos), rss)
}

fn median<T: Copy + Ord>(values: &mut [T]) -> T {
    values.sort();
    values[values.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

fn ratio(ours: f64, peer: f64) -> String {
    format!("{:.2}×", ours / peer)
}

/// Alternating runs of ours and the peer's: table rows for time and RSS.
fn whole_process(
    label: &str,
    rounds: usize,
    ours: (&Path, &[&str]),
    peer: Option<(&Path, &[&str])>,
    files: &[String],
    cwd: &Path,
) -> Vec<String> {
    let (mut ours_t, mut ours_m, mut peer_t, mut peer_m) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    // One warm-up run each (page cache, lazy binding).
    measure(ours.0, ours.1, files, cwd);
    if let Some((bin, args)) = peer {
        measure(bin, args, files, cwd);
    }
    for _ in 0..rounds {
        let (t, m) = measure(ours.0, ours.1, files, cwd);
        ours_t.push(t);
        ours_m.push(m);
        if let Some((bin, args)) = peer {
            let (t, m) = measure(bin, args, files, cwd);
            peer_t.push(t);
            peer_m.push(m);
        }
    }
    let spread = |v: &[Duration]| format!("(min {}, max {})", ms(v[0]), ms(v[v.len() - 1]));
    let o_t = median(&mut ours_t);
    let o_m = median(&mut ours_m);
    let mut rows = Vec::new();
    if peer.is_some() {
        let p_t = median(&mut peer_t);
        let p_m = median(&mut peer_m);
        rows.push(format!(
            "| {label}: wall time, median of {rounds} | {} {} | {} {} | {} |",
            ms(o_t),
            spread(&ours_t),
            ms(p_t),
            spread(&peer_t),
            ratio(o_t.as_secs_f64(), p_t.as_secs_f64())
        ));
        rows.push(format!(
            "| {label}: peak RSS, median | {:.1} MB | {:.1} MB | {} |",
            o_m as f64 / 1024.0,
            p_m as f64 / 1024.0,
            ratio(o_m as f64, p_m as f64)
        ));
    } else {
        rows.push(format!(
            "| {label}: wall time, median of {rounds} | {} {} | — | — |",
            ms(o_t),
            spread(&ours_t)
        ));
        rows.push(format!(
            "| {label}: peak RSS, median | {:.1} MB | — | — |",
            o_m as f64 / 1024.0
        ));
    }
    rows
}

/// A server with the program open, and how it wants changes sent.
struct Server {
    client: LspClient,
    uri: String,
    text: String,
    version: i64,
    full_sync: bool,
}

impl Server {
    fn start(bin: &Path, args: &[&str], dir: &Path, name: &str, text: &str) -> Server {
        let mut client = LspClient::spawn(bin, args, dir);
        let init = client.initialize(dir, json!({}), Value::Null);
        let sync = &init["capabilities"]["textDocumentSync"];
        let kind = sync.get("change").unwrap_or(sync);
        let full_sync = kind == &json!(1);
        let uri = file_uri(&dir.join(name));
        client.open(&uri, 1, text);
        client.diagnostics(&uri, None);
        Server {
            client,
            uri,
            text: text.to_string(),
            version: 1,
            full_sync,
        }
    }

    /// `shutdown` and `exit` without `params` (the peer refuses a null).
    fn stop(mut self) {
        self.client
            .send(&json!({ "jsonrpc": "2.0", "id": 1_000_000, "method": "shutdown" }));
        self.client.response(1_000_000);
        self.client
            .send(&json!({ "jsonrpc": "2.0", "method": "exit" }));
        // tower-lsp 0.20 (the peer's) leaves only at the end of its input.
        self.client.close_stdin();
        self.client.wait_exit();
    }

    /// Types `key.text` at its place (or deletes it): the time to the last
    /// byte of the diagnostics that follow, and to the client's JSON tree
    /// of them.
    fn keystroke(&mut self, key: Key, insert: bool) -> (Duration, Duration) {
        self.version += 1;
        let offset: usize = self
            .text
            .split_inclusive('\n')
            .take(key.line as usize)
            .map(str::len)
            .sum::<usize>()
            + key.column as usize;
        if insert {
            self.text.insert(offset, key.text);
        } else {
            self.text.remove(offset);
        }
        let start = Instant::now();
        let (line, column) = (key.line, key.column);
        if self.full_sync {
            self.client.notify(
                "textDocument/didChange",
                json!({ "textDocument": { "uri": self.uri, "version": self.version },
                        "contentChanges": [{ "text": self.text }] }),
            );
        } else if insert {
            let typed = key.text.to_string();
            self.client.change(
                &self.uri,
                self.version,
                &[(line, column, line, column, &typed)],
            );
        } else {
            self.client.change(
                &self.uri,
                self.version,
                &[(line, column, line, column + 1, "")],
            );
        }
        // The peer's diagnostics carry no version: the next publication
        // is the one that follows the change (one per change, as it
        // publishes after each).
        let version = (!self.full_sync).then_some(self.version);
        // Until the publication's last byte is read: parsing it into a
        // JSON tree is the client's work (about 2 ms for the 209 KB of
        // our 585 diagnostics of the generated program, nothing for the
        // peer's 1 KB of 5), and so is freeing it.
        let (published, arrived) = self.client.diagnostics_arrival(&self.uri, version);
        let parsed = start.elapsed();
        drop(published);
        (arrived - start, parsed)
    }
}

/// A keystroke: an ASCII character typed at a line and column (the same
/// in bytes and in UTF-16 code units), then deleted.
#[derive(Clone, Copy)]
struct Key {
    line: u32,
    column: u32,
    text: char,
    /// What the rows call it.
    what: &'static str,
}

impl Key {
    /// `#` at the start of the middle line: comments a statement out and
    /// back in (a re-parse of the statement, names and file-wide rules).
    fn comment(program: &str) -> Key {
        Key {
            line: (program.lines().count() / 2) as u32,
            column: 0,
            text: '#',
            what: "keystroke",
        }
    }

    /// `x` in the text of the first `prompt:` at or after the middle line:
    /// typing in a prompt, what most typing in a program is.
    fn prompt(program: &str) -> Key {
        const PROMPT: &str = "prompt: \"";
        let lines: Vec<&str> = program.lines().collect();
        let (line, text) = (lines.len() / 2..lines.len())
            .map(|i| (i, lines[i]))
            .find(|(_, l)| l.contains(PROMPT) && l.is_ascii())
            .expect("the generated program has prompts");
        Key {
            line: line as u32,
            column: (text.find(PROMPT).unwrap() + PROMPT.len() + 2) as u32,
            text: 'x',
            what: "keystroke in a prompt",
        }
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// The `prose` binary measured as ours: `PROSE_BENCH_OURS`, or the one
/// built with this benchmark.
fn ours_binary() -> PathBuf {
    match std::env::var_os("PROSE_BENCH_OURS") {
        Some(path) => {
            let path = PathBuf::from(path);
            if !path.is_file() {
                eprintln!(
                    "PROSE_BENCH_OURS={} is not a file: build it first (see the README's Install section)",
                    path.display()
                );
                std::process::exit(2);
            }
            eprintln!("ours: {} (PROSE_BENCH_OURS)", path.display());
            path
        }
        None => PathBuf::from(env!("CARGO_BIN_EXE_prose")),
    }
}

/// Keystrokes in blocks, alternating between the two servers: rows for
/// the time to the publication's last byte, then to the client's JSON tree
/// of it.
fn keystrokes(
    ours: &Path,
    peer: Option<&Path>,
    dir: &Path,
    program: &str,
    blocks: usize,
    key: Key,
) -> Vec<String> {
    let mut a = Server::start(ours, &["lsp"], dir, "ours.prose", program);
    let mut b = peer.map(|p| Server::start(p, &[], dir, "peer.prose", program));
    let (mut ours_l, mut peer_l) = (Vec::new(), Vec::new());
    for _ in 0..blocks {
        for i in 0..EDITS_PER_BLOCK {
            ours_l.push(a.keystroke(key, i % 2 == 0));
        }
        if let Some(b) = &mut b {
            for i in 0..EDITS_PER_BLOCK {
                peer_l.push(b.keystroke(key, i % 2 == 0));
            }
        }
    }
    a.stop();
    if let Some(b) = b {
        b.stop();
    }
    let lines = program.lines().count();
    let mut rows = Vec::new();
    for (clock, label) in [
        (
            (|t: &(Duration, Duration)| t.0) as fn(&(Duration, Duration)) -> Duration,
            format!(
                "{} → publishDiagnostics received, {lines}-line program",
                key.what
            ),
        ),
        (
            |t: &(Duration, Duration)| t.1,
            format!(
                "{} → publishDiagnostics parsed by the client, {lines}-line program",
                key.what
            ),
        ),
    ] {
        let mut ours_t: Vec<Duration> = ours_l.iter().map(clock).collect();
        let mut peer_t: Vec<Duration> = peer_l.iter().map(clock).collect();
        ours_t.sort();
        peer_t.sort();
        let n = ours_t.len();
        for (name, p) in [("p50", 0.5), ("p99", 0.99)] {
            let o = percentile(&ours_t, p);
            if peer_t.is_empty() {
                rows.push(format!("| {label}, {name} of {n} | {} | — | — |", ms(o)));
            } else {
                let q = percentile(&peer_t, p);
                rows.push(format!(
                    "| {label}, {name} of {n} | {} | {} | {} |",
                    ms(o),
                    ms(q),
                    ratio(o.as_secs_f64(), q.as_secs_f64())
                ));
            }
        }
    }
    rows
}
