//! Job entries: reading and checking a generated entry with 1,000 tasks and
//! 1,000 prompt variables (about 1 MB), the size of a very large real one.
//!
//!     cargo bench -p prose-jobs --bench validate
//!
//! Results and the machine they were measured on: docs/performance/jobs.md.

#[path = "entry_gen/mod.rs"]
mod entry_gen;

use std::{hint::black_box, time::Duration};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

// The allocator of the `prose` and `prose-lsp` binaries.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn jobs(c: &mut Criterion) {
    let text = entry_gen::entry(1000, 1000);
    let parsed = prose_jobs::parse(&text);
    // Meaningless unless the entry is the clean entry it claims to be.
    let diagnostics = prose_jobs::validate(&parsed);
    assert!(
        diagnostics.is_empty(),
        "{:?}",
        &diagnostics[..diagnostics.len().min(3)]
    );
    assert_eq!(
        (
            parsed.entry.tasks.len(),
            parsed.entry.prompt_variables.len()
        ),
        (1000, 1002)
    );

    eprintln!(
        "generated entry: {} bytes, {} lines",
        text.len(),
        text.lines().count()
    );

    let mut group = c.benchmark_group("jobs");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_secs(2))
        .measurement_time(Duration::from_secs(8))
        .throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("json", |b| {
        b.iter(|| prose_jobs::json::parse(black_box(&text)))
    });
    group.bench_function("parse", |b| b.iter(|| prose_jobs::parse(black_box(&text))));
    group.bench_function("validate", |b| {
        b.iter(|| prose_jobs::validate(black_box(&parsed)))
    });
    group.bench_function("parse_validate", |b| {
        b.iter(|| prose_jobs::validate(&prose_jobs::parse(black_box(&text))))
    });
    group.bench_function("index", |b| {
        b.iter(|| prose_jobs::index::Index::build(black_box(&parsed.entry)))
    });
    group.bench_function("expand_every_task", |b| {
        b.iter(|| {
            for t in &parsed.entry.tasks {
                black_box(prose_jobs::task_prompt(&parsed.entry, t.name.as_str()));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, jobs);
criterion_main!(benches);
