//! Document symbols in Pattern Dialect: the outline lists every action,
//! named by its first line as written (`/recal deadlines ?`), with what it
//! resolves to as the detail (`/recall searches memory for “deadlines”`),
//! or its first error when it does not resolve. A batch holds its actions.
//! The selection range is the verb.

use prose_dialect::{Arguments, Document, ParsedAction, Span};
use prose_syntax::{TextRange, TextSize};

use crate::{
    db::{Db, SourceFile, Workspace},
    features::{document_symbols::DocumentSymbol, navigation::SymbolKind},
};

/// Names and details longer than this are cut.
const MAX_TEXT: usize = 60;

/// The outline of dialect `text` parsed as `doc`, in `text`'s offsets.
pub fn document_symbols(text: &str, doc: &Document) -> Vec<DocumentSymbol> {
    doc.actions
        .iter()
        .map(|item| match &item.action {
            Some(action) => symbol(text, action, item.span),
            None => {
                let detail = item.error().map(|d| format!("{}: {}", d.code, d.message));
                leaf(text, item.span, detail)
            }
        })
        .collect()
}

pub(crate) fn file_document_symbols(
    db: &dyn Db,
    ws: Workspace,
    file: SourceFile,
) -> Vec<DocumentSymbol> {
    document_symbols(file.text(db), super::document(db, file, Some(ws)))
}

/// The symbol of an action covering `span` (its chain included).
fn symbol(text: &str, action: &ParsedAction, span: Span) -> DocumentSymbol {
    let mut s = leaf(text, span, Some(prose_dialect::hover::describe(action)));
    if let Arguments::Batch(b) = &action.arguments {
        s.children = b
            .actions
            .iter()
            .map(|a| symbol(text, a, a.chain_span()))
            .collect();
    }
    s
}

/// A symbol without children: named by the first line of `span`.
fn leaf(text: &str, span: Span, detail: Option<String>) -> DocumentSymbol {
    let full = super::range(span);
    let written = text.get(span.start..span.end).unwrap_or("");
    let first_line = written.lines().next().unwrap_or("").trim_end();
    let verb_len = first_line
        .find(char::is_whitespace)
        .unwrap_or(first_line.len());
    DocumentSymbol {
        name: cut(first_line),
        detail: detail.map(|d| cut(&d)),
        kind: SymbolKind::Action,
        full_range: full,
        selection_range: TextRange::at(full.start(), TextSize::from(verb_len as u32)),
        children: Vec::new(),
    }
}

/// `s` cut to [`MAX_TEXT`] characters, with `…` when cut.
fn cut(s: &str) -> String {
    match s.char_indices().nth(MAX_TEXT) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use crate::{features::document_symbols::DocumentSymbol, fixture::Fixture, kind::FileKind};

    fn render(text: &str, symbols: &[DocumentSymbol], depth: usize, out: &mut String) {
        for s in symbols {
            out.push_str(&format!(
                "{}{:?} {} [{}] — {}\n",
                "  ".repeat(depth),
                s.kind,
                s.name,
                &text[s.selection_range],
                s.detail.as_deref().unwrap_or("-"),
            ));
            assert!(s.full_range.contains_range(s.selection_range));
            render(text, &s.children, depth + 1, out);
        }
    }

    #[test]
    fn every_action_with_what_it_does_and_batches_nested() {
        let text = "Let me look.\n/recal deadlines ?\n/summarize it\n/batch {\n  /recall project_notes -> /tell @entropy\n  /fetch https://example.com/a/very/long/path/that/goes/on/and/on/for/ever html\n} !\n/reply \"\"\"\nlong\n\"\"\"\n";
        let (host, file) = Fixture::parse_as(text, FileKind::Dialect).host(None);
        let symbols = host.analysis().document_symbols(file).unwrap();
        let mut out = String::new();
        render(text, &symbols, 0, &mut out);
        expect![[r#"
            Action /recal deadlines ? [/recal] — /recall searches memory for “deadlines” [?: might need check…
            Action /summarize it [/summarize] — D001: I don't know the verb /summarize - the common ones are…
            Action /batch { [/batch] — /batch runs 2 actions in parallel [!: serious: definitely co…
              Action /recall project_notes -> /tell @entropy [/recall] — /recall searches memory for “project_notes”, then /tell send…
              Action /fetch https://example.com/a/very/long/path/that/goes/on/and… [/fetch] — /fetch fetches https://example.com/a/very/long/path/that/goe…
            Action /reply """ [/reply] — /reply replies in the current thread: “long”
        "#]]
        .assert_eq(&out);
        // The batch covers its closing line, the block its closer.
        assert_eq!(
            &text[symbols[2].full_range],
            "/batch {\n  /recall project_notes -> /tell @entropy\n  /fetch https://example.com/a/very/long/path/that/goes/on/and/on/for/ever html\n} !"
        );
        assert!(text[symbols[3].full_range].ends_with("\"\"\""));
    }
}
