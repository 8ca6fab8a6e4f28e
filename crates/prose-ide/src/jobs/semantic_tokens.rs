//! Semantic tokens in job entries: the `$variables` inside prompt strings
//! (prompt variables as variables, runtime variables as read-only ones),
//! so an editor colours them inside the JSON strings around them. The
//! rest of the file keeps the editor's own JSON highlighting.

use prose_jobs::index::SymbolKind;
use prose_syntax::TextRange;

use crate::{
    db::{Db, SourceFile},
    features::semantic_tokens::{SemanticToken, SemanticTokenKind, TokenModifiers},
    jobs::index,
};

pub(crate) fn semantic_tokens(
    db: &dyn Db,
    file: SourceFile,
    range: Option<TextRange>,
) -> Vec<SemanticToken> {
    let mut out: Vec<SemanticToken> = index(db, file)
        .references
        .iter()
        .filter(|r| range.is_none_or(|w| w.intersect(r.range).is_some_and(|i| !i.is_empty())))
        .filter_map(|r| {
            let modifiers = match r.kind {
                SymbolKind::PromptVariable => TokenModifiers::NONE,
                SymbolKind::RuntimeVariable => TokenModifiers::READONLY,
                _ => return None,
            };
            Some(SemanticToken {
                range: r.range,
                kind: SemanticTokenKind::Variable,
                modifiers,
            })
        })
        .collect();
    out.sort_by_key(|t| t.range.start());
    out
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use crate::{TextRange, TextSize, fixture::Fixture, jobs::tests::ENTRY, kind::FileKind};

    #[test]
    fn variables_in_prompts() {
        let (host, file) = Fixture::parse_as(ENTRY, FileKind::JobEntry).host(None);
        let a = host.analysis();
        let text = a.file_text(file).unwrap();
        let show = |tokens: Vec<crate::features::semantic_tokens::SemanticToken>| {
            tokens
                .iter()
                .map(|t| {
                    format!(
                        "{:?} {:?} {:?}",
                        &text[t.range],
                        t.kind,
                        t.modifiers.names().collect::<Vec<_>>()
                    )
                })
                .collect::<Vec<_>>()
                .join("\n")
        };
        expect![[r#"
            "\\u0024style" Variable []
            "$rules" Variable []
            "$user-input" Variable ["readonly"]
            "$rules" Variable []
            "$style" Variable []
            "$user-input" Variable ["readonly"]
            "$nope" Variable []
            "$answer" Variable []
            "$reported-false-reason" Variable ["readonly"]"#]]
        .assert_eq(&show(a.semantic_tokens(file, None).unwrap()));
        // A range: the tokens it touches.
        let at = TextSize::from(text.find("\"code-task\"").unwrap() as u32);
        let line = TextRange::new(at, at + TextSize::from(120));
        expect![[r#"
            "$rules" Variable []
            "$style" Variable []
            "$user-input" Variable ["readonly"]
            "$nope" Variable []"#]]
        .assert_eq(&show(a.semantic_tokens(file, Some(line)).unwrap()));
    }
}
