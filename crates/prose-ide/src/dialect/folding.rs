//! Folding in Pattern Dialect: every action that spans lines (a
//! multi-line content block, `>` quotes, a chain continued on the next
//! line, a batch and each of its multi-line actions) folds from the end of
//! its first line to the end of its last, so the editor keeps the verb line
//! visible.

use prose_dialect::{Arguments, Document, ParsedAction, Span};
use prose_syntax::{TextRange, TextSize};

use crate::{
    db::{Db, SourceFile, Workspace},
    features::folding::{Fold, FoldKind},
};

/// The folds of dialect `text` parsed as `doc`, sorted by start, in
/// `text`'s offsets.
pub fn folding_ranges(text: &str, doc: &Document) -> Vec<Fold> {
    let mut out = Vec::new();
    for item in &doc.actions {
        push(text, item.span, &mut out);
        if let Some(a) = &item.action {
            batch_folds(text, a, &mut out);
        }
    }
    out.sort_by_key(|f| f.range.start());
    out
}

pub(crate) fn file_folding_ranges(db: &dyn Db, ws: Workspace, file: SourceFile) -> Vec<Fold> {
    folding_ranges(file.text(db), super::document(db, file, Some(ws)))
}

/// The folds of the actions of a batch (and of batches inside it).
fn batch_folds(text: &str, action: &ParsedAction, out: &mut Vec<Fold>) {
    let Arguments::Batch(b) = &action.arguments else {
        return;
    };
    for a in &b.actions {
        push(text, a.chain_span(), out);
        batch_folds(text, a, out);
    }
}

/// The fold of `span` when it spans lines.
fn push(text: &str, span: Span, out: &mut Vec<Fold>) {
    let Some(written) = text.get(span.start..span.end) else {
        return;
    };
    let written = written.trim_end();
    let Some(first_eol) = written.find('\n') else {
        return;
    };
    let first_end = written[..first_eol].trim_end_matches('\r').len();
    out.push(Fold {
        range: TextRange::new(
            TextSize::from((span.start + first_end) as u32),
            TextSize::from((span.start + written.len()) as u32),
        ),
        kind: FoldKind::Region,
    });
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use crate::{fixture::Fixture, kind::FileKind};

    #[test]
    fn multi_line_actions_and_batches_fold() {
        let text = "/recall notes\n/reply \"\"\"\nfirst\nsecond\n\"\"\" ?\n/post bluesky ?public\n> a quote\n> more\n/batch {\n  /recall a\n  /tell @b \"\"\"\n  hi\n  \"\"\"\n}\n";
        let (host, file) = Fixture::parse_as(text, FileKind::Dialect).host(None);
        let folds = host.analysis().folding_ranges(file).unwrap();
        let shown: String = folds
            .iter()
            .map(|f| format!("{:?} {:?}\n", f.kind, &text[f.range]))
            .collect();
        expect![[r#"
            Region "\nfirst\nsecond\n\"\"\" ?"
            Region "\n> a quote\n> more"
            Region "\n  /recall a\n  /tell @b \"\"\"\n  hi\n  \"\"\"\n}"
            Region "\n  hi\n  \"\"\""
        "#]]
        .assert_eq(&shown);
    }
}
