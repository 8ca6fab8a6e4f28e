//! What editor features need, as plain data: every definition and every
//! reference of every name in an entry, with byte ranges.
//!
//! Names of five kinds are indexed: prompt variables (defined by the keys
//! of `promptVariables`, used as `$name` in prompts), tasks (keys of
//! `tasks`, used in `availability.previousTasks`), grid keywords (each
//! row's `keyword`, used in `availability.previousJobKeywords`), model keys
//! (the fields of `models`, used by a task's `model`), and the built-ins:
//! runtime variables and tools, used but defined by the job system.
//!
//! Hover, go to definition, references, rename, document symbols and
//! highlights all read from [`Index`]; what a hover shows for a variable or
//! a task comes from [`crate::variable_text`] and [`crate::task_prompt`].

use std::collections::HashMap;

use text_size::{TextRange, TextSize};

use crate::{
    json::JsonString,
    model::{Entry, Prompt, PromptItem},
    variables::is_runtime_variable,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SymbolKind {
    PromptVariable,
    /// `$user-input` and the other runtime variables: used, never defined.
    RuntimeVariable,
    Task,
    GridKeyword,
    ModelKey,
    /// `job_prepare_document` and the other tools: used, never defined.
    Tool,
}

/// Where a name is defined.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Definition {
    pub kind: SymbolKind,
    pub name: String,
    /// The string that names it (a key or a `keyword` value), quotes included.
    pub range: TextRange,
    /// The name itself, between the quotes: what a rename replaces.
    pub name_range: TextRange,
    /// Whether `name_range` holds the name byte for byte (no escapes), so
    /// that a rename can replace it with the new name as it is.
    pub verbatim: bool,
    /// The whole definition: the key and its value, or the grid row.
    pub full_range: TextRange,
}

/// Where a name is used.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Reference {
    pub kind: SymbolKind,
    pub name: String,
    /// `$name` (for variables) or the string literal, quotes included.
    pub range: TextRange,
    /// The name alone: without `$`, without quotes.
    pub name_range: TextRange,
    pub verbatim: bool,
    /// The definition it resolves to (an index into
    /// [`Index::definitions`]); `None` for built-ins and for unknown names.
    pub target: Option<usize>,
}

/// A definition or a reference, by index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Symbol {
    Definition(usize),
    Reference(usize),
}

/// Every definition and reference of an entry, in file order within
/// each kind.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Index {
    pub definitions: Vec<Definition>,
    pub references: Vec<Reference>,
    /// The content range of every prompt string (task prompts, conditions,
    /// retry prompts, prompt variable values): where `$` completion
    /// applies, and what an embedded language may highlight.
    pub prompt_strings: Vec<TextRange>,
    /// What each (kind, name) resolves to: see [`Index::definition_of`].
    resolved: HashMap<(SymbolKind, String), usize>,
}

fn string_definition(kind: SymbolKind, s: &JsonString, full_range: TextRange) -> Definition {
    Definition {
        kind,
        name: s.as_str().to_string(),
        range: s.range(),
        name_range: s.content_range(),
        verbatim: s.is_verbatim(),
        full_range,
    }
}

fn span(a: TextRange, b: TextRange) -> TextRange {
    a.cover(b)
}

impl Index {
    /// The index of `entry`.
    pub fn build(entry: &Entry) -> Index {
        let mut index = Index::default();
        let defs = &mut index.definitions;
        if let Some(models) = &entry.models {
            for k in &models.keys {
                defs.push(string_definition(
                    SymbolKind::ModelKey,
                    &k.key,
                    span(k.key.range(), k.model.range()),
                ));
            }
        }
        for v in &entry.prompt_variables {
            let full = v
                .prompt
                .as_ref()
                .map_or(v.name.range(), |p| span(v.name.range(), p.range));
            defs.push(string_definition(SymbolKind::PromptVariable, &v.name, full));
        }
        for t in &entry.tasks {
            defs.push(string_definition(
                SymbolKind::Task,
                &t.name,
                span(t.name.range(), t.range),
            ));
        }
        for row in entry.grid.iter().flatten() {
            if let Some(k) = &row.keyword {
                defs.push(string_definition(SymbolKind::GridKeyword, k, row.range));
            }
        }
        index.resolve_definitions();
        for v in &entry.prompt_variables {
            index.prompt(v.prompt.as_ref());
        }
        for t in &entry.tasks {
            index.prompt(t.prompt.as_ref());
            if let Some(m) = &t.model {
                index.name(SymbolKind::ModelKey, m);
            }
            if let Some(a) = &t.availability {
                for k in a.previous_job_keywords.iter().flatten() {
                    index.name(SymbolKind::GridKeyword, k);
                }
                for p in a.previous_tasks.iter().flatten() {
                    index.name(SymbolKind::Task, p);
                }
                index.prompt(a.condition.as_ref());
            }
            if let Some(c) = &t.criteria {
                for tool in c.tool_executed.iter().flatten() {
                    index.name(SymbolKind::Tool, tool);
                }
                index.prompt(c.condition.as_ref());
                index.prompt(c.failure_action.as_ref().and_then(|f| f.prompt.as_ref()));
            }
        }
        index
    }

    /// The definition of `kind` called `name` that a reference resolves to
    /// (the last one, for keys that JavaScript would overwrite; the first
    /// grid row, for a keyword several rows share).
    pub fn definition_of(&self, kind: SymbolKind, name: &str) -> Option<usize> {
        self.resolved.get(&(kind, name.to_string())).copied()
    }

    fn resolve_definitions(&mut self) {
        for (i, d) in self.definitions.iter().enumerate() {
            let key = (d.kind, d.name.clone());
            if d.kind == SymbolKind::GridKeyword {
                self.resolved.entry(key).or_insert(i);
            } else {
                self.resolved.insert(key, i);
            }
        }
    }

    fn name(&mut self, kind: SymbolKind, s: &JsonString) {
        let target = match kind {
            SymbolKind::Tool | SymbolKind::RuntimeVariable => None,
            _ => self.definition_of(kind, s.as_str()),
        };
        self.references.push(Reference {
            kind,
            name: s.as_str().to_string(),
            range: s.range(),
            name_range: s.content_range(),
            verbatim: s.is_verbatim(),
            target,
        });
    }

    fn prompt(&mut self, prompt: Option<&Prompt>) {
        for item in prompt.iter().flat_map(|p| &p.items) {
            self.prompt_strings.push(item.text.content_range());
            self.variables(item);
        }
    }

    fn variables(&mut self, item: &PromptItem) {
        for u in &item.variables {
            let (kind, target) = if is_runtime_variable(&u.name) {
                (SymbolKind::RuntimeVariable, None)
            } else {
                (
                    SymbolKind::PromptVariable,
                    self.definition_of(SymbolKind::PromptVariable, &u.name),
                )
            };
            let name_range = u.name_range(item);
            self.references.push(Reference {
                kind,
                name: u.name.clone(),
                range: u.range,
                verbatim: usize::from(name_range.len()) == u.name.len(),
                name_range,
                target,
            });
        }
    }

    /// The definition or reference at `offset` (a cursor at either end of
    /// a name counts as on it). References win: they are never inside a
    /// definition's name.
    pub fn at(&self, offset: TextSize) -> Option<Symbol> {
        if let Some(i) = self
            .references
            .iter()
            .position(|r| r.range.contains_inclusive(offset))
        {
            return Some(Symbol::Reference(i));
        }
        self.definitions
            .iter()
            .position(|d| d.range.contains_inclusive(offset))
            .map(Symbol::Definition)
    }

    /// The kind and name of a symbol.
    pub fn name_of(&self, symbol: Symbol) -> (SymbolKind, &str) {
        match symbol {
            Symbol::Definition(i) => (self.definitions[i].kind, &self.definitions[i].name),
            Symbol::Reference(i) => (self.references[i].kind, &self.references[i].name),
        }
    }

    /// Every definition and reference of the name `symbol` has (for
    /// references, highlights and rename): definitions first.
    pub fn occurrences(&self, symbol: Symbol) -> (Vec<usize>, Vec<usize>) {
        let (kind, name) = self.name_of(symbol);
        let defs = self
            .definitions
            .iter()
            .enumerate()
            .filter(|(_, d)| d.kind == kind && d.name == name)
            .map(|(i, _)| i)
            .collect();
        let refs = self
            .references
            .iter()
            .enumerate()
            .filter(|(_, r)| r.kind == kind && r.name == name)
            .map(|(i, _)| i)
            .collect();
        (defs, refs)
    }

    /// The names defined of `kind`, each once, in file order (for
    /// completion). Built-ins come from [`crate::RUNTIME_VARIABLES`] and
    /// [`crate::AVAILABLE_TOOLS`].
    pub fn names(&self, kind: SymbolKind) -> Vec<&str> {
        let mut seen = std::collections::HashSet::new();
        self.definitions
            .iter()
            .filter(|d| d.kind == kind && seen.insert(d.name.as_str()))
            .map(|d| d.name.as_str())
            .collect()
    }
}

#[cfg(test)]
mod tests;
