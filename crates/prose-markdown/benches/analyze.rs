//! Throughput of the markdown front end on large inputs.
//!
//! `cargo bench -p prose-markdown --bench analyze`; numbers and machine in
//! docs/performance/markdown.md.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use prose_markdown::{NoFiles, instructions, markdown, prompt};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod markdown_gen;

const SIZE: usize = 1 << 20;

fn bench(c: &mut Criterion) {
    let ins_text = markdown_gen::instruction_file(SIZE);
    let ordinary = markdown_gen::ordinary_markdown(SIZE);
    let prompt_text = markdown_gen::prompt_file(SIZE);
    let mut g = c.benchmark_group("markdown");
    g.sample_size(20);

    g.throughput(Throughput::Bytes(ins_text.len() as u64));
    g.bench_function("analyze_and_check_instructions_1mb", |b| {
        b.iter(|| {
            let ins = instructions::analyze_instructions(
                black_box(&ins_text),
                instructions::FragmentKind::File,
            );
            black_box(instructions::check(&ins_text, &ins, &NoFiles))
        })
    });
    g.bench_function("semantic_tokens_instructions_1mb", |b| {
        let ins = instructions::analyze_instructions(&ins_text, instructions::FragmentKind::File);
        b.iter(|| black_box(instructions::semantic_tokens(&ins_text, &ins)))
    });

    g.throughput(Throughput::Bytes(ordinary.len() as u64));
    g.bench_function("is_instruction_file_ordinary_1mb", |b| {
        b.iter(|| black_box(instructions::is_instruction_file(black_box(&ordinary))))
    });
    g.bench_function("analyze_and_check_ordinary_1mb", |b| {
        b.iter(|| {
            let ins = instructions::analyze_instructions(
                black_box(&ordinary),
                instructions::FragmentKind::File,
            );
            black_box(instructions::check(&ordinary, &ins, &NoFiles))
        })
    });
    g.bench_function("fences_ordinary_1mb", |b| {
        b.iter(|| black_box(markdown::fences(black_box(&ordinary))))
    });

    g.throughput(Throughput::Bytes(prompt_text.len() as u64));
    g.bench_function("parse_and_check_prompt_1mb", |b| {
        b.iter(|| {
            let file = prompt::parse_prompt_file(black_box(&prompt_text));
            black_box(prompt::check(&prompt_text, &file, &NoFiles))
        })
    });
    for (name, text) in markdown_gen::pathological(SIZE) {
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_function(format!("pathological_1mb/{name}"), |b| {
            b.iter(|| {
                let ins = instructions::analyze_instructions(
                    black_box(&text),
                    instructions::FragmentKind::File,
                );
                let d = instructions::check(&text, &ins, &NoFiles);
                let file = prompt::parse_prompt_file(&text);
                black_box((d, prompt::check(&text, &file, &NoFiles)))
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
