//! Reading the JSON tree into the [`Entry`] model, reporting every value
//! of the wrong shape on the way (`J002`-`J007`). A value that is missing
//! because of a syntax error is skipped silently: `J001` already said it.

mod task;

use std::collections::HashMap;

use text_size::{TextRange, TextSize};

use crate::{
    diagnostic::JobDiagnostic,
    json::{JsonDocument, JsonString, Member, Value, ValueKind},
    model::{Entry, Flag, GridJob, GridRow, ModelKey, Models, Prompt, PromptItem, PromptVariable},
    path::At,
    rules::{duplicate_property, missing_property, unknown_property, wrong_type},
};

/// The model of `doc` and the shape diagnostics found while reading it.
pub(crate) fn lower(doc: &JsonDocument) -> (Entry, Vec<JobDiagnostic>) {
    let mut cx = Lower::default();
    let entry = match &doc.root {
        Some(root) => cx.entry(root),
        None => Entry::default(),
    };
    (entry, cx.diagnostics)
}

#[derive(Default)]
pub(crate) struct Lower {
    diagnostics: Vec<JobDiagnostic>,
}

/// An object's members, the last of each key (earlier duplicates are
/// reported), in file order.
pub(crate) struct Object<'a> {
    range: TextRange,
    members: Vec<&'a Member>,
}

impl<'a> Object<'a> {
    fn get(&self, name: &str) -> Option<&'a Member> {
        self.members
            .iter()
            .copied()
            .find(|m| m.key.as_str() == name)
    }
}

/// Where to report a property missing from an object: the key that holds
/// the object, or else its opening brace.
fn anchor(key: Option<&JsonString>, value: &Value) -> TextRange {
    key.map_or_else(|| first_byte(value.range), JsonString::range)
}

fn first_byte(range: TextRange) -> TextRange {
    TextRange::at(range.start(), TextSize::from(u32::from(!range.is_empty())))
}

impl Lower {
    pub(crate) fn report(&mut self, diagnostic: JobDiagnostic) {
        self.diagnostics.push(diagnostic);
    }

    /// `value` as a record (an object with known properties), or `None`
    /// (reported unless it is missing).
    pub(crate) fn object<'a>(&mut self, value: &'a Value, path: &At<'_>) -> Option<Object<'a>> {
        self.object_of(value, path, false)
    }

    /// `value` as a map (an object of names: tasks, prompt variables).
    fn map<'a>(&mut self, value: &'a Value, path: &At<'_>) -> Option<Object<'a>> {
        self.object_of(value, path, true)
    }

    fn object_of<'a>(&mut self, value: &'a Value, path: &At<'_>, map: bool) -> Option<Object<'a>> {
        let members = match &value.kind {
            ValueKind::Object(members) => members,
            ValueKind::Missing => return None,
            _ => {
                self.report(wrong_type::diagnostic(path, "an object", value));
                return None;
            }
        };
        // The index of the last member of each key (a map only for objects
        // large enough to need one: tasks, prompt variables).
        let last_index: Option<HashMap<&str, usize>> = (members.len() > 16).then(|| {
            members
                .iter()
                .enumerate()
                .map(|(i, m)| (m.key.as_str(), i))
                .collect()
        });
        let mut kept: Vec<&Member> = Vec::with_capacity(members.len());
        for (i, m) in members.iter().enumerate() {
            let later = match &last_index {
                Some(map) => map
                    .get(m.key.as_str())
                    .filter(|&&l| l != i)
                    .map(|&l| &members[l]),
                None => members[i + 1..]
                    .iter()
                    .rfind(|n| n.key.as_str() == m.key.as_str()),
            };
            match later {
                Some(last) => {
                    self.report(duplicate_property::diagnostic(path, map, &m.key, &last.key))
                }
                None => kept.push(m),
            }
        }
        Some(Object {
            range: value.range,
            members: kept,
        })
    }

    /// Reports the members of `object` whose key is not in `known`.
    fn unknown_keys(&mut self, object: &Object<'_>, path: &At<'_>, known: &[&str]) {
        for m in &object.members {
            if !known.contains(&m.key.as_str()) {
                let taken = |name: &str| object.get(name).is_some();
                self.report(unknown_property::diagnostic(path, &m.key, known, taken));
            }
        }
    }

    /// Reports each of `names` missing from `object` at `anchor`.
    fn require(&mut self, object: &Object<'_>, path: &At<'_>, names: &[&str], anchor: TextRange) {
        for name in names {
            if object.get(name).is_none() {
                self.report(missing_property::diagnostic(&path.field(name), anchor));
            }
        }
    }

    pub(crate) fn string(&mut self, value: &Value, path: &At<'_>) -> Option<JsonString> {
        match &value.kind {
            ValueKind::String(s) => Some(s.clone()),
            ValueKind::Missing => None,
            _ => {
                self.report(wrong_type::diagnostic(path, "a string", value));
                None
            }
        }
    }

    pub(crate) fn flag(&mut self, value: &Value, path: &At<'_>) -> Option<Flag> {
        match &value.kind {
            ValueKind::Bool(b) => Some(Flag {
                value: *b,
                range: value.range,
            }),
            ValueKind::Missing => None,
            _ => {
                self.report(wrong_type::diagnostic(path, "a boolean", value));
                None
            }
        }
    }

    pub(crate) fn array<'a>(
        &mut self,
        value: &'a Value,
        path: &At<'_>,
        expected: &str,
    ) -> Option<&'a [Value]> {
        match &value.kind {
            ValueKind::Array(items) => Some(items),
            ValueKind::Missing => None,
            _ => {
                self.report(wrong_type::diagnostic(path, expected, value));
                None
            }
        }
    }

    /// An array of strings: one slot per item, `None` where an item is not
    /// a string (reported).
    pub(crate) fn strings(
        &mut self,
        value: &Value,
        path: &At<'_>,
    ) -> Option<Vec<Option<JsonString>>> {
        let items = self.array(value, path, "an array of strings")?;
        Some(
            items
                .iter()
                .enumerate()
                .map(|(i, item)| self.string(item, &path.index(i)))
                .collect(),
        )
    }

    /// A prompt: an array of strings, each scanned for `$variables`.
    pub(crate) fn prompt(&mut self, value: &Value, path: &At<'_>) -> Option<Prompt> {
        let items = self.array(value, path, wrong_type::PROMPT)?;
        let strings = items
            .iter()
            .enumerate()
            .filter_map(|(i, item)| self.string(item, &path.index(i)))
            .map(PromptItem::new)
            .collect();
        Some(Prompt {
            range: value.range,
            items: strings,
            len: items.len(),
        })
    }

    fn entry(&mut self, root: &Value) -> Entry {
        let path = At::ENTRY;
        let mut entry = Entry {
            range: root.range,
            ..Entry::default()
        };
        let Some(object) = self.object(root, &path) else {
            return entry;
        };
        self.unknown_keys(
            &object,
            &path,
            &["$schema", "models", "promptVariables", "grid", "tasks"],
        );
        self.require(
            &object,
            &path,
            &["models", "promptVariables", "grid", "tasks"],
            first_byte(object.range),
        );
        if let Some(m) = object.get("models") {
            entry.models = self.models(m, &path.field("models"));
        }
        if let Some(m) = object.get("promptVariables") {
            let path = path.field("promptVariables");
            if let Some(vars) = self.map(&m.value, &path) {
                entry.has_prompt_variables = true;
                entry.prompt_variables = vars
                    .members
                    .iter()
                    .map(|v| PromptVariable {
                        name: v.key.clone(),
                        prompt: self.prompt(&v.value, &path.key(v.key.as_str())),
                    })
                    .collect();
            }
        }
        if let Some(m) = object.get("grid") {
            entry.grid = self.grid(&m.value, &path.field("grid"));
        }
        if let Some(m) = object.get("tasks") {
            let path = path.field("tasks");
            if let Some(tasks) = self.map(&m.value, &path) {
                entry.has_tasks = true;
                entry.tasks = tasks.members.iter().map(|t| self.task(t, &path)).collect();
            }
        }
        entry
    }

    fn models(&mut self, member: &Member, path: &At<'_>) -> Option<Models> {
        let object = self.object(&member.value, path)?;
        self.require(
            &object,
            path,
            &["driving", "planning", "coding", "reviewers"],
            member.key.range(),
        );
        let mut models = Models {
            range: object.range,
            keys: Vec::new(),
            reviewers: None,
            reviewers_key: None,
        };
        for m in &object.members {
            let field = path.field(m.key.as_str());
            if m.key.as_str() == "reviewers" {
                models.reviewers_key = Some(m.key.clone());
                models.reviewers = self.strings(&m.value, &field);
            } else if let Some(model) = self.string(&m.value, &field) {
                models.keys.push(ModelKey {
                    key: m.key.clone(),
                    model,
                });
            }
        }
        Some(models)
    }

    fn grid(&mut self, value: &Value, path: &At<'_>) -> Option<Vec<GridRow>> {
        let rows = self.array(value, path, "an array of grid rows")?;
        let mut out = Vec::with_capacity(rows.len());
        for (i, row) in rows.iter().enumerate() {
            let path = path.index(i);
            let Some(object) = self.object(row, &path) else {
                continue;
            };
            self.unknown_keys(&object, &path, &["keyword", "automate", "jobs"]);
            self.require(
                &object,
                &path,
                &["keyword", "automate", "jobs"],
                first_byte(row.range),
            );
            let mut grid_row = GridRow {
                range: row.range,
                keyword: None,
                automate: None,
                jobs: Vec::new(),
            };
            if let Some(m) = object.get("keyword") {
                grid_row.keyword = self.string(&m.value, &path.field("keyword"));
            }
            if let Some(m) = object.get("automate") {
                grid_row.automate = self.flag(&m.value, &path.field("automate"));
            }
            if let Some(m) = object.get("jobs") {
                let path = path.field("jobs");
                for (j, job) in self
                    .array(&m.value, &path, "an array of jobs")
                    .unwrap_or(&[])
                    .iter()
                    .enumerate()
                {
                    let path = path.index(j);
                    let Some(object) = self.object(job, &path) else {
                        continue;
                    };
                    self.unknown_keys(&object, &path, &["name", "id"]);
                    self.require(&object, &path, &["name", "id"], first_byte(job.range));
                    let name = object
                        .get("name")
                        .and_then(|m| self.string(&m.value, &path.field("name")));
                    let id = object
                        .get("id")
                        .and_then(|m| self.string(&m.value, &path.field("id")));
                    grid_row.jobs.push(GridJob {
                        range: job.range,
                        name,
                        id,
                    });
                }
            }
            out.push(grid_row);
        }
        Some(out)
    }
}
