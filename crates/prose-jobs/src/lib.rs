//! Job entries (seed 002): the `Entry` of a coding-agent job system, read
//! from JSON with comments, with the source range of every key and value;
//! prompt expansion (`expandPromptStatic`, `expandPromptDynamic`); and
//! `validateEntry`, which here reports **every** error, each at the byte
//! range of the JSON node it is about, with a stable code (`J001`-`J020`),
//! the seed's message (`entry.tasks["t"].model: REASON`) and, where the
//! fix is clear, the edit that makes it.
//!
//! No salsa, no LSP, no IO: text in, plain data out.
//!
//! ```
//! let parsed = prose_jobs::parse(r#"{
//!   "models": {"driving": "d", "planning": "p", "coding": "c", "reviewers": []},
//!   "promptVariables": {"plan": ["Write the plan."]},
//!   "grid": [],
//!   "tasks": {"plan-task": {"model": "planing", "prompt": ["$plan"], "requireUserInput": false}}
//! }"#);
//! let diagnostics = prose_jobs::validate(&parsed);
//! assert_eq!(diagnostics[0].code, "J010");
//! assert_eq!(
//!     diagnostics[0].message,
//!     r#"entry.tasks["plan-task"].model: "planing" is not a model key; did you mean "planning"?"#
//! );
//! let prompt = prose_jobs::task_prompt(&parsed.entry, "plan-task").unwrap().unwrap();
//! assert_eq!(prompt, "Write the plan.");
//! ```
//!
//! The user documentation is `docs/jobs.md`; each code's page is the
//! [`Rule::docs`] of [`rules()`].

pub mod complete;
mod diagnostic;
mod expand;
pub mod index;
pub mod json;
mod lower;
pub mod model;
mod nearest;
mod path;
mod rules;
mod validate;
mod variables;

pub use diagnostic::{Confidence, Edit, Fix, JobDiagnostic, Related, Rule, Severity};
pub use expand::{
    DynamicError, Expander, MAX_EXPANDED_BYTES, MAX_EXPANSION_DEPTH, expand_prompt_dynamic,
    expand_prompt_static, task_prompt, variable_text,
};
pub use nearest::{is_obvious, nearest};
pub use path::{CodePath, quote};
pub use rules::{rule, rules};
pub use validate::validate;
pub use variables::{
    AVAILABLE_TOOLS, RUNTIME_VARIABLES, find_variables, is_runtime_variable, is_variable_name,
};

use json::JsonDocument;
use model::Entry;

/// A job entry file, read: the JSON tree (with its syntax errors), the
/// [`Entry`] model, and the shape errors found while reading it. Building
/// one never fails.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedEntry {
    pub json: JsonDocument,
    pub entry: Entry,
    shape: Vec<JobDiagnostic>,
}

/// Reads a job entry. Never fails and never panics: syntax errors and
/// values of the wrong shape are kept for [`validate`] to report, and the
/// model holds everything that could be read.
pub fn parse(text: &str) -> ParsedEntry {
    let json = json::parse(text);
    let (entry, shape) = lower::lower(&json);
    ParsedEntry { json, entry, shape }
}
