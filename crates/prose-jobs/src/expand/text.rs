//! Building the expanded text of a prompt that expands without errors.
//!
//! The text is built once, front to back, into one buffer. The first time
//! a variable is expanded, the range of the buffer it produced is noted;
//! every later use copies that range. So the work is proportional to the
//! size of the result (at most [`super::MAX_EXPANDED_BYTES`]) plus the size
//! of the definitions, however the variables nest.

use std::collections::HashMap;

use crate::model::{Entry, Prompt};

/// The expansion of `prompt`, which the analysis found free of errors.
/// Unknown or cyclic variables (which that excludes) would be kept as
/// written.
/// `vars` maps each prompt variable's name to its index.
pub(super) fn expand(entry: &Entry, vars: &HashMap<&str, usize>, prompt: &Prompt) -> String {
    let mut b = Builder {
        entry,
        vars,
        done: vec![None; entry.prompt_variables.len()],
        active: vec![false; entry.prompt_variables.len()],
        out: Vec::new(),
    };
    b.prompt(prompt);
    String::from_utf8(b.out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

struct Builder<'e> {
    entry: &'e Entry,
    vars: &'e HashMap<&'e str, usize>,
    /// Where in `out` each variable's expansion was first written.
    done: Vec<Option<(usize, usize)>>,
    active: Vec<bool>,
    out: Vec<u8>,
}

impl Builder<'_> {
    fn prompt(&mut self, prompt: &Prompt) {
        for (i, item) in prompt.items.iter().enumerate() {
            if i > 0 {
                self.out.push(b'\n');
            }
            let text = item.text.as_str();
            let mut at = 0;
            for u in &item.variables {
                self.out.extend_from_slice(&text.as_bytes()[at..u.start]);
                self.variable(&u.name, &text[u.start..u.end]);
                at = u.end;
            }
            self.out.extend_from_slice(&text.as_bytes()[at..]);
        }
    }

    fn variable(&mut self, name: &str, written: &str) {
        let var = self
            .vars
            .get(name)
            .copied()
            .filter(|_| !crate::variables::is_runtime_variable(name));
        let Some(index) = var.filter(|&i| !self.active[i]) else {
            self.out.extend_from_slice(written.as_bytes());
            return;
        };
        if let Some((start, end)) = self.done[index] {
            self.out.extend_from_within(start..end);
            return;
        }
        let Some(prompt) = &self.entry.prompt_variables[index].prompt else {
            self.out.extend_from_slice(written.as_bytes());
            return;
        };
        self.active[index] = true;
        let start = self.out.len();
        self.prompt(prompt);
        self.done[index] = Some((start, self.out.len()));
        self.active[index] = false;
    }
}
