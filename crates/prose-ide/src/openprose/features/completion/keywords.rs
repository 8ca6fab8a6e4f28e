//! Keyword, property and value completions: the item producers
//! (keywords with their snippet templates, the properties of an agent or
//! session, property values, `parallel`/loop modifiers, pipeline
//! operators, expressions) and the template and value-detail tables.

use prose_syntax::{
    AstNode, SyntaxKind, SyntaxNode,
    ast::{self},
};

use super::{CompletionItem, CompletionKind, Cx};
use crate::{
    features::hover::{PropertyContext, keyword_docs, property_docs, value_docs},
    vocabulary,
};

use SyntaxKind::*;

impl Cx<'_> {
    // ---- item producers -----------------------------------------------------------

    pub(super) fn push(&mut self, mut item: CompletionItem) {
        if item.sort_text.is_none() {
            item.sort_text = Some(format!("{:03}", self.items.len()));
        }
        self.items.push(item);
    }

    pub(super) fn item(&self, label: &str, kind: CompletionKind) -> CompletionItem {
        CompletionItem {
            label: label.to_string(),
            kind,
            detail: None,
            documentation: None,
            insert_text: None,
            is_snippet: false,
            replace_range: self.range,
            sort_text: None,
        }
    }

    /// Whether a `:` follows the word (a key is being renamed).
    pub(super) fn colon_follows(&self) -> bool {
        self.text[usize::from(self.range.end())..]
            .trim_start_matches([' ', '\t'])
            .starts_with(':')
    }

    /// A space before an inserted value written right after `:`.
    pub(super) fn lead(&self) -> &'static str {
        let at = usize::from(self.range.start());
        if self.text[..at].ends_with(':') {
            " "
        } else {
            ""
        }
    }

    /// A plain value; gets a leading space when it follows `:` directly.
    pub(super) fn value_item(&self, label: &str, kind: CompletionKind) -> CompletionItem {
        let mut item = self.item(label, kind);
        let lead = self.lead();
        if !lead.is_empty() {
            item.insert_text = Some(format!("{lead}{label}"));
        }
        item
    }

    pub(super) fn keyword(&mut self, t: &Template) {
        let mut item = self.item(t.label, t.kind);
        item.detail = Some(t.detail.to_string());
        item.documentation = keyword_docs(t.label).map(str::to_string);
        if self.rest_of_line_empty && t.snippet != t.label {
            item.insert_text = Some(t.snippet.to_string());
            item.is_snippet = true;
        }
        self.push(item);
    }

    pub(super) fn properties(
        &mut self,
        props: &[Template],
        context: PropertyContext,
        present: &[String],
    ) {
        for t in props {
            if present.iter().any(|p| p == t.label) {
                continue;
            }
            let mut item = self.item(t.label, CompletionKind::Property);
            item.detail = Some(t.detail.to_string());
            item.documentation = property_docs(context, t.label).map(str::to_string);
            if !self.colon_follows() {
                if self.rest_of_line_empty {
                    item.insert_text = Some(t.snippet.to_string());
                    item.is_snippet = true;
                } else {
                    item.insert_text = Some(format!("{}: ", t.label));
                }
            }
            self.push(item);
        }
    }

    /// Values of `key:`.
    pub(super) fn values(&mut self, key: &str) {
        let (words, details): (&[&str], &[&str]) = match key {
            "model" => (vocabulary::MODELS, &MODEL_DETAILS),
            "persist" => (vocabulary::PERSIST_VALUES, &PERSIST_DETAILS),
            "backoff" => (vocabulary::BACKOFF_STRATEGIES, &BACKOFF_DETAILS),
            k if vocabulary::PERMISSION_TYPES.contains(&k) => {
                (vocabulary::PERMISSION_VALUES, &PERMISSION_VALUE_DETAILS)
            }
            "on-fail" => {
                self.failure_policies(true);
                return;
            }
            "skills" => {
                self.skills_array();
                return;
            }
            "context" => {
                self.variables(&[], false);
                return;
            }
            _ => return,
        };
        if vocabulary::PATTERN_PERMISSION_TYPES.contains(&key) {
            let mut item = self.value_item("[\"…\"]", CompletionKind::Snippet);
            item.detail = Some("glob patterns".into());
            item.insert_text = Some(format!("{}[\"$1\"]", self.lead()));
            item.is_snippet = true;
            self.push(item);
        }
        for (v, doc) in words.iter().zip(details) {
            let mut item = self.value_item(v, CompletionKind::Value);
            item.detail = Some(doc.to_string());
            item.documentation = value_docs(key, v).map(str::to_string);
            self.push(item);
        }
    }

    pub(super) fn join_strategies(&mut self, quoted: bool) {
        for (v, doc) in vocabulary::JOIN_STRATEGIES.iter().zip(JOIN_DETAILS) {
            let label = if quoted {
                format!("\"{v}\"")
            } else {
                v.to_string()
            };
            let mut item = self.item(&label, CompletionKind::Value);
            item.detail = Some(doc.to_string());
            item.documentation = value_docs("join", v).map(str::to_string);
            self.push(item);
        }
    }

    pub(super) fn failure_policies(&mut self, quoted: bool) {
        for (v, doc) in vocabulary::FAILURE_POLICIES.iter().zip(FAILURE_DETAILS) {
            let mut item = if quoted {
                self.value_item(&format!("\"{v}\""), CompletionKind::Value)
            } else {
                self.item(v, CompletionKind::Value)
            };
            item.detail = Some(doc.to_string());
            item.documentation = value_docs("on-fail", v).map(str::to_string);
            self.push(item);
        }
    }

    /// The keys of a modifier list owned by `owner`, minus those given.
    pub(super) fn modifiers(
        &mut self,
        owner: SyntaxKind,
        node: Option<&SyntaxNode>,
        given: &[String],
    ) {
        let parallel = match owner {
            PARALLEL_EXPR => true,
            FOR_EXPR => node
                .and_then(|n| ast::ForExpr::cast(n.clone()))
                .is_some_and(|f| f.is_parallel()),
            _ => false,
        };
        let (keys, context): (&[Template], PropertyContext) = if parallel {
            let has_strategy = node
                .and_then(|n| n.children().find_map(ast::ModifierList::cast))
                .is_some_and(|l| {
                    l.modifiers()
                        .any(|m| m.key().is_none() && m.value().is_some())
                });
            if !has_strategy {
                self.join_strategies(true);
            }
            (&PARALLEL_MODIFIERS, PropertyContext::Parallel)
        } else if owner == LOOP_EXPR {
            (&LOOP_MODIFIERS, PropertyContext::Loop)
        } else if owner == SESSION_EXPR {
            (SESSION_PROPERTIES, PropertyContext::Session)
        } else {
            return;
        };
        for t in keys {
            if given.iter().any(|g| g == t.label) || t.label == "permissions" {
                continue;
            }
            let mut item = self.item(t.label, CompletionKind::Property);
            item.detail = Some(t.detail.to_string());
            item.documentation = property_docs(context, t.label).map(str::to_string);
            item.insert_text = Some(format!("{}: ", t.label));
            self.push(item);
        }
    }

    pub(super) fn pipe_ops(&mut self) {
        for t in &PIPE_OPS {
            let mut item = self.item(t.label, CompletionKind::Keyword);
            item.detail = Some(t.detail.to_string());
            item.documentation = keyword_docs(t.label).map(str::to_string);
            if self.rest_of_line_empty {
                item.insert_text = Some(t.snippet.to_string());
                item.is_snippet = true;
            }
            self.push(item);
        }
    }

    pub(super) fn expressions(&mut self) {
        for t in EXPRESSIONS {
            self.keyword(t);
        }
        self.programs();
        self.variables(&[], false);
    }
}

// ---- tables -------------------------------------------------------------------------

/// A keyword or property with its template.
pub(super) struct Template {
    pub(super) label: &'static str,
    kind: CompletionKind,
    pub(super) snippet: &'static str,
    detail: &'static str,
}

const fn kw(label: &'static str, snippet: &'static str, detail: &'static str) -> Template {
    Template {
        label,
        kind: CompletionKind::Keyword,
        snippet,
        detail,
    }
}

const fn prop(label: &'static str, snippet: &'static str, detail: &'static str) -> Template {
    Template {
        label,
        kind: CompletionKind::Property,
        snippet,
        detail,
    }
}

const SESSION: Template = kw("session", "session \"$0\"", "run a session with a prompt");
const SESSION_AGENT: Template = kw(
    "session:",
    "session: ${1:agent}\n  prompt: \"$0\"",
    "run a session with an agent",
);
const RESUME: Template = kw(
    "resume:",
    "resume: ${1:agent}\n  prompt: \"$0\"",
    "continue a persistent agent",
);
const DO_CALL_T: Template = kw("do", "do ${1:block}", "run a block");
const DO_BLOCK: Template = kw("do:", "do:\n  $0", "a sequential block");
const PARALLEL: Template = kw("parallel", "parallel:\n  $0", "run branches concurrently");
const PARALLEL_FOR: Template = kw(
    "parallel for",
    "parallel for ${1:item} in ${2:items}:\n  $0",
    "a loop whose iterations run concurrently",
);
const FOR: Template = kw(
    "for",
    "for ${1:item} in ${2:items}:\n  $0",
    "repeat for each item",
);
const REPEAT: Template = kw(
    "repeat",
    "repeat ${1:3}:\n  $0",
    "repeat a fixed number of times",
);
const LOOP: Template = kw(
    "loop",
    "loop until **$1** (max: ${2:10}):\n  $0",
    "loop until a condition holds",
);
const LOOP_WHILE: Template = kw(
    "loop while",
    "loop while **$1** (max: ${2:10}):\n  $0",
    "loop while a condition holds",
);
const TRY: Template = kw(
    "try",
    "try:\n  $1\ncatch as ${2:err}:\n  $0",
    "handle failures",
);
const IF: Template = kw("if", "if **$1**:\n  $0", "run when a condition holds");
const CHOICE: Template = kw(
    "choice",
    "choice **$1**:\n  option \"$2\":\n    $0",
    "let the AI pick one option",
);

pub(super) const STATEMENTS: &[Template] = &[
    SESSION,
    SESSION_AGENT,
    RESUME,
    kw("let", "let ${1:name} = $0", "bind a variable"),
    kw("const", "const ${1:name} = $0", "bind a constant"),
    kw("output", "output ${1:name} = $0", "bind a program output"),
    DO_CALL_T,
    DO_BLOCK,
    PARALLEL,
    PARALLEL_FOR,
    FOR,
    REPEAT,
    LOOP,
    LOOP_WHILE,
    TRY,
    IF,
    CHOICE,
    kw("throw", "throw \"$0\"", "raise an error"),
];

/// Statements offered only at the top level of the file.
pub(super) const TOP_LEVEL: &[Template] = &[
    kw(
        "agent",
        "agent ${1:name}:\n  model: ${2|sonnet,opus,haiku|}\n  prompt: \"$0\"",
        "define an agent",
    ),
    kw(
        "block",
        "block ${1:name}($2):\n  $0",
        "define a reusable block",
    ),
    kw(
        "input",
        "input ${1:name}: \"$2\"",
        "declare a program input",
    ),
    kw("use", "use \"@${1:handle}/${2:slug}\"", "import a program"),
];

const EXPRESSIONS: &[Template] = &[
    SESSION,
    SESSION_AGENT,
    RESUME,
    DO_CALL_T,
    DO_BLOCK,
    PARALLEL,
    PARALLEL_FOR,
    FOR,
    REPEAT,
    LOOP,
    LOOP_WHILE,
    TRY,
    IF,
    CHOICE,
];

pub(super) const ELIF: Template = kw("elif", "elif **$1**:\n  $0", "another condition");
pub(super) const ELSE: Template = kw("else", "else:\n  $0", "when no condition held");
pub(super) const CATCH: Template = kw("catch", "catch as ${1:err}:\n  $0", "handle the failure");
pub(super) const FINALLY: Template = kw("finally", "finally:\n  $0", "run in every case");
pub(super) const OPTION: Template = kw("option", "option \"$1\":\n  $0", "an option of the choice");
pub(super) const BREAK: Template = kw("break", "break", "leave the loop");
pub(super) const CONTINUE: Template = kw("continue", "continue", "next iteration");
pub(super) const RETURN: Template = kw("return", "return", "the block's result");

const PIPE_OPS: [Template; 4] = [
    kw("map", "map:\n  $0", "transform each item"),
    kw("filter", "filter:\n  $0", "keep the items that pass"),
    kw(
        "reduce",
        "reduce(${1:acc}, ${2:item}):\n  $0",
        "combine the items into one",
    ),
    kw("pmap", "pmap:\n  $0", "transform each item concurrently"),
];

// Properties that agents and sessions share.
const MODEL_PROPERTY: Template = prop(
    "model",
    "model: ${1|sonnet,opus,haiku|}",
    "sonnet, opus or haiku",
);
const CONTEXT_PROPERTY: Template = prop("context", "context: $0", "variables passed in");
const PERMISSIONS_PROPERTY: Template = prop("permissions", "permissions:\n  $0", "access rules");

pub(super) const AGENT_PROPERTIES: &[Template] = &[
    MODEL_PROPERTY,
    prop("prompt", "prompt: \"$0\"", "system prompt"),
    prop(
        "persist",
        "persist: ${1|true,project,user|}",
        "persistent memory",
    ),
    prop("skills", "skills: [\"$0\"]", "imported skills"),
    PERMISSIONS_PROPERTY,
    CONTEXT_PROPERTY,
];

pub(super) const SESSION_PROPERTIES: &[Template] = &[
    MODEL_PROPERTY,
    prop("prompt", "prompt: \"$0\"", "the task"),
    CONTEXT_PROPERTY,
    prop("retry", "retry: ${1:3}", "retries on failure"),
    prop(
        "backoff",
        "backoff: ${1|none,linear,exponential|}",
        "delay between retries",
    ),
    PERMISSIONS_PROPERTY,
];

pub(super) const PERMISSION_TYPES: &[Template] = &[
    prop("read", "read: [\"$0\"]", "files it may read"),
    prop("write", "write: [\"$0\"]", "files it may write"),
    prop("execute", "execute: [\"$0\"]", "files it may execute"),
    prop("bash", "bash: ${1|allow,deny,prompt|}", "shell access"),
    prop(
        "network",
        "network: ${1|allow,deny,prompt|}",
        "network access",
    ),
];

const PARALLEL_MODIFIERS: [Template; 2] = [
    prop(
        "on-fail",
        "on-fail: ",
        "\"fail-fast\", \"continue\" or \"ignore\"",
    ),
    prop("count", "count: ", "successes to wait for (with \"any\")"),
];

const LOOP_MODIFIERS: [Template; 1] = [prop("max", "max: ", "iteration limit")];

// The property and modifier keys above are the `vocabulary` lists, in their
// order (checked when compiling); `permissions` also completes in a session.
const _: () = assert!(labels_are(AGENT_PROPERTIES, vocabulary::AGENT_PROPERTIES));
const _: () = assert!(labels_are(
    SESSION_PROPERTIES.split_last().unwrap().1,
    vocabulary::SESSION_PROPERTIES
));
const _: () = assert!(vocabulary::str_eq(
    SESSION_PROPERTIES.last().unwrap().label,
    "permissions"
));
const _: () = assert!(labels_are(PERMISSION_TYPES, vocabulary::PERMISSION_TYPES));
const _: () = assert!(labels_are(
    &PARALLEL_MODIFIERS,
    vocabulary::PARALLEL_MODIFIERS
));
const _: () = assert!(labels_are(&LOOP_MODIFIERS, vocabulary::LOOP_MODIFIERS));

/// Whether the labels of `templates` are `words`, in order.
const fn labels_are(templates: &[Template], words: &[&str]) -> bool {
    if templates.len() != words.len() {
        return false;
    }
    let mut i = 0;
    while i < words.len() {
        if !vocabulary::str_eq(templates[i].label, words[i]) {
            return false;
        }
        i += 1;
    }
    true
}

// ---- value details: one per word of a `vocabulary` list, in its order ----------

/// sonnet, opus, haiku.
const MODEL_DETAILS: [&str; vocabulary::MODELS.len()] = [
    "balanced, general purpose",
    "complex reasoning, detailed analysis",
    "fast, simple tasks",
];

/// true, project, user.
const PERSIST_DETAILS: [&str; vocabulary::PERSIST_VALUES.len()] = [
    "memory for this run only",
    "memory in .prose/agents/{name}/",
    "memory in ~/.prose/agents/{name}/",
];

/// none, linear, exponential.
const BACKOFF_DETAILS: [&str; vocabulary::BACKOFF_STRATEGIES.len()] = [
    "retry at once",
    "a fixed delay between retries",
    "a doubling delay between retries",
];

/// allow, deny, prompt.
const PERMISSION_VALUE_DETAILS: [&str; vocabulary::PERMISSION_VALUES.len()] =
    ["granted", "denied", "ask the user"];

/// "all", "first", "any".
const JOIN_DETAILS: [&str; vocabulary::JOIN_STRATEGIES.len()] = [
    "wait for every branch (default)",
    "the first branch to finish wins",
    "wait for `count` successes",
];

/// "fail-fast", "continue", "ignore".
const FAILURE_DETAILS: [&str; vocabulary::FAILURE_POLICIES.len()] = [
    "cancel the others on the first failure (default)",
    "let every branch finish, then report failures",
    "always succeed",
];
