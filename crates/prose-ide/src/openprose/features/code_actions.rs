//! Code actions: quick fixes for the diagnostics under a range.
//!
//! The file's diagnostics are computed (the same cached query the editor's
//! squiggles come from); each one that touches the requested range is
//! offered the fixes its code has. A fix is a small text edit derived from
//! the tree at the diagnostic's range: replace a misspelt word by the
//! nearest valid one, rename a duplicate definition to a free numbered
//! name, insert a missing `(max: 10)` or `as alias`, define a missing
//! agent, delete an unknown or empty property line, and so on.
//!
//! Principles:
//! - every fix makes its diagnostic go away (the tests re-check the edited
//!   program), and never reaches beyond what the diagnostic is about: a
//!   renamed duplicate keeps its references, which were ambiguous anyway;
//! - `is_preferred` marks the one fix an editor may apply on its own
//!   ("fix all", save actions): set only when the choice is confident,
//!   e.g. a spelling suggestion within the same distance the diagnostic's
//!   "did you mean" uses, never for a guess among equals;
//! - `is_safe` marks, among those, the fixes `prose check --fix` applies
//!   unattended: one obvious outcome that keeps everything the diagnostic
//!   is not about. A word misspelt next to exactly one valid word (strictly
//!   nearer than any other, and by less than half its length: one letter
//!   off in a one- or two-letter name is a guess, not a typo), a requoted
//!   value, a tab made spaces, a repeated import or an empty
//!   `skills: []` removed, an alias added where one is required. Not
//!   safe, however confident: a fix that invents a value (`max: 10`,
//!   `count: 1`), changes what runs (`resume:` to `session:`, a bare
//!   `throw`, `persist: true`), or depends on the state of the machine
//!   (a memory file that exists here but not in CI);
//! - nothing here panics on broken input: a fix whose syntax is missing is
//!   simply not offered.
//!
//! The edits are rename's [`TextEdit`] and [`SourceChange`], so an editor
//! applies both features' results the same way.
//!
//! Layout: this file holds the entry point, the dispatch from diagnostic
//! codes to fixes ([`fixes`]) and the context's lookups; each family of
//! fixes has a file: [`values`] (misspelt values), [`names`] (duplicate and
//! undefined names, import aliases), [`properties`] (properties, agents and
//! invocations), [`structure`] (control flow and program structure),
//! [`string_fixes`] (inside string literals).

use std::{
    cell::{OnceCell, RefCell},
    collections::{HashMap, HashSet},
};

use prose_syntax::{
    AstNode, NodeOrToken, SyntaxKind, SyntaxNode, SyntaxToken, TextRange, TextSize,
    ast::{self, Expr, Stmt},
};

use crate::{
    FileId,
    db::{Db, SourceFile, Workspace, parse},
    diagnostics::{Diagnostic, file_diagnostics},
    features::rename::{SourceChange, TextEdit},
    openprose::rules::group_agents::{key_range, property_range},
    openprose::suggestions::SuggestionBudget,
    semantics::{DefKind, FileSemantics, RefKind, Reference, file_semantics},
    vocabulary,
};

mod names;
mod properties;
mod string_fixes;
mod structure;
#[cfg(test)]
mod tests;
mod values;

use names::{
    import_alias, nearest_definition, nearest_variable, rename_duplicate, undefined_agent,
};
use properties::{
    invalid_persist, remove_duplicate_property, remove_property, resume_non_persistent,
    switch_invocation, unknown_permission_type, unknown_property,
};
use structure::{
    count_to_one, empty_throw_message, move_input, remove_duplicate_import, tab_indentation,
    unbounded_loop,
};
use values::{Quoting, invalid_model, replace_word, unknown_permission_value};

/// Shorthands for the edits fixes make.
fn replace(range: TextRange, new_text: impl Into<String>) -> TextEdit {
    TextEdit {
        range,
        new_text: new_text.into(),
    }
}

fn insert(at: TextSize, new_text: impl Into<String>) -> TextEdit {
    replace(TextRange::empty(at), new_text)
}

fn delete(range: TextRange) -> TextEdit {
    replace(range, String::new())
}

/// What kind of action this is (editors group and filter by it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CodeActionKind {
    /// Fixes the diagnostic it is attached to.
    QuickFix,
    /// Restructures code without fixing a diagnostic.
    Refactor,
}

/// One action the editor can offer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeAction {
    pub title: String,
    pub kind: CodeActionKind,
    /// The code of the diagnostic the action fixes.
    pub diagnostic_code: Option<&'static str>,
    /// The range of the diagnostic the action fixes.
    pub diagnostic_range: Option<TextRange>,
    /// The fix an editor may apply without asking (at most one per diagnostic).
    pub is_preferred: bool,
    /// Safe to apply unattended (`prose check --fix`): preferred, with one
    /// obvious outcome that changes nothing the diagnostic is not about.
    /// Implies `is_preferred`.
    pub is_safe: bool,
    pub edit: SourceChange,
}

/// The code actions for the diagnostics of `file` that touch `range`, in
/// diagnostic order, each diagnostic's preferred fix first.
pub fn code_actions(
    db: &dyn Db,
    file_id: FileId,
    file: SourceFile,
    workspace: Workspace,
    range: TextRange,
) -> Vec<CodeAction> {
    let diagnostics = file_diagnostics(db, file, Some(workspace));
    let cx = Cx::new(
        file.text(db),
        parse(db, file).syntax_node(),
        file_semantics(db, file),
        diagnostics,
    );
    let mut out: Vec<CodeAction> = Vec::new();
    // What `out` holds, to drop repeats in constant time.
    let mut seen: HashSet<(String, SourceChange)> = HashSet::new();
    for d in diagnostics
        .iter()
        .filter(|d| d.range.intersect(range).is_some())
    {
        db.unwind_if_revision_cancelled();
        if !cx.root.text_range().contains_range(d.range) {
            continue;
        }
        let mut acc = Acc {
            file: file_id,
            diag: d,
            actions: Vec::new(),
        };
        fixes(&cx, &mut acc);
        acc.actions
            .sort_by_key(|a| std::cmp::Reverse(a.is_preferred));
        for a in acc.actions {
            // Two references to the same missing agent offer one definition.
            if seen.insert((a.title.clone(), a.edit.clone())) {
                out.push(a);
            }
        }
    }
    out
}

/// What the fixes look at, and what they look up, built the first time a
/// fix asks (once per request, however many diagnostics it fixes: a
/// whole-file request stays linear in the size of the file).
struct Cx<'a> {
    text: &'a str,
    root: SyntaxNode,
    sema: &'a FileSemantics,
    diagnostics: &'a [Diagnostic],
    /// What "did you mean" fixes may still spend (as a file's rules).
    suggestions: SuggestionBudget,
    /// Every name the file defines or mentions.
    names: OnceCell<HashSet<&'a str>>,
    /// The free numbered name of each stem asked for so far.
    numbered: RefCell<HashMap<String, String>>,
    /// Positions in `sema.refs` by range, and by name.
    refs_at: OnceCell<HashMap<TextRange, Vec<usize>>>,
    refs_named: OnceCell<HashMap<&'a str, Vec<usize>>>,
    /// Positions in `sema.refs`, sorted by start.
    refs_by_start: OnceCell<Vec<usize>>,
    indent: OnceCell<String>,
    insert_point: OnceCell<Insert>,
    /// The end of the last `use`, `import` or `input` opening the file.
    header_end: OnceCell<Option<TextSize>>,
}

/// Collects the fixes of one diagnostic.
struct Acc<'d> {
    file: FileId,
    diag: &'d Diagnostic,
    actions: Vec<CodeAction>,
}

/// How a fix may be applied (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fix {
    /// Offered in the editor's list only.
    Offered,
    /// The one an editor may apply on its own.
    Preferred,
    /// Preferred, and `prose check --fix` applies it unattended.
    Safe,
}

impl Fix {
    fn preferred_if(yes: bool) -> Fix {
        if yes { Fix::Preferred } else { Fix::Offered }
    }

    fn safe_if(yes: bool) -> Fix {
        if yes { Fix::Safe } else { Fix::Offered }
    }

    /// A correction of `written` to `best`, one of `candidates`: safe when
    /// it is the [`obvious`] one, else preferred when `preferred`.
    fn correction(preferred: bool, written: &str, best: &str, candidates: &[&str]) -> Fix {
        match (preferred, obvious(written, best, candidates)) {
            (true, true) => Fix::Safe,
            (true, false) => Fix::Preferred,
            (false, _) => Fix::Offered,
        }
    }
}

/// Whether `best` is the one obvious correction of `written` among
/// `candidates`: the only one `written` contains (`claude-opus-4` is
/// `opus`), or strictly nearer than every other and by fewer edits than
/// half the length of `written`.
fn obvious(written: &str, best: &str, candidates: &[&str]) -> bool {
    let lower = written.to_lowercase();
    let others = || candidates.iter().filter(|c| **c != best);
    if lower.contains(best) {
        return !others().any(|c| lower.contains(c));
    }
    let distance = |c: &str| strsim::damerau_levenshtein(&lower, &c.to_lowercase());
    let d = distance(best);
    2 * d < lower.chars().count() && others().all(|c| distance(c) > d)
}

impl Acc<'_> {
    fn fix(&mut self, title: impl Into<String>, how: Fix, mut edits: Vec<TextEdit>) {
        edits.sort_by_key(|e| e.range.start());
        // At most one preferred fix per diagnostic: a second is only offered.
        let preferred = how != Fix::Offered && !self.actions.iter().any(|a| a.is_preferred);
        self.actions.push(CodeAction {
            title: title.into(),
            kind: CodeActionKind::QuickFix,
            diagnostic_code: Some(self.diag.code.as_str()),
            diagnostic_range: Some(self.diag.range),
            is_preferred: preferred,
            is_safe: preferred && how == Fix::Safe,
            edit: SourceChange {
                edits: vec![(self.file, edits)],
            },
        });
    }
}

fn fixes(cx: &Cx<'_>, acc: &mut Acc<'_>) {
    match acc.diag.code.as_str() {
        "E006" => rename_duplicate(cx, acc, "agent"),
        "P504" => rename_duplicate(cx, acc, "block"),
        "E019" => rename_duplicate(cx, acc, "variable"),
        "E021" => rename_duplicate(cx, acc, "input"),
        "E024" => rename_duplicate(cx, acc, "output"),
        "E007" => undefined_agent(cx, acc),
        "E008" => invalid_model(cx, acc),
        "E009" => remove_duplicate_property(cx, acc),
        "E010" => remove_duplicate_import(cx, acc),
        "E017" => resume_non_persistent(cx, acc),
        // The memory file may exist where the program runs but not here.
        "E018" => switch_invocation(cx, acc, SyntaxKind::RESUME_KW, "session", Fix::Preferred),
        "E002" => string_fixes::double_backslash(cx, acc),
        "E022" => move_input(cx, acc),
        "P001" => tab_indentation(cx, acc),
        "P101" | "P402" | "P404" | "P703" => nearest_variable(cx, acc),
        "P104" => string_fixes::escape_fenced_quotes(cx, acc),
        "P201" => import_alias(cx, acc),
        "P301" => invalid_persist(cx, acc),
        "P503" => {
            nearest_definition(cx, acc, RefKind::Block, DefKind::Block);
        }
        "P601" => {
            replace_word(cx, acc, vocabulary::JOIN_STRATEGIES, Quoting::Quoted);
        }
        "P602" => {
            replace_word(cx, acc, vocabulary::FAILURE_POLICIES, Quoting::Quoted);
        }
        "P604" | "P701" | "P706" | "P807" => count_to_one(cx, acc),
        "P705" => unbounded_loop(cx, acc),
        "P806" => empty_throw_message(cx, acc),
        "P810" => {
            replace_word(cx, acc, vocabulary::BACKOFF_STRATEGIES, Quoting::Bare);
        }
        "P811" => remove_property(cx, acc, Fix::Offered),
        "W005" => unknown_property(cx, acc),
        "W008" => unknown_permission_type(cx, acc),
        "W009" => unknown_permission_value(cx, acc),
        // `skills: []` assigns nothing.
        "W010" => remove_property(cx, acc, Fix::Safe),
        // Starting afresh may be intended: not preferred.
        "W011" => switch_invocation(cx, acc, SyntaxKind::SESSION_KW, "resume", Fix::Offered),
        _ => {}
    }
}

// ---- tree and text helpers ------------------------------------------------------

/// Where new definitions go.
#[derive(Clone, Copy)]
enum Insert {
    /// At a line start, before the first statement that is not an import
    /// or an input (and before the comment lines directly above it).
    Before { at: TextSize, blank_before: bool },
    /// At the end of a file of imports and inputs only.
    AtEnd { at: TextSize, before: &'static str },
}

impl<'a> Cx<'a> {
    fn new(
        text: &'a str,
        root: SyntaxNode,
        sema: &'a FileSemantics,
        diagnostics: &'a [Diagnostic],
    ) -> Self {
        Cx {
            text,
            root,
            sema,
            diagnostics,
            suggestions: SuggestionBudget::default(),
            names: OnceCell::new(),
            numbered: RefCell::default(),
            refs_at: OnceCell::new(),
            refs_named: OnceCell::new(),
            refs_by_start: OnceCell::new(),
            indent: OnceCell::new(),
            insert_point: OnceCell::new(),
            header_end: OnceCell::new(),
        }
    }

    /// Every name the file defines or mentions.
    fn names(&self) -> &HashSet<&'a str> {
        self.names.get_or_init(|| {
            let sema = self.sema;
            sema.defs
                .iter()
                .map(|d| d.name.as_str())
                .chain(sema.refs.iter().map(|r| r.name.as_str()))
                .collect()
        })
    }

    /// The references called `name`.
    fn refs_named(&self, name: &str) -> impl Iterator<Item = &'a Reference> + '_ {
        let sema = self.sema;
        let named = self.refs_named.get_or_init(|| {
            let mut named: HashMap<&str, Vec<usize>> = HashMap::new();
            for (i, r) in sema.refs.iter().enumerate() {
                named.entry(r.name.as_str()).or_default().push(i);
            }
            named
        });
        named
            .get(name)
            .into_iter()
            .flatten()
            .map(move |&i| &sema.refs[i])
    }

    /// The references inside `range`.
    fn refs_within(&self, range: TextRange) -> impl Iterator<Item = &'a Reference> + '_ {
        let sema = self.sema;
        let sorted = self.refs_by_start.get_or_init(|| {
            let mut sorted: Vec<usize> = (0..sema.refs.len()).collect();
            sorted.sort_by_key(|&i| sema.refs[i].range.start());
            sorted
        });
        let from = sorted.partition_point(|&i| sema.refs[i].range.start() < range.start());
        sorted[from..]
            .iter()
            .map(move |&i| &sema.refs[i])
            .take_while(move |r| r.range.start() <= range.end())
            .filter(move |r| range.contains_range(r.range))
    }

    /// The smallest node covering `range` (the parent of a covered token).
    fn covering_node(&self, range: TextRange) -> Option<SyntaxNode> {
        if !self.root.text_range().contains_range(range) {
            return None;
        }
        match self.root.covering_element(range) {
            NodeOrToken::Node(n) => Some(n),
            NodeOrToken::Token(t) => t.parent(),
        }
    }

    /// The token spanning exactly `range`.
    fn token_at(&self, range: TextRange) -> Option<SyntaxToken> {
        if !self.root.text_range().contains_range(range) || range.is_empty() {
            return None;
        }
        match self.root.covering_element(range) {
            NodeOrToken::Token(t) if t.text_range() == range => Some(t),
            _ => None,
        }
    }

    /// The expression spanning exactly `range`.
    fn expr_at(&self, range: TextRange) -> Option<Expr> {
        self.covering_node(range)?
            .ancestors()
            .take_while(|n| n.text_range() == range)
            .find_map(Expr::cast)
    }

    fn line_start(&self, offset: TextSize) -> TextSize {
        let at = usize::from(offset).min(self.text.len());
        TextSize::from(prose_syntax::lines::line_start(self.text, at) as u32)
    }

    /// The offset after the newline ending the line that holds `offset`
    /// (or the end of the text); an offset at a line start is returned as is.
    fn line_end_after(&self, offset: TextSize) -> TextSize {
        let at = usize::from(offset).min(self.text.len());
        if at == 0 || prose_syntax::lines::line_start(self.text, at) == at {
            return TextSize::from(at as u32);
        }
        let end = prose_syntax::lines::line_end(self.text, at);
        TextSize::from((end + prose_syntax::lines::break_len(&self.text.as_bytes()[end..])) as u32)
    }

    /// The whole lines a node occupies, with the final newline.
    fn lines_of(&self, node: &impl AstNode) -> TextRange {
        let r = node.syntax().text_range();
        TextRange::new(self.line_start(r.start()), self.line_end_after(r.end()))
    }

    /// The indentation unit of the file: the indentation of the first
    /// body under a statement written at the start of a line (two spaces
    /// if there is none, or it is not made of spaces).
    fn indent_unit(&self) -> String {
        self.indent.get_or_init(|| self.find_indent_unit()).clone()
    }

    fn find_indent_unit(&self) -> String {
        let at_line_start = |n: &SyntaxNode| {
            let start = n.text_range().start();
            start == self.line_start(start)
        };
        let unit = self
            .root
            .descendants()
            .filter(|n| matches!(n.kind(), SyntaxKind::BLOCK | SyntaxKind::PROPERTY_BLOCK))
            .filter(|b| b.parent().is_some_and(|p| at_line_start(&p)))
            .find_map(|b| {
                b.children_with_tokens()
                    .filter_map(NodeOrToken::into_token)
                    .find(|t| {
                        t.kind() == SyntaxKind::WHITESPACE
                            && !prose_syntax::lines::has_line_break(t.text())
                            && t.text_range().start() == self.line_start(t.text_range().start())
                    })
                    .map(|t| t.text().to_string())
            });
        match unit {
            Some(u) if u.bytes().all(|b| b == b' ') => u,
            _ => "  ".to_string(),
        }
    }

    /// Where to insert a definition: before the first statement that is
    /// not `use`, `import` or `input`, above the comment lines attached to
    /// it (unless they open the file: a file header stays first).
    fn definitions_insert_point(&self) -> Insert {
        *self
            .insert_point
            .get_or_init(|| self.find_definitions_insert_point())
    }

    fn find_definitions_insert_point(&self) -> Insert {
        let first = ast::SourceFile::cast(self.root.clone()).and_then(|f| {
            f.statements()
                .find(|s| !matches!(s, Stmt::Use(_) | Stmt::Import(_) | Stmt::Input(_)))
        });
        let Some(first) = first else {
            let at = TextSize::of(self.text);
            let before = match (self.text.is_empty(), self.text.ends_with('\n')) {
                (true, _) => "",
                (false, true) if self.text.trim().is_empty() => "",
                (false, true) => "\n",
                (false, false) => "\n\n",
            };
            return Insert::AtEnd { at, before };
        };
        let start = first.syntax().text_range().start();
        let mut at = self.line_start(start);
        if !self.text[TextRange::new(at, start)].trim().is_empty() {
            // Something else shares the line: insert on a line of its own.
            return Insert::AtEnd {
                at: start,
                before: "\n",
            };
        }
        let mut top = at;
        while top > TextSize::from(0) {
            let prev = self.line_start(top - TextSize::from(1));
            if !self.text[TextRange::new(prev, top)]
                .trim_start()
                .starts_with('#')
            {
                break;
            }
            top = prev;
        }
        if top > TextSize::from(0) {
            at = top;
        }
        let blank_before = at > TextSize::from(0) && {
            let prev = self.line_start(at - TextSize::from(1));
            !self.text[TextRange::new(prev, at)].trim().is_empty()
        };
        Insert::Before { at, blank_before }
    }

    /// Sets `persist: true` on an agent: replaces `persist: false`, else
    /// adds a line after its last property (or under its header).
    fn set_persist_true(&self, agent: &ast::AgentDef) -> Option<TextEdit> {
        if let Some(p) = agent.property("persist") {
            let value = p.any_value()?;
            return Some(replace(value.syntax().text_range(), "true"));
        }
        let props: Vec<ast::Property> = agent.properties().collect();
        let (at, indent) = match (props.first(), props.last()) {
            (Some(first), Some(last)) => {
                let start = key_range(first).start();
                let indent = self.text[TextRange::new(self.line_start(start), start)].to_string();
                let end = property_range(last).end();
                let line_end = TextSize::from(prose_syntax::lines::line_end(
                    self.text,
                    usize::from(end),
                ) as u32);
                (line_end, indent)
            }
            _ => {
                let colon = token_of(agent.syntax(), SyntaxKind::COLON)?;
                let start = agent.syntax().text_range().start();
                let outer = self.text[TextRange::new(self.line_start(start), start)].to_string();
                (
                    colon.text_range().end(),
                    format!("{outer}{}", self.indent_unit()),
                )
            }
        };
        if !indent.bytes().all(|b| b == b' ' || b == b'\t') {
            return None;
        }
        Some(insert(at, format!("\n{indent}persist: true")))
    }

    /// Rewrites the indentation of the line holding `offset` in spaces.
    fn detab(&self, offset: TextSize) -> Option<TextEdit> {
        let start = self.line_start(offset);
        let rest = &self.text[usize::from(start)..];
        let len = rest
            .bytes()
            .take_while(|b| matches!(b, b' ' | b'\t' | b'\x0C'))
            .count();
        let lead = &rest[..len];
        if !lead.contains('\t') {
            return None;
        }
        let width = prose_syntax::layout::indent_width(lead) as usize;
        Some(replace(
            TextRange::at(start, TextSize::from(len as u32)),
            " ".repeat(width),
        ))
    }
}

/// Removes one modifier from its `(…)` list with its comma; the whole list
/// (and the space before it) when it is the only one.
fn remove_modifier(cx: &Cx<'_>, m: &ast::Modifier) -> Option<TextEdit> {
    let list = m.syntax().parent().and_then(ast::ModifierList::cast)?;
    if list.modifiers().count() == 1 {
        let r = list.syntax().text_range();
        let before = &cx.text[..usize::from(r.start())];
        let spaces = before.len() - before.trim_end_matches([' ', '\t']).len();
        return Some(delete(TextRange::new(
            r.start() - TextSize::from(spaces as u32),
            r.end(),
        )));
    }
    let r = m.syntax().text_range();
    // Up to the next modifier when one follows, else from the previous one's end.
    let next = m
        .syntax()
        .siblings_with_tokens(prose_syntax::Direction::Next)
        .skip(1)
        .find(|e| e.kind() == SyntaxKind::MODIFIER);
    if let Some(next) = next {
        return Some(delete(TextRange::new(r.start(), next.text_range().start())));
    }
    let prev = m
        .syntax()
        .siblings_with_tokens(prose_syntax::Direction::Prev)
        .skip(1)
        .find(|e| e.kind() == SyntaxKind::MODIFIER)?;
    Some(delete(TextRange::new(prev.text_range().end(), r.end())))
}

/// The first direct child token of `kind`.
fn token_of(node: &SyntaxNode, kind: SyntaxKind) -> Option<SyntaxToken> {
    node.children_with_tokens()
        .filter_map(NodeOrToken::into_token)
        .find(|t| t.kind() == kind)
}
