//! Diagnostics as plain data, and the registry of codes.
//!
//! Every code is one file (`prompt/rules/*.rs` for `M`, `instructions/
//! rules/*.rs` for `K`) whose `//!` comment is its documentation
//! ([`Rule::docs`]: what it means, an `## Example` that triggers it, a
//! `## Fix`), followed by its [`Rule`] constant, its check and its tests.

use std::sync::OnceLock;

use text_size::TextRange;

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
    Info,
    Hint,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
            Severity::Hint => "hint",
        }
    }
}

/// A secondary location in the same text that explains a diagnostic.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Related {
    pub range: TextRange,
    pub message: String,
}

/// One replacement in the text.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Edit {
    pub range: TextRange,
    pub new_text: String,
}

/// A quick fix: a label and the edits that apply it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Fix {
    pub label: String,
    pub edits: Vec<Edit>,
}

/// One diagnostic: code, severity, message, exact range.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    /// `M001`…, `K001`….
    pub code: &'static str,
    /// The rule's kebab-case name (`unknown-command`).
    pub name: &'static str,
    pub severity: Severity,
    pub message: String,
    pub range: TextRange,
    pub related: Vec<Related>,
    pub fix: Option<Fix>,
}

/// A code's metadata; its check lives next to it.
#[derive(Debug)]
pub struct Rule {
    pub code: &'static str,
    /// Kebab-case name of the bad pattern.
    pub name: &'static str,
    /// One line: what is wrong.
    pub summary: &'static str,
    /// The severity it is reported with, decided per code (see its docs).
    pub severity: Severity,
    /// The rule file's source (`include_str!`), whose `//!` comment is the
    /// documentation.
    pub source: &'static str,
}

impl Rule {
    /// The documentation page: the rule file's leading `//!` comment as
    /// markdown, starting with `# CODE `name``.
    pub fn docs(&self) -> String {
        prose_rule_docs::page(self.source)
    }
}

/// Every code of this crate, `M` codes then `K` codes, each sorted.
pub fn rules() -> &'static [&'static Rule] {
    static ALL: OnceLock<Vec<&'static Rule>> = OnceLock::new();
    ALL.get_or_init(|| {
        crate::prompt::rules::RULES
            .iter()
            .map(|(r, _)| *r)
            .chain(crate::instructions::rules::RULES.iter().map(|(r, _)| *r))
            .collect()
    })
}

/// The rule with this code (any case) or kebab-case name.
pub fn rule(code_or_name: &str) -> Option<&'static Rule> {
    rules()
        .iter()
        .copied()
        .find(|r| r.code.eq_ignore_ascii_case(code_or_name) || r.name == code_or_name)
}

/// ` (did you mean `{guess}`?)`, or nothing.
pub(crate) fn did_you_mean(guess: Option<String>) -> String {
    guess
        .map(|g| format!(" (did you mean `{g}`?)"))
        .unwrap_or_default()
}

/// Collects one rule's diagnostics.
pub(crate) struct Acc {
    rule: &'static Rule,
    pub(crate) out: Vec<Diagnostic>,
}

impl Acc {
    pub(crate) fn new(rule: &'static Rule) -> Acc {
        Acc {
            rule,
            out: Vec::new(),
        }
    }

    /// Reports `message` on `range`; returns it to add a fix or related
    /// locations.
    pub(crate) fn report(
        &mut self,
        range: TextRange,
        message: impl Into<String>,
    ) -> &mut Diagnostic {
        self.out.push(Diagnostic {
            code: self.rule.code,
            name: self.rule.name,
            severity: self.rule.severity,
            message: message.into(),
            range,
            related: Vec::new(),
            fix: None,
        });
        self.out.last_mut().expect("just pushed")
    }
}

impl Diagnostic {
    /// The same diagnostic with every range moved by `delta` bytes: for a
    /// host that analysed a fragment starting at `delta` in its own text
    /// (the content of a prompt file, a prompt string without escapes).
    pub fn shifted(mut self, delta: text_size::TextSize) -> Diagnostic {
        self.range += delta;
        for r in &mut self.related {
            r.range += delta;
        }
        if let Some(f) = self.fix.as_mut() {
            for e in &mut f.edits {
                e.range += delta;
            }
        }
        self
    }

    /// Adds a quick fix that replaces `range` with `new_text`.
    pub(crate) fn fix(
        &mut self,
        label: impl Into<String>,
        range: TextRange,
        new_text: impl Into<String>,
    ) -> &mut Self {
        self.fix = Some(Fix {
            label: label.into(),
            edits: vec![Edit {
                range,
                new_text: new_text.into(),
            }],
        });
        self
    }

    /// Adds a related location.
    pub(crate) fn related(&mut self, range: TextRange, message: impl Into<String>) -> &mut Self {
        self.related.push(Related {
            range,
            message: message.into(),
        });
        self
    }
}

/// A rule and its check over a context of type `C`.
pub(crate) type Checked<C> = (&'static Rule, fn(&C, &mut Acc));

/// Runs `rules` with `ctx`, sorted by position then code.
pub(crate) fn run<C>(rules: &[Checked<C>], ctx: &C) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (rule, check) in rules {
        let mut acc = Acc::new(rule);
        check(ctx, &mut acc);
        out.append(&mut acc.out);
    }
    out.sort_by(|a, b| {
        (a.range.start(), a.range.end(), a.code).cmp(&(b.range.start(), b.range.end(), b.code))
    });
    out
}

/// The candidate closest to `word` by edit distance, when close enough
/// for a "did you mean" (a third of the longer length, at least one).
pub(crate) fn closest<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    candidates
        .into_iter()
        .filter_map(|c| {
            let bound = (word.len().max(c.len()) / 3).max(1);
            if word.len().abs_diff(c.len()) > bound {
                return None;
            }
            let d = crate::text::edit_distance(word, c);
            (d <= bound && d > 0).then_some((d, c))
        })
        .min()
        .map(|(_, c)| c)
}
