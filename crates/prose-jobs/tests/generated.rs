//! The generated entry of the benchmark is clean at every size, and large
//! ones check quickly enough to be in a test (a loose bound: the numbers
//! are in docs/performance/jobs.md).

#[path = "../benches/entry_gen/mod.rs"]
mod entry_gen;

#[test]
fn generated_entries_are_clean() {
    for (tasks, variables) in [(1, 1), (10, 3), (50, 200), (1000, 1000)] {
        let text = entry_gen::entry(tasks, variables);
        let parsed = prose_jobs::parse(&text);
        let diagnostics = prose_jobs::validate(&parsed);
        assert!(
            diagnostics.is_empty(),
            "{tasks} tasks, {variables} variables: {:?}",
            &diagnostics[..diagnostics.len().min(3)]
        );
        assert_eq!(parsed.entry.tasks.len(), tasks);
        let last = format!("task-{}", tasks - 1);
        let prompt = prose_jobs::task_prompt(&parsed.entry, &last)
            .unwrap()
            .unwrap();
        assert!(prompt.contains(&format!("# Task {}", tasks - 1)));
    }
}

#[test]
fn the_index_resolves_every_reference_of_the_generated_entry() {
    let text = entry_gen::entry(100, 100);
    let parsed = prose_jobs::parse(&text);
    let index = prose_jobs::index::Index::build(&parsed.entry);
    use prose_jobs::index::SymbolKind::{RuntimeVariable, Tool};
    assert!(
        index
            .references
            .iter()
            .all(|r| r.target.is_some() || matches!(r.kind, RuntimeVariable | Tool)),
        "unresolved: {:?}",
        index
            .references
            .iter()
            .find(|r| r.target.is_none() && !matches!(r.kind, RuntimeVariable | Tool))
    );
}
