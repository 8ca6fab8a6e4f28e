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
    openprose::rules::{
        group_agents::{key_range, property_range},
        prelude::did_you_mean,
    },
    openprose::suggestions::SuggestionBudget,
    semantics::{DefKind, FileSemantics, RefKind, Reference, file_semantics},
    vocabulary,
};

mod string_fixes;

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

// ---- words ----------------------------------------------------------------------

/// How a valid value is written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Quoting {
    /// `model: opus`
    Bare,
    /// `parallel ("first")`
    Quoted,
}

impl Quoting {
    fn write(self, word: &str) -> String {
        match self {
            Quoting::Bare => word.to_string(),
            Quoting::Quoted => format!("\"{word}\""),
        }
    }
}

/// `candidates` from nearest to farthest from `written` (case-insensitive):
/// those `written` contains first (`claude-opus-4` is `opus`), then by edit
/// distance, ties in the given order.
fn ranked<'c>(written: &str, candidates: &[&'c str]) -> Vec<&'c str> {
    let lower = written.to_lowercase();
    let mut all: Vec<(usize, usize, usize, &str)> = candidates
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let contains = usize::from(lower.is_empty() || !lower.contains(c));
            (contains, strsim::damerau_levenshtein(&lower, c), i, *c)
        })
        .collect();
    all.sort_unstable();
    all.into_iter().map(|(.., c)| c).collect()
}

/// Whether `candidate` is a confident correction of `written`: contained
/// in it, or as close as a diagnostic's "did you mean" requires.
fn is_close(written: &str, candidate: &str) -> bool {
    let lower = written.to_lowercase();
    !lower.is_empty() && (lower.contains(candidate) || did_you_mean(&lower, &[candidate]).is_some())
}

/// The word an expression spells: a name, a string's text, or the source.
fn written_word(e: &Expr) -> String {
    match e {
        Expr::String(s) => s.value(),
        Expr::NameRef(n) => n.text(),
        other => other.syntax().text().to_string(),
    }
    .trim()
    .to_string()
}

/// Replaces the value at the diagnostic by each valid word, nearest first.
/// A valid word written with the wrong quoting gets just the requoting.
/// Returns whether the diagnostic was on a value.
fn replace_word(cx: &Cx<'_>, acc: &mut Acc<'_>, valid: &[&str], quoting: Quoting) -> bool {
    let Some(value) = cx.expr_at(acc.diag.range) else {
        return false;
    };
    let range = value.syntax().text_range();
    let written = written_word(&value);
    if valid.contains(&written.as_str()) {
        let new = quoting.write(&written);
        let title = match quoting {
            Quoting::Bare => format!("Write `{new}` without quotes"),
            Quoting::Quoted => format!("Quote `{written}`"),
        };
        acc.fix(title, Fix::Safe, vec![replace(range, new)]);
        return true;
    }
    for (i, word) in ranked(&written, valid).into_iter().enumerate() {
        let new = quoting.write(word);
        let preferred = i == 0 && is_close(&written, word);
        acc.fix(
            format!("Change to `{new}`"),
            Fix::correction(preferred, &written, word, valid),
            vec![replace(range, new)],
        );
    }
    true
}

/// E008: the nearest model, or a value for an empty `model:`.
fn invalid_model(cx: &Cx<'_>, acc: &mut Acc<'_>) {
    if !replace_word(cx, acc, vocabulary::MODELS, Quoting::Bare) {
        missing_value(cx, acc, vocabulary::MODELS);
    }
}

/// W009: the nearest permission value. A pattern array is not a misspelt
/// word: nothing replaces it.
fn unknown_permission_value(cx: &Cx<'_>, acc: &mut Acc<'_>) {
    if matches!(
        cx.expr_at(acc.diag.range),
        Some(Expr::NameRef(_) | Expr::String(_))
    ) {
        replace_word(cx, acc, vocabulary::PERMISSION_VALUES, Quoting::Bare);
    }
}

/// `model:` without a value: offers each valid value (none preferred).
fn missing_value(cx: &Cx<'_>, acc: &mut Acc<'_>, valid: &[&str]) {
    let Some(node) = cx.covering_node(acc.diag.range) else {
        return;
    };
    let colon = if let Some(p) = node.ancestors().find_map(ast::Property::cast) {
        if p.any_value().is_some() || p.value_block().is_some() || p.nested().is_some() {
            return;
        }
        token_of(p.syntax(), SyntaxKind::COLON)
    } else if let Some(m) = node.ancestors().find_map(ast::Modifier::cast) {
        if m.value().is_some() {
            return;
        }
        token_of(m.syntax(), SyntaxKind::COLON)
    } else {
        None
    };
    let Some(colon) = colon else { return };
    for word in valid {
        acc.fix(
            format!("Set to `{word}`"),
            Fix::Offered,
            vec![insert(colon.text_range().end(), format!(" {word}"))],
        );
    }
}

// ---- names ----------------------------------------------------------------------

/// The first of `name2`, `name3`, … the file does not use (a trailing
/// number of `name` is replaced: `step1` gives `step2`, `part-1` `part-2`).
fn free_numbered_name(cx: &Cx<'_>, name: &str) -> String {
    let stem = name.trim_end_matches(|c: char| c.is_ascii_digit());
    // An identifier starts with a letter or `_`, so the stem is never empty.
    let stem = if stem.is_empty() { name } else { stem };
    if let Some(free) = cx.numbered.borrow().get(stem) {
        return free.clone();
    }
    let used = cx.names();
    let free = (2..)
        .map(|i| format!("{stem}{i}"))
        .find(|n| !used.contains(n.as_str()))
        .expect("some number is free");
    cx.numbered
        .borrow_mut()
        .insert(stem.to_string(), free.clone());
    free
}

/// E006, P504, E019, E021, E024: renames the later definition.
fn rename_duplicate(cx: &Cx<'_>, acc: &mut Acc<'_>, what: &str) {
    let Some(token) = cx.token_at(acc.diag.range) else {
        return;
    };
    if token.kind() != SyntaxKind::IDENT {
        return;
    }
    let new = free_numbered_name(cx, token.text());
    acc.fix(
        format!("Rename this {what} to `{new}` (its references are not renamed)"),
        Fix::Offered,
        vec![replace(token.text_range(), new)],
    );
}

/// The reference at the diagnostic whose kind passes `kind`.
fn reference_at<'s>(
    cx: &Cx<'s>,
    acc: &Acc<'_>,
    kind: impl Fn(RefKind) -> bool,
) -> Option<&'s Reference> {
    let at = cx.refs_at.get_or_init(|| {
        let mut at: HashMap<TextRange, Vec<usize>> = HashMap::new();
        for (i, r) in cx.sema.refs.iter().enumerate() {
            at.entry(r.range).or_default().push(i);
        }
        at
    });
    at.get(&acc.diag.range)?
        .iter()
        .map(|&i| &cx.sema.refs[i])
        .find(|r| kind(r.kind))
}

/// E007: the nearest defined agent, or a new definition.
fn undefined_agent(cx: &Cx<'_>, acc: &mut Acc<'_>) {
    let Some(r) = nearest_definition(cx, acc, RefKind::Agent, DefKind::Agent) else {
        return;
    };
    let resumed = cx
        .covering_node(r.range)
        .and_then(|n| n.parent())
        .is_some_and(|p| p.kind() == SyntaxKind::RESUME_EXPR);
    let ind = cx.indent_unit();
    let mut def = format!("agent {}:\n{ind}model: sonnet\n", r.name);
    if resumed {
        def.push_str(&format!("{ind}persist: true\n"));
    }
    def.push_str(&format!("{ind}prompt: \"...\"\n"));
    let edit = match cx.definitions_insert_point() {
        Insert::Before { at, blank_before } => {
            let before = if blank_before { "\n" } else { "" };
            insert(at, format!("{before}{def}\n"))
        }
        Insert::AtEnd { at, before } => insert(at, format!("{before}{def}")),
    };
    acc.fix(
        format!("Define agent `{}`", r.name),
        Fix::Offered,
        vec![edit],
    );
}

/// P503 (and E007): the nearest definition of `def_kind` to the
/// `ref_kind` reference at the diagnostic, which it returns.
fn nearest_definition<'s>(
    cx: &Cx<'s>,
    acc: &mut Acc<'_>,
    ref_kind: RefKind,
    def_kind: DefKind,
) -> Option<&'s Reference> {
    let r = reference_at(cx, acc, |k| k == ref_kind)?;
    if cx.suggestions.spend(cx.sema.defs.len()) {
        let names: Vec<&str> = cx
            .sema
            .defs_of(def_kind)
            .map(|(_, d)| d.name.as_str())
            .collect();
        change_to_nearest(cx, acc, r.range, &r.name, &names);
    }
    Some(r)
}

/// P101, P402, P404, P703: the nearest variable visible at the reference.
fn nearest_variable(cx: &Cx<'_>, acc: &mut Acc<'_>) {
    let Some(r) = reference_at(cx, acc, |k| matches!(k, RefKind::Variable(_))) else {
        return;
    };
    if !cx.suggestions.spend(cx.sema.defs.len()) {
        return;
    }
    let runs_later = cx.covering_node(r.range).is_some_and(|n| {
        n.ancestors()
            .any(|a| matches!(a.kind(), SyntaxKind::BLOCK_DEF | SyntaxKind::AGENT_DEF))
    });
    let mut names: Vec<&str> = cx
        .sema
        .defs
        .iter()
        .filter(|d| match d.kind {
            DefKind::Input => true,
            k if k.is_scoped() => d.scope.is_some_and(|s| s.contains_range(r.range)),
            k if k.is_flat_binding() => {
                d.range.start() < r.range.start() || (runs_later && !d.in_block_def)
            }
            _ => false,
        })
        .map(|d| d.name.as_str())
        .filter(|n| *n != r.name)
        .collect();
    names.sort_unstable();
    names.dedup();
    change_to_nearest(cx, acc, r.range, &r.name, &names);
}

/// P201: gives the later import a name of its own.
fn import_alias(cx: &Cx<'_>, acc: &mut Acc<'_>) {
    let Some(u) = cx
        .covering_node(acc.diag.range)
        .and_then(|n| n.ancestors().find_map(ast::UseStmt::cast))
    else {
        return;
    };
    let Some(path) = u.path() else { return };
    let new = import_name(cx, &path.value());
    if let Some(alias) = u.alias() {
        acc.fix(
            format!("Rename alias to `{new}`"),
            Fix::Offered,
            vec![replace(alias.syntax().text_range(), new)],
        );
    } else {
        acc.fix(
            format!("Import as `{new}`"),
            Fix::Safe,
            vec![insert(
                path.syntax().text_range().end(),
                format!(" as {new}"),
            )],
        );
    }
}

/// A free name for a program imported from `path`: `handle-slug` for a
/// registry path (`@bob/research` is `bob-research`), else the slug
/// itself or a numbered one.
fn import_name(cx: &Cx<'_>, path: &str) -> String {
    let used = cx.names();
    let slug = crate::imports::implicit_name(path).unwrap_or_else(|| "program".into());
    let slug: String = slug
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    let slug = if prose_syntax::lexer::is_ident(&slug) {
        slug
    } else {
        format!("p_{slug}")
    };
    if let Some(r) = crate::imports::registry_form(path)
        && let Some((handle, _)) = r[1..].split_once('/')
    {
        let handle: String = handle
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        let joined = format!("{handle}-{slug}");
        if prose_syntax::lexer::is_ident(&joined) && !used.contains(joined.as_str()) {
            return joined;
        }
    }
    if !used.contains(slug.as_str()) {
        return slug;
    }
    free_numbered_name(cx, &slug)
}

// ---- properties -----------------------------------------------------------------

/// W005: the nearest valid key, or the property removed.
fn unknown_property(cx: &Cx<'_>, acc: &mut Acc<'_>) {
    let Some(key) = cx.token_at(acc.diag.range) else {
        return;
    };
    let Some(parent) = key.parent() else { return };
    let key_text = key.text().to_string();
    if let Some(p) = ast::Property::cast(parent.clone()) {
        let Some(block) = p.syntax().parent() else {
            return;
        };
        let valid = match block.parent().map(|o| o.kind()) {
            Some(SyntaxKind::AGENT_DEF) => vocabulary::AGENT_PROPERTIES,
            Some(SyntaxKind::SESSION_EXPR | SyntaxKind::RESUME_EXPR) => {
                vocabulary::SESSION_PROPERTIES
            }
            _ => return,
        };
        let present: Vec<String> = ast::PropertyBlock::cast(block)
            .into_iter()
            .flat_map(|b| b.properties())
            .map(|p| p.key())
            .collect();
        rename_key(acc, &key, valid, &present);
        remove_property(cx, acc, Fix::Offered);
    } else if let Some(m) = ast::Modifier::cast(parent) {
        let Some(list) = m.syntax().parent().and_then(ast::ModifierList::cast) else {
            return;
        };
        let valid = match list.syntax().parent().map(|o| o.kind()) {
            Some(SyntaxKind::SESSION_EXPR) => vocabulary::SESSION_PROPERTIES,
            Some(SyntaxKind::PARALLEL_EXPR | SyntaxKind::FOR_EXPR) => {
                vocabulary::PARALLEL_MODIFIERS
            }
            Some(SyntaxKind::LOOP_EXPR) => vocabulary::LOOP_MODIFIERS,
            _ => return,
        };
        let present: Vec<String> = list.modifiers().filter_map(|m| m.key()).collect();
        rename_key(acc, &key, valid, &present);
        if let Some(edit) = remove_modifier(cx, &m) {
            acc.fix(format!("Remove `{key_text}`"), Fix::Offered, vec![edit]);
        }
    }
}

/// Offers the candidate a diagnostic's "did you mean" would name for
/// `written` as the preferred fix, replacing `range`.
fn change_to_nearest(
    cx: &Cx<'_>,
    acc: &mut Acc<'_>,
    range: TextRange,
    written: &str,
    candidates: &[&str],
) {
    if let Some(near) = cx.suggestions.did_you_mean(written, candidates) {
        acc.fix(
            format!("Change to `{near}`"),
            Fix::correction(true, written, near, candidates),
            vec![replace(range, near)],
        );
    }
}

/// Offers the valid key nearest to `key` that is not already present.
fn rename_key(acc: &mut Acc<'_>, key: &SyntaxToken, valid: &[&str], present: &[String]) {
    let free: Vec<&str> = valid
        .iter()
        .copied()
        .filter(|v| !present.iter().any(|p| p == v))
        .collect();
    let Some(&nearest) = ranked(key.text(), &free).first() else {
        return;
    };
    let close = is_close(key.text(), nearest);
    // A far-off key is a different setting, not a typo: no suggestion.
    if !close
        && strsim::damerau_levenshtein(&key.text().to_lowercase(), nearest) > nearest.len() / 2 + 1
    {
        return;
    }
    acc.fix(
        format!("Change to `{nearest}`"),
        Fix::correction(close, key.text(), nearest, &free),
        vec![replace(key.text_range(), nearest)],
    );
}

/// Deletes the whole property at the diagnostic (its lines, nested lines
/// included).
fn remove_property(cx: &Cx<'_>, acc: &mut Acc<'_>, how: Fix) {
    let Some(p) = cx
        .covering_node(acc.diag.range)
        .and_then(|n| n.ancestors().find_map(ast::Property::cast))
    else {
        return;
    };
    let title = format!("Remove `{}:`", p.key());
    acc.fix(title, how, vec![delete(cx.lines_of(&p))]);
}

/// E009: deletes the repeated property or modifier.
fn remove_duplicate_property(cx: &Cx<'_>, acc: &mut Acc<'_>) {
    let Some(node) = cx.covering_node(acc.diag.range) else {
        return;
    };
    if let Some(m) = node.ancestors().find_map(ast::Modifier::cast) {
        let shown = m.key().unwrap_or_else(|| m.syntax().text().to_string());
        if let Some(edit) = remove_modifier(cx, &m) {
            acc.fix(
                format!("Remove duplicate `{shown}`"),
                Fix::Offered,
                vec![edit],
            );
        }
    } else if let Some(p) = node.ancestors().find_map(ast::Property::cast) {
        acc.fix(
            format!("Remove duplicate `{}:`", p.key()),
            Fix::Offered,
            vec![delete(cx.lines_of(&p))],
        );
    }
}

/// W008: the nearest permission type.
fn unknown_permission_type(cx: &Cx<'_>, acc: &mut Acc<'_>) {
    let Some(key) = cx.token_at(acc.diag.range) else {
        return;
    };
    change_to_nearest(
        cx,
        acc,
        key.text_range(),
        key.text(),
        vocabulary::PERMISSION_TYPES,
    );
}

/// P301: `persist: false` is removed; a misspelt scope is corrected.
fn invalid_persist(cx: &Cx<'_>, acc: &mut Acc<'_>) {
    match cx.expr_at(acc.diag.range) {
        Some(Expr::Literal(l)) if l.token().is_some_and(|t| t.text() == "false") => {
            // `persist: false` is the default.
            remove_property(cx, acc, Fix::Safe);
        }
        Some(Expr::NameRef(n)) => {
            let valid: Vec<&str> = vocabulary::PERSIST_VALUES
                .iter()
                .copied()
                .filter(|v| *v != n.text())
                .collect();
            change_to_nearest(cx, acc, n.syntax().text_range(), &n.text(), &valid);
        }
        _ => {}
    }
}

// ---- agents and invocations ---------------------------------------------------

/// E017: make the agent persistent, or start a fresh session instead.
fn resume_non_persistent(cx: &Cx<'_>, acc: &mut Acc<'_>) {
    let Some(name) = cx.token_at(acc.diag.range) else {
        return;
    };
    if let Some((_, def)) = cx.sema.find(DefKind::Agent, name.text())
        && let Some(agent) = cx.covering_node(def.range).and_then(|n| {
            n.ancestors()
                .take_while(|a| a.text_range() == def.range)
                .find_map(ast::AgentDef::cast)
        })
        && let Some(edit) = cx.set_persist_true(&agent)
    {
        // Confident when the agent already ran: `resume:` then continues it.
        let ran_before = cx.refs_named(name.text()).any(|r| {
            r.kind == RefKind::Agent
                && r.range.start() < acc.diag.range.start()
                && cx
                    .covering_node(r.range)
                    .and_then(|n| n.parent())
                    .is_some_and(|p| p.kind() == SyntaxKind::SESSION_EXPR)
        });
        acc.fix(
            format!("Add `persist: true` to agent `{}`", name.text()),
            Fix::preferred_if(ran_before),
            vec![edit],
        );
    }
    switch_invocation(cx, acc, SyntaxKind::RESUME_KW, "session", Fix::Offered);
}

/// E018, W011: `resume:` becomes `session:` or the other way round.
fn switch_invocation(cx: &Cx<'_>, acc: &mut Acc<'_>, from: SyntaxKind, to: &str, how: Fix) {
    let Some(node) = cx.covering_node(acc.diag.range) else {
        return;
    };
    let Some(invocation) = node
        .ancestors()
        .find(|n| matches!(n.kind(), SyntaxKind::SESSION_EXPR | SyntaxKind::RESUME_EXPR))
    else {
        return;
    };
    let Some(keyword) = token_of(&invocation, from) else {
        return;
    };
    if from == SyntaxKind::SESSION_KW {
        // Only the `session: agent` form has a `resume:` counterpart.
        let s = ast::SessionExpr::cast(invocation.clone());
        if s.is_none_or(|s| s.name().is_some() || s.prompt().is_some() || s.modifiers().is_some()) {
            return;
        }
    }
    acc.fix(
        format!("Change `{}:` to `{to}:`", keyword.text()),
        how,
        vec![replace(keyword.text_range(), to)],
    );
}

// ---- control flow ---------------------------------------------------------------

/// P705: `loop:` gets `(max: 10)`.
fn unbounded_loop(cx: &Cx<'_>, acc: &mut Acc<'_>) {
    let Some(l) = cx
        .covering_node(acc.diag.range)
        .and_then(|n| n.ancestors().find_map(ast::LoopExpr::cast))
    else {
        return;
    };
    let edit = match l.modifiers() {
        Some(list) => {
            let Some(open) = token_of(list.syntax(), SyntaxKind::L_PAREN) else {
                return;
            };
            let sep = if list.modifiers().next().is_some() {
                ", "
            } else {
                ""
            };
            insert(open.text_range().end(), format!("max: 10{sep}"))
        }
        None => {
            let Some(kw) = l.keyword() else { return };
            insert(kw.text_range().end(), " (max: 10)")
        }
    };
    // Ten is a guess: preferred, not safe.
    acc.fix("Add `max: 10` iterations", Fix::Preferred, vec![edit]);
}

/// P604, P701, P706, P807: a count below 1 becomes `1`.
fn count_to_one(cx: &Cx<'_>, acc: &mut Acc<'_>) {
    fn int(e: &Expr) -> Option<i64> {
        match e {
            Expr::Literal(l) => l.as_integer(),
            Expr::Prefix(p) if p.op_token().is_some_and(|t| t.kind() == SyntaxKind::MINUS) => {
                p.operand().as_ref().and_then(int).map(|n| -n)
            }
            Expr::Paren(p) => p.expr().as_ref().and_then(int),
            _ => None,
        }
    }
    let Some(value) = cx.expr_at(acc.diag.range) else {
        return;
    };
    if int(&value).is_some_and(|n| n < 1) {
        acc.fix(
            "Change to `1`",
            Fix::Preferred,
            vec![replace(value.syntax().text_range(), "1")],
        );
    }
}

/// P806: `throw ""` becomes a bare `throw`.
fn empty_throw_message(cx: &Cx<'_>, acc: &mut Acc<'_>) {
    let Some(t) = cx
        .covering_node(acc.diag.range)
        .and_then(|n| n.ancestors().find_map(ast::ThrowStmt::cast))
    else {
        return;
    };
    let (Some(kw), Some(msg)) = (t.keyword(), t.message()) else {
        return;
    };
    // A bare `throw` rethrows the error being handled: not the same.
    acc.fix(
        "Remove the empty message",
        Fix::Preferred,
        vec![delete(TextRange::new(
            kw.text_range().end(),
            msg.syntax().text_range().end(),
        ))],
    );
}

// ---- program structure ----------------------------------------------------------

/// E010: deletes the repeated `use`.
fn remove_duplicate_import(cx: &Cx<'_>, acc: &mut Acc<'_>) {
    let Some(u) = cx
        .covering_node(acc.diag.range)
        .and_then(|n| n.ancestors().find_map(ast::UseStmt::cast))
    else {
        return;
    };
    // An alias of its own may be used below: removing it is then a choice.
    let preferred = u.alias().is_none();
    acc.fix(
        "Remove duplicate import",
        Fix::safe_if(preferred),
        vec![delete(cx.lines_of(&u))],
    );
}

/// E022: moves a top-level input to the program's header.
fn move_input(cx: &Cx<'_>, acc: &mut Acc<'_>) {
    let Some(input) = cx
        .covering_node(acc.diag.range)
        .and_then(|n| n.ancestors().find_map(ast::InputDecl::cast))
    else {
        return;
    };
    if input
        .syntax()
        .parent()
        .is_none_or(|p| p.kind() != SyntaxKind::SOURCE_FILE)
    {
        return; // Inside a body: moving it out changes when it is asked for.
    }
    let range = input.syntax().text_range();
    // A question that shows results of earlier steps (`{draft}`) must stay
    // after them.
    let shows_results = cx.refs_within(range).any(|r| {
        r.target
            .is_none_or(|t| cx.sema.def(t).kind != DefKind::Input)
    });
    if shows_results {
        return;
    }
    let mut line = cx.text[range].trim_end().to_string();
    line.push('\n');
    let header_end = *cx.header_end.get_or_init(|| {
        ast::SourceFile::cast(cx.root.clone())
            .into_iter()
            .flat_map(|f| f.statements())
            .take_while(|s| matches!(s, Stmt::Use(_) | Stmt::Import(_) | Stmt::Input(_)))
            .last()
            .map(|last| last.syntax().text_range().end())
    });
    let insert = match header_end {
        Some(last) => {
            let at = cx.line_end_after(last);
            let before = if at == TextSize::of(cx.text) && !cx.text.ends_with('\n') {
                "\n"
            } else {
                ""
            };
            insert(at, format!("{before}{line}"))
        }
        None => match cx.definitions_insert_point() {
            Insert::Before { at, .. } => insert(at, format!("{line}\n")),
            Insert::AtEnd { .. } => return,
        },
    };
    let name = input.name().map(|n| n.text()).unwrap_or_default();
    // The run asks for the input earlier: a choice, not preferred.
    acc.fix(
        format!("Move input `{name}` to the top"),
        Fix::Offered,
        vec![insert, delete(cx.lines_of(&input))],
    );
}

/// P001: indentation in spaces, same width (a tab advances to the next
/// multiple of 4 columns, as the layout pass counts it). Also offers the
/// same for every tab-indented line of the file.
fn tab_indentation(cx: &Cx<'_>, acc: &mut Acc<'_>) {
    let Some(edit) = cx.detab(acc.diag.range.start()) else {
        return;
    };
    acc.fix("Indent with spaces", Fix::Safe, vec![edit]);
    let all: Vec<TextEdit> = cx
        .diagnostics
        .iter()
        .filter(|d| d.code.as_str() == "P001")
        .filter_map(|d| cx.detab(d.range.start()))
        .collect();
    if all.len() > 1 {
        acc.fix(
            "Indent every line of the file with spaces",
            Fix::Offered,
            all,
        );
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

#[cfg(test)]
mod tests {
    use expect_test::{Expect, expect};

    use super::{CodeAction, TextEdit};
    use crate::{AnalysisHost, FileId, FileRange, TextRange, fixture::Fixture};

    /// The actions at the fixture's cursor (or selection).
    fn actions(fixture: &str) -> (AnalysisHost, FileId, Vec<CodeAction>) {
        let (host, range, actions) = actions_in(fixture);
        (host, range.file, actions)
    }

    fn actions_in(fixture: &str) -> (AnalysisHost, FileRange, Vec<CodeAction>) {
        let f = Fixture::parse(fixture);
        let (host, range) = if f.markers.len() == 2 {
            f.selection()
        } else {
            let (host, pos) = f.position();
            let range = FileRange {
                file: pos.file,
                range: TextRange::empty(pos.offset),
            };
            (host, range)
        };
        let actions = host.analysis().code_actions(range).unwrap();
        (host, range, actions)
    }

    /// Applies edits made against `text` (sorted, non-overlapping).
    fn apply_edits(text: &str, edits: &[TextEdit]) -> String {
        let mut edits = edits.to_vec();
        edits.sort_by_key(|e| e.range.start());
        let mut out = String::new();
        let mut pos = 0;
        for e in edits {
            let (start, end) = (usize::from(e.range.start()), usize::from(e.range.end()));
            assert!(start >= pos, "overlapping edits");
            out.push_str(&text[pos..start]);
            out.push_str(&e.new_text);
            pos = end;
        }
        out.push_str(&text[pos..]);
        out
    }

    /// One line per action: `E008 Change to `opus``, `*` marking the
    /// preferred one and `+` the preferred one that is also safe; then
    /// `W009 (no fix)` for each diagnostic in range that has none.
    fn check_list(fixture: &str, expect: Expect) {
        let (host, range, actions) = actions_in(fixture);
        let diagnostics = host.analysis().diagnostics(range.file).unwrap();
        let unfixed = diagnostics
            .iter()
            .filter(|d| d.range.intersect(range.range).is_some())
            .filter(|d| !actions.iter().any(|a| a.diagnostic_range == Some(d.range)))
            .map(|d| format!("{} (no fix)\n", d.code.as_str()));
        let out: String = actions
            .iter()
            .map(|a| {
                format!(
                    "{}{} {}\n",
                    match (a.is_preferred, a.is_safe) {
                        (true, true) => "+ ",
                        (true, false) => "* ",
                        _ => "",
                    },
                    a.diagnostic_code.unwrap_or("-"),
                    a.title
                )
            })
            .chain(unfixed)
            .collect();
        expect.assert_eq(&out);
    }

    /// Applies the action titled `title`, checks that its diagnostic is
    /// gone, and shows the edited text followed by the diagnostics left.
    pub(super) fn check_fix(fixture: &str, title: &str, expect: Expect) {
        let (mut host, file, actions) = actions(fixture);
        let Some(action) = actions.iter().find(|a| a.title == title) else {
            let titles: Vec<&str> = actions.iter().map(|a| a.title.as_str()).collect();
            panic!("no action `{title}`; offered: {titles:?}");
        };
        let code = action.diagnostic_code.expect("a quick fix names its code");
        let analysis = host.analysis();
        let count =
            |diags: &[crate::Diagnostic]| diags.iter().filter(|d| d.code.as_str() == code).count();
        let before = count(&analysis.diagnostics(file).unwrap());
        let path = analysis.file_path(file).unwrap();
        let mut text = analysis.file_text(file).unwrap();
        drop(analysis);
        for (f, edits) in &action.edit.edits {
            assert_eq!(*f, file, "fixes edit the file they fix");
            text = apply_edits(&text, edits);
        }
        host.set_file_text(&path, text.clone());
        let diags = host.analysis().diagnostics(file).unwrap();
        assert!(
            count(&diags) < before,
            "{code} still reported after `{title}`:\n{text}"
        );
        let mut out = text;
        if !diags.is_empty() {
            out.push_str("--- still reported\n");
            for d in &diags {
                out.push_str(&format!("{} {}\n", d.code.as_str(), d.message));
            }
        }
        expect.assert_eq(&out);
    }

    #[test]
    fn invalid_model_offers_every_model_nearest_first() {
        check_list(
            r#"
agent a:
  model: opsu$0
  prompt: "p"
"#,
            expect![[r#"
                + E008 Change to `opus`
                E008 Change to `haiku`
                E008 Change to `sonnet`
            "#]],
        );
        check_fix(
            r#"
agent a:
  model: opsu$0
  prompt: "p"
"#,
            "Change to `opus`",
            expect![[r#"

                agent a:
                  model: opus
                  prompt: "p"
            "#]],
        );
        check_fix(
            r#"session "s" (model: claude-$0haiku)
"#,
            "Change to `haiku`",
            expect![[r#"
                session "s" (model: haiku)
            "#]],
        );
    }

    #[test]
    fn invalid_model_far_off_or_missing_is_not_preferred() {
        check_list(
            r#"
agent a:
  model: gpt$0
"#,
            expect![[r#"
                E008 Change to `opus`
                E008 Change to `sonnet`
                E008 Change to `haiku`
            "#]],
        );
        check_list(
            r#"
agent a:
  mod$0el:
  prompt: "p"
"#,
            expect![[r#"
                E008 Set to `sonnet`
                E008 Set to `opus`
                E008 Set to `haiku`
            "#]],
        );
        check_fix(
            r#"
agent a:
  mod$0el:
  prompt: "p"
"#,
            "Set to `haiku`",
            expect![[r#"

                agent a:
                  model: haiku
                  prompt: "p"
            "#]],
        );
    }

    #[test]
    fn quoted_model_is_unquoted_under_strict() {
        check_fix(
            r#"
#- /ws/prose.toml
profile = "strict"
#- /ws/main.prose
agent a:
  model: "op$0us"
  prompt: "p"
"#,
            "Write `opus` without quotes",
            expect![[r#"
                agent a:
                  model: opus
                  prompt: "p"
            "#]],
        );
    }

    #[test]
    fn undefined_agent_nearest_name() {
        check_list(
            r#"
agent writer:
  model: sonnet
  prompt: "w"
session: writr$0
"#,
            expect![[r#"
                + E007 Change to `writer`
                E007 Define agent `writr`
            "#]],
        );
        check_fix(
            r#"
agent writer:
  model: sonnet
  prompt: "w"
session: writr$0
"#,
            "Change to `writer`",
            expect![[r#"

                agent writer:
                  model: sonnet
                  prompt: "w"
                session: writer
            "#]],
        );
    }

    #[test]
    fn undefined_agent_defined_after_imports_and_inputs() {
        check_fix(
            r#"# A program.

use "@alice/research"
input topic: "t"

# The first step.
session: editor$0
"#,
            "Define agent `editor`",
            expect![[r##"
                # A program.

                use "@alice/research"
                input topic: "t"

                agent editor:
                  model: sonnet
                  prompt: "..."

                # The first step.
                session: editor
                --- still reported
                P204 Program `@alice/research` is not available locally; its inputs and outputs are not checked (looked for .prose/imports/alice--research/program.prose)
            "##]],
        );
    }

    #[test]
    fn undefined_agent_defined_before_other_agents_with_their_indentation() {
        check_fix(
            r#"agent writer:
    model: sonnet
    prompt: "w"
let draft = session: writer
resume: critic$0
"#,
            "Define agent `critic`",
            expect![[r#"
                agent critic:
                    model: sonnet
                    persist: true
                    prompt: "..."

                agent writer:
                    model: sonnet
                    prompt: "w"
                let draft = session: writer
                resume: critic
                --- still reported
                E018 No memory file exists for agent; use `session:` for first invocation: `critic` has `persist: true` (memory of this run only) and is not invoked before this point
            "#]],
        );
    }

    #[test]
    fn undefined_agent_in_a_file_without_final_newline() {
        check_fix(
            r#"input x: "x"
session: a$0"#,
            "Define agent `a`",
            expect![[r#"
    input x: "x"

    agent a:
      model: sonnet
      prompt: "..."

    session: a"#]],
        );
    }

    #[test]
    fn unknown_property_nearest_and_remove() {
        check_list(
            r#"
agent a:
  model: sonnet
  promt$0: "p"
"#,
            expect![[r#"
                + W005 Change to `prompt`
                W005 Remove `promt:`
            "#]],
        );
        check_fix(
            r#"
agent a:
  model: sonnet
  promt$0: "p"
"#,
            "Change to `prompt`",
            expect![[r#"

                agent a:
                  model: sonnet
                  prompt: "p"
            "#]],
        );
        check_fix(
            r#"
agent a:
  model: sonnet
  prompt: "p"
  timeout$0: 30
"#,
            "Remove `timeout:`",
            expect![[r#"

                agent a:
                  model: sonnet
                  prompt: "p"
            "#]],
        );
    }

    #[test]
    fn unknown_property_skips_keys_already_present() {
        // `model` is taken: renaming would only trade W005 for E009.
        check_list(
            r#"
session "s"
  model: opus
  modle$0: haiku
"#,
            expect![[r#"
                W005 Remove `modle:`
            "#]],
        );
    }

    #[test]
    fn unknown_modifier_nearest_and_remove() {
        check_fix(
            r#"loop (maks$0: 3):
  session "s"
"#,
            "Change to `max`",
            expect![[r#"
                loop (max: 3):
                  session "s"
            "#]],
        );
        check_fix(
            r#"parallel ("any", on-fial$0: "continue", count: 1):
  a = session "a"
  b = session "b"
"#,
            "Remove `on-fial`",
            expect![[r#"
                parallel ("any", count: 1):
                  a = session "a"
                  b = session "b"
            "#]],
        );
    }

    #[test]
    fn unbounded_loop_gets_a_max() {
        check_fix(
            r#"loop$0:
  session "s"
"#,
            "Add `max: 10` iterations",
            expect![[r#"
                loop (max: 10):
                  session "s"
            "#]],
        );
        check_fix(
            r#"loop$0 as i:
  session "s {i}"
"#,
            "Add `max: 10` iterations",
            expect![[r#"
                loop (max: 10) as i:
                  session "s {i}"
            "#]],
        );
    }

    #[test]
    fn import_alias_from_handle_and_slug() {
        check_fix(
            r#"use "@alice/research"
use "@bob/research$0"
"#,
            "Import as `bob-research`",
            expect![[r#"
                use "@alice/research"
                use "@bob/research" as bob-research
                --- still reported
                P204 Program `@alice/research` is not available locally; its inputs and outputs are not checked (looked for .prose/imports/alice--research/program.prose)
                P204 Program `@bob/research` is not available locally; its inputs and outputs are not checked (looked for .prose/imports/bob--research/program.prose)
            "#]],
        );
        check_fix(
            r#"use "./a/helper.prose" as h
use "./b/helper.prose" as h$0
"#,
            "Rename alias to `helper`",
            expect![[r#"
                use "./a/helper.prose" as h
                use "./b/helper.prose" as helper
                --- still reported
                P204 Program `./a/helper.prose` is not available locally; its inputs and outputs are not checked
                P204 Program `./b/helper.prose` is not available locally; its inputs and outputs are not checked
            "#]],
        );
    }

    #[test]
    fn duplicates_rename_the_later_definition() {
        check_fix(
            r#"agent a:
  model: sonnet
  prompt: "1"
agent a$0:
  model: opus
  prompt: "2"
agent a2:
  model: haiku
  prompt: "3"
"#,
            "Rename this agent to `a3` (its references are not renamed)",
            expect![[r#"
                agent a:
                  model: sonnet
                  prompt: "1"
                agent a3:
                  model: opus
                  prompt: "2"
                agent a2:
                  model: haiku
                  prompt: "3"
            "#]],
        );
        check_fix(
            r#"block step1:
  session "a"
block step1$0:
  session "b"
do step1
"#,
            "Rename this block to `step2` (its references are not renamed)",
            expect![[r#"
                block step1:
                  session "a"
                block step2:
                  session "b"
                do step1
            "#]],
        );
        check_fix(
            r#"let x = session "a"
let x$0 = session "b"
"#,
            "Rename this variable to `x2` (its references are not renamed)",
            expect![[r#"
                let x = session "a"
                let x2 = session "b"
            "#]],
        );
        check_fix(
            r#"let part-1 = session "a"
let part-1$0 = session "b"
"#,
            "Rename this variable to `part-2` (its references are not renamed)",
            expect![[r#"
                let part-1 = session "a"
                let part-2 = session "b"
            "#]],
        );
        check_fix(
            r#"input topic: "a"
input topic$0: "b"
"#,
            "Rename this input to `topic2` (its references are not renamed)",
            expect![[r#"
                input topic: "a"
                input topic2: "b"
            "#]],
        );
        check_fix(
            r#"output result = session "a"
output result$0 = session "b"
"#,
            "Rename this output to `result2` (its references are not renamed)",
            expect![[r#"
                output result = session "a"
                output result2 = session "b"
            "#]],
        );
    }

    #[test]
    fn empty_skills_are_removed() {
        check_fix(
            r#"agent a:
  model: sonnet
  skills: [$0]
  prompt: "p"
"#,
            "Remove `skills:`",
            expect![[r#"
                agent a:
                  model: sonnet
                  prompt: "p"
            "#]],
        );
    }

    #[test]
    fn word_valued_settings_get_the_nearest_word() {
        check_fix(
            r#"session "s"
  retry: 2
  backoff: expo$0nential-ish
"#,
            "Change to `exponential`",
            expect![[r#"
                session "s"
                  retry: 2
                  backoff: exponential
            "#]],
        );
        check_list(
            r#"parallel ("frist"$0, on-fail: "contniue"):
  a = session "a"
  b = session "b"
"#,
            expect![[r#"
                + P601 Change to `"first"`
                P601 Change to `"all"`
                P601 Change to `"any"`
            "#]],
        );
        check_fix(
            r#"parallel ("first", on-fail: "contniue"$0):
  a = session "a"
  b = session "b"
"#,
            r#"Change to `"continue"`"#,
            expect![[r#"
                parallel ("first", on-fail: "continue"):
                  a = session "a"
                  b = session "b"
            "#]],
        );
        check_fix(
            r#"agent a:
  model: sonnet
  prompt: "p"
  permissions:
    bash: dney$0
"#,
            "Change to `deny`",
            expect![[r#"
                agent a:
                  model: sonnet
                  prompt: "p"
                  permissions:
                    bash: deny
            "#]],
        );
        check_fix(
            r#"agent a:
  model: sonnet
  prompt: "p"
  permissions:
    bahs$0: deny
"#,
            "Change to `bash`",
            expect![[r#"
                agent a:
                  model: sonnet
                  prompt: "p"
                  permissions:
                    bash: deny
            "#]],
        );
    }

    #[test]
    fn non_positive_counts_become_one() {
        check_fix(
            r#"parallel ("any", count: 0$0):
  a = session "a"
  b = session "b"
"#,
            "Change to `1`",
            expect![[r#"
                parallel ("any", count: 1):
                  a = session "a"
                  b = session "b"
            "#]],
        );
        check_fix(
            r#"loop until **done** (max: -$02):
  session "s"
"#,
            "Change to `1`",
            expect![[r#"
                loop until **done** (max: 1):
                  session "s"
                --- still reported
                P709 Discretion condition may be ambiguous: `done` is a single word
            "#]],
        );
        check_fix(
            r#"repeat 0$0:
  session "s"
"#,
            "Change to `1`",
            expect![[r#"
                repeat 1:
                  session "s"
            "#]],
        );
        check_fix(
            r#"session "s"
  retry: 0$0
"#,
            "Change to `1`",
            expect![[r#"
                session "s"
                  retry: 1
            "#]],
        );
    }

    #[test]
    fn resume_of_a_non_persistent_agent() {
        check_list(
            r#"agent captain:
  model: opus
  prompt: "lead"
resume: captain$0
"#,
            expect![[r#"
                E017 Add `persist: true` to agent `captain`
                E017 Change `resume:` to `session:`
            "#]],
        );
        check_fix(
            r#"agent captain:
  model: opus
  prompt: "lead"
resume: captain$0
"#,
            "Change `resume:` to `session:`",
            expect![[r#"
                agent captain:
                  model: opus
                  prompt: "lead"
                session: captain
            "#]],
        );
        check_list(
            r#"agent captain:
  model: opus
  prompt: "lead"
  persist: false
session: captain
resume: captain$0
"#,
            expect![[r#"
                * E017 Add `persist: true` to agent `captain`
                E017 Change `resume:` to `session:`
            "#]],
        );
        check_fix(
            r#"agent captain:
  model: opus
  prompt: "lead"
  persist: false
session: captain
resume: captain$0
"#,
            "Add `persist: true` to agent `captain`",
            expect![[r#"
                agent captain:
                  model: opus
                  prompt: "lead"
                  persist: true
                session: captain
                resume: captain
            "#]],
        );
        check_fix(
            r#"agent captain:
  model: opus
  prompt: """
    You lead.
  """
session: captain
resume: captain$0
"#,
            "Add `persist: true` to agent `captain`",
            expect![[r#"
                agent captain:
                  model: opus
                  prompt: """
                    You lead.
                  """
                  persist: true
                session: captain
                resume: captain
            "#]],
        );
    }

    #[test]
    fn resume_without_memory_and_session_ignoring_memory() {
        check_fix(
            r#"agent captain:
  model: opus
  persist: true
  prompt: "lead"
resume: captain$0
"#,
            "Change `resume:` to `session:`",
            expect![[r#"
                agent captain:
                  model: opus
                  persist: true
                  prompt: "lead"
                session: captain
            "#]],
        );
        check_fix(
            r#"#- /ws/.prose/agents/captain/memory.md
#- /ws/main.prose
agent captain:
  model: opus
  persist: project
  prompt: "lead"
session: captain$0
"#,
            "Change `session:` to `resume:`",
            expect![[r#"
                agent captain:
                  model: opus
                  persist: project
                  prompt: "lead"
                resume: captain
            "#]],
        );
    }

    #[test]
    fn empty_throw_message_is_dropped() {
        check_fix(
            r#"try:
  session "s"
catch:
  throw ""$0
"#,
            "Remove the empty message",
            expect![[r#"
                try:
                  session "s"
                catch:
                  throw
            "#]],
        );
    }

    #[test]
    fn tabs_become_spaces_of_the_same_width() {
        check_list(
            "agent a:\n\t$0model: sonnet\n\tprompt: \"p\"\n",
            expect![[r#"
                + P001 Indent with spaces
                P001 Indent every line of the file with spaces
            "#]],
        );
        check_fix(
            "agent a:\n\t$0model: sonnet\n\tprompt: \"p\"\n",
            "Indent with spaces",
            expect![[r#"
                agent a:
                    model: sonnet
                	prompt: "p"
                --- still reported
                P001 Tab in indentation; indent with spaces
            "#]],
        );
        check_fix(
            "agent a:\n\t$0model: sonnet\n  \tprompt: \"p\"\n",
            "Indent every line of the file with spaces",
            expect![[r#"
                agent a:
                    model: sonnet
                    prompt: "p"
            "#]],
        );
    }

    #[test]
    fn duplicate_property_and_import_are_removed() {
        check_fix(
            r#"agent a:
  model: sonnet
  prompt: "p"
  model$0: opus
"#,
            "Remove duplicate `model:`",
            expect![[r#"
                agent a:
                  model: sonnet
                  prompt: "p"
            "#]],
        );
        check_fix(
            r#"session "s" (retry: 2, retry$0: 3)
"#,
            "Remove duplicate `retry`",
            expect![[r#"
                session "s" (retry: 2)
            "#]],
        );
        check_fix(
            r#"use "@alice/research"
use "alice/research"$0
"#,
            "Remove duplicate import",
            expect![[r#"
                use "@alice/research"
                --- still reported
                P204 Program `@alice/research` is not available locally; its inputs and outputs are not checked (looked for .prose/imports/alice--research/program.prose)
            "#]],
        );
    }

    #[test]
    fn late_input_moves_to_the_header() {
        check_fix(
            r#"use "@alice/research"
input topic: "t"

session "first {topic}"
input de$0pth: "how deep"
session "second {depth}"
"#,
            "Move input `depth` to the top",
            expect![[r#"
                use "@alice/research"
                input topic: "t"
                input depth: "how deep"

                session "first {topic}"
                session "second {depth}"
                --- still reported
                P204 Program `@alice/research` is not available locally; its inputs and outputs are not checked (looked for .prose/imports/alice--research/program.prose)
            "#]],
        );
        check_fix(
            r#"# Title

session "first"
input de$0pth: "how deep"
"#,
            "Move input `depth` to the top",
            expect![[r##"
                # Title

                input depth: "how deep"

                session "first"
            "##]],
        );
    }

    #[test]
    fn late_input_showing_earlier_results_stays() {
        check_list(
            r#"let draft = session "d"
input appr$0oval: "Approve {draft}?"
"#,
            expect![[r#"
                E022 (no fix)
            "#]],
        );
    }

    #[test]
    fn pattern_array_is_not_replaced_by_a_word() {
        check_list(
            r#"#- /ws/prose.toml
profile = "strict"
#- /ws/main.prose
agent a:
  model: sonnet
  prompt: "p"
  permissions:
    network: ["*"]$0
"#,
            expect![[r#"
                W009 (no fix)
            "#]],
        );
    }

    #[test]
    fn undefined_names_get_the_nearest_visible_one() {
        check_fix(
            r#"let draft = session "d"
session "s"
  context: draf$0
"#,
            "Change to `draft`",
            expect![[r#"
                let draft = session "d"
                session "s"
                  context: draft
            "#]],
        );
        check_fix(
            r#"let draft = session "d"
let b = dratf$0
"#,
            "Change to `draft`",
            expect![[r#"
                let draft = session "d"
                let b = draft
            "#]],
        );
        check_fix(
            r#"block review(doc):
  session "review {dco$0}"
do review("x")
"#,
            "Change to `doc`",
            expect![[r#"
                block review(doc):
                  session "review {doc}"
                do review("x")
            "#]],
        );
        check_fix(
            r#"block review:
  session "r"
do reveiw$0
"#,
            "Change to `review`",
            expect![[r#"
                block review:
                  session "r"
                do review
            "#]],
        );
        // A variable bound only later is not a suggestion.
        check_list(
            r#"session "s"
  context: draf$0
let draft = session "d"
"#,
            expect![[r#"
                P404 (no fix)
            "#]],
        );
    }

    #[test]
    fn persist_and_agent_retry() {
        check_fix(
            r#"agent a:
  model: sonnet
  persist: false$0
  prompt: "p"
"#,
            "Remove `persist:`",
            expect![[r#"
                agent a:
                  model: sonnet
                  prompt: "p"
            "#]],
        );
        check_fix(
            r#"agent a:
  model: sonnet
  persist: projetc$0
  prompt: "p"
"#,
            "Change to `project`",
            expect![[r#"
                agent a:
                  model: sonnet
                  persist: project
                  prompt: "p"
            "#]],
        );
        check_fix(
            r#"agent a:
  model: sonnet
  prompt: "p"
  retry$0: 3
"#,
            "Remove `retry:`",
            expect![[r#"
                agent a:
                  model: sonnet
                  prompt: "p"
            "#]],
        );
    }

    #[test]
    fn selection_collects_the_fixes_of_every_diagnostic_in_it() {
        check_list(
            r#"$0agent a:
  model: opsu
  promt: "p"
session: b
session: b
loop:
  session: a
$0"#,
            expect![[r#"
                + E008 Change to `opus`
                E008 Change to `haiku`
                E008 Change to `sonnet`
                + W005 Change to `prompt`
                W005 Remove `promt:`
                * E007 Change to `a`
                E007 Define agent `b`
                * E007 Change to `a`
                * P705 Add `max: 10` iterations
            "#]],
        );
    }

    #[test]
    fn only_an_obvious_correction_is_safe() {
        use super::obvious;
        let models = crate::vocabulary::MODELS;
        assert!(obvious("opsu", "opus", models));
        assert!(obvious("claude-opus-4", "opus", models));
        assert!(obvious("captian", "captain", &["captain", "crew"]));
        // One letter off in a one-letter name is a guess.
        assert!(!obvious("b", "a", &["a"]));
        // As is a tie.
        assert!(!obvious("cat", "bat", &["bat", "hat"]));
        assert!(!obvious("claude-opus-sonnet", "opus", models));
        check_list(
            r#"agent a:
  model: opus
session: b$0
"#,
            expect![[r#"
                * E007 Change to `a`
                E007 Define agent `b`
            "#]],
        );
    }

    #[test]
    fn nothing_to_fix_or_broken_input() {
        for fixture in [
            "$0",
            "agent a:\n  model: opus\n  prompt: \"p\"\nsession: a$0",
            "session \"unterminated$0",
            "agent $0:\n  model:\n",
            "parallel (\"any\", count: $0):\n  session \"a\"\n",
            "loop (max: 3$0\n",
            "use \"\"$0 as\n",
            "input$0\n",
            "throw \"\"$0",
        ] {
            let (_, _, actions) = actions(fixture);
            for a in &actions {
                assert!(a.diagnostic_code.is_some(), "{fixture:?}: {a:?}");
            }
        }
        check_list(
            "agent a:\n  model: opus\n  prompt: \"p\"\nsession: a$0",
            expect![[""]],
        );
    }
}
