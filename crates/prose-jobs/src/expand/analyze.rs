//! Static expansion without building text: each prompt is walked once,
//! each prompt variable's prompt once however many prompts use it (its
//! [`Summary`] is kept), and every error is reported at the `$variable` or
//! prompt it is about, with the code path of the first expansion that met
//! it.

use std::collections::HashMap;

use super::summary::{Summary, USER_INPUT};
use crate::{
    diagnostic::JobDiagnostic,
    model::{Entry, Prompt, VariableUse},
    path::At,
    rules::{
        empty_prompt, expansion_limit, prompt_variable_cycle, unknown_prompt_variable, wrong_type,
    },
    variables::is_runtime_variable,
};

/// How deep prompt variables may nest (a prompt using `$a` whose prompt
/// uses `$b` is two levels). Deeper uses are an error (`J019`).
pub const MAX_EXPANSION_DEPTH: usize = 64;

/// The longest a fully expanded prompt may be, in bytes (1 MiB). Longer is
/// an error (`J019`).
pub const MAX_EXPANDED_BYTES: u64 = 1 << 20;

#[derive(Debug, Clone, Copy)]
enum State {
    Unvisited,
    /// Being expanded: a use now is a cycle.
    Active,
    Done(Summary),
}

pub(crate) struct Analyzer<'e> {
    entry: &'e Entry,
    /// Prompt variable name → index in `entry.prompt_variables`.
    pub(crate) vars: HashMap<&'e str, usize>,
    state: Vec<State>,
    /// The variables being expanded, outermost first.
    stack: Vec<usize>,
    /// Variables used where nesting was too deep to expand them: used, but
    /// not expanded (their own errors wait for the nesting to be fixed).
    cut: Vec<bool>,
    pub(crate) diagnostics: Vec<JobDiagnostic>,
    /// Whether to report prompts that are not arrays of strings. `validate`
    /// has reported them already (`J002`, while reading); a caller that
    /// expands one prompt needs to hear of them, or it would get a text
    /// with a hole in it.
    pub(crate) shape_errors: bool,
    /// The names an unknown variable may be a misspelling of, read once
    /// (J015), and the suggestion for each unknown name met: one name used
    /// thousands of times is compared with the variables once.
    suggestions: Option<Suggestions<'e>>,
}

/// The names to suggest from and the suggestion for each unknown name
/// asked about ([`unknown_prompt_variable::suggestion`]).
type Suggestions<'e> = (
    crate::nearest::Candidates<'e>,
    HashMap<String, Option<(String, bool)>>,
);

impl<'e> Analyzer<'e> {
    pub(crate) fn new(entry: &'e Entry) -> Analyzer<'e> {
        let vars = entry
            .prompt_variables
            .iter()
            .enumerate()
            .map(|(i, v)| (v.name.as_str(), i))
            .collect();
        Analyzer {
            entry,
            vars,
            state: vec![State::Unvisited; entry.prompt_variables.len()],
            stack: Vec::new(),
            cut: vec![false; entry.prompt_variables.len()],
            diagnostics: Vec::new(),
            shape_errors: false,
            suggestions: None,
        }
    }

    /// Forgets every prompt analyzed so far (the variable table stays), so
    /// that the next one is analyzed, and reported, on its own.
    pub(crate) fn reset(&mut self) {
        self.state.fill(State::Unvisited);
        self.cut.fill(false);
        self.stack.clear();
        self.diagnostics.clear();
    }

    /// Whether a prompt analyzed so far used the prompt variable at `index`.
    pub(crate) fn visited(&self, index: usize) -> bool {
        self.cut[index] || !matches!(self.state[index], State::Unvisited)
    }

    /// A prompt expanded on its own (a task's prompt, a condition, ...):
    /// also checks the size of the result.
    pub(crate) fn top(&mut self, prompt: &Prompt, path: &At<'_>) -> Summary {
        let s = self.prompt(prompt, path, 0);
        if s.len > MAX_EXPANDED_BYTES {
            self.diagnostics
                .push(expansion_limit::too_large(path, prompt.range, s.len));
            return s.incomplete();
        }
        s
    }

    /// The prompt variable at `index` expanded on its own, from `path`.
    pub(crate) fn variable(&mut self, index: usize, path: &At<'_>) -> Summary {
        let v = &self.entry.prompt_variables[index];
        let Some(prompt) = &v.prompt else {
            return Summary::empty().incomplete();
        };
        match self.state[index] {
            State::Done(s) => s,
            State::Active => Summary::empty().incomplete(),
            State::Unvisited => {
                self.state[index] = State::Active;
                self.stack.push(index);
                let s = self.top(prompt, path);
                self.stack.pop();
                self.state[index] = State::Done(s);
                s
            }
        }
    }

    /// Marks `index` and every variable it uses, transitively, as used but
    /// not expanded (without recursion).
    fn cut_below(&mut self, index: usize) {
        let mut todo = vec![index];
        while let Some(i) = todo.pop() {
            if self.cut[i] || !matches!(self.state[i], State::Unvisited) {
                continue;
            }
            self.cut[i] = true;
            let uses = self.entry.prompt_variables[i]
                .prompt
                .iter()
                .flat_map(|p| &p.items)
                .flat_map(|item| &item.variables);
            todo.extend(uses.filter_map(|u| self.vars.get(u.name.as_str()).copied()));
        }
    }

    fn prompt(&mut self, prompt: &Prompt, path: &At<'_>, depth: usize) -> Summary {
        if prompt.len == 0 {
            self.diagnostics
                .push(empty_prompt::diagnostic(path, prompt.range));
            return Summary::empty().incomplete();
        }
        let mut s = Summary::empty();
        for (i, item) in prompt.items.iter().enumerate() {
            if i > 0 {
                s = s.then(Summary::text("\n"));
            }
            let text = item.text.as_str();
            let mut at = 0;
            for u in &item.variables {
                s = s.then(Summary::text(&text[at..u.start])).then(self.use_of(
                    u,
                    &text[u.start..u.end],
                    path,
                    depth,
                ));
                at = u.end;
            }
            s = s.then(Summary::text(&text[at..]));
        }
        // An item that is not a string was reported (J002) and left out.
        if prompt.items.len() != prompt.len {
            if self.shape_errors {
                self.diagnostics
                    .push(wrong_type::not_a_prompt(path, prompt.range));
            }
            s = s.incomplete();
        }
        s
    }

    /// One `$name` (written `written`) in a prompt at `path`.
    fn use_of(&mut self, u: &VariableUse, written: &str, path: &At<'_>, depth: usize) -> Summary {
        let mut kept = Summary::text(written);
        if is_runtime_variable(&u.name) {
            if kept.has(USER_INPUT) {
                kept.user_input_at = Some(u.range);
            }
            return kept;
        }
        let Some(&index) = self.vars.get(u.name.as_str()) else {
            // Without `promptVariables` (reported as missing) every name
            // would be unknown: one error says it.
            if self.entry.has_prompt_variables {
                // In file order, so that a tie suggests the same name
                // every time.
                let entry = self.entry;
                let (candidates, found) = self.suggestions.get_or_insert_with(|| {
                    let names = entry.prompt_variables.iter().map(|v| v.name.as_str());
                    (unknown_prompt_variable::candidates(names), HashMap::new())
                });
                let suggested = found
                    .entry(u.name.clone())
                    .or_insert_with(|| unknown_prompt_variable::suggestion(&u.name, candidates));
                self.diagnostics.push(unknown_prompt_variable::diagnostic(
                    path,
                    u,
                    suggested.as_ref(),
                ));
            }
            return kept.incomplete();
        };
        match self.state[index] {
            State::Done(s) => s,
            State::Active => {
                let from = self.stack.iter().position(|&i| i == index).unwrap_or(0);
                let cycle: Vec<&str> = self.stack[from..]
                    .iter()
                    .chain([&index])
                    .map(|&i| self.entry.prompt_variables[i].name.as_str())
                    .collect();
                self.diagnostics
                    .push(prompt_variable_cycle::diagnostic(path, u, &cycle));
                kept.incomplete()
            }
            State::Unvisited if depth >= MAX_EXPANSION_DEPTH => {
                self.cut_below(index);
                self.diagnostics.push(expansion_limit::too_deep(path, u));
                kept.incomplete()
            }
            State::Unvisited => {
                let Some(prompt) = &self.entry.prompt_variables[index].prompt else {
                    // Not a prompt (reported): nothing to expand.
                    if self.shape_errors {
                        let path = path.variable(&u.name);
                        self.diagnostics
                            .push(wrong_type::not_a_prompt(&path, u.range));
                    }
                    self.state[index] = State::Done(kept.incomplete());
                    return kept.incomplete();
                };
                self.state[index] = State::Active;
                self.stack.push(index);
                let s = self.prompt(prompt, &path.variable(&u.name), depth + 1);
                self.stack.pop();
                self.state[index] = State::Done(s);
                s
            }
        }
    }
}
