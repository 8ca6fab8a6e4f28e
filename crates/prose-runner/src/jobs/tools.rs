//! The job tools and the runtime variables they set (seed 002, "Tools and
//! Runtime Variables").
//!
//! Every session of a task (driving or task) is offered the four tools of
//! [`prose_jobs::AVAILABLE_TOOLS`], each taking one string, `argument`:
//!
//! | tool | what the runner does |
//! |---|---|
//! | `job_prepare_document` | `$reported-document` = the argument's first line, trimmed (the whole argument is trimmed first, so leading blank lines do not count) |
//! | `job_boolean_true` | `$reported-true-reason` = the argument; `$reported-false-reason` is deleted; a condition holds |
//! | `job_boolean_false` | `$reported-false-reason` = the argument; `$reported-true-reason` is deleted; a condition does not hold |
//! | `job_prerequisite_failed` | nothing is set; the task fails at the end of that round, without retries |
//!
//! Calls are applied in the order they were made. `$user-input` comes from
//! the user. The variables are shared by every session of the task.

use std::collections::{BTreeMap, HashMap};

use serde_json::{Value, json};

use crate::backend::{ToolCall, ToolDefinition};

pub const PREPARE_DOCUMENT: &str = "job_prepare_document";
pub const BOOLEAN_TRUE: &str = "job_boolean_true";
pub const BOOLEAN_FALSE: &str = "job_boolean_false";
pub const PREREQUISITE_FAILED: &str = "job_prerequisite_failed";

/// Runtime variable names, without `$`.
pub const USER_INPUT: &str = "user-input";
pub const REPORTED_DOCUMENT: &str = "reported-document";
pub const TRUE_REASON: &str = "reported-true-reason";
pub const FALSE_REASON: &str = "reported-false-reason";

/// The tools offered to every session of a task, with their descriptions
/// and the JSON Schema of their one argument.
pub fn definitions() -> Vec<ToolDefinition> {
    let tool = |name: &str, description: &str, argument: &str| ToolDefinition {
        name: name.to_string(),
        description: description.to_string(),
        parameters: json!({
            "type": "object",
            "properties": {"argument": {"type": "string", "description": argument}},
            "required": ["argument"],
            "additionalProperties": false,
        }),
    };
    let defs = vec![
        tool(
            PREPARE_DOCUMENT,
            "Report the document you prepared, when the prompt asks you to: its path or name, on one line.",
            "The document's path or name (one line).",
        ),
        tool(
            BOOLEAN_TRUE,
            "Report that the condition the prompt asks about is true.",
            "Why it is true.",
        ),
        tool(
            BOOLEAN_FALSE,
            "Report that the condition the prompt asks about is false.",
            "Why it is false.",
        ),
        tool(
            PREREQUISITE_FAILED,
            "Report that the task cannot be done because something it needs is missing or wrong; the task then stops.",
            "What is missing or wrong.",
        ),
    ];
    debug_assert!(
        defs.iter()
            .map(|d| d.name.as_str())
            .eq(prose_jobs::AVAILABLE_TOOLS)
    );
    defs
}

/// The argument of a call: `{"argument": "..."}` as the tools declare it;
/// leniently, a call whose arguments are a string, or an object with one
/// string field under another name. Anything else is read as its JSON
/// text (`""` for none).
pub fn argument(call: &ToolCall) -> String {
    match &call.arguments {
        Value::String(s) => s.clone(),
        Value::Object(map) => match map.get("argument") {
            Some(Value::String(s)) => s.clone(),
            Some(other) => other.to_string(),
            None => {
                let strings: Vec<&String> = map
                    .values()
                    .filter_map(|v| match v {
                        Value::String(s) => Some(s),
                        _ => None,
                    })
                    .collect();
                match (strings.as_slice(), map.len()) {
                    ([one], 1) => (*one).clone(),
                    (_, 0) => String::new(),
                    _ => call.arguments.to_string(),
                }
            }
        },
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// The runtime variables of a task run (names without `$`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Variables {
    values: BTreeMap<String, String>,
}

/// What applying a call did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Applied {
    /// A job tool, with its argument.
    Tool { name: String, argument: String },
    /// A call of a tool that was not offered, or a line of a calls file
    /// that could not be read; nothing changed.
    Unknown { name: String },
}

impl Variables {
    /// `$user-input`, when the task takes one.
    pub fn with_user_input(input: Option<&str>) -> Self {
        let mut v = Variables::default();
        if let Some(i) = input {
            v.values.insert(USER_INPUT.into(), i.to_string());
        }
        v
    }

    /// The values, for `expand_prompt_dynamic`.
    pub fn values(&self) -> HashMap<String, String> {
        self.values
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }

    /// The variables that have a value, in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.values.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// A criterion is unmet for `reason` without a `job_boolean_false`
    /// call saying so (`toolExecuted`, or a condition no boolean tool
    /// answered): the runner reports it as that call would, so that a
    /// retry prompt quoting `$reported-false-reason` says why.
    pub fn report_false(&mut self, reason: &str) {
        self.values.insert(FALSE_REASON.into(), reason.to_string());
        self.values.remove(TRUE_REASON);
    }

    /// Applies one call (see the module docs).
    pub fn apply(&mut self, call: &ToolCall) -> Applied {
        let arg = argument(call);
        match call.name.as_str() {
            PREPARE_DOCUMENT => {
                let first = arg.trim().lines().next().unwrap_or("").trim().to_string();
                self.values.insert(REPORTED_DOCUMENT.into(), first);
            }
            BOOLEAN_TRUE => {
                self.values.insert(TRUE_REASON.into(), arg.clone());
                self.values.remove(FALSE_REASON);
            }
            BOOLEAN_FALSE => {
                self.values.insert(FALSE_REASON.into(), arg.clone());
                self.values.remove(TRUE_REASON);
            }
            PREREQUISITE_FAILED => {}
            _ => {
                return Applied::Unknown {
                    name: call.name.clone(),
                };
            }
        }
        Applied::Tool {
            name: call.name.clone(),
            argument: arg,
        }
    }
}

/// What the tool calls of one round decided.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Verdict {
    /// The last boolean tool called: `Some(true)` for `job_boolean_true`,
    /// `Some(false)` for `job_boolean_false`, `None` when neither was.
    pub boolean: Option<bool>,
    /// Its argument.
    pub reason: String,
    /// `job_prerequisite_failed` was called, with this argument.
    pub prerequisite_failed: Option<String>,
}

impl Verdict {
    /// The verdict of a round's calls.
    pub fn of(calls: &[ToolCall]) -> Verdict {
        let mut v = Verdict::default();
        for c in calls {
            match c.name.as_str() {
                BOOLEAN_TRUE | BOOLEAN_FALSE => {
                    v.boolean = Some(c.name == BOOLEAN_TRUE);
                    v.reason = argument(c);
                }
                PREREQUISITE_FAILED if v.prerequisite_failed.is_none() => {
                    v.prerequisite_failed = Some(argument(c));
                }
                _ => {}
            }
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(name: &str, arguments: Value) -> ToolCall {
        ToolCall {
            id: None,
            name: name.into(),
            arguments,
        }
    }

    #[test]
    fn the_tools_set_and_delete_the_variables_as_the_seed_says() {
        let mut v = Variables::with_user_input(Some("Add a cache"));
        v.apply(&call(
            PREPARE_DOCUMENT,
            json!({"argument": "\n  docs/review.md  \nand more"}),
        ));
        assert_eq!(v.get(REPORTED_DOCUMENT), Some("docs/review.md"));
        v.apply(&call(BOOLEAN_TRUE, json!({"argument": "it builds"})));
        assert_eq!(v.get(TRUE_REASON), Some("it builds"));
        v.apply(&call(BOOLEAN_FALSE, json!({"argument": "a test fails"})));
        assert_eq!(v.get(TRUE_REASON), None);
        assert_eq!(v.get(FALSE_REASON), Some("a test fails"));
        v.apply(&call(BOOLEAN_TRUE, json!({"argument": "fixed"})));
        assert_eq!(v.get(FALSE_REASON), None);
        let names: Vec<&str> = v.iter().map(|(k, _)| k).collect();
        assert_eq!(names, [REPORTED_DOCUMENT, TRUE_REASON, USER_INPUT]);
        assert_eq!(
            v.apply(&call("rm_rf", json!({}))),
            Applied::Unknown {
                name: "rm_rf".into()
            }
        );
    }

    #[test]
    fn arguments_are_read_leniently() {
        let arg = |a: Value| argument(&call(BOOLEAN_TRUE, a));
        assert_eq!(arg(json!({"argument": "a"})), "a");
        assert_eq!(arg(json!("b")), "b");
        assert_eq!(arg(json!({"reason": "c"})), "c");
        assert_eq!(arg(json!({})), "");
        assert_eq!(arg(Value::Null), "");
        assert_eq!(arg(json!({"argument": 3})), "3");
        assert_eq!(arg(json!({"a": "x", "b": "y"})), r#"{"a":"x","b":"y"}"#);
    }

    #[test]
    fn the_last_boolean_call_decides() {
        let v = Verdict::of(&[
            call(BOOLEAN_TRUE, json!({"argument": "yes"})),
            call(BOOLEAN_FALSE, json!({"argument": "no after all"})),
        ]);
        assert_eq!(v.boolean, Some(false));
        assert_eq!(v.reason, "no after all");
        assert_eq!(v.prerequisite_failed, None);
        let v = Verdict::of(&[call(PREREQUISITE_FAILED, json!({"argument": "no repo"}))]);
        assert_eq!(v.boolean, None);
        assert_eq!(v.prerequisite_failed.as_deref(), Some("no repo"));
        assert_eq!(Verdict::of(&[]), Verdict::default());
    }

    #[test]
    fn the_definitions_are_the_available_tools() {
        let defs = definitions();
        let names: Vec<&str> = defs.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, prose_jobs::AVAILABLE_TOOLS);
        for d in &defs {
            assert_eq!(d.parameters["required"], json!(["argument"]));
        }
    }
}
