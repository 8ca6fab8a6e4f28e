//! Semantic tokens in Pattern Dialect: the parser's highlighted pieces
//! (`prose_dialect::semantic`), in the shared legend. Prose between actions
//! is not classified.
//!
//! | dialect piece | legend type |
//! |---|---|
//! | verb (`/recall`, the sigil included; also an unknown verb) | `function` |
//! | subcommand or modifier (`append`, `in archival`, `always`, `+`, `> 2 weeks`) | `keyword` |
//! | `->`, `{`, `}` | `operator` |
//! | permission marker (`.`, `?`, `?ask`, `!`, `?public`) | `modifier` |
//! | reference (`@last.output`, `@thread`, `@[uri]`, `that`) | `variable` + `readonly` |
//! | target, /send domain, /post platform (`@entropy`, `@agent`, `bluesky`) | `class` |
//! | memory block, request id, data source | `property` |
//! | content (strings, `"""` blocks, fences, `>` quotes) and URLs | `string` |
//!
//! As LSP requires, the result is sorted, never overlaps and never spans
//! lines: a multi-line content block is split at its line breaks, blank
//! pieces left out.

use prose_dialect::{Document, semantic::SemanticKind};
use prose_syntax::{TextRange, TextSize};

use crate::{
    db::{Db, SourceFile, Workspace},
    features::semantic_tokens::{SemanticToken, SemanticTokenKind, TokenModifiers},
    openprose::features::semantic_tokens::touches,
};

/// The tokens of dialect `text` parsed as `doc` (those touching `range`,
/// if given), in `text`'s offsets.
pub fn semantic_tokens(text: &str, doc: &Document, range: Option<TextRange>) -> Vec<SemanticToken> {
    let mut out = Vec::new();
    // Tokens are ordered by position: skip those before the range.
    let first = range.map_or(0, |r| {
        doc.tokens
            .partition_point(|t| t.span.end < usize::from(r.start()))
    });
    for t in &doc.tokens[first..] {
        let whole = super::range(t.span);
        if let Some(r) = range {
            if whole.start() > r.end() {
                break;
            }
            if !touches(r, whole) {
                continue;
            }
        }
        let (kind, modifiers) = classify(t.kind);
        split_lines(text, whole, |piece| {
            if range.is_none_or(|r| touches(r, piece)) {
                out.push(SemanticToken {
                    range: piece,
                    kind,
                    modifiers,
                });
            }
        });
    }
    out
}

pub(crate) fn file_semantic_tokens(
    db: &dyn Db,
    ws: Workspace,
    file: SourceFile,
    range: Option<TextRange>,
) -> Vec<SemanticToken> {
    semantic_tokens(file.text(db), super::document(db, file, Some(ws)), range)
}

/// The legend type and modifiers of a dialect piece (the table above).
fn classify(kind: SemanticKind) -> (SemanticTokenKind, TokenModifiers) {
    let plain = |k| (k, TokenModifiers::NONE);
    match kind {
        SemanticKind::Verb => plain(SemanticTokenKind::Block),
        SemanticKind::Keyword => plain(SemanticTokenKind::Keyword),
        SemanticKind::Operator => plain(SemanticTokenKind::Operator),
        SemanticKind::Marker => plain(SemanticTokenKind::Modifier),
        SemanticKind::Reference => (SemanticTokenKind::Variable, TokenModifiers::READONLY),
        SemanticKind::Target => plain(SemanticTokenKind::Agent),
        SemanticKind::Block => plain(SemanticTokenKind::Property),
        SemanticKind::String | SemanticKind::Url => plain(SemanticTokenKind::String),
    }
}

/// Calls `f` with each line's piece of `range` in `text`, line breaks and
/// blank pieces left out.
fn split_lines(text: &str, range: TextRange, mut f: impl FnMut(TextRange)) {
    let Some(slice) = text.get(std::ops::Range::<usize>::from(range)) else {
        return;
    };
    let mut offset = range.start();
    for line in slice.split_inclusive('\n') {
        let piece = line.trim_end_matches(['\n', '\r']);
        if !piece.trim().is_empty() {
            f(TextRange::at(offset, TextSize::of(piece)));
        }
        offset += TextSize::of(line);
    }
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};
    use prose_syntax::TextRange;

    use crate::{
        fixture::Fixture, kind::FileKind, openprose::features::semantic_tokens::render_tokens,
    };

    /// The tokens of dialect `text`, rendered as `line:col text kind [modifiers]`.
    fn render(text: &str, range: Option<TextRange>) -> String {
        let (host, file) = Fixture::parse_as(text, FileKind::Dialect).host(None);
        render_tokens(text, &host.analysis().semantic_tokens(file, range).unwrap())
    }

    fn check(text: &str, expect: Expect) {
        expect.assert_eq(&render(text, None));
    }

    #[test]
    fn every_kind_in_the_legend() {
        check(
            "I'll check first.\n/recall append notes + \"x\" ? -> /send @agent @entropy @last.output\n/fetch https://x.y html\n/tell @a that !\n/approve req-1 always\n",
            expect![[r#"
                2:1 /recall function
                2:9 append keyword
                2:16 notes property
                2:22 + keyword
                2:24 "x" string
                2:28 ? modifier
                2:30 -> operator
                2:33 /send function
                2:39 @agent class
                2:46 @entropy class
                2:55 @last.output variable [readonly]
                3:1 /fetch function
                3:8 https://x.y string
                3:20 html keyword
                4:1 /tell function
                4:7 @a class
                4:10 that variable [readonly]
                4:15 ! modifier
                5:1 /approve function
                5:10 req-1 property
                5:16 always keyword
            "#]],
        );
    }

    #[test]
    fn multi_line_content_is_split_at_line_breaks() {
        check(
            "/reply \"\"\"\nfirst line\n\n  second\n\"\"\" ?\n/batch {\n  /recall a\n} !\n",
            expect![[r#"
                1:1 /reply function
                1:8 """ string
                2:1 first line string
                4:1   second string
                5:1 """ string
                5:5 ? modifier
                6:1 /batch function
                6:8 { operator
                7:3 /recall function
                8:1 } operator
                8:3 ! modifier
            "#]],
        );
    }

    #[test]
    fn a_range_keeps_the_tokens_it_touches() {
        let text = "/recall notes\n/reply ok .\n/tell @a hi\n";
        let second = TextRange::new(14.into(), 25.into());
        expect![[r#"
            2:1 /reply function
            2:11 . modifier
        "#]]
        .assert_eq(&render(text, Some(second)));
        expect![[""]].assert_eq(&render(text, Some(TextRange::new(99.into(), 120.into()))));
    }
}
