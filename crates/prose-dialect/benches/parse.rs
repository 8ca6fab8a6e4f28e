//! Pattern Dialect parser throughput, in actions per second
//! (docs/performance/dialect.md).
//!
//! `cargo bench -p prose-dialect --bench parse`

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use prose_dialect::{BlockRegistry, DialectParser};

// The binaries' allocator (docs/architecture.md).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Simple one-line actions, the everyday output of an agent.
const SIMPLE: &[&str] = &[
    "/recall project_notes",
    "/recall project deadlines",
    "/reply sounds good .",
    "/post bluesky \"hello\" ?public",
    "/search in archival deadlines",
    "/tell @entropy \"can you help break this down?\"",
    "/fetch https://example.com",
    "/approve req-42",
    "/calc 20% of 350",
    "/context persona + \"likes tea\"",
];

/// Every form: blocks, quotes, chains, batches, markers, errors.
const MIXED: &str = r#"Let me look that up first.
/recall meeting notes -> /summarize -> /tell @entropy
/post bluesky """
multi-line
content
""" ?public
/post bluesky
> block quote
> also works
/recall patch notes ```diff
- old
+ new
```
/batch {
  /recall project_notes
  /search conversations about project
  /fetch https://project-docs.example.com
}
/send @bluesky @at://did:plc:xxx/post/yyy "replying here"
/search rust async > 2 weeks role:assistant
/aprove req-1
/recal x ?
"#;

fn bench(c: &mut Criterion) {
    assert!(
        SIMPLE
            .iter()
            .all(|l| DialectParser::new().parse(l).error().is_none()),
        "the simple actions parse without errors"
    );
    let registry = BlockRegistry::parse("project_notes\nmeeting_notes\n[context]\npersona\n");
    let parser = DialectParser::new().with_registry(registry.expect("a valid registry"));
    let mut g = c.benchmark_group("dialect");
    g.sample_size(30);

    g.throughput(Throughput::Elements(SIMPLE.len() as u64));
    g.bench_function("parse_simple_action", |b| {
        b.iter(|| {
            for line in SIMPLE {
                black_box(parser.parse(black_box(line)));
            }
        })
    });

    let lines = 100_000;
    let doc: String = SIMPLE
        .iter()
        .cycle()
        .take(lines)
        .flat_map(|l| [*l, "\n"])
        .collect();
    g.throughput(Throughput::Elements(lines as u64));
    g.bench_function("parse_actions_100k_simple", |b| {
        b.iter(|| black_box(parser.parse_actions(black_box(&doc))))
    });
    g.bench_function("parse_document_100k_simple", |b| {
        b.iter(|| black_box(parser.parse_document(black_box(&doc))))
    });

    let mixed = MIXED.repeat(5_000);
    let actions = parser.parse_actions(MIXED).actions.len() * 5_000;
    g.throughput(Throughput::Elements(actions as u64));
    g.bench_function("parse_document_mixed", |b| {
        b.iter(|| black_box(parser.parse_document(black_box(&mixed))))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
