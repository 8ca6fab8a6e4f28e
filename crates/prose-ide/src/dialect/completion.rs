//! Completion in Pattern Dialect, from `prose_dialect::completion`:
//!
//! - after a `/` at the start of a line or after `->`: every verb (with its
//!   documentation) and every alias (with the verb it stands for), verbs
//!   first;
//! - `/send` then `@`: the domains (`@user`, `@agent`, ...); `@` elsewhere:
//!   the references (`@last.output`, `@thread`, ...);
//! - the first argument of a verb with subcommands or modifiers: those
//!   (`/recall insert`, `/search in archival`, `/post bluesky`, `/data list`,
//!   `/fetch URL html`, `/approve ID always`), and for /recall and /context
//!   the blocks of the root's registry (`[dialect] registry`);
//! - a word starting with `?`: the permission markers.
//!
//! Each item replaces the word being typed, the `/` or `@` included, so an
//! editor filters them by what is written so far. The items keep the
//! library's order (`sort_text`).

use prose_dialect::{
    BlockRegistry, aliases,
    completion::{Completion, CompletionKind as DialectKind},
    verbs,
};
use prose_syntax::{TextRange, TextSize};

use crate::{
    db::{Db, SourceFile, Workspace},
    features::completion::{CompletionItem, CompletionKind},
};

/// The completions at `offset` in dialect `text`, with the blocks of
/// `registry`; ranges in `text`'s offsets.
pub fn completions(
    text: &str,
    registry: Option<&BlockRegistry>,
    offset: TextSize,
) -> Vec<CompletionItem> {
    let mut out: Vec<CompletionItem> = Vec::new();
    for (i, c) in prose_dialect::completion::complete(text, usize::from(offset), registry)
        .into_iter()
        .enumerate()
    {
        let new = item(text, c, i);
        // A word that is an alias of two verbs (`remember`, `get`) is one
        // item that names both.
        match out
            .iter_mut()
            .find(|o| o.kind == CompletionKind::Verb && o.label == new.label)
        {
            Some(first) => {
                if let (Some(a), Some(b)) = (first.detail.as_mut(), new.detail) {
                    a.push_str("; ");
                    a.push_str(&b);
                }
            }
            None => out.push(new),
        }
    }
    out
}

pub(crate) fn file_completions(
    db: &dyn Db,
    ws: Workspace,
    file: SourceFile,
    offset: TextSize,
) -> Vec<CompletionItem> {
    let registry = super::registry(db, file, Some(ws));
    completions(file.text(db), registry.as_deref(), offset)
}

fn item(text: &str, c: Completion, index: usize) -> CompletionItem {
    let mut replace = super::range(c.replace);
    let mut insert = c.insert;
    let (kind, documentation) = match c.kind {
        DialectKind::Verb | DialectKind::Alias => {
            // The library replaces the word after the sigil: take the `/`
            // too, so the typed text (`/rec`) filters the labels (`/recall`).
            let start = usize::from(replace.start());
            if start > 0 && text.as_bytes()[start - 1] == b'/' {
                replace = TextRange::new(replace.start() - TextSize::from(1), replace.end());
                insert = format!("/{insert}");
            }
            (CompletionKind::Verb, verb_docs(&c.label, c.kind))
        }
        DialectKind::Domain => (CompletionKind::Value, None),
        DialectKind::Keyword => (CompletionKind::Keyword, None),
        DialectKind::Block => (CompletionKind::Variable, None),
        DialectKind::Reference => (CompletionKind::Reference, None),
        DialectKind::Marker => (CompletionKind::Marker, None),
    };
    CompletionItem {
        insert_text: (insert != c.label).then_some(insert),
        label: c.label,
        kind,
        detail: Some(c.detail),
        documentation,
        is_snippet: false,
        replace_range: replace,
        sort_text: Some(format!("{index:04}")),
    }
}

/// The documentation of the verb a `/word` item names; for an alias, of
/// every verb it stands for.
fn verb_docs(label: &str, kind: DialectKind) -> Option<String> {
    let word = label.strip_prefix('/').unwrap_or(label);
    let mut verbs: Vec<verbs::Verb> = match kind {
        DialectKind::Verb => vec![verbs::Verb::from_name(word)?],
        _ => aliases::lookup(word).map(|a| a.verb).collect(),
    };
    verbs.dedup();
    let docs: Vec<String> = verbs
        .iter()
        .map(|v| v.spec().markdown().trim_end().to_string())
        .collect();
    (!docs.is_empty()).then(|| docs.join("\n\n---\n\n"))
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};

    /// The completions at `$0`: `label (kind) [replaced text] => insert`.
    fn check(fixture: &str, expect: Expect) {
        let (analysis, pos, text) = super::super::at_cursor(fixture);
        let shown: String = analysis
            .completions(pos)
            .unwrap()
            .iter()
            .map(|c| {
                let insert = c.insert_text.as_deref().unwrap_or(&c.label);
                format!(
                    "{} ({:?}) [{}] => {insert}\n",
                    c.label, c.kind, &text[c.replace_range]
                )
            })
            .collect();
        expect.assert_eq(&shown);
    }

    /// The labels only, in order.
    fn labels(fixture: &str) -> Vec<String> {
        let (analysis, pos, _) = super::super::at_cursor(fixture);
        analysis
            .completions(pos)
            .unwrap()
            .into_iter()
            .map(|c| c.label)
            .collect()
    }

    #[test]
    fn verbs_then_aliases_after_the_sigil_with_the_sigil_replaced() {
        let (analysis, pos, _) = super::super::at_cursor("Checking.\n/re$0");
        let items = analysis.completions(pos).unwrap();
        let recall = &items[0];
        assert_eq!(recall.label, "/recall");
        assert_eq!(recall.insert_text, None, "the label is the text");
        assert_eq!(
            u32::from(recall.replace_range.start()),
            10,
            "the `/` is replaced"
        );
        assert!(
            recall
                .documentation
                .as_deref()
                .unwrap()
                .starts_with("**/recall** — long-term memory")
        );
        let verbs = prose_dialect::verbs::all().len();
        assert!(
            items[..verbs]
                .iter()
                .all(|i| !i.detail.as_deref().unwrap().starts_with("alias"))
        );
        let remember: Vec<_> = items.iter().filter(|i| i.label == "/remember").collect();
        assert_eq!(remember.len(), 1, "one item for an alias of two verbs");
        assert_eq!(
            remember[0].detail.as_deref(),
            Some(
                "alias of /recall: store what follows; alias of /context: for replace, load, swap and archive, and working-memory blocks"
            )
        );
        let docs = remember[0].documentation.as_deref().unwrap();
        assert!(docs.starts_with("**/recall**") && docs.contains("\n\n---\n\n**/context**"));
        let forget = items.iter().find(|i| i.label == "/forget").unwrap();
        assert_eq!(forget.detail.as_deref(), Some("alias of /recall: delete"));
        assert!(
            forget
                .documentation
                .as_deref()
                .unwrap()
                .starts_with("**/recall**")
        );
        // Sorted as the library orders them.
        let mut sorted = items.clone();
        sorted.sort_by(|a, b| a.sort_text.cmp(&b.sort_text));
        assert_eq!(sorted, items);
    }

    #[test]
    fn a_chain_link_and_an_indented_action() {
        assert!(labels("/recall notes -> /t$0").contains(&"/tell".to_string()));
        assert!(labels("  /$0").contains(&"/halt".to_string()));
        assert!(labels("see /$0").is_empty(), "not at the start of a line");
    }

    #[test]
    fn send_domains_and_references() {
        check(
            "/send @$0",
            expect![[r#"
                @user (Value) [@] => @user
                @agent (Value) [@] => @agent
                @channel (Value) [@] => @channel
                @bluesky (Value) [@] => @bluesky
                @discord (Value) [@] => @discord
                @last (Reference) [@] => @last
                @last.message (Reference) [@] => @last.message
                @last.output (Reference) [@] => @last.output
                @thread (Reference) [@] => @thread
                @parent (Reference) [@] => @parent
                @[] (Reference) [@] => @[]
            "#]],
        );
        check(
            "/send $0",
            expect![[r#"
                @user (Value) [] => @user
                @agent (Value) [] => @agent
                @channel (Value) [] => @channel
                @bluesky (Value) [] => @bluesky
                @discord (Value) [] => @discord
            "#]],
        );
    }

    #[test]
    fn subcommands_and_the_registry_blocks() {
        check(
            "#- /ws/prose.toml\n[dialect]\nregistry = \"blocks.txt\"\n#- /ws/blocks.txt\nproject_notes\n[context]\npersona\n#- /ws/a.dialect\n/recall pro$0\n",
            expect![[r#"
                insert (Keyword) [pro] => insert
                append (Keyword) [pro] => append
                read (Keyword) [pro] => read
                delete (Keyword) [pro] => delete
                patch (Keyword) [pro] => patch
                + (Keyword) [pro] => +
                project_notes (Variable) [pro] => project_notes
                persona (Variable) [pro] => persona
            "#]],
        );
        assert_eq!(labels("/post $0"), ["bluesky", "discord"]);
    }

    #[test]
    fn markers() {
        check(
            "/reply sounds good ?$0",
            expect![[r#"
                ? (Marker) [?] => ?
                ?ask (Marker) [?] => ?ask
                ?public (Marker) [?] => ?public
            "#]],
        );
    }

    #[test]
    fn nothing_in_prose() {
        assert!(labels("I think we should $0").is_empty());
    }
}
