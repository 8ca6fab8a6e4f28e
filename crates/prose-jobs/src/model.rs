//! The Entry model (seed 002) with the source range of every key and value.
//!
//! It holds what the file says, as far as it has the right shape: a value
//! of the wrong type is reported while reading (`J002`) and left out
//! (`None`, or `None` in its slot of a list), so the checks that follow see
//! only well-typed data and never report a follow-on error. Names are kept
//! as [`JsonString`]s: their text and the range of their literal.

use text_size::TextRange;

use crate::{json::JsonString, variables::find_variables};

/// A whole entry. Lists keep the file's order. Where a key appears twice
/// in one object, the last one counts (as in JavaScript) and the earlier
/// ones are reported (`J005`) and left out.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Entry {
    /// The root value.
    pub range: TextRange,
    pub models: Option<Models>,
    pub prompt_variables: Vec<PromptVariable>,
    /// Whether `promptVariables` is there (as an object).
    pub has_prompt_variables: bool,
    pub grid: Option<Vec<GridRow>>,
    pub tasks: Vec<Task>,
    /// Whether `tasks` is there (as an object).
    pub has_tasks: bool,
}

/// `models`: the model ids by key. `driving`, `planning` and `coding` are
/// required; any other string field is one more model key.
#[derive(Debug, Clone, PartialEq)]
pub struct Models {
    pub range: TextRange,
    /// Every string-valued field but `reviewers`, in file order.
    pub keys: Vec<ModelKey>,
    /// `reviewers`: one slot per array item, `None` for an item that is
    /// not a string.
    pub reviewers: Option<Vec<Option<JsonString>>>,
    /// The `reviewers` key.
    pub reviewers_key: Option<JsonString>,
}

/// A model key and its model id: `"planning": "gpt-5.2"`.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelKey {
    pub key: JsonString,
    pub model: JsonString,
}

/// `promptVariables[name]`.
#[derive(Debug, Clone, PartialEq)]
pub struct PromptVariable {
    /// The key, without `$` when written correctly.
    pub name: JsonString,
    /// `None` when the value is not a prompt (reported).
    pub prompt: Option<Prompt>,
}

/// A prompt: an array of strings, joined with LF when expanded.
#[derive(Debug, Clone, PartialEq)]
pub struct Prompt {
    /// The array, brackets included.
    pub range: TextRange,
    /// The string items (an item that is not a string is reported and left out).
    pub items: Vec<PromptItem>,
    /// How many items the array has, strings or not.
    pub len: usize,
}

/// One string of a prompt and the variables used in it.
#[derive(Debug, Clone, PartialEq)]
pub struct PromptItem {
    pub text: JsonString,
    pub variables: Vec<VariableUse>,
}

impl Prompt {
    /// A prompt that is not in any file: `lines` as its strings, every
    /// range empty (at offset 0). For a caller that builds a prompt of its
    /// own, such as a runner's retry message, to expand it like the
    /// entry's.
    pub fn from_lines<S: AsRef<str>>(lines: &[S]) -> Prompt {
        Prompt {
            range: TextRange::default(),
            items: lines
                .iter()
                .map(|l| PromptItem::new(JsonString::detached(l.as_ref(), 0.into())))
                .collect(),
            len: lines.len(),
        }
    }
}

impl PromptItem {
    /// A prompt string and the variables in it.
    pub fn new(text: JsonString) -> PromptItem {
        let variables = find_variables(text.as_str())
            .into_iter()
            .map(|(start, end)| VariableUse {
                name: text.as_str()[start + 1..end].to_string(),
                start,
                end,
                range: text.source_range(start, end),
            })
            .collect();
        PromptItem { text, variables }
    }
}

/// One `$name` in a prompt string.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct VariableUse {
    /// The name without `$`.
    pub name: String,
    /// Byte offsets of `$name` in the decoded text of its string.
    pub start: usize,
    pub end: usize,
    /// The source range of `$name`.
    pub range: TextRange,
}

impl VariableUse {
    /// The source range of the name alone (without `$`): what a rename edits.
    pub fn name_range(&self, item: &PromptItem) -> TextRange {
        item.text.source_range(self.start + 1, self.end)
    }
}

/// `grid[index]`.
#[derive(Debug, Clone, PartialEq)]
pub struct GridRow {
    pub range: TextRange,
    pub keyword: Option<JsonString>,
    pub automate: Option<Flag>,
    pub jobs: Vec<GridJob>,
}

/// `grid[row].jobs[column]`.
#[derive(Debug, Clone, PartialEq)]
pub struct GridJob {
    pub range: TextRange,
    pub name: Option<JsonString>,
    pub id: Option<JsonString>,
}

/// A boolean and where it is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Flag {
    pub value: bool,
    pub range: TextRange,
}

/// `tasks[name]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Task {
    /// The key.
    pub name: JsonString,
    /// The task's value (the object).
    pub range: TextRange,
    pub model: Option<JsonString>,
    pub prompt: Option<Prompt>,
    pub require_user_input: Option<Flag>,
    pub availability: Option<Availability>,
    pub criteria: Option<Criteria>,
}

/// `tasks[name].availability`.
#[derive(Debug, Clone, PartialEq)]
pub struct Availability {
    pub range: TextRange,
    /// One slot per array item; `None` for an item that is not a string.
    pub previous_job_keywords: Vec<Option<JsonString>>,
    pub previous_tasks: Vec<Option<JsonString>>,
    pub condition: Option<Prompt>,
}

/// `tasks[name].criteria`.
#[derive(Debug, Clone, PartialEq)]
pub struct Criteria {
    pub range: TextRange,
    pub tool_executed: Vec<Option<JsonString>>,
    pub failure_action: Option<FailureAction>,
    pub condition: Option<Prompt>,
    pub run_condition_in_same_session: Option<Flag>,
}

/// `criteria.failureAction`: `["RetryWithNewSession", n]` or
/// `["RetryWithUserPrompt", n, prompt]`.
#[derive(Debug, Clone, PartialEq)]
pub struct FailureAction {
    pub range: TextRange,
    /// `None` when the first item is not one of the two forms (reported).
    pub kind: Option<FailureKind>,
    /// The retry count, when it is a non-negative integer.
    pub retries: Option<u32>,
    /// The third item of `RetryWithUserPrompt`.
    pub prompt: Option<Prompt>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FailureKind {
    /// Retry with a new task session each time.
    RetryWithNewSession,
    /// Retry in the same task session, sending the prompt.
    RetryWithUserPrompt,
}

impl FailureKind {
    pub const ALL: [FailureKind; 2] = [
        FailureKind::RetryWithNewSession,
        FailureKind::RetryWithUserPrompt,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            FailureKind::RetryWithNewSession => "RetryWithNewSession",
            FailureKind::RetryWithUserPrompt => "RetryWithUserPrompt",
        }
    }

    /// How many items the array has in this form.
    pub fn arity(self) -> usize {
        match self {
            FailureKind::RetryWithNewSession => 2,
            FailureKind::RetryWithUserPrompt => 3,
        }
    }
}

impl Entry {
    /// The task called `name` (the last one, if the name is duplicated).
    pub fn task(&self, name: &str) -> Option<&Task> {
        self.tasks.iter().rev().find(|t| t.name.as_str() == name)
    }

    /// The prompt variable called `name` (without `$`).
    pub fn prompt_variable(&self, name: &str) -> Option<&PromptVariable> {
        self.prompt_variables
            .iter()
            .rev()
            .find(|v| v.name.as_str() == name)
    }

    /// The model keys a task may name (every string field of `models` but
    /// `reviewers`), or `None` when `models` is missing.
    pub fn model_keys(&self) -> Option<impl Iterator<Item = &str>> {
        self.models
            .as_ref()
            .map(|m| m.keys.iter().map(|k| k.key.as_str()))
    }

    /// Every grid row's keyword, in order (a keyword may repeat).
    pub fn grid_keywords(&self) -> impl Iterator<Item = &JsonString> {
        self.grid
            .iter()
            .flatten()
            .filter_map(|r| r.keyword.as_ref())
    }
}
