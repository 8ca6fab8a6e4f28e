//! Hover: what the piece of an action under the cursor is and what the
//! whole line resolves to, in markdown.

use crate::{
    Document, Span,
    action::{
        Arguments, ContextOp, DataOp, FetchRequest, Name, ParsedAction, RecallIntent, SearchDomain,
    },
    content::{Content, ContentForm},
    reference::Reference,
    semantic::SemanticKind,
    verbs::Verb,
};

/// Hover text for a range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hover {
    pub span: Span,
    pub markdown: String,
}

/// Hover at `offset` in the document `doc` parsed from `text`: on a verb,
/// its documentation; on a marker or reference, what it means; anywhere
/// in an action, what it resolves to.
pub fn hover(doc: &Document, offset: usize) -> Option<Hover> {
    let item = doc.action_at(offset)?;
    let top = item.action.as_ref()?;
    // Inside a batch: the batch's action there, not the whole batch.
    let action = enclosing(top, offset);
    let whole = if std::ptr::eq(action, top) {
        item.span
    } else {
        action.chain_span()
    };
    let link = action
        .links()
        .find(|l| l.span.touches(offset))
        .unwrap_or(action);
    let resolves = format!("Resolves to: {}", describe(action));
    // Tokens are ordered by position: the last one starting at or before
    // `offset`.
    let i = doc.tokens.partition_point(|t| t.span.start <= offset);
    let token = i
        .checked_sub(1)
        .map(|i| &doc.tokens[i])
        .filter(|t| t.span.touches(offset));
    let (span, head) = match token {
        Some(t) if t.kind == SemanticKind::Verb => {
            let spec = link.verb.spec();
            let read_as = if link.written.eq_ignore_ascii_case(spec.name) {
                String::new()
            } else {
                format!("`/{}` is read as **/{}**.\n\n", link.written, spec.name)
            };
            (t.span, format!("{read_as}{}", spec.markdown()))
        }
        Some(t) if t.kind == SemanticKind::Marker => {
            let m = link.permission_marker.as_ref()?;
            (t.span, format!("Permission marker `{m}`: {}.", m.meaning()))
        }
        Some(t) if t.kind == SemanticKind::Reference => {
            let r = link
                .arguments
                .references()
                .into_iter()
                .find(|(_, s)| s.touches(offset))
                .map(|(r, _)| reference_meaning(r));
            match r {
                Some(r) => (t.span, format!("Reference: {r}.")),
                None => (t.span, String::new()),
            }
        }
        _ => (whole, String::new()),
    };
    let markdown = if head.is_empty() {
        resolves
    } else {
        // A blank line before the rule: right after a paragraph, `---`
        // would make that paragraph a heading.
        format!("{}\n\n---\n\n{resolves}", head.trim_end())
    };
    Some(Hover { span, markdown })
}

/// The action of a batch (at any depth, its chain included) whose text
/// holds `offset`; `action` itself when none does.
fn enclosing(action: &ParsedAction, offset: usize) -> &ParsedAction {
    for link in action.links() {
        if let Arguments::Batch(b) = &link.arguments
            && let Some(inner) = b.actions.iter().find(|a| a.chain_span().touches(offset))
        {
            return enclosing(inner, offset);
        }
    }
    action
}

/// What an action does, in a sentence (its chain included).
pub fn describe(action: &ParsedAction) -> String {
    let mut out = String::new();
    for (i, link) in action.links().enumerate() {
        if i > 0 {
            out.push_str(", then ");
        }
        out.push_str(&format!("/{} ", link.verb.name()));
        out.push_str(&describe_args(link));
        if let Some(m) = &link.permission_marker {
            out.push_str(&format!(" [{m}: {}]", m.meaning()));
        }
    }
    out
}

fn describe_args(a: &ParsedAction) -> String {
    let b = |n: &Name| format!("`{}`", n.text);
    match &a.arguments {
        Arguments::Recall(r) => match r {
            RecallIntent::Read { block } => format!("reads the block {}", b(block)),
            RecallIntent::Search { query } => format!("searches memory for {}", content(query)),
            RecallIntent::Insert {
                label: Some(l),
                content: c,
            } => {
                format!("stores {} as a new block {}", content(c), b(l))
            }
            RecallIntent::Insert {
                label: None,
                content: c,
            } => {
                format!("stores {} as a new block", content(c))
            }
            RecallIntent::Append { block, content: c } => {
                format!("appends {} to the block {}", content(c), b(block))
            }
            RecallIntent::Delete { block } => format!("deletes the block {}", b(block)),
            RecallIntent::Patch { block, .. } => format!("patches the block {}", b(block)),
        },
        Arguments::Context(c) => match c {
            ContextOp::Append { block, content: c } => {
                format!(
                    "appends {} to the working-memory block {}",
                    content(c),
                    b(block)
                )
            }
            ContextOp::Replace { block, old, new } => format!(
                "replaces {} with {} in {}",
                content(old),
                content(new),
                b(block)
            ),
            ContextOp::Archive { block } => format!("moves {} to archival memory", b(block)),
            ContextOp::Load { label } => format!("loads {} from archival memory", b(label)),
            ContextOp::Swap { block, label } => {
                format!(
                    "swaps {} out for {} from archival memory",
                    b(block),
                    b(label)
                )
            }
        },
        Arguments::Search(q) => {
            let domain = match q.domain {
                SearchDomain::All => "everything".to_string(),
                d => format!("{} only", d.as_str()),
            };
            let mut s = format!("searches {domain} for {}", content(&q.query));
            if let Some(t) = &q.time {
                let rel = if t.older { "older than" } else { "newer than" };
                s.push_str(&format!(", {rel} {} {}", t.amount, t.unit));
            }
            if let Some(r) = &q.role {
                s.push_str(&format!(", role {}", r.text));
            }
            s
        }
        Arguments::Message(m) => {
            let to = match (a.verb, &m.target) {
                (Verb::Reply, _) => "replies in the current thread".to_string(),
                (Verb::Post, _) => format!("posts to {}", m.domain),
                (_, Some(t)) => format!("sends to @{} on {}", t.text, m.domain),
                (_, None) => format!("sends to {}", m.domain),
            };
            format!("{to}: {}", content(&m.content))
        }
        Arguments::Fetch(f) => match f {
            FetchRequest::Markdown { url } => format!("fetches {} as markdown", url.text),
            FetchRequest::Html { url } => format!("fetches {} as html", url.text),
            FetchRequest::Continue => "continues the paginated read".into(),
        },
        Arguments::Web(w) => format!("searches the web for {}", content(&w.query)),
        Arguments::Calc(c) => format!("calculates {}", content(&c.expression)),
        Arguments::Data(d) => match d {
            DataOp::List => "lists the data sources".into(),
            DataOp::Read { source } => format!("reads from {}", b(source)),
            DataOp::Search { source, query } => {
                format!("searches {} for {}", b(source), content(query))
            }
            DataOp::Monitor { source } => format!("starts notifications from {}", b(source)),
            DataOp::Pause { source } => format!("pauses notifications from {}", b(source)),
        },
        Arguments::Decision(d) => {
            let what = if a.verb == Verb::Approve {
                "approves"
            } else {
                "denies"
            };
            let req = d
                .request
                .as_ref()
                .map_or("the request in context".into(), |r| {
                    format!("request {}", b(r))
                });
            let always = if d.always {
                ", always (a permanent rule)"
            } else {
                ""
            };
            let reason = d
                .reason
                .as_ref()
                .map(|r| format!(": {}", content(r)))
                .unwrap_or_default();
            format!("{what} {req}{always}{reason}")
        }
        Arguments::Escalate(e) => {
            let req = e
                .request
                .as_ref()
                .map_or("the request in context".into(), |r| {
                    format!("request {}", b(r))
                });
            let reason = e
                .reason
                .as_ref()
                .map(|r| format!(": {}", content(r)))
                .unwrap_or_default();
            format!("escalates {req}{reason}")
        }
        Arguments::Cancel(c) => match &c.request {
            Some(r) => format!("cancels the pending request {}", b(r)),
            None => "cancels the current chain".into(),
        },
        Arguments::Halt(h) => format!("stops everything: {}", content(&h.reason)),
        Arguments::Uncertain(u) => format!("signals uncertainty: {}", content(&u.note)),
        Arguments::Batch(b) => match b.actions.len() {
            1 => "runs 1 action".to_string(),
            n => format!("runs {n} actions in parallel"),
        },
    }
}

/// Content in a few words.
fn content(c: &Content) -> String {
    if let Some(r) = &c.reference {
        return reference_meaning(r).to_string();
    }
    if c.form == ContentForm::Missing {
        return "(nothing)".into();
    }
    let one_line = c.text.lines().next().unwrap_or("");
    let short: String = one_line.chars().take(60).collect();
    let cut = short.len() < c.text.len();
    format!("“{short}{}”", if cut { "…" } else { "" })
}

fn reference_meaning(r: &Reference) -> String {
    match r {
        Reference::LastMessage => "the last message in context".into(),
        Reference::LastOutput => "the output of the last action".into(),
        Reference::Thread => "the current thread".into(),
        Reference::Parent => "the message being replied to".into(),
        Reference::Uri { uri } => format!("the resource {uri}"),
        Reference::That | Reference::This | Reference::It => {
            "what the conversation points at (resolved from context)".into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BlockRegistry, DialectParser};
    use expect_test::{Expect, expect};

    /// Hover at `$0` in `fixture`.
    fn check(fixture: &str, expect: Expect) {
        let offset = fixture.find("$0").unwrap();
        let text = fixture.replace("$0", "");
        let parser = DialectParser::new().with_registry(BlockRegistry::from_names(["notes"]));
        let doc = parser.parse_document(&text);
        let h = hover(&doc, offset).expect("a hover");
        expect.assert_eq(&format!("[{}]\n{}\n", h.span.text(&text), h.markdown));
    }

    #[test]
    fn on_a_corrected_verb() {
        check(
            "/rec$0al notes ?",
            expect![[r#"
                [/recal]
                `/recal` is read as **/recall**.

                **/recall** — long-term memory: read, search, insert, append, delete or patch blocks

                - `/recall block_name` — read the block (when the registry knows it; otherwise a search)
                - `/recall "fuzzy query"` — search memory
                - `/recall + "content"` — insert a new block
                - `/recall block_name + "content"` — append to an existing block
                - `/recall -block_name` — delete the block
                - `/recall patch block_name ```diff ...```` — structured edit
                - `/recall insert|add|save [label] CONTENT` — insert
                - `/recall append BLOCK CONTENT` — append
                - `/recall read|get|check|show BLOCK` — read
                - `/recall delete|remove BLOCK` — delete
                - `/recall patch|edit BLOCK PATCH` — patch

                Aliases: `remember` (store what follows), `store` (store what follows), `save` (store what follows), `archive` (store what follows), `forget` (delete), `get` (read, when the argument is not a URL)

                Matching: loose: typos and unique prefixes are corrected.

                Intent is inferred from the shape of the arguments. `store`, `save`, `archive` and `remember` store what follows (insert, or append with `block + content`); `forget` deletes and is never guessed from a misspelling.

                ---

                Resolves to: /recall reads the block `notes` [?: might need checking]
            "#]],
        );
    }

    #[test]
    fn on_a_marker_a_reference_and_text() {
        check(
            "/tell @entropy \"hi\" ?a$0sk",
            expect![[r#"
                [?ask]
                Permission marker `?ask`: please confirm with the partner.

                ---

                Resolves to: /tell sends to @entropy on agent: “hi” [?ask: please confirm with the partner]
            "#]],
        );
        check(
            "/recall notes -> /tell @entropy @last.out$0put",
            expect![[r#"
                [@last.output]
                Reference: the output of the last action.

                ---

                Resolves to: /recall reads the block `notes`, then /tell sends to @entropy on agent: the output of the last action
            "#]],
        );
        check(
            "/search in archival dead$0lines > 2 weeks role:user",
            expect![[r#"
                [/search in archival deadlines > 2 weeks role:user]
                Resolves to: /search searches archival only for “deadlines”, older than 2 weeks, role user
            "#]],
        );
    }

    #[test]
    fn inside_a_batch() {
        check(
            "/batch {\n  /fe$0tch https://x.com html\n}",
            expect![[r#"
                [/fetch]
                **/fetch** — get web content

                - `/fetch URL` — the page as markdown
                - `/fetch URL html` — the raw html
                - `/fetch continue` — continue a paginated read

                Aliases: `get` (when the argument is a URL)

                Matching: normal: one typo is corrected (two in long words).

                `get` means /fetch when its argument is a URL, and /recall read otherwise.

                ---

                Resolves to: /fetch fetches https://x.com as html
            "#]],
        );
    }

    #[test]
    fn inside_a_batch_the_action_there() {
        check(
            "/batch {\n  /recall notes -> /tell @ent$0ropy\n} !",
            expect![[r#"
                [/recall notes -> /tell @entropy]
                Resolves to: /recall reads the block `notes`, then /tell sends to @entropy on agent: the output of the last action
            "#]],
        );
    }

    #[test]
    fn none_outside_actions_and_on_unknown_verbs() {
        let doc = DialectParser::new().parse_document("text\n/summarize x\n");
        assert_eq!(hover(&doc, 2), None);
        assert_eq!(hover(&doc, 8), None);
    }

    #[test]
    fn describe_every_family() {
        let text = [
            "/recall + \"tea\"",
            "/recall insert fact \"tea\"",
            "/recall notes + more",
            "/recall -notes",
            "/recall patch notes ```diff\n-a\n```",
            "/context persona + \"tea\"",
            "/context persona \"old\" -> \"new\"",
            "/context archive persona",
            "/context load notes",
            "/context swap persona notes",
            "/search everywhere x < 3 days",
            "/send @user \"hi\"",
            "/post bluesky this",
            "/dm @user hi",
            "/fetch https://x.com",
            "/fetch https://x.com html",
            "/fetch continue",
            "/web rust",
            "/calc 1+1",
            "/data list",
            "/data read s",
            "/data search s \"q\"",
            "/data monitor s",
            "/data pause s",
            "/approve req-1 always",
            "/deny \"no\"",
            "/escalate [r1] \"why\"",
            "/escalate",
            "/cancel",
            "/cancel r2",
            "/halt \"disk\" !",
            "/uncertain \"sarcasm?\"",
            "/reply a very long reply that goes on and on and on, well past sixty characters",
        ]
        .join("\n");
        let doc = DialectParser::new().parse_document(&text);
        let got: Vec<String> = doc
            .actions
            .iter()
            .map(|a| describe(a.action.as_ref().unwrap()))
            .collect();
        expect![[r#"
            /recall stores “tea” as a new block
            /recall stores “tea” as a new block `fact`
            /recall appends “more” to the block `notes`
            /recall deletes the block `notes`
            /recall patches the block `notes`
            /context appends “tea” to the working-memory block `persona`
            /context replaces “old” with “new” in `persona`
            /context moves `persona` to archival memory
            /context loads `notes` from archival memory
            /context swaps `persona` out for `notes` from archival memory
            /search searches everything for “x”, newer than 3 days
            /send sends to user: “hi”
            /post posts to bluesky: what the conversation points at (resolved from context)
            /dm sends to @user on user: “hi”
            /fetch fetches https://x.com as markdown
            /fetch fetches https://x.com as html
            /fetch continues the paginated read
            /web searches the web for “rust”
            /calc calculates “1+1”
            /data lists the data sources
            /data reads from `s`
            /data searches `s` for “q”
            /data starts notifications from `s`
            /data pauses notifications from `s`
            /approve approves request `req-1`, always (a permanent rule)
            /deny denies the request in context: “no”
            /escalate escalates request `r1`: “why”
            /escalate escalates the request in context
            /cancel cancels the current chain
            /cancel cancels the pending request `r2`
            /halt stops everything: “disk” [!: serious: definitely confirm]
            /uncertain signals uncertainty: “sarcasm?”
            /reply replies in the current thread: “a very long reply that goes on and on and on, well past sixt…”
        "#]]
        .assert_eq(&(got.join("\n") + "\n"));
    }
}
