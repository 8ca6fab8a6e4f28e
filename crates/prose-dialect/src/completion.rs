//! Completion candidates, as data: verbs and aliases after `/`, /send
//! domains, subcommands and modifiers of the verb being written, block
//! names from the registry, references after `@` and markers after `?`.

use crate::{
    BlockRegistry, Memory, Span, aliases,
    lexer::{self, is_action_start},
    resolve,
    verbs::{self, SEND_DOMAINS, Verb},
};

/// What a candidate is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompletionKind {
    Verb,
    Alias,
    Domain,
    Keyword,
    Block,
    Reference,
    Marker,
}

/// One candidate: replace `replace` with `insert`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    pub label: String,
    pub kind: CompletionKind,
    /// One line: what it does.
    pub detail: String,
    pub insert: String,
    pub replace: Span,
}

/// The candidates at `offset` in `text`.
pub fn complete(text: &str, offset: usize, registry: Option<&BlockRegistry>) -> Vec<Completion> {
    let Some(offset) = text.is_char_boundary(offset).then_some(offset) else {
        return Vec::new();
    };
    let line_start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let prefix = &text[line_start..offset];
    // The word being written.
    let word_start = prefix
        .rfind(|c: char| c.is_whitespace())
        .map_or(0, |i| i + 1);
    let word = &prefix[word_start..];
    let word_end = offset
        + text[offset..]
            .find(|c: char| c.is_whitespace())
            .unwrap_or(text.len() - offset);
    let replace = Span::new(line_start + word_start, word_end);
    let mut out = Vec::new();

    // A verb: `/` at the start of the line, or after `->`.
    let before = prefix[..word_start].trim_end();
    let at_verb_position = before.is_empty() || before.ends_with("->");
    if let Some(typed) = word.strip_prefix('/')
        && at_verb_position
        && (typed.is_empty() || is_action_start(word, 0))
    {
        let replace = Span::new(replace.start + 1, replace.end);
        verb_candidates(&mut out, replace);
        return out;
    }
    if word.starts_with('?') {
        for (m, d) in [
            ("?", "might need checking"),
            ("?ask", "please confirm with the partner"),
            ("?public", "a flag, e.g. a public post"),
        ] {
            out.push(item(m, CompletionKind::Marker, d, replace));
        }
        return out;
    }
    // The action being written on this line: its verb and argument index.
    let Some((verb, index)) = current_action(prefix, word_start) else {
        return out;
    };
    if word.starts_with('@') {
        if verb == Verb::Send && index == 0 {
            for (d, detail) in SEND_DOMAINS {
                out.push(item(
                    &format!("@{d}"),
                    CompletionKind::Domain,
                    detail,
                    replace,
                ));
            }
        }
        for (r, detail) in [
            ("@last", "the last message in context"),
            ("@last.message", "the last message in context"),
            ("@last.output", "the output of the last action"),
            ("@thread", "the current thread"),
            ("@parent", "the message being replied to"),
            ("@[]", "a resource by URI"),
        ] {
            out.push(item(r, CompletionKind::Reference, detail, replace));
        }
        return out;
    }
    let keywords: &[(&str, &str)] = match (verb, index) {
        (Verb::Recall, 0) => &[
            ("insert", "insert a new block"),
            ("append", "append to a block"),
            ("read", "read a block"),
            ("delete", "delete a block"),
            ("patch", "structured edit of a block"),
            ("+", "insert: + \"content\""),
        ],
        (Verb::Context, 0) => &[
            ("archive", "move a block to archival memory"),
            ("load", "load a block from archival memory"),
            ("swap", "swap a working block with an archival one"),
        ],
        (Verb::Search, 0) => &[
            ("in archival", "archival memory only"),
            ("in conversations", "conversation history"),
            ("in constellation", "all agents' history"),
            ("everywhere", "everything"),
        ],
        (Verb::Send, 0) => &[
            ("@user", "the partner"),
            ("@agent", "another agent"),
            ("@channel", "a channel"),
            ("@bluesky", "Bluesky"),
            ("@discord", "Discord"),
        ],
        (Verb::Post, 0) => &[
            ("bluesky", "post to Bluesky"),
            ("discord", "post to Discord"),
        ],
        (Verb::Data, 0) => &[
            ("list", "show configured sources"),
            ("read", "read from a source"),
            ("search", "search in a source"),
            ("monitor", "start notifications"),
            ("pause", "pause notifications"),
        ],
        (Verb::Fetch, 0) => &[("continue", "continue a paginated read")],
        (Verb::Fetch, 1) => &[
            ("html", "the raw html"),
            ("markdown", "as markdown (the default)"),
        ],
        (Verb::Approve | Verb::Deny, 1) => &[("always", "a permanent rule")],
        _ => &[],
    };
    let kind = if verb == Verb::Send {
        CompletionKind::Domain
    } else {
        CompletionKind::Keyword
    };
    for (k, d) in keywords {
        out.push(item(k, kind, d, replace));
    }
    let wants_block = matches!((verb, index), (Verb::Recall | Verb::Context, 0 | 1));
    if let (true, Some(r)) = (wants_block, registry) {
        for (name, memory) in r.iter() {
            let detail = match memory {
                Memory::Recall => "long-term block",
                Memory::Context => "working-memory block",
            };
            out.push(item(name, CompletionKind::Block, detail, replace));
        }
    }
    out
}

fn item(label: &str, kind: CompletionKind, detail: &str, replace: Span) -> Completion {
    Completion {
        label: label.to_string(),
        kind,
        detail: detail.to_string(),
        insert: label.to_string(),
        replace,
    }
}

/// Every verb and one-word alias (the `/` is already written).
fn verb_candidates(out: &mut Vec<Completion>, replace: Span) {
    for s in verbs::all() {
        out.push(Completion {
            label: format!("/{}", s.name),
            kind: CompletionKind::Verb,
            detail: s.summary.to_string(),
            insert: s.name.to_string(),
            replace,
        });
    }
    for a in aliases::all() {
        let meaning = if a.meaning.is_empty() {
            String::new()
        } else {
            format!(": {}", a.meaning)
        };
        out.push(Completion {
            label: format!("/{}", a.word),
            kind: CompletionKind::Alias,
            detail: format!("alias of /{}{meaning}", a.verb.name()),
            insert: a.word.to_string(),
            replace,
        });
    }
}

/// The verb of the action written before `word_start` on this line and the
/// index of the argument being written.
fn current_action(prefix: &str, word_start: usize) -> Option<(Verb, usize)> {
    let head = &prefix[..word_start];
    // The last link: after the last `-> /`, or the line's action.
    let start = head.rfind("-> /").map(|i| i + 3).or_else(|| {
        let first = lexer::skip_blanks(head, 0);
        is_action_start(head, first).then_some(first)
    })?;
    let mut words = head[start + 1..].split_whitespace();
    let verb_word = words.next()?;
    let verb = match resolve::match_verb(verb_word) {
        resolve::VerbMatch::Exact(w) | resolve::VerbMatch::Corrected { word: w, .. } => w.verb,
        _ => return None,
    };
    Some((verb, words.count()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Labels at `$0`.
    fn labels(fixture: &str) -> Vec<String> {
        let offset = fixture.find("$0").unwrap();
        let text = fixture.replace("$0", "");
        let mut registry = BlockRegistry::from_names(["project_notes"]);
        registry.insert("persona", Memory::Context);
        complete(&text, offset, Some(&registry))
            .into_iter()
            .map(|c| c.label)
            .collect()
    }

    #[test]
    fn verbs_and_aliases_after_the_sigil() {
        let got = labels("/re$0");
        assert!(got.contains(&"/recall".to_string()));
        assert!(got.contains(&"/remember".to_string()));
        assert!(got.contains(&"/look up".to_string()));
        assert_eq!(got.len(), verbs::all().len() + aliases::all().len());
        assert!(labels("/recall x -> /$0").contains(&"/tell".to_string()));
        assert!(labels("  /$0").contains(&"/halt".to_string()));
        assert!(labels("text /$0").is_empty());
    }

    #[test]
    fn the_replaced_range_is_the_word_after_the_sigil() {
        let c = complete("/rec notes", 2, None);
        assert_eq!(c[0].replace, Span::new(1, 4));
        assert_eq!(c[0].insert, "recall");
    }

    #[test]
    fn arguments_by_verb() {
        assert_eq!(
            labels("/send $0"),
            ["@user", "@agent", "@channel", "@bluesky", "@discord"]
        );
        assert_eq!(labels("/send @ag$0")[..2], ["@user", "@agent"]);
        assert_eq!(
            labels("/recall $0"),
            [
                "insert",
                "append",
                "read",
                "delete",
                "patch",
                "+",
                "project_notes",
                "persona"
            ]
        );
        assert_eq!(labels("/context $0")[..3], ["archive", "load", "swap"]);
        assert_eq!(labels("/search $0")[0], "in archival");
        assert_eq!(labels("/post $0"), ["bluesky", "discord"]);
        assert_eq!(labels("/fetch https://x.com $0"), ["html", "markdown"]);
        assert_eq!(labels("/approve req-1 $0"), ["always"]);
        assert_eq!(labels("/data $0")[0], "list");
        assert!(labels("/calc $0").is_empty());
        assert!(labels("plain text $0").is_empty());
    }

    #[test]
    fn references_and_markers() {
        assert_eq!(
            labels("/tell @entropy @la$0")[..3],
            ["@last", "@last.message", "@last.output"]
        );
        assert_eq!(labels("/reply ok ?$0"), ["?", "?ask", "?public"]);
    }

    #[test]
    fn never_panics_on_odd_offsets() {
        assert!(complete("é", 1, None).is_empty());
        assert!(complete("", 0, None).is_empty());
        assert!(complete("/re", 99, None).is_empty());
    }
}
