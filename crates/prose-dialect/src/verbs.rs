//! The verbs of Pattern Dialect, as data: names, strictness, forms, intents
//! and examples (hover text and completion details come from here).

use serde::{Deserialize, Serialize};

use crate::aliases::{self, Alias};

/// A canonical verb.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verb {
    Recall,
    Context,
    Search,
    Send,
    Reply,
    Post,
    Dm,
    Tell,
    Fetch,
    Web,
    Calc,
    Data,
    Approve,
    Deny,
    Escalate,
    Cancel,
    Halt,
    Uncertain,
    Batch,
}

/// How generously a verb is matched when it is misspelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Strictness {
    /// Never guessed: a near miss is an error (approve, deny, halt).
    Strict,
    /// One typo in words of 4 to 7 letters, two from 8 letters on.
    Normal,
    /// One typo up to 4 letters, two from 5 on, and unique prefixes of 3
    /// letters or more (recall, search).
    Loose,
}

/// One syntactic form of a verb and what it means.
#[derive(Debug)]
pub struct Form {
    pub syntax: &'static str,
    pub meaning: &'static str,
}

/// Everything known about a verb.
#[derive(Debug)]
pub struct VerbSpec {
    pub verb: Verb,
    /// The canonical name, without the `/`.
    pub name: &'static str,
    /// One line.
    pub summary: &'static str,
    /// Memory, Communication, External, Utilities, Authority, Emergency,
    /// Control.
    pub group: &'static str,
    pub strictness: Strictness,
    pub forms: &'static [Form],
    /// The values of `intent` this verb's actions can have (empty: always
    /// null). A `*` entry means "any word" (a /post platform).
    pub intents: &'static [&'static str],
    /// More about the verb, markdown.
    pub notes: &'static str,
}

impl VerbSpec {
    /// The aliases that resolve to this verb (a word shared with another
    /// verb is listed under both).
    pub fn aliases(&self) -> impl Iterator<Item = &'static Alias> + use<> {
        let verb = self.verb;
        aliases::all().iter().filter(move |a| a.verb == verb)
    }

    /// Hover text: the summary, the forms, the aliases and the notes, in
    /// markdown.
    pub fn markdown(&self) -> String {
        let mut out = format!("**/{}** — {}\n\n", self.name, self.summary);
        for f in self.forms {
            out.push_str(&format!("- `{}` — {}\n", f.syntax, f.meaning));
        }
        let aliases: Vec<String> = self
            .aliases()
            .map(|a| match a.meaning {
                "" => format!("`{}`", a.word),
                m => format!("`{}` ({m})", a.word),
            })
            .collect();
        if !aliases.is_empty() {
            out.push_str(&format!("\nAliases: {}\n", aliases.join(", ")));
        }
        let strict = match self.strictness {
            Strictness::Strict => "strict: a misspelling is an error, never a guess",
            Strictness::Normal => "normal: one typo is corrected (two in long words)",
            Strictness::Loose => "loose: typos and unique prefixes are corrected",
        };
        out.push_str(&format!("\nMatching: {strict}.\n"));
        if !self.notes.is_empty() {
            out.push('\n');
            out.push_str(self.notes);
            out.push('\n');
        }
        out
    }
}

impl Verb {
    pub fn spec(self) -> &'static VerbSpec {
        &VERBS[self as usize]
    }

    pub fn name(self) -> &'static str {
        self.spec().name
    }

    pub fn strictness(self) -> Strictness {
        self.spec().strictness
    }

    /// The verb whose canonical name is `name` (ASCII case-insensitive).
    pub fn from_name(name: &str) -> Option<Verb> {
        VERBS
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
            .map(|s| s.verb)
    }
}

/// Every verb, in the order of [`Verb`].
pub fn all() -> &'static [VerbSpec] {
    &VERBS
}

/// The domains of `/send`, with what each reaches.
pub const SEND_DOMAINS: &[(&str, &str)] = &[
    ("user", "the partner (the human owner); needs no target"),
    ("agent", "another agent, e.g. @entropy"),
    ("channel", "a channel, e.g. @general"),
    ("bluesky", "Bluesky: a post URI to reply to, or a handle"),
    ("discord", "Discord: a channel or user, e.g. @general"),
];

/// Platforms `/post` knows; others are accepted with a warning (D019) when
/// they look like a misspelling of one of these.
pub const PLATFORMS: &[&str] = &["bluesky", "discord"];

macro_rules! forms {
    ($($syntax:literal => $meaning:literal),* $(,)?) => {
        &[$(Form { syntax: $syntax, meaning: $meaning }),*]
    };
}

static VERBS: [VerbSpec; 19] = [
    VerbSpec {
        verb: Verb::Recall,
        name: "recall",
        summary: "long-term memory: read, search, insert, append, delete or patch blocks",
        group: "Memory",
        strictness: Strictness::Loose,
        forms: forms![
            "/recall block_name" => "read the block (when the registry knows it; otherwise a search)",
            "/recall \"fuzzy query\"" => "search memory",
            "/recall + \"content\"" => "insert a new block",
            "/recall block_name + \"content\"" => "append to an existing block",
            "/recall -block_name" => "delete the block",
            "/recall patch block_name ```diff ...```" => "structured edit",
            "/recall insert|add|save [label] CONTENT" => "insert",
            "/recall append BLOCK CONTENT" => "append",
            "/recall read|get|check|show BLOCK" => "read",
            "/recall delete|remove BLOCK" => "delete",
            "/recall patch|edit BLOCK PATCH" => "patch",
        ],
        intents: &["read", "search", "insert", "append", "delete", "patch"],
        notes: "Intent is inferred from the shape of the arguments. `store`, `save`, `archive` and `remember` store what follows (insert, or append with `block + content`); `forget` deletes and is never guessed from a misspelling.",
    },
    VerbSpec {
        verb: Verb::Context,
        name: "context",
        summary: "working memory: the blocks always in context (persona, human, notes)",
        group: "Memory",
        strictness: Strictness::Normal,
        forms: forms![
            "/context block_name + \"content\"" => "append to the block",
            "/context block_name \"old\" -> \"new\"" => "replace text in the block",
            "/context archive block_name" => "move the block to archival memory",
            "/context load archival_label" => "load a block from archival memory",
            "/context swap block archival_label" => "swap a working block with an archival one",
        ],
        intents: &["append", "replace", "archive", "load", "swap"],
        notes: "`remember` is shared with /recall: it means /context for the replace, load, swap and archive forms, and for appending to a block the registry lists under `[context]`; otherwise /recall.",
    },
    VerbSpec {
        verb: Verb::Search,
        name: "search",
        summary: "query across memory and conversations",
        group: "Memory",
        strictness: Strictness::Loose,
        forms: forms![
            "/search query terms" => "search everything, results grouped",
            "/search in archival query" => "archival memory only",
            "/search in conversations query" => "conversation history",
            "/search in constellation query" => "all agents' history",
            "/search in all query" => "everything (also: `everywhere`)",
            "/search query > 2 weeks" => "older than two weeks (`<` for newer than)",
            "/search query role:assistant" => "only messages with that role",
        ],
        intents: &["all", "archival", "conversations", "constellation"],
        notes: "The intent is the domain searched. `conversations about X` (a domain word then `about` or `for`) also selects the domain. `/search web ...` is a web search (/web).",
    },
    VerbSpec {
        verb: Verb::Send,
        name: "send",
        summary: "send a message to an explicit domain and target",
        group: "Communication",
        strictness: Strictness::Normal,
        forms: forms![
            "/send @domain @target \"message\"" => "domains: @user, @agent, @channel, @bluesky, @discord",
            "/send @user \"message\"" => "to the partner; no target needed",
        ],
        intents: &["user", "agent", "channel", "bluesky", "discord"],
        notes: "The intent is the domain.",
    },
    VerbSpec {
        verb: Verb::Reply,
        name: "reply",
        summary: "reply in the current thread, to the message being responded to",
        group: "Communication",
        strictness: Strictness::Normal,
        forms: forms!["/reply CONTENT" => "reply to @parent in @thread"],
        intents: &["thread"],
        notes: "",
    },
    VerbSpec {
        verb: Verb::Post,
        name: "post",
        summary: "publish to a platform",
        group: "Communication",
        strictness: Strictness::Normal,
        forms: forms!["/post PLATFORM CONTENT" => "post to bluesky, discord, ..."],
        intents: &["*"],
        notes: "The intent is the platform, in lower case.",
    },
    VerbSpec {
        verb: Verb::Dm,
        name: "dm",
        summary: "direct message to a user",
        group: "Communication",
        strictness: Strictness::Normal,
        forms: forms!["/dm @user CONTENT" => "a private message"],
        intents: &["user"],
        notes: "",
    },
    VerbSpec {
        verb: Verb::Tell,
        name: "tell",
        summary: "agent-to-agent message",
        group: "Communication",
        strictness: Strictness::Normal,
        forms: forms!["/tell @agent CONTENT" => "message another agent"],
        intents: &["agent"],
        notes: "In a chain (`... -> /tell @entropy`) the content may be left out: it is the output of the previous action (`@last.output`).",
    },
    VerbSpec {
        verb: Verb::Fetch,
        name: "fetch",
        summary: "get web content",
        group: "External",
        strictness: Strictness::Normal,
        forms: forms![
            "/fetch URL" => "the page as markdown",
            "/fetch URL html" => "the raw html",
            "/fetch continue" => "continue a paginated read",
        ],
        intents: &["markdown", "html", "continue"],
        notes: "`get` means /fetch when its argument is a URL, and /recall read otherwise.",
    },
    VerbSpec {
        verb: Verb::Web,
        name: "web",
        summary: "web search",
        group: "External",
        strictness: Strictness::Normal,
        forms: forms![
            "/web query terms" => "search the web",
            "/web site:docs.rs tokio runtime" => "`site:` words limit the search to sites",
        ],
        intents: &[],
        notes: "Also written `/search web ...`, `/google ...` and `/look up ...` (but `/lookup` searches memory).",
    },
    VerbSpec {
        verb: Verb::Calc,
        name: "calc",
        summary: "calculation and unit conversion",
        group: "Utilities",
        strictness: Strictness::Normal,
        forms: forms![
            "/calc 5 feet to meters" => "unit conversion",
            "/calc radius = 5; pi * radius^2" => "expressions and variables",
            "/calc 20% of 350" => "percentages",
        ],
        intents: &[],
        notes: "The expression is kept as written.",
    },
    VerbSpec {
        verb: Verb::Data,
        name: "data",
        summary: "configured data sources",
        group: "Utilities",
        strictness: Strictness::Normal,
        forms: forms![
            "/data list" => "show the configured sources",
            "/data read source_id" => "read from a source",
            "/data search source_id \"query\"" => "search in a source",
            "/data monitor source_id" => "start notifications",
            "/data pause source_id" => "pause notifications",
        ],
        intents: &["list", "read", "search", "monitor", "pause"],
        notes: "",
    },
    VerbSpec {
        verb: Verb::Approve,
        name: "approve",
        summary: "grant a pending permission request (authority roles only)",
        group: "Authority",
        strictness: Strictness::Strict,
        forms: forms![
            "/approve [request-id]" => "approve once",
            "/approve [request-id] always" => "approve and create a permanent rule",
        ],
        intents: &["once", "always"],
        notes: "The request id may be written bare (`req-42`) or in brackets (`[req-42]`); without one, the request in context is meant.",
    },
    VerbSpec {
        verb: Verb::Deny,
        name: "deny",
        summary: "deny a pending permission request (authority roles only)",
        group: "Authority",
        strictness: Strictness::Strict,
        forms: forms![
            "/deny [request-id]" => "deny once",
            "/deny [request-id] \"reason\"" => "deny, saying why",
            "/deny [request-id] always" => "deny and create a permanent block",
        ],
        intents: &["once", "always"],
        notes: "",
    },
    VerbSpec {
        verb: Verb::Escalate,
        name: "escalate",
        summary: "punt a request to a higher authority",
        group: "Authority",
        strictness: Strictness::Normal,
        forms: forms![
            "/escalate [request-id]" => "pass the request up",
            "/escalate [request-id] \"this needs human review\"" => "with a reason",
        ],
        intents: &[],
        notes: "",
    },
    VerbSpec {
        verb: Verb::Cancel,
        name: "cancel",
        summary: "cancel a pending action",
        group: "Authority",
        strictness: Strictness::Normal,
        forms: forms![
            "/cancel" => "cancel the current chain",
            "/cancel [request-id]" => "cancel a specific pending action",
        ],
        intents: &["chain", "request"],
        notes: "`stop` is an alias of /cancel, not of /halt.",
    },
    VerbSpec {
        verb: Verb::Halt,
        name: "halt",
        summary: "emergency stop: terminates the process (system integrity agents only)",
        group: "Emergency",
        strictness: Strictness::Strict,
        forms: forms!["/halt \"reason for emergency stop\" !" => "a reason is required"],
        intents: &[],
        notes: "",
    },
    VerbSpec {
        verb: Verb::Uncertain,
        name: "uncertain",
        summary: "signal uncertainty so a larger model or the partner decides",
        group: "Authority",
        strictness: Strictness::Normal,
        forms: forms!["/uncertain \"this looks like sarcasm but I can't tell\"" => "say what is unclear"],
        intents: &[],
        notes: "",
    },
    VerbSpec {
        verb: Verb::Batch,
        name: "batch",
        summary: "run several actions in parallel",
        group: "Control",
        strictness: Strictness::Normal,
        forms: forms!["/batch {\n  /action\n  /action\n}" => "one action per line, closed by `}` on its own line"],
        intents: &[],
        notes: "Batches may nest (up to 16 deep). A chain may follow the closing brace: `} -> /tell @entropy`.",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_in_enum_order_and_names_round_trip() {
        for (i, s) in all().iter().enumerate() {
            assert_eq!(s.verb as usize, i, "{}", s.name);
            assert_eq!(Verb::from_name(s.name), Some(s.verb));
            assert_eq!(Verb::from_name(&s.name.to_uppercase()), Some(s.verb));
            let json = serde_json::to_string(&s.verb).unwrap();
            assert_eq!(json, format!("\"{}\"", s.name));
        }
        assert_eq!(Verb::from_name("summarize"), None);
    }

    #[test]
    fn strict_verbs_are_exactly_approve_deny_halt() {
        let strict: Vec<_> = all()
            .iter()
            .filter(|s| s.strictness == Strictness::Strict)
            .map(|s| s.name)
            .collect();
        assert_eq!(strict, ["approve", "deny", "halt"]);
        let loose: Vec<_> = all()
            .iter()
            .filter(|s| s.strictness == Strictness::Loose)
            .map(|s| s.name)
            .collect();
        assert_eq!(loose, ["recall", "search"]);
    }

    #[test]
    fn hover_markdown_lists_forms_and_aliases() {
        let md = Verb::Cancel.spec().markdown();
        expect_test::expect![[r#"
            **/cancel** — cancel a pending action

            - `/cancel` — cancel the current chain
            - `/cancel [request-id]` — cancel a specific pending action

            Aliases: `abort`, `nevermind`, `stop`

            Matching: normal: one typo is corrected (two in long words).

            `stop` is an alias of /cancel, not of /halt.
        "#]]
        .assert_eq(&md);
    }
}
