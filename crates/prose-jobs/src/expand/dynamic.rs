//! `expandPromptDynamic`: runtime variables get their values.

use std::{collections::HashMap, fmt};

use crate::{
    path::CodePath,
    variables::{find_variables, is_runtime_variable},
};

/// Why a dynamic expansion failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DynamicError {
    /// The prompt is not one string (static expansion makes it one).
    NotExpanded { code_path: String, items: usize },
    /// Runtime variables the prompt uses that have no value, in order of
    /// first use (names with `$`).
    Missing {
        code_path: String,
        names: Vec<String>,
    },
}

impl fmt::Display for DynamicError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DynamicError::NotExpanded { code_path, items } => write!(
                f,
                "{code_path}: Prompt must have exactly one item (the statically expanded prompt), found {items}."
            ),
            DynamicError::Missing { code_path, names } => {
                let (noun, list) = match names.as_slice() {
                    [one] => ("variable", one.clone()),
                    _ => ("variables", names.join(", ")),
                };
                write!(f, "{code_path}: Cannot find runtime {noun}: {list}.")
            }
        }
    }
}

impl std::error::Error for DynamicError {}

/// `expandPromptDynamic`: `prompt` (exactly one string, as static
/// expansion returns it) with every runtime variable replaced by its
/// value from `values`, keyed by name without `$` (`"user-input"`).
///
/// Runtime variables without a value are an error that names all of them.
/// Other `$words` are left as they are: static expansion has already
/// replaced every prompt variable, so they are text (a `$$name` written to
/// show a dollar sign before a variable's value, say). A value is inserted
/// as it is: a `$name` inside it is not expanded again.
pub fn expand_prompt_dynamic(
    code_path: &CodePath,
    prompt: &[String],
    values: &HashMap<String, String>,
) -> Result<String, DynamicError> {
    let [text] = prompt else {
        return Err(DynamicError::NotExpanded {
            code_path: code_path.to_string(),
            items: prompt.len(),
        });
    };
    let mut out = String::with_capacity(text.len());
    let mut missing: Vec<String> = Vec::new();
    let mut at = 0;
    for (start, end) in find_variables(text) {
        let name = &text[start + 1..end];
        if !is_runtime_variable(name) {
            continue;
        }
        out.push_str(&text[at..start]);
        match values.get(name) {
            Some(value) => out.push_str(value),
            None => {
                let written = format!("${name}");
                if !missing.contains(&written) {
                    missing.push(written);
                }
            }
        }
        at = end;
    }
    if !missing.is_empty() {
        return Err(DynamicError::Missing {
            code_path: code_path.to_string(),
            names: missing,
        });
    }
    out.push_str(&text[at..]);
    Ok(out)
}
