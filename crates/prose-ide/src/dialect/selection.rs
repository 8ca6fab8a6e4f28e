//! Selection ranges in Pattern Dialect ("expand selection"): the
//! highlighted piece under the cursor (a verb, a block name, a string),
//! then the link of the chain or the action of the batch that holds it,
//! then each enclosing action up to the whole action as written, then the
//! whole text. Outside actions: the line, then the whole text.

use prose_dialect::{Arguments, Document, ParsedAction, Span};
use prose_syntax::{TextRange, TextSize};

use crate::db::{Db, SourceFile, Workspace};

/// The chain of growing ranges at `offset` in dialect `text` parsed as
/// `doc`, innermost first, in `text`'s offsets.
pub fn selection_chain(text: &str, doc: &Document, offset: TextSize) -> Vec<TextRange> {
    let at = usize::from(offset);
    let mut spans: Vec<Span> = Vec::new();
    if let Some(item) = doc.action_at(at) {
        let i = doc.tokens.partition_point(|t| t.span.start <= at);
        if let Some(t) = i.checked_sub(1).map(|i| &doc.tokens[i])
            && t.span.touches(at)
        {
            spans.push(t.span);
        }
        let mut enclosing = Vec::new();
        if let Some(a) = &item.action {
            enclosing_links(a, at, &mut enclosing);
        }
        spans.extend(enclosing.into_iter().rev());
        spans.push(item.span);
    } else {
        let before = text.get(..at).unwrap_or(text);
        let start = before.rfind('\n').map_or(0, |i| i + 1);
        let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        spans.push(Span::new(start, end));
    }
    spans.push(Span::new(0, text.len()));
    let mut out: Vec<TextRange> = Vec::new();
    for s in spans {
        let r = super::range(s);
        // Each range grows: drop repeats and anything not holding the last.
        if out
            .last()
            .is_none_or(|last| r != *last && r.contains_range(*last))
        {
            out.push(r);
        }
    }
    out
}

pub(crate) fn file_selection_ranges(
    db: &dyn Db,
    ws: Workspace,
    file: SourceFile,
    offsets: &[TextSize],
) -> Vec<Vec<TextRange>> {
    let doc = super::document(db, file, Some(ws));
    let text = file.text(db);
    offsets
        .iter()
        .map(|&o| selection_chain(text, doc, o))
        .collect()
}

/// The spans holding `at` inside `action`, outermost first: its chain
/// from this link on, the link, then inside a batch the same for its action.
fn enclosing_links(action: &ParsedAction, at: usize, out: &mut Vec<Span>) {
    for link in action.links() {
        let rest = link.chain_span();
        if !rest.touches(at) {
            continue;
        }
        out.push(rest);
        if link.span.touches(at) {
            out.push(link.span);
            if let Arguments::Batch(b) = &link.arguments
                && let Some(inner) = b.actions.iter().find(|a| a.chain_span().touches(at))
            {
                enclosing_links(inner, at, out);
            }
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};

    fn check(fixture: &str, expect: Expect) {
        let (analysis, pos, text) = super::super::at_cursor(fixture);
        let chains = analysis
            .selection_ranges(pos.file, vec![pos.offset])
            .unwrap();
        let shown: String = chains[0]
            .iter()
            .map(|r| format!("{:?}\n", &text[*r]))
            .collect();
        expect.assert_eq(&shown);
    }

    #[test]
    fn a_word_its_link_its_chain_and_the_text() {
        check(
            "intro\n/recall notes -> /tell @ent$0ropy hi -> /reply done\n",
            expect![[r#"
                "@entropy"
                "/tell @entropy hi"
                "/tell @entropy hi -> /reply done"
                "/recall notes -> /tell @entropy hi -> /reply done"
                "intro\n/recall notes -> /tell @entropy hi -> /reply done\n"
            "#]],
        );
    }

    #[test]
    fn inside_a_batch_and_outside_actions() {
        check(
            "/batch {\n  /recall pro$0ject\n}\n",
            expect![[r#"
                "/recall project"
                "/batch {\n  /recall project\n}"
                "/batch {\n  /recall project\n}\n"
            "#]],
        );
        check(
            "/recall a\nsome pr$0ose\n",
            expect![[r#"
                "some prose"
                "/recall a\nsome prose\n"
            "#]],
        );
    }
}
