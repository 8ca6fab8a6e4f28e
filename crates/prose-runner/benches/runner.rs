//! Runner benchmarks (numbers and commands in docs/performance/runner.md):
//!
//! - `sessions_100`: a program of 100 sequential sessions on the mock
//!   backend, state writes not fsynced: the scheduling overhead of a
//!   session is the time divided by 100 (target: under 1 ms);
//! - `sessions_100_durable`: the same with every state write fsynced (the
//!   default), so the difference is the cost of durable state;
//! - `fanout_100x50ms`: a parallel block of 100 branches whose sessions each
//!   take 50 ms: about one branch's time when branches really overlap.
//!
//! `cargo bench -p prose-runner --bench runner`

use std::{fmt::Write, sync::Arc, time::Duration};

use criterion::{Criterion, criterion_group, criterion_main};
use prose_runner::{
    backend::mock::{MockBackend, MockScript},
    clock::FakeClock,
    events::Event,
    run::{RunOptions, prepare, start},
};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn run(src: &str, script: &str, durable: bool) {
    let root = tempfile::tempdir().unwrap();
    let mut o = RunOptions::new(root.path().join("bench.prose"), src, root.path());
    o.backend = Some(Arc::new(MockBackend::new(
        MockScript::parse(script).unwrap(),
    )));
    o.clock = Arc::new(FakeClock::new());
    o.durable = durable;
    o.skip_check = true;
    let prepared = prepare(o).unwrap();
    let handle = start(prepared, Arc::new(|_: &Event| {}), None);
    let outcome = handle.wait_blocking();
    assert_eq!(
        outcome.status,
        prose_runner::events::RunStatus::Succeeded,
        "{:?}",
        outcome.error
    );
}

fn sequential(n: usize) -> String {
    let mut s = String::from("agent a:\n  model: sonnet\n  prompt: \"You help\"\n\n");
    for i in 0..n {
        let _ = writeln!(s, "let x{i} = session: a\n  prompt: \"Step {i}\"");
        if i > 0 {
            let _ = writeln!(s, "  context: x{}", i - 1);
        }
    }
    s
}

fn fanout(n: usize) -> String {
    let mut s = String::from("parallel:\n");
    for i in 0..n {
        let _ = writeln!(s, "  b{i} = session \"Slow {i}\"");
    }
    s
}

fn benches(c: &mut Criterion) {
    let seq = sequential(100);
    let mut g = c.benchmark_group("runner");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    g.bench_function("sessions_100", |b| b.iter(|| run(&seq, "", false)));
    g.bench_function("sessions_100_durable", |b| b.iter(|| run(&seq, "", true)));
    let fan = fanout(100);
    g.bench_function("fanout_100x50ms", |b| {
        b.iter(|| {
            run(
                &fan,
                "[[rule]]\nprompt = \"Slow\"\ndelay = \"50ms\"\n",
                false,
            )
        })
    });
    g.finish();
}

criterion_group!(runner, benches);
criterion_main!(runner);
