//! Hover in Pattern Dialect: on a verb, its documentation (forms, aliases,
//! how generously it is matched) and, for an alias or a corrected
//! spelling, what it was read as; on a permission marker or a reference,
//! what it means; anywhere in an action, what the action resolves to
//! (its chain included). The text comes from `prose_dialect::hover`.
//!
//! A diagnostic under the cursor adds its explanation, as in every
//! language: its code, message, the first paragraph of its page and where
//! the whole page is (so an unknown verb, which resolves to nothing, still
//! has a hover).

use prose_dialect::Document;
use prose_syntax::TextSize;

use crate::{
    config::Config,
    db::{Db, SourceFile, Workspace},
    diagnostics::{Diagnostic, file_config, file_diagnostics},
    features::hover::{HoverResult, append_diagnostics},
};

/// Hover at `offset` in dialect text parsed as `doc`; `diagnostics` are the
/// text's diagnostics (with the severities of `config`), all in the text's
/// offsets.
pub fn hover(
    doc: &Document,
    diagnostics: &[Diagnostic],
    config: &Config,
    offset: TextSize,
) -> Option<HoverResult> {
    let action = prose_dialect::hover::hover(doc, usize::from(offset));
    let diags: Vec<&Diagnostic> = diagnostics
        .iter()
        .filter(|d| d.range.contains(offset) || (d.range.is_empty() && d.range.start() == offset))
        .collect();
    let (range, mut markdown) = match (action, diags.first()) {
        (Some(h), _) => (super::range(h.span), h.markdown),
        (None, Some(d)) => (d.range, String::new()),
        (None, None) => return None,
    };
    append_diagnostics(&mut markdown, &diags, config);
    Some(HoverResult { range, markdown })
}

pub(crate) fn file_hover(
    db: &dyn Db,
    ws: Workspace,
    file: SourceFile,
    offset: TextSize,
) -> Option<HoverResult> {
    let doc = super::document(db, file, Some(ws));
    let diagnostics = file_diagnostics(db, file, Some(ws));
    hover(doc, diagnostics, &file_config(db, file, Some(ws)), offset)
}

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};

    /// The hover at `$0` as `[covered text]` and its markdown.
    fn check(fixture: &str, expect: Expect) {
        let (analysis, pos, text) = super::super::at_cursor(fixture);
        let shown = match analysis.hover(pos).unwrap() {
            Some(h) => format!("[{}]\n{}\n", &text[h.range], h.markdown),
            None => "none\n".to_string(),
        };
        expect.assert_eq(&shown);
    }

    #[test]
    fn a_verb_shows_its_docs_and_what_the_line_does() {
        check(
            "/te$0ll @entropy \"the build is green\"",
            expect![[r#"
                [/tell]
                **/tell** — agent-to-agent message

                - `/tell @agent CONTENT` — message another agent

                Matching: normal: one typo is corrected (two in long words).

                In a chain (`... -> /tell @entropy`) the content may be left out: it is the output of the previous action (`@last.output`).

                ---

                Resolves to: /tell sends to @entropy on agent: “the build is green”
            "#]],
        );
    }

    #[test]
    fn an_alias_says_what_it_is_read_as() {
        check(
            "/neverm$0ind",
            expect![[r#"
                [/nevermind]
                `/nevermind` is read as **/cancel**.

                **/cancel** — cancel a pending action

                - `/cancel` — cancel the current chain
                - `/cancel [request-id]` — cancel a specific pending action

                Aliases: `abort`, `nevermind`, `stop`

                Matching: normal: one typo is corrected (two in long words).

                `stop` is an alias of /cancel, not of /halt.

                ---

                Resolves to: /cancel cancels the current chain
            "#]],
        );
    }

    #[test]
    fn a_marker_and_a_reference() {
        check(
            "/reply sounds good ?a$0sk",
            expect![[r#"
                [?ask]
                Permission marker `?ask`: please confirm with the partner.

                ---

                Resolves to: /reply replies in the current thread: “sounds good” [?ask: please confirm with the partner]
            "#]],
        );
        check(
            "/recall notes -> /tell @entropy @la$0st.output",
            expect![[r#"
                [@last.output]
                Reference: the output of the last action.

                ---

                Resolves to: /recall searches memory for “notes”, then /tell sends to @entropy on agent: the output of the last action
            "#]],
        );
    }

    #[test]
    fn a_corrected_verb_adds_its_hint() {
        check(
            "/serc$0h in archival deadlines",
            expect![[r#"
                [/serch]
                `/serch` is read as **/search**.

                **/search** — query across memory and conversations

                - `/search query terms` — search everything, results grouped
                - `/search in archival query` — archival memory only
                - `/search in conversations query` — conversation history
                - `/search in constellation query` — all agents' history
                - `/search in all query` — everything (also: `everywhere`)
                - `/search query > 2 weeks` — older than two weeks (`<` for newer than)
                - `/search query role:assistant` — only messages with that role

                Aliases: `find`, `query`, `look`, `lookup`

                Matching: loose: typos and unique prefixes are corrected.

                The intent is the domain searched. `conversations about X` (a domain word then `about` or `for`) also selects the domain. `/search web ...` is a web search (/web).

                ---

                Resolves to: /search searches archival only for “deadlines”

                ---

                **hint D002** `corrected-verb`: I read /serch as /search

                **Verb read as a near spelling.** The verb was misspelled, and read as the
                verb or alias it is closest to; the action runs.

                *More: `prose explain D002`*
            "#]],
        );
    }

    #[test]
    fn an_unknown_verb_has_its_diagnostic_only() {
        check(
            "/summar$0ize the meeting",
            expect![[r#"
                [summarize]
                **error D001** `unknown-verb`: I don't know the verb /summarize - the common ones are /recall, /search, /reply, /post and /tell

                **Unknown verb.** The word after `/` is not a verb or alias, and not close
                enough to one to be a typo.

                *More: `prose explain D001`*
            "#]],
        );
    }

    #[test]
    fn nothing_outside_actions() {
        check("Some prose$0 before.\n/recall notes\n", expect!["none\n"]);
    }

    #[test]
    fn the_registry_of_the_root_decides_what_a_line_does() {
        check(
            "#- /ws/prose.toml\n[dialect]\nregistry = \"blocks.txt\"\n#- /ws/blocks.txt\nproject_notes\n#- /ws/out.dialect\n/recall pro$0ject_notes\n",
            expect![[r#"
                [/recall project_notes]
                Resolves to: /recall reads the block `project_notes`
            "#]],
        );
    }
}
