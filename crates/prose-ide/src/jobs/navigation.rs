//! Go to definition, find references and document highlight in job
//! entries, all read from the entry's [`Index`].
//!
//! - **Definition**: from a `$variable`, a task in `previousTasks`, a
//!   task's `model` or a keyword in `previousJobKeywords`, the key (or grid
//!   row) that defines it; a keyword several grid rows share goes to each
//!   row. From a definition, itself. Runtime variables, tools and names
//!   that are defined nowhere go nowhere.
//! - **References**: every occurrence of the name under the cursor, `$uses`
//!   inside prompt strings included (even written with escapes); the
//!   definitions too when asked. Built-ins (`$user-input`, a tool) have
//!   references but no definition.
//! - **Highlight**: the same occurrences, definitions as writes.
//!
//! Ranges are the name alone: without `$`, without quotes.

use prose_jobs::index::{Index, Symbol, SymbolKind as JobKind};
use prose_syntax::{TextRange, TextSize};

use crate::{
    FileId, FileRange,
    db::{Db, SourceFile},
    features::{
        highlight_related::Access,
        navigation::{NavigationTarget, SymbolKind},
    },
    jobs::index,
};

/// The outline and navigation kind of a definition of `kind`.
pub(crate) fn symbol_kind(kind: JobKind) -> SymbolKind {
    match kind {
        JobKind::PromptVariable | JobKind::RuntimeVariable => SymbolKind::Variable,
        JobKind::Task => SymbolKind::Task,
        JobKind::GridKeyword => SymbolKind::GridRow,
        JobKind::ModelKey => SymbolKind::ModelKey,
        JobKind::Tool => SymbolKind::Block,
    }
}

pub(crate) fn goto_definition(
    db: &dyn Db,
    file_id: FileId,
    file: SourceFile,
    offset: TextSize,
) -> Vec<NavigationTarget> {
    let index = index(db, file);
    let Some(symbol) = index.at(offset) else {
        return Vec::new();
    };
    let targets: Vec<usize> = match symbol {
        Symbol::Definition(i) => vec![i],
        Symbol::Reference(i) => {
            let r = &index.references[i];
            match (r.kind, r.target) {
                // Every row with the keyword defines it.
                (JobKind::GridKeyword, Some(_)) => index.occurrences(symbol).0,
                (_, target) => target.into_iter().collect(),
            }
        }
    };
    targets
        .into_iter()
        .map(|i| {
            let d = &index.definitions[i];
            NavigationTarget {
                file: file_id,
                full_range: d.full_range,
                focus_range: Some(d.name_range),
                name: d.name.clone(),
                kind: symbol_kind(d.kind),
            }
        })
        .collect()
}

/// Every occurrence of the name `symbol` has: its name range and whether
/// it defines the name, sorted by position.
pub(crate) fn occurrences(index: &Index, symbol: Symbol) -> Vec<(TextRange, Access)> {
    let (defs, refs) = index.occurrences(symbol);
    let mut out: Vec<(TextRange, Access)> = defs
        .into_iter()
        .map(|i| (index.definitions[i].name_range, Access::Write))
        .chain(
            refs.into_iter()
                .map(|i| (index.references[i].name_range, Access::Read)),
        )
        .collect();
    out.sort_by_key(|(r, _)| (r.start(), r.end()));
    out.dedup();
    out
}

pub(crate) fn references(
    db: &dyn Db,
    file_id: FileId,
    file: SourceFile,
    offset: TextSize,
    include_declaration: bool,
) -> Vec<FileRange> {
    let index = index(db, file);
    let Some(symbol) = index.at(offset) else {
        return Vec::new();
    };
    occurrences(index, symbol)
        .into_iter()
        .filter(|(_, access)| include_declaration || *access == Access::Read)
        .map(|(range, _)| FileRange {
            file: file_id,
            range,
        })
        .collect()
}

pub(crate) fn highlight_related(
    db: &dyn Db,
    file: SourceFile,
    offset: TextSize,
) -> Vec<(TextRange, Access)> {
    let index = index(db, file);
    index
        .at(offset)
        .map(|symbol| occurrences(index, symbol))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};

    use crate::{fixture::Fixture, jobs::tests::ENTRY, kind::FileKind};

    fn slices(text: &str, ranges: impl IntoIterator<Item = crate::TextRange>) -> String {
        ranges
            .into_iter()
            .map(|r| {
                let line = text[..usize::from(r.start())].matches('\n').count() + 1;
                format!("{line}:{:?}", &text[r])
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn definition(fixture: &str, expect: Expect) {
        let (host, pos) = Fixture::parse_as(fixture, FileKind::JobEntry).position();
        let a = host.analysis();
        let text = a.file_text(pos.file).unwrap();
        let targets = a.goto_definition(pos).unwrap();
        let shown: Vec<String> = targets
            .iter()
            .map(|t| {
                format!(
                    "{:?} {} full={:?}",
                    t.kind,
                    slices(&text, t.focus_range),
                    text[t.full_range].chars().take(20).collect::<String>()
                )
            })
            .collect();
        expect.assert_eq(&shown.join("\n"));
    }

    fn references(fixture: &str, include_declaration: bool, expect: Expect) {
        let (host, pos) = Fixture::parse_as(fixture, FileKind::JobEntry).position();
        let a = host.analysis();
        let text = a.file_text(pos.file).unwrap();
        let refs = a.references(pos, include_declaration).unwrap();
        assert!(refs.iter().all(|r| r.file == pos.file));
        expect.assert_eq(&slices(&text, refs.iter().map(|r| r.range)));
    }

    /// ENTRY with a cursor at the `n`th (0-based) occurrence of `needle`,
    /// `delta` bytes in.
    fn at(needle: &str, n: usize, delta: usize) -> String {
        let at = ENTRY.match_indices(needle).nth(n).expect("needle").0 + delta;
        format!("{}$0{}", &ENTRY[..at], &ENTRY[at..])
    }

    #[test]
    fn definitions_of_every_kind_of_name() {
        definition(
            &at("$rules", 1, 2),
            expect![[r#"Variable 4:"rules" full="\"rules\": [\"Read AGEN""#]],
        );
        // A use written with an escape.
        definition(
            &at("\\u0024style", 0, 3),
            expect![[r#"Variable 5:"style" full="\"style\": [\"Be brief.""#]],
        );
        definition(
            &at("\"planning\"", 1, 2),
            expect![[r#"ModelKey 2:"planning" full="\"planning\": \"gpt-5.2""#]],
        );
        definition(
            &at("\"plan-task\"", 1, 2),
            expect![[r#"Task 10:"plan-task" full="\"plan-task\": {\"model""#]],
        );
        // A keyword two rows share: both rows.
        definition(
            &at("\"scrum\"", 2, 2),
            expect![[r#"
                GridRow 8:"scrum" full="{\"keyword\": \"scrum\","
                GridRow 8:"scrum" full="{\"keyword\": \"scrum\",""#]],
        );
        // A definition is its own.
        definition(
            &at("\"style\"", 0, 2),
            expect![[r#"Variable 5:"style" full="\"style\": [\"Be brief.""#]],
        );
        // Built-ins and unknown names go nowhere.
        definition(&at("$user-input", 0, 2), expect![""]);
        definition(&at("job_boolean_true", 1, 2), expect![""]);
        definition(&at("$nope", 0, 2), expect![""]);
        definition(&at("Write the plan", 0, 2), expect![""]);
    }

    #[test]
    fn references_with_and_without_declarations() {
        references(
            &at("$rules", 0, 3),
            true,
            expect![[r#"4:"rules" 10:"rules" 11:"rules""#]],
        );
        references(
            &at("$rules", 0, 3),
            false,
            expect![[r#"10:"rules" 11:"rules""#]],
        );
        // From the definition, through an escaped use.
        references(
            &at("\"style\"", 0, 3),
            true,
            expect![[r#"4:"style" 5:"style" 11:"style""#]],
        );
        references(
            &at("\"plan-task\"", 0, 3),
            true,
            expect![[r#"10:"plan-task" 11:"plan-task""#]],
        );
        references(
            &at("$user-input", 0, 3),
            true,
            expect![[r#"10:"user-input" 11:"user-input""#]],
        );
    }

    #[test]
    fn highlights_mark_definitions_as_writes() {
        let (host, pos) = Fixture::parse_as(&at("$style", 0, 3), FileKind::JobEntry).position();
        let a = host.analysis();
        let text = a.file_text(pos.file).unwrap();
        let shown: Vec<String> = a
            .highlight_related(pos)
            .unwrap()
            .into_iter()
            .map(|(r, access)| format!("{:?} {access:?}", &text[r]))
            .collect();
        expect![[r#"["\"style\" Read", "\"style\" Write", "\"style\" Read"]"#]]
            .assert_eq(&format!("{shown:?}"));
    }
}
