//! The checks: one module per code, each with its documentation (the
//! `//!` comment: what it means, an `## Example` that triggers it and a
//! `## Fix` that does not, both checked by `tests.rs`).

pub(crate) mod condition_session_pair;
pub(crate) mod duplicate_property;
pub(crate) mod empty_prompt;
pub(crate) mod expansion_limit;
pub(crate) mod invalid_failure_action;
pub(crate) mod invalid_json;
pub(crate) mod invalid_variable_name;
pub(crate) mod missing_boolean_tool;
pub(crate) mod missing_property;
pub(crate) mod prompt_variable_cycle;
pub(crate) mod runtime_variable_redefined;
pub(crate) mod unknown_job_keyword;
pub(crate) mod unknown_model;
pub(crate) mod unknown_prompt_variable;
pub(crate) mod unknown_property;
pub(crate) mod unknown_task;
pub(crate) mod unknown_tool;
pub(crate) mod unused_prompt_variable;
pub(crate) mod user_input_mismatch;
pub(crate) mod wrong_type;

#[cfg(test)]
pub(crate) mod tests;

use std::collections::HashSet;

use crate::{
    diagnostic::{Fix, JobDiagnostic, Rule},
    json::JsonString,
    model::Entry,
    nearest::{is_obvious, nearest},
    path::{At, quote},
    variables::AVAILABLE_TOOLS,
};

/// Names to check against: a set for lookups, the file order for
/// suggestions and lists.
pub(crate) struct NameSet<'e> {
    pub(crate) list: Vec<&'e str>,
    set: HashSet<&'e str>,
}

impl<'e> NameSet<'e> {
    pub(crate) fn new(names: impl IntoIterator<Item = &'e str>) -> NameSet<'e> {
        let mut list = Vec::new();
        let mut set = HashSet::new();
        for n in names {
            if set.insert(n) {
                list.push(n);
            }
        }
        NameSet { list, set }
    }

    pub(crate) fn contains(&self, name: &str) -> bool {
        self.set.contains(name)
    }
}

/// The names an entry defines, collected once for all its tasks. `None`
/// where the entry lacks the part that defines them (reported elsewhere):
/// then nothing is checked against it.
pub(crate) struct Scope<'e> {
    pub(crate) tasks: Option<NameSet<'e>>,
    pub(crate) keywords: Option<NameSet<'e>>,
    pub(crate) model_keys: Option<NameSet<'e>>,
    pub(crate) tools: NameSet<'static>,
}

impl<'e> Scope<'e> {
    pub(crate) fn new(entry: &'e Entry) -> Scope<'e> {
        Scope {
            tasks: entry
                .has_tasks
                .then(|| NameSet::new(entry.tasks.iter().map(|t| t.name.as_str()))),
            keywords: entry
                .grid
                .is_some()
                .then(|| NameSet::new(entry.grid_keywords().map(|k| k.as_str()))),
            model_keys: entry.model_keys().map(NameSet::new),
            tools: NameSet::new(AVAILABLE_TOOLS),
        }
    }
}

/// Every rule, ordered by code.
pub fn rules() -> &'static [&'static Rule] {
    &[
        &invalid_json::RULE,
        &wrong_type::RULE,
        &missing_property::RULE,
        &unknown_property::RULE,
        &duplicate_property::RULE,
        &invalid_failure_action::RULE,
        &condition_session_pair::RULE,
        &invalid_variable_name::RULE,
        &runtime_variable_redefined::RULE,
        &unknown_model::RULE,
        &user_input_mismatch::RULE,
        &unknown_job_keyword::RULE,
        &unknown_task::RULE,
        &unknown_tool::RULE,
        &unknown_prompt_variable::RULE,
        &empty_prompt::RULE,
        &missing_boolean_tool::RULE,
        &prompt_variable_cycle::RULE,
        &expansion_limit::RULE,
        &unused_prompt_variable::RULE,
    ]
}

/// The rule with this code (`J010`, any case) or name (`unknown-model`).
pub fn rule(code: &str) -> Option<&'static Rule> {
    rules()
        .iter()
        .copied()
        .find(|r| r.code.eq_ignore_ascii_case(code) || r.name == code)
}

/// A fix that replaces the string literal `s` with `name` (as a JSON
/// string), titled after the name.
pub(crate) fn rename_fix(s: &JsonString, name: &str) -> Fix {
    Fix::replace(format!("Change to {}", quote(name)), s.range(), quote(name))
}

/// The fix of a misspelled name `s` to `near`, the nearest of
/// `candidates`: safe when it is the obvious correction.
pub(crate) fn correction<'a>(
    s: &JsonString,
    near: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Fix {
    rename_fix(s, near).safe_if(is_obvious(s.as_str(), near, candidates))
}

/// The check shared by the name lists (`previousJobKeywords`,
/// `previousTasks`, `toolExecuted`): each string item of `items` must be
/// one of `candidates`. The message says the name "is not {what}", then
/// suggests the nearest candidate, or lists them all when `list` is set.
pub(crate) fn names_in(
    rule: &Rule,
    list: &At<'_>,
    items: &[Option<JsonString>],
    candidates: &NameSet<'_>,
    what: &str,
    list_all: bool,
) -> Vec<JobDiagnostic> {
    items
        .iter()
        .enumerate()
        .filter_map(|(i, item)| item.as_ref().map(|s| (i, s)))
        .filter(|(_, s)| !candidates.contains(s.as_str()))
        .map(|(i, s)| {
            let near = nearest(s.as_str(), candidates.list.iter().copied());
            let name = quote(s.as_str());
            let reason = match near {
                Some(n) => format!("{name} is not {what}; did you mean {}?", quote(n)),
                None if list_all => {
                    format!(
                        "{name} is not {what}; expected {}.",
                        one_of(&candidates.list)
                    )
                }
                None => format!("{name} is not {what}."),
            };
            JobDiagnostic::new(rule, &list.index(i).render(), reason, s.range())
                .with_fix(near.map(|n| correction(s, n, candidates.list.iter().copied())))
        })
        .collect()
}

/// `a, b or c` with each name quoted as JSON.
pub(crate) fn one_of(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| quote(n)).collect();
    match quoted.split_last() {
        None => "nothing".into(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}
