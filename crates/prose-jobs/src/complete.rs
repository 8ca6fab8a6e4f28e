//! What to complete at a cursor: `$` variables in prompt strings, model
//! keys in a task's `model`, task names in `previousTasks`, grid keywords
//! in `previousJobKeywords`, tools in `toolExecuted`. The candidates are
//! [`Index::names`](crate::index::Index::names) and the built-in lists.

use text_size::{TextRange, TextSize};

use crate::{
    ParsedEntry,
    json::{Value, ValueKind},
};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CompletionKind {
    /// Prompt variables and runtime variables, inserted with their `$`.
    Variable,
    ModelKey,
    Task,
    GridKeyword,
    Tool,
}

/// A completion request's context.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CompletionContext {
    pub kind: CompletionKind,
    /// What the chosen name replaces: the `$partial` before the cursor, the
    /// string's content, or an empty range where a new string goes.
    pub replace: TextRange,
    /// Whether the name must be inserted as a quoted string (the cursor is
    /// in an array, not in a string).
    pub quoted: bool,
    /// The text already typed (`$pl`, `plan`), for filtering.
    pub prefix: String,
}

enum Seg<'a> {
    Key(&'a str),
    Index(usize),
}

/// The completion context at `offset` in `text` (the text `parsed` was
/// read from), or `None` where nothing of the entry's is completed.
pub fn completion_at(
    text: &str,
    parsed: &ParsedEntry,
    offset: TextSize,
) -> Option<CompletionContext> {
    let root = parsed.json.root.as_ref()?;
    let (path, value) = locate(text, root, offset);
    use Seg::{Index, Key};
    let list_kind = match path.as_slice() {
        [
            Key("tasks"),
            Key(_),
            Key("availability"),
            Key("previousTasks"),
            rest @ ..,
        ] if rest.len() <= 1 => Some(CompletionKind::Task),
        [
            Key("tasks"),
            Key(_),
            Key("availability"),
            Key("previousJobKeywords"),
            rest @ ..,
        ] if rest.len() <= 1 => Some(CompletionKind::GridKeyword),
        [
            Key("tasks"),
            Key(_),
            Key("criteria"),
            Key("toolExecuted"),
            rest @ ..,
        ] if rest.len() <= 1 => Some(CompletionKind::Tool),
        [Key("tasks"), Key(_), Key("model")] => Some(CompletionKind::ModelKey),
        _ => None,
    };
    let in_prompt = matches!(
        path.as_slice(),
        [Key("promptVariables"), Key(_), Index(_)]
            | [Key("tasks"), Key(_), Key("prompt"), Index(_)]
            | [
                Key("tasks"),
                Key(_),
                Key("availability" | "criteria"),
                Key("condition"),
                Index(_)
            ]
            | [
                Key("tasks"),
                Key(_),
                Key("criteria"),
                Key("failureAction"),
                Index(2),
                Index(_)
            ]
    );
    match &value.kind {
        ValueKind::String(s) if in_prompt => {
            let content = s.content_range();
            let before = text.get(usize::from(content.start())..usize::from(offset))?;
            let word = before.len()
                - before
                    .trim_end_matches(|c: char| c.is_ascii_alphabetic() || c == '-')
                    .len();
            let dollar = before.len() - word;
            if dollar == 0 || before.as_bytes()[dollar - 1] != b'$' {
                return None;
            }
            let start = content.start() + TextSize::from((dollar - 1) as u32);
            Some(CompletionContext {
                kind: CompletionKind::Variable,
                replace: TextRange::new(start, offset),
                quoted: false,
                prefix: before[dollar - 1..].to_string(),
            })
        }
        ValueKind::String(s) => {
            let kind = list_kind?;
            let content = s.content_range();
            let prefix = text
                .get(usize::from(content.start())..usize::from(offset))?
                .to_string();
            Some(CompletionContext {
                kind,
                replace: content,
                quoted: false,
                prefix,
            })
        }
        ValueKind::Array(_) if matches!(path.last(), Some(Key(_))) => Some(CompletionContext {
            kind: list_kind.filter(|k| *k != CompletionKind::ModelKey)?,
            replace: TextRange::empty(offset),
            quoted: true,
            prefix: String::new(),
        }),
        _ => None,
    }
}

/// The path from the root to the innermost value at `offset`, and that value.
fn locate<'v>(text: &str, root: &'v Value, offset: TextSize) -> (Vec<Seg<'v>>, &'v Value) {
    let mut path = Vec::new();
    let mut value = root;
    loop {
        let next = match &value.kind {
            ValueKind::Object(members) => members
                .iter()
                .find(|m| inside(text, &m.value, offset))
                .map(|m| (Seg::Key(m.key.as_str()), &m.value)),
            ValueKind::Array(items) => items
                .iter()
                .enumerate()
                .find(|(_, v)| inside(text, v, offset))
                .map(|(i, v)| (Seg::Index(i), v)),
            _ => None,
        };
        let Some((seg, v)) = next else {
            return (path, value);
        };
        path.push(seg);
        value = v;
    }
}

/// Whether `offset` is inside `v`: between the quotes of a string, or
/// the brackets of an object or array (up to the end of the file for one
/// not closed yet, as while typing).
fn inside(text: &str, v: &Value, offset: TextSize) -> bool {
    match &v.kind {
        ValueKind::String(s) => s.content_range().contains_inclusive(offset),
        ValueKind::Object(_) | ValueKind::Array(_) => {
            let end = usize::from(v.range.end());
            let closed = end > 0 && matches!(text.as_bytes().get(end - 1), Some(b']' | b'}'));
            v.range.start() < offset && (offset < v.range.end() || !closed)
        }
        _ => false,
    }
}
