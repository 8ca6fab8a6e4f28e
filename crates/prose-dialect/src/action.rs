//! `ParsedAction` and its arguments: what a line of Pattern Dialect means,
//! as plain serde-serializable data.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::{Span, content::Content, marker::PermissionMarker, reference::Reference, verbs::Verb};

/// One action, as in the seed's Key Types: a verb, its arguments, an
/// optional permission marker and the next action of its chain.
///
/// Serialized (with serde) as `{"verb":"recall","marker":null,
/// "intent":"search","chain":null,"arguments":{...},...}`; this is also the
/// `action` object of `prose dialect parse`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ParsedAction {
    /// The canonical verb.
    pub verb: Verb,
    /// The permission marker at the end of the action: `.`, `?`, `?ask`,
    /// `!` or `?word`.
    #[serde(rename = "marker")]
    pub permission_marker: Option<PermissionMarker>,
    /// What the action does, inferred from the shape of its arguments (see
    /// [`Arguments::intent`]); derived from `arguments` when parsed.
    pub intent: Option<Cow<'static, str>>,
    /// The next action (`->`): "then prompt me again with the result".
    pub chain: Option<Box<ParsedAction>>,
    pub arguments: Arguments,
    /// The verb as written after the `/` (an alias, a misspelling, or a
    /// two-word alias such as `look up`).
    pub written: Cow<'static, str>,
    /// How sure the verb is: 1 when spelled exactly, less when corrected.
    pub confidence: f32,
    /// From the `/` to the end of this action, without its chain.
    pub span: Span,
}

impl ParsedAction {
    /// The actions of the chain, this one first.
    pub fn links(&self) -> impl Iterator<Item = &ParsedAction> {
        std::iter::successors(Some(self), |a| a.chain.as_deref())
    }

    /// From the `/` to the end of the last link of the chain.
    pub fn chain_span(&self) -> Span {
        self.links().fold(self.span, |acc, l| acc.cover(l.span))
    }
}

/// A name written in an action: a block, a target, a request id.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Name {
    /// Without a leading `@`, `-` or surrounding brackets.
    pub text: String,
    pub span: Span,
}

/// The arguments of an action, by verb family. Serialized with a `type`
/// field naming the family, and (for the families that have one) an
/// `intent` field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Arguments {
    Recall(RecallIntent),
    Context(ContextOp),
    Search(SearchQuery),
    /// /send, /reply, /post, /dm and /tell.
    Message(Message),
    Fetch(FetchRequest),
    Web(WebQuery),
    Calc(Calc),
    Data(DataOp),
    /// /approve and /deny.
    Decision(Decision),
    Escalate(Escalation),
    Cancel(Cancellation),
    Halt(Halt),
    Uncertain(Uncertain),
    Batch(Batch),
}

/// /recall, by the shape of its arguments (the seed's `interpret_recall`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "intent", rename_all = "snake_case")]
pub enum RecallIntent {
    /// `/recall block_name`, a block the registry knows (or `read X`).
    Read { block: Name },
    /// `/recall "fuzzy query"`, or any text that is not a known block.
    Search { query: Content },
    /// `/recall + "content"`, `insert [label] content`.
    Insert {
        label: Option<Name>,
        content: Content,
    },
    /// `/recall block + "content"`, `append block content`.
    Append { block: Name, content: Content },
    /// `/recall -block`, `delete block`, `/forget block`.
    Delete { block: Name },
    /// `/recall patch block ```diff ... ````.
    Patch { block: Name, patch: Content },
}

/// /context: working memory.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "intent", rename_all = "snake_case")]
pub enum ContextOp {
    Append {
        block: Name,
        content: Content,
    },
    Replace {
        block: Name,
        old: Content,
        new: Content,
    },
    Archive {
        block: Name,
    },
    Load {
        label: Name,
    },
    Swap {
        block: Name,
        label: Name,
    },
}

/// /search.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchQuery {
    pub domain: SearchDomain,
    /// The query, without the domain and the filters.
    pub query: Content,
    /// `> 2 weeks`, `< 3 days`.
    pub time: Option<TimeFilter>,
    /// `role:assistant`.
    pub role: Option<Name>,
}

/// Where /search looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SearchDomain {
    All,
    Archival,
    Conversations,
    Constellation,
}

impl SearchDomain {
    pub fn as_str(self) -> &'static str {
        match self {
            SearchDomain::All => "all",
            SearchDomain::Archival => "archival",
            SearchDomain::Conversations => "conversations",
            SearchDomain::Constellation => "constellation",
        }
    }
}

/// A time filter: `>` means older than, `<` newer than.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimeFilter {
    pub older: bool,
    pub amount: u32,
    /// `minutes`, `hours`, `days`, `weeks`, `months` or `years`.
    pub unit: Cow<'static, str>,
    pub span: Span,
}

/// A message: /send, and its shorthands /reply, /post, /dm, /tell.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Message {
    /// `user`, `agent`, `channel`, `bluesky`, `discord` (/send); `thread`
    /// (/reply); the platform (/post); `user` (/dm); `agent` (/tell).
    pub domain: Cow<'static, str>,
    /// `@entropy`, `@at://...`; none for /reply and `/send @user`.
    pub target: Option<Name>,
    pub content: Content,
}

/// /fetch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "intent", rename_all = "snake_case")]
pub enum FetchRequest {
    Markdown { url: Name },
    Html { url: Name },
    Continue,
}

/// /web.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WebQuery {
    /// The whole query, `site:` words included.
    pub query: Content,
    /// The `site:` filters.
    pub sites: Vec<Name>,
}

/// /calc.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Calc {
    pub expression: Content,
}

/// /data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "intent", rename_all = "snake_case")]
pub enum DataOp {
    List,
    Read { source: Name },
    Search { source: Name, query: Content },
    Monitor { source: Name },
    Pause { source: Name },
}

/// /approve and /deny.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    /// None: the request in context.
    pub request: Option<Name>,
    /// `always`: a permanent rule.
    pub always: bool,
    /// /deny's reason.
    pub reason: Option<Content>,
}

/// /escalate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Escalation {
    pub request: Option<Name>,
    pub reason: Option<Content>,
}

/// /cancel: the current chain, or one pending request.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cancellation {
    pub request: Option<Name>,
}

/// /halt.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Halt {
    pub reason: Content,
}

/// /uncertain.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Uncertain {
    pub note: Content,
}

/// /batch: actions to run in parallel.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Batch {
    pub actions: Vec<ParsedAction>,
}

impl Arguments {
    /// The intent: recall's read/search/insert/append/delete/patch;
    /// context's append/replace/archive/load/swap; search's domain; a
    /// message's domain; fetch's markdown/html/continue; data's subcommand;
    /// approve/deny's once/always; cancel's chain/request; none for web,
    /// calc, escalate, halt, uncertain and batch.
    pub fn intent(&self) -> Option<Cow<'static, str>> {
        let s: &'static str = match self {
            Arguments::Recall(r) => match r {
                RecallIntent::Read { .. } => "read",
                RecallIntent::Search { .. } => "search",
                RecallIntent::Insert { .. } => "insert",
                RecallIntent::Append { .. } => "append",
                RecallIntent::Delete { .. } => "delete",
                RecallIntent::Patch { .. } => "patch",
            },
            Arguments::Context(c) => match c {
                ContextOp::Append { .. } => "append",
                ContextOp::Replace { .. } => "replace",
                ContextOp::Archive { .. } => "archive",
                ContextOp::Load { .. } => "load",
                ContextOp::Swap { .. } => "swap",
            },
            Arguments::Search(q) => q.domain.as_str(),
            Arguments::Message(m) if m.domain.is_empty() => return None,
            Arguments::Message(m) => return Some(m.domain.clone()),
            Arguments::Fetch(f) => match f {
                FetchRequest::Markdown { .. } => "markdown",
                FetchRequest::Html { .. } => "html",
                FetchRequest::Continue => "continue",
            },
            Arguments::Data(d) => match d {
                DataOp::List => "list",
                DataOp::Read { .. } => "read",
                DataOp::Search { .. } => "search",
                DataOp::Monitor { .. } => "monitor",
                DataOp::Pause { .. } => "pause",
            },
            Arguments::Decision(d) if d.always => "always",
            Arguments::Decision(_) => "once",
            Arguments::Cancel(c) if c.request.is_some() => "request",
            Arguments::Cancel(_) => "chain",
            Arguments::Web(_)
            | Arguments::Calc(_)
            | Arguments::Escalate(_)
            | Arguments::Halt(_)
            | Arguments::Uncertain(_)
            | Arguments::Batch(_) => return None,
        };
        Some(Cow::Borrowed(s))
    }

    /// Every reference in the arguments (`@last`, `that`, ...), with the
    /// content it stands for.
    pub fn references<'a>(&'a self) -> Vec<(&'a Reference, Span)> {
        let mut out = Vec::new();
        let mut add = |c: &'a Content| {
            if let Some(r) = &c.reference {
                out.push((r, c.span));
            }
        };
        match self {
            Arguments::Recall(
                RecallIntent::Search { query: c }
                | RecallIntent::Insert { content: c, .. }
                | RecallIntent::Append { content: c, .. }
                | RecallIntent::Patch { patch: c, .. },
            ) => add(c),
            Arguments::Context(ContextOp::Append { content, .. }) => add(content),
            Arguments::Context(ContextOp::Replace { old, new, .. }) => {
                add(old);
                add(new);
            }
            Arguments::Message(m) => add(&m.content),
            Arguments::Calc(c) => add(&c.expression),
            Arguments::Halt(h) => add(&h.reason),
            Arguments::Uncertain(u) => add(&u.note),
            Arguments::Decision(Decision {
                reason: Some(c), ..
            })
            | Arguments::Escalate(Escalation {
                reason: Some(c), ..
            }) => add(c),
            _ => {}
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DialectParser;

    /// Frameworks may send actions across processes: every action survives
    /// a JSON round trip, and its intent is the one its arguments give.
    #[test]
    fn actions_round_trip_through_json() {
        let text = "/recall project_notes + \"x\"\n/recall -a\n/recal b\n/recall patch a ```diff\n-x\n```\n/forget a\n\
            /context persona \"old\" -> \"new\"\n/context swap a b\n/context load a\n/archive persona\n\
            /search in archival x > 2 weeks role:user\n/send @agent @entropy \"hi\" ?ask\n/reply that .\n/post bluesky\n> q\n\
            /dm @user @last.output\n/tell @a x -> /reply y !\n/fetch https://x.y html\n/fetch continue\n/web site:a.b q\n\
            /calc 1+1\n/data list\n/data search s \"q\"\n/approve [r1] always\n/deny r2 \"no\"\n/escalate r3\n/cancel r4\n\
            /halt \"stop\" !\n/uncertain \"hm\"\n/batch {\n/reply a\n} -> /tell @b\n";
        let doc = DialectParser::new().parse_document(text);
        assert_eq!(doc.actions.len(), 28);
        for item in &doc.actions {
            let action = item.action.as_ref().unwrap();
            for link in action.links() {
                assert_eq!(
                    link.intent,
                    link.arguments.intent(),
                    "{}",
                    item.span.text(text)
                );
            }
            let json = serde_json::to_string(action).unwrap();
            let back: ParsedAction = serde_json::from_str(&json).unwrap();
            assert_eq!(&back, action, "{json}");
        }
    }
}
