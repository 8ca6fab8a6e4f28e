//! How the cost of the paths that used to be quadratic grows with their
//! input: each case runs at 1×, 2×, 4× and 8× its base size and prints the
//! time of each size and its ratio to the previous one (2.0 is linear).
//!
//!     cargo bench -p prose-ide --bench scaling
//!     cargo bench -p prose-ide --bench scaling -- code_actions   # one case
//!     SCALING_BASE=4 cargo bench -p prose-ide --bench scaling    # bigger inputs
//!
//! Cases:
//! - `code_actions`: every quick fix of a whole generated program (the
//!   syntax benchmark's units; 41 diagnostics per 12 KB);
//! - `duplicate_variable`: one `parallel:` block binding the same name on
//!   every line (E019 compares each declaration with the earlier ones);
//! - `parallel_blocks`: `parallel:` blocks in a row, all binding one name;
//! - `redeclared_inputs`: `input topic: "t"` on every line (E021);
//! - `selection_ranges`: the selection chain at 2,001 positions per base
//!   size spread over a generated program;
//! - `suggestions`: undefined interpolations among many variables (the
//!   "did you mean" of P101 and friends);
//! - `elif_chain`: one `if` with thousands of `elif`s (P904 looked for an
//!   `else` among the chain's clauses once per `elif`);
//! - `one_name_outputs`: `output v = v` on every line (each reference
//!   looked for the last binding among every binding of its name);
//! - `use_statements`: a `use` of a different program on every line (E010
//!   and P201 compared each with every earlier one; the reads P204 records
//!   were kept in a list searched on each);
//! - `block_chain`: blocks each calling the next, defined last first
//!   (E018 and W011 placed the block bodies by paths as long as the chain,
//!   again in as many rounds as there were blocks);
//! - `job_variable_chain`: a job entry's prompt variables each naming the
//!   next in a way that reads as one unknown name (J015 compared that name
//!   with every variable once per use).
//!
//! Results: docs/performance/scaling.md.

#[path = "../../prose-syntax/benches/program_gen/mod.rs"]
mod program_gen;

use std::time::{Duration, Instant};

use prose_ide::{AnalysisHost, FileRange, TextRange, TextSize};

// The allocator the binaries use (rowan allocates per node and token).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// One case: its name and how to build and time an input of scale `k`.
struct Case {
    name: &'static str,
    /// The input text at scale `k` (1, 2, 4, 8).
    input: fn(usize) -> String,
    /// The timed work on a host holding that text at `/ws/a.prose`.
    run: fn(&AnalysisHost, usize),
    /// Whether each run starts from a changed text (the rules' cases:
    /// their results are cached otherwise); the re-parse is timed too.
    fresh: bool,
    /// The file's path (its name says what language it holds).
    file: &'static str,
}

fn base() -> usize {
    std::env::var("SCALING_BASE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1)
}

const FILE: &str = "/ws/a.prose";

/// A job entry's path.
const JOB_FILE: &str = "/ws/a.jobs.json";

fn file(host: &AnalysisHost) -> prose_ide::FileId {
    host.file_id(FILE)
        .or_else(|| host.file_id(JOB_FILE))
        .expect("the file is loaded")
}

fn diagnostics(host: &AnalysisHost, _: usize) {
    let d = host.analysis().diagnostics(file(host)).unwrap();
    std::hint::black_box(d);
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "code_actions",
            input: |k| program_gen::program(k * base() * 256 * 1024),
            run: |host, _| {
                let analysis = host.analysis();
                let file = file(host);
                let len = analysis.file_text(file).unwrap().len();
                // The diagnostics first, untimed by themselves: the case
                // is about the fixes.
                let range = TextRange::up_to(TextSize::from(len as u32));
                let actions = analysis.code_actions(FileRange { file, range }).unwrap();
                std::hint::black_box(actions);
            },
            fresh: false,
            file: FILE,
        },
        Case {
            name: "duplicate_variable",
            input: |k| {
                let mut s = String::from("parallel:\n");
                for _ in 0..k * base() * 4_000 {
                    s.push_str("  a = session \"x\"\n");
                }
                s
            },
            run: diagnostics,
            fresh: true,
            file: FILE,
        },
        Case {
            name: "parallel_blocks",
            input: |k| "parallel:\n  a = session \"x\"\n".repeat(k * base() * 1_000),
            run: diagnostics,
            fresh: true,
            file: FILE,
        },
        Case {
            name: "redeclared_inputs",
            input: |k| "input topic: \"t\"\n".repeat(k * base() * 2_000),
            run: diagnostics,
            fresh: true,
            file: FILE,
        },
        Case {
            name: "selection_ranges",
            input: |k| program_gen::program(k * base() * 256 * 1024),
            run: |host, k| {
                let analysis = host.analysis();
                let file = file(host);
                let len = analysis.file_text(file).unwrap().len();
                let n = 2_001 * k * base();
                let offsets = (0..n)
                    .map(|i| TextSize::from((len * i / n) as u32))
                    .collect();
                let chains = analysis.selection_ranges(file, offsets).unwrap();
                std::hint::black_box(chains);
            },
            fresh: false,
            file: FILE,
        },
        Case {
            name: "suggestions",
            input: |k| {
                let mut s = String::new();
                for i in 0..k * base() * 2_000 {
                    s.push_str(&format!(
                        "let result_{i} = session \"Use {{reslt_{i}}} and {{other_{i}}}\"\n"
                    ));
                }
                s
            },
            run: diagnostics,
            fresh: true,
            file: FILE,
        },
        Case {
            name: "elif_chain",
            input: |k| {
                let mut s = String::from("if **a**:\n  session \"x\"\n");
                for _ in 0..k * base() * 2_000 {
                    s.push_str("elif **b**:\n  session \"y\"\n");
                }
                s
            },
            run: diagnostics,
            fresh: true,
            file: FILE,
        },
        Case {
            name: "one_name_outputs",
            input: |k| {
                let mut s = String::from("let v = session \"s\"\n");
                s.push_str(&"output v = v\n".repeat(k * base() * 2_000));
                s
            },
            run: diagnostics,
            fresh: true,
            file: FILE,
        },
        Case {
            name: "use_statements",
            input: |k| {
                let mut s = String::new();
                for i in 0..k * base() * 1_000 {
                    s.push_str(&format!("use \"@alice/p{i}\"\n"));
                }
                s.push_str("session \"x\"\n");
                s
            },
            run: diagnostics,
            fresh: true,
            file: FILE,
        },
        Case {
            name: "block_chain",
            input: |k| {
                let n = k * base() * 250;
                let mut s = format!(
                    "agent a:\n  model: sonnet\n  persist: true\nblock b{n}():\n  resume: a\n    prompt: \"p\"\n"
                );
                for i in (0..n).rev() {
                    s.push_str(&format!("block b{i}():\n  session: a\n  do b{}()\n", i + 1));
                }
                s.push_str("do b0()\n");
                s
            },
            run: diagnostics,
            fresh: true,
            file: FILE,
        },
        Case {
            name: "job_variable_chain",
            input: |k| {
                let n = k * base() * 1_000;
                let vars: Vec<String> = (0..n)
                    .map(|i| format!("\"v{i}\":[\"$v{}\"]", i + 1))
                    .collect();
                format!(
                    "{{\"promptVariables\":{{{}}},\"tasks\":{{\"t\":{{\"prompt\":[\"$v0\"]}}}}}}\n",
                    vars.join(",")
                )
            },
            run: diagnostics,
            fresh: true,
            file: JOB_FILE,
        },
    ]
}

/// The best of a few runs (fewer for slow ones).
fn time(host: &mut AnalysisHost, k: usize, case: &Case, text: &str) -> Duration {
    let mut best = Duration::MAX;
    let start = Instant::now();
    for i in 0..5 {
        let t = Instant::now();
        if case.fresh {
            // A changed text, so nothing is cached from the previous run.
            let text = if i % 2 == 0 {
                format!("{text}\n")
            } else {
                text.to_string()
            };
            host.set_file_text(case.file, text);
        }
        (case.run)(host, k);
        best = best.min(t.elapsed());
        if start.elapsed() > Duration::from_secs(20) {
            break;
        }
    }
    best
}

fn main() {
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    for case in cases() {
        if !filter.is_empty() && !filter.iter().any(|f| case.name.contains(f.as_str())) {
            continue;
        }
        let mut previous: Option<Duration> = None;
        let mut line = format!("{:<20}", case.name);
        for k in [1, 2, 4, 8] {
            let text = (case.input)(k);
            let bytes = text.len();
            let mut host = AnalysisHost::new();
            host.set_file_text(case.file, text.clone());
            // Parse, names and rules once, untimed, so each run times its
            // own path over a warm file.
            host.analysis().diagnostics(file(&host)).unwrap();
            let t = time(&mut host, k, &case, &text);
            let ratio = previous.map_or(String::new(), |p| {
                format!(" (×{:.1})", t.as_secs_f64() / p.as_secs_f64())
            });
            line.push_str(&format!(
                "  {k}×{:>6} KB {:>9.1} ms{ratio}",
                bytes / 1024,
                t.as_secs_f64() * 1000.0
            ));
            previous = Some(t);
        }
        println!("{line}");
    }
}
