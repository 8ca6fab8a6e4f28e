//! Prompt expansion (seed 002): `expandPromptStatic` replaces prompt
//! variables and keeps runtime variables; `expandPromptDynamic` then
//! gives the runtime variables their values, each time a prompt is sent.
//!
//! Static expansion joins a prompt's strings with LF and replaces each
//! `$name` that is a key of `promptVariables` by that variable's prompt,
//! itself expanded (recursively, the code path growing by `/$name`). It
//! keeps runtime variables (`$user-input`, ...) as they are. Errors: an
//! unknown variable (`J015`), an empty prompt (`J016`), a cycle (`J018`),
//! nesting deeper than [`MAX_EXPANSION_DEPTH`] or a result larger than
//! [`MAX_EXPANDED_BYTES`] (`J019`), and with `requires_boolean_tool`, a
//! result that mentions neither boolean tool (`J017`).

mod analyze;
mod dynamic;
pub(crate) mod summary;
mod text;

pub(crate) use analyze::Analyzer;
pub use analyze::{MAX_EXPANDED_BYTES, MAX_EXPANSION_DEPTH};
pub use dynamic::{DynamicError, expand_prompt_dynamic};

use crate::{
    diagnostic::JobDiagnostic,
    model::{Entry, Prompt},
    path::{At, CodePath},
    rules::missing_boolean_tool,
};

/// `expandPromptStatic`: the prompt as one string, with every prompt
/// variable replaced and every runtime variable kept; or every error met
/// on the way, each at its range, with messages `CODE-PATH: REASON`
/// (`code_path` is the path of `prompt`, such as
/// `entry.tasks["t"].prompt`).
pub fn expand_prompt_static(
    entry: &Entry,
    code_path: &CodePath,
    prompt: &Prompt,
    requires_boolean_tool: bool,
) -> Result<String, Vec<JobDiagnostic>> {
    Expander::new(entry).expand(code_path, prompt, requires_boolean_tool)
}

/// The fully expanded prompt of the task `name` (what a code lens or a
/// hover shows, and what a runner sends before dynamic expansion); `None`
/// when there is no such task or it has no prompt.
pub fn task_prompt(entry: &Entry, name: &str) -> Option<Result<String, Vec<JobDiagnostic>>> {
    Expander::new(entry).task_prompt(name)
}

/// The full expansion of the prompt variable `name` (without `$`), as a
/// hover on `$name` shows it; `None` when there is no such variable or its
/// value is not a prompt.
pub fn variable_text(entry: &Entry, name: &str) -> Option<Result<String, Vec<JobDiagnostic>>> {
    Expander::new(entry).variable_text(name)
}

/// Expands many prompts of one entry ([`expand_prompt_static`] for each):
/// the table of the entry's variables is built once, so expanding every
/// variable of an entry (a completion list with each one's text) costs
/// what the expansions cost, not that times the number of variables.
/// Each expansion is independent: it reports every error of its own prompt.
pub struct Expander<'e> {
    entry: &'e Entry,
    analyzer: Analyzer<'e>,
}

impl<'e> Expander<'e> {
    pub fn new(entry: &'e Entry) -> Expander<'e> {
        let mut analyzer = Analyzer::new(entry);
        analyzer.shape_errors = true;
        Expander { entry, analyzer }
    }

    /// [`expand_prompt_static`] of `prompt`, at `code_path`.
    pub fn expand(
        &mut self,
        code_path: &CodePath,
        prompt: &Prompt,
        requires_boolean_tool: bool,
    ) -> Result<String, Vec<JobDiagnostic>> {
        self.analyzer.reset();
        let path = At::raw(code_path.as_str());
        let summary = self.analyzer.top(prompt, &path);
        let mut errors = std::mem::take(&mut self.analyzer.diagnostics);
        if requires_boolean_tool {
            errors.extend(missing_boolean_tool::check(prompt, &summary, &path));
        }
        if errors.is_empty() {
            Ok(text::expand(self.entry, &self.analyzer.vars, prompt))
        } else {
            Err(errors)
        }
    }

    /// [`task_prompt`].
    pub fn task_prompt(&mut self, name: &str) -> Option<Result<String, Vec<JobDiagnostic>>> {
        let task = self.entry.task(name)?;
        let path = CodePath::entry().field("tasks").key(name).field("prompt");
        Some(self.expand(&path, task.prompt.as_ref()?, false))
    }

    /// [`variable_text`].
    pub fn variable_text(&mut self, name: &str) -> Option<Result<String, Vec<JobDiagnostic>>> {
        let entry = self.entry;
        let var = &entry.prompt_variables[*self.analyzer.vars.get(name)?];
        let path = CodePath::entry().field("promptVariables").key(name);
        Some(self.expand(&path, var.prompt.as_ref()?, false))
    }
}

#[cfg(test)]
mod tests;
