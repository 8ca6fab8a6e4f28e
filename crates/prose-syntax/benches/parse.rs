//! Syntax throughput: lexing, and lexing + layout + parsing into the rowan
//! tree, over a generated ~4 MB program that uses every construct of the
//! language; plus the full parse of 10 MB of garbage (error recovery).
//!
//!     cargo bench -p prose-syntax --bench parse
//!
//! Results and the machine they were measured on: docs/performance/syntax.md.

#[path = "program_gen/mod.rs"]
mod program_gen;

use std::{hint::black_box, time::Duration};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

// The allocator of the `prose` and `prose-lsp` binaries.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const PROGRAM_BYTES: usize = 4 * 1024 * 1024;
const GARBAGE_BYTES: usize = 10 * 1024 * 1024;

fn syntax(c: &mut Criterion) {
    let program = program_gen::program(PROGRAM_BYTES);
    let garbage = program_gen::garbage(GARBAGE_BYTES);
    // The benchmark is meaningless if the program is not the valid program
    // it claims to be.
    assert!(prose_syntax::parse(&program).errors().is_empty());

    let mut group = c.benchmark_group("syntax");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_secs(2))
        .measurement_time(Duration::from_secs(10));

    group.throughput(Throughput::Bytes(program.len() as u64));
    group.bench_function("lex", |b| {
        b.iter(|| prose_syntax::lexer::lex(black_box(&program)))
    });
    group.bench_function("lex_layout", |b| {
        b.iter(|| {
            let lexed = prose_syntax::lexer::lex(black_box(&program));
            prose_syntax::layout::layout(&lexed, &program)
        })
    });
    group.bench_function("parse", |b| {
        b.iter(|| prose_syntax::parse(black_box(&program)))
    });
    // The same without dropping the tree (rowan frees it node by node,
    // ~15% of the above); an editor drops old trees off the typing path.
    group.bench_function("parse_no_drop", |b| {
        b.iter_with_large_drop(|| prose_syntax::parse(black_box(&program)))
    });

    group.throughput(Throughput::Bytes(garbage.len() as u64));
    group.bench_function("parse_garbage_10mb", |b| {
        b.iter(|| prose_syntax::parse(black_box(&garbage)))
    });
    group.finish();
}

criterion_group!(benches, syntax);
criterion_main!(benches);
