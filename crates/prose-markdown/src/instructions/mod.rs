//! `_keyword_` instructions (seed 000) in any text fragment: a whole
//! markdown file, or a prompt a host hands over (an OpenProse session
//! prompt, a job entry's prompt, a prompt file's content).
//!
//! ```markdown
//! ## _if_ _subreplied_ like "SGN_PENDING ({identifier})", _then_:
//! _follow_:
//! 1) _remember_ sub-agent's session id is "{identifier}".
//! 2) _terminate_ "SGN_PENDING".
//! ```
//!
//! [`analyze_instructions`] finds every keyword, signal, `like` pattern,
//! `{variable}` and `_if_`/`_elif_`/`_else_` branch with its condition and
//! the range its action covers; [`check`] reports the `K` diagnostics.
//! How the structure is read from lines and indentation: see `blocks.rs`.
//! How keywords are told from ordinary `_emphasis_`: see `scan.rs`.

mod blocks;
mod features;
mod plain;
pub(crate) mod rules;
mod scan;
pub(crate) mod structure;
pub mod vocabulary;

use text_size::TextRange;

use crate::{Diagnostic, FileLookup, markdown::Markdown};
pub use features::{completions, definition, hover, semantic_tokens};
pub use plain::Plainness;
pub use vocabulary::{Category, KEYWORDS, Keyword, SIGNALS, SignalDoc, signal_docs};

/// What kind of text is analysed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FragmentKind {
    /// A whole instruction file (an `AGENTS.md` that carries the SOP).
    File,
    /// A prompt handed over by a host language: checks that need the whole
    /// of an agent's instructions (the SOP's resume handling) are skipped.
    Prompt,
}

/// How a keyword occurrence is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KeywordRole {
    /// Part of an instruction.
    Statement,
    /// Named in prose about the language ("the _if_ and _else_ keywords").
    Mention,
    /// Inside a quoted string (a pattern such as `like "_ask_{*}"`, or a
    /// message).
    Quoted,
    /// Inside a ```` ```md ```` fence: an example or a block pattern.
    Example,
}

/// One keyword occurrence.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct KeywordOccurrence {
    pub keyword: Keyword,
    /// The keyword with its underscores.
    pub range: TextRange,
    pub role: KeywordRole,
}

/// One `SGN_*` signal.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SignalOccurrence {
    pub name: String,
    pub range: TextRange,
    /// Inside a fence example or a code span.
    pub in_code: bool,
}

/// A `like "…"` (or `not like "…"`, or `like:` + fenced block) pattern.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Pattern {
    /// `like` or `not like`.
    pub like_range: TextRange,
    pub negated: bool,
    /// The quoted string (quotes included), or the fenced block's content.
    pub range: TextRange,
    /// What is matched: between the quotes, or the block's content.
    pub text_range: TextRange,
    /// The `like:` + fenced block form.
    pub block: bool,
    /// Inside a ```` ```md ```` example itself.
    pub in_example: bool,
}

/// How a `{…}` is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VariableRole {
    /// In a condition (in its `like` pattern or elsewhere in it): binds
    /// the name for the branch's action.
    Binding,
    /// In a pattern outside a condition (`with content like:` + block).
    Pattern,
    /// In the action of a branch: must be bound by an enclosing condition.
    Use,
    /// Anywhere else (a placeholder in prose or an example).
    Free,
}

/// One `{name}` or `{*}`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Variable {
    /// Trimmed, blanks collapsed, lowercased.
    pub name: String,
    /// Braces included.
    pub range: TextRange,
    pub role: VariableRole,
    /// `{*}`.
    pub discard: bool,
    /// Alternatives (`{msg|SGN_X}`): never checked for a binding.
    pub choice: bool,
    /// More than four words: an instruction between braces (seed 000:
    /// "instructions between the curly braces"), not a variable.
    pub instruction: bool,
    /// Inside a ```` ```md ```` example.
    pub in_example: bool,
    /// Inside a pattern (`like "…"` or a fenced pattern).
    pub in_pattern: bool,
    /// Inside a statement (a branch's condition or action, or a line with
    /// an action keyword): where `{*}` is an error.
    pub in_statement: bool,
}

/// One branch of an `_if_` / `_elif_` / `_else_` chain.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Branch {
    /// [`Keyword::If`], [`Keyword::Elif`] or [`Keyword::Else`].
    pub keyword: Keyword,
    pub keyword_range: TextRange,
    /// The `_then_` (none for `_else_`, or when missing).
    pub then_range: Option<TextRange>,
    /// From after the keyword to the `_then_`.
    pub condition: Option<TextRange>,
    /// What the action covers: from after `_then_` (or `_else_`) to the
    /// next branch of the chain in the same paragraph, or to the end of
    /// the nested lines, list items or section.
    pub scope: Option<TextRange>,
    /// The names its condition binds.
    pub bindings: Vec<String>,
    /// Whether its condition has a `like` pattern.
    pub has_pattern: bool,
    /// For `_elif_`/`_else_`: an `_if_` or `_elif_` comes before it.
    pub follows_if: bool,
}

/// A `_word_` that looks like a misspelled keyword where a keyword belongs.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct NearMiss {
    pub range: TextRange,
    /// The letters as written.
    pub written: String,
    pub keyword: Keyword,
}

/// The `.md` file a `_spawn_` names.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SpawnTarget {
    /// As written, without a leading `$PWD/`; the key for [`FileLookup`].
    pub path: String,
    /// The code span's content.
    pub range: TextRange,
    /// The path holds a `{variable}`: it is a template, not a file.
    pub templated: bool,
}

/// Everything the analysis found, in text order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instructions {
    pub kind: FragmentKind,
    pub keywords: Vec<KeywordOccurrence>,
    pub signals: Vec<SignalOccurrence>,
    pub patterns: Vec<Pattern>,
    pub variables: Vec<Variable>,
    pub branches: Vec<Branch>,
    pub near_misses: Vec<NearMiss>,
    pub spawns: Vec<SpawnTarget>,
    /// `_then_`s with no `_if_`/`_elif_` before them.
    pub stray_thens: Vec<TextRange>,
    /// Whether the text uses the language: see [`is_instruction_file`].
    pub uses_language: bool,
    pub(crate) md: Markdown,
    pub(crate) scopes: structure::ScopeTree,
    /// The lexical pass and the lines, which only checks and features at a
    /// keyword read: `None` for a text without keywords (most prompt
    /// strings), so that the analyses a host keeps for every injection stay
    /// small.
    detail: Option<Box<Detail>>,
}

/// What [`Instructions`] keeps of the passes for the keywords' checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Detail {
    pub(crate) lexed: scan::Lexed,
    pub(crate) blocks: blocks::Blocks,
}

static NO_LEXED: scan::Lexed = scan::Lexed::EMPTY;
static NO_BLOCKS: blocks::Blocks = blocks::Blocks::EMPTY;

impl Instructions {
    /// Whether the analysis found nothing at all: no keyword, signal,
    /// pattern, variable, code or heading, and the text does not use the
    /// language. Two such analyses of the same [`FragmentKind`] are equal
    /// whatever their texts, so a host may keep one for all of them.
    pub fn is_empty(&self) -> bool {
        let Instructions {
            kind: _,
            keywords,
            signals,
            patterns,
            variables,
            branches,
            near_misses,
            spawns,
            stray_thens,
            uses_language,
            md,
            scopes,
            detail,
        } = self;
        keywords.is_empty()
            && signals.is_empty()
            && patterns.is_empty()
            && variables.is_empty()
            && branches.is_empty()
            && near_misses.is_empty()
            && spawns.is_empty()
            && stray_thens.is_empty()
            && !uses_language
            && md.is_empty()
            && scopes.is_empty()
            && detail.is_none()
    }

    /// The lexical pass (empty for a text without keywords).
    pub(crate) fn lexed(&self) -> &scan::Lexed {
        self.detail.as_ref().map_or(&NO_LEXED, |d| &d.lexed)
    }

    /// The lines and their nodes (empty for a text without keywords).
    pub(crate) fn blocks(&self) -> &blocks::Blocks {
        self.detail.as_ref().map_or(&NO_BLOCKS, |d| &d.blocks)
    }

    /// The branches whose action covers `r`, outermost first.
    pub fn enclosing_branches(&self, r: TextRange) -> impl Iterator<Item = &Branch> {
        self.scopes
            .enclosing(r)
            .into_iter()
            .rev()
            .map(|i| &self.branches[i])
    }

    /// The keyword occurrences inside `r`, in order.
    pub fn keywords_in(&self, r: TextRange) -> &[KeywordOccurrence] {
        let s = self
            .keywords
            .partition_point(|k| k.range.start() < r.start());
        let e = self.keywords.partition_point(|k| k.range.end() <= r.end());
        &self.keywords[s..e.max(s)]
    }

    /// The patterns whose `like` lies inside `r`, in order.
    pub fn patterns_in(&self, r: TextRange) -> &[Pattern] {
        let s = self
            .patterns
            .partition_point(|p| p.like_range.start() < r.start());
        let e = self
            .patterns
            .partition_point(|p| p.like_range.end() <= r.end());
        &self.patterns[s..e.max(s)]
    }

    /// The statement keywords, in order.
    pub fn statements(&self) -> impl Iterator<Item = &KeywordOccurrence> {
        self.keywords
            .iter()
            .filter(|k| k.role == KeywordRole::Statement)
    }

    /// The paths the host should answer for ([`FileLookup`]) before
    /// [`check`]: the `_spawn_` files that are not templates, each once.
    pub fn paths_to_check(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for s in self.spawns.iter().filter(|s| !s.templated) {
            if !out.contains(&s.path) {
                out.push(s.path.clone());
            }
        }
        out
    }
}

/// Analyses `text` as instruction text of kind `kind` (a text with none
/// of the characters the analysis looks for, or only braces, gets the
/// empty text's analysis, with its variables, without a markdown parse:
/// `plain.rs`; one whose lexical pass finds no `_word_` and no `like` is
/// not read for statements: `structure.rs`, `without_statements`).
pub fn analyze_instructions(text: &str, kind: FragmentKind) -> Instructions {
    analyze_instructions_as(text, kind, plain::plainness(text))
}

/// [`analyze_instructions`] of a text whose [`plainness`] the caller
/// already holds (it must be `plainness(text)`): a text read for whether
/// it needs the analysis is not read for it again.
pub fn analyze_instructions_as(
    text: &str,
    kind: FragmentKind,
    plainness: Plainness,
) -> Instructions {
    debug_assert_eq!(plainness, plain::plainness(text));
    match plainness {
        plain::Plainness::Plain => empty(kind),
        plain::Plainness::Braces => {
            let mut ins = empty(kind);
            ins.variables = plain::brace_variables(text);
            ins
        }
        plain::Plainness::Rich => structure::analyze(text, kind),
    }
}

/// How much of the analysis `text` needs, found by a scan of its bytes
/// without the analysis (see `plain.rs`): none ([`Plainness::Plain`]: the
/// text holds nothing the analysis looks for, and
/// `analyze_instructions(text, kind)` equals `analyze_instructions("",
/// kind)` for either kind), only its brace variables, or all of it. Hand
/// it to [`analyze_instructions_as`] to spare the analysis the same scan.
pub fn plainness(text: &str) -> Plainness {
    plain::plainness(text)
}

/// The analysis of the empty text, made once per kind (a program's
/// prompts are mostly plain text, each given a copy).
fn empty(kind: FragmentKind) -> Instructions {
    static FILE: std::sync::OnceLock<Instructions> = std::sync::OnceLock::new();
    static PROMPT: std::sync::OnceLock<Instructions> = std::sync::OnceLock::new();
    let cell = match kind {
        FragmentKind::File => &FILE,
        FragmentKind::Prompt => &PROMPT,
    };
    cell.get_or_init(|| structure::analyze("", kind)).clone()
}

/// Whether a markdown file carries the instruction language: it **uses**
/// at least one keyword outside code (fences, code spans, HTML, front
/// matter, link targets), where a use is
///
/// - one of the words the language coins, which prose does not emphasise
///   by chance: `_elif_`, `_instructed_`, `_instructedpreviously_`,
///   `_repliedpreviously_`, `_subreplied_`, `_subrepliedpreviously_`; or
/// - a keyword in the form the language gives it: `_if_`/`_elif_` with its
///   `_then_`, `_terminate_ "…"` (or with an unquoted signal or code span,
///   which K004 asks to quote), `_ask_ "…"`, ``_run_ `…` ``,
///   ``_spawn_ `…` ``, `_follow_:` before a numbered list.
///
/// So ordinary markdown that emphasises an English word (`_run_ the
/// tests`, `only _if_ needed`, `please _remember_`) is not an instruction
/// file, and neither is prose that names the keywords ("the `_if_` and
/// `_else_` keywords"). Such files get no `K` diagnostics.
pub fn is_instruction_file(text: &str) -> bool {
    // A cheap look first: most markdown has no `_keyword_` at all.
    let quick = KEYWORDS.iter().any(|k| text.contains(k.written().as_str()));
    quick && analyze_instructions(text, FragmentKind::File).uses_language
}

/// What a check of instructions sees.
pub(crate) struct Ctx<'a> {
    pub text: &'a str,
    pub ins: &'a Instructions,
    pub files: &'a dyn FileLookup,
}

/// Every `K` diagnostic of `ins` (analysed from `text`), asking `files`
/// about `_spawn_` targets.
///
/// For a [`FragmentKind::File`] every check runs: the host calls this for
/// files that [`is_instruction_file`] accepts or a configured glob names.
/// A [`FragmentKind::Prompt`] that does not use the language
/// ([`Instructions::uses_language`]) gets only misspelled keywords (K001),
/// which are found only where a keyword's argument follows.
pub fn check(text: &str, ins: &Instructions, files: &dyn FileLookup) -> Vec<Diagnostic> {
    let ctx = Ctx { text, ins, files };
    if only_misspellings(ins) {
        // The rules are independent of each other: run only K001 (most
        // prompts of a program, checked again after every edit).
        let k001 = rules::RULES
            .iter()
            .position(|(rule, _)| rule.code == "K001")
            .map_or(&[][..], |i| &rules::RULES[i..=i]);
        return crate::diagnostic::run(k001, &ctx);
    }
    crate::diagnostic::run(rules::RULES, &ctx)
}

/// Whether [`check`] reports nothing for `ins`, whatever its text and the
/// files: a prompt that does not use the language, without a near-miss of
/// a keyword (most prompts of a program; the host skips them).
pub fn check_finds_nothing(ins: &Instructions) -> bool {
    only_misspellings(ins) && ins.near_misses.is_empty()
}

/// Whether [`check`] runs K001 alone for `ins` (the rules are independent
/// of each other, and the others find nothing in a prompt that does not
/// use the language), which reports each near-miss of a keyword.
fn only_misspellings(ins: &Instructions) -> bool {
    ins.kind == FragmentKind::Prompt && !ins.uses_language
}

#[cfg(test)]
mod tests;
