//! Hover: what the thing under the cursor is, in Markdown.
//!
//! - a keyword (`session`, `loop`, `catch`, ...), the `|` and `->`
//!   operators or a discretion condition `**...**`: the construct's syntax,
//!   what it does and a tiny example;
//! - a property key (`model:`, `persist:`, `retry:`, `read:`, `on-fail:`,
//!   ...) and well-known values (`opus`, `project`, `exponential`, `deny`,
//!   `"first"`, ...): what they mean where they stand;
//! - a name: what it is bound to. Agents show their model, memory scope and
//!   prompt; blocks their parameters; imported programs their inputs and
//!   outputs; variables their kind and defining line (inputs also their
//!   description). Comment lines directly above a definition are shown as
//!   its documentation;
//! - a diagnostic under the cursor: its code, message and the first
//!   paragraph of its documentation (appended after the symbol, if any),
//!   then where the whole page is: `prose explain CODE`, and a link to it
//!   when `docs-url` is configured.
//!
//! The keyword and property texts live in tables that completion reuses
//! ([`keyword_docs`], [`property_docs`], [`value_docs`]).
//!
//! Layout: this file holds the entry points, the hovers of tokens
//! (keywords, words, strings, discretion conditions), the diagnostics
//! appended to every language's hover and small text helpers;
//! [`definitions`] the hovers of names, [`docs`] the docs tables.

mod definitions;
mod docs;
#[cfg(test)]
mod tests;

use prose_syntax::{
    AstNode, SyntaxKind, SyntaxNode, SyntaxToken, TextRange, TextSize,
    ast::{self, Expr},
};

use crate::{
    config::Config,
    db::{Db, SourceFile, Workspace, parse},
    diagnostics::{Diagnostic, file_config, file_diagnostics, rule},
    semantics::{DefId, DefKind, FileSemantics, file_semantics},
};
pub(crate) use definitions::{called_program, resolve_use_path};
use definitions::{def_hover, program_argument_hover};
use docs::property_context;
pub(crate) use docs::{PropertyContext, keyword_docs, property_docs, value_docs};

/// The hover text for a position and the range it describes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HoverResult {
    pub range: TextRange,
    pub markdown: String,
}

pub(crate) fn hover(
    db: &dyn Db,
    ws: Workspace,
    file: SourceFile,
    offset: TextSize,
) -> Option<HoverResult> {
    let root = parse(db, file).syntax_node();
    if offset > root.text_range().end() {
        return None;
    }
    let cx = Cx {
        db,
        ws,
        file,
        text: file.text(db),
        root: root.clone(),
        sema: file_semantics(db, file),
    };
    let token = pick_token(&root, offset);
    let symbol = token.as_ref().and_then(|t| symbol_hover(&cx, t));
    let token_range = token.as_ref().map(|t| t.text_range());
    with_diagnostics(db, ws, file, offset, token_range, symbol)
}

/// A hover of any language: what `symbol` says about the thing under the
/// cursor (its range and Markdown), followed by the diagnostics there (at
/// `offset`, or overlapping `token_range`, the word under the cursor):
/// each one's code, message and the first paragraph of its page. `None`
/// when there is neither.
pub(crate) fn with_diagnostics(
    db: &dyn Db,
    ws: Workspace,
    file: SourceFile,
    offset: TextSize,
    token_range: Option<TextRange>,
    symbol: Option<(TextRange, String)>,
) -> Option<HoverResult> {
    let mut diags: Vec<&Diagnostic> = file_diagnostics(db, file, Some(ws))
        .iter()
        .filter(|d| {
            d.range.contains(offset)
                || (d.range.is_empty() && d.range.start() == offset)
                || token_range
                    .and_then(|r| r.intersect(d.range))
                    .is_some_and(|r| !r.is_empty())
        })
        .collect();
    diags.dedup_by(|a, b| a.code == b.code && a.message == b.message);

    let (range, mut markdown) = match (symbol, diags.first()) {
        (Some(s), _) => s,
        (None, Some(d)) => (d.range, String::new()),
        (None, None) => return None,
    };
    let config = file_config(db, file, Some(ws));
    append_diagnostics(&mut markdown, &diags, &config);
    Some(HoverResult { range, markdown })
}

/// More diagnostics than this at one spot are left to the problems list.
const MAX_DIAGNOSTICS: usize = 3;

/// Appends the explanation of each diagnostic of `diags` (the first
/// [`MAX_DIAGNOSTICS`]) to a hover's `markdown`, after a rule: its code,
/// message, the first paragraph of its page and where the page is. The
/// same for every language.
pub(crate) fn append_diagnostics(markdown: &mut String, diags: &[&Diagnostic], config: &Config) {
    for d in diags.iter().take(MAX_DIAGNOSTICS) {
        if !markdown.is_empty() {
            markdown.push_str("\n\n---\n\n");
        }
        let page = config.docs_url_for(d.code.as_str());
        markdown.push_str(&explain_diagnostic(d, page.as_deref()));
    }
}

/// What the hover needs to know about the file.
struct Cx<'a> {
    db: &'a dyn Db,
    ws: Workspace,
    file: SourceFile,
    text: &'a str,
    root: SyntaxNode,
    sema: &'a FileSemantics,
}

/// The most interesting token at `offset`: names and words over keywords,
/// keywords over punctuation, anything over whitespace (between two tokens,
/// the right one wins a tie).
pub(crate) fn pick_token(root: &SyntaxNode, offset: TextSize) -> Option<SyntaxToken> {
    if offset > root.text_range().end() {
        return None;
    }
    root.token_at_offset(offset).max_by_key(|t| {
        let k = t.kind();
        match k {
            SyntaxKind::IDENT
            | SyntaxKind::NUMBER
            | SyntaxKind::DISCRETION
            | SyntaxKind::STRING_TEXT
            | SyntaxKind::STRING_ESCAPE => 4,
            _ if k.is_keyword() => 3,
            SyntaxKind::STRING_OPEN
            | SyntaxKind::STRING_CLOSE
            | SyntaxKind::INTERP_OPEN
            | SyntaxKind::INTERP_CLOSE => 2,
            SyntaxKind::WHITESPACE | SyntaxKind::COMMENT | SyntaxKind::NEWLINE => 0,
            _ => 1,
        }
    })
}

fn symbol_hover(cx: &Cx<'_>, token: &SyntaxToken) -> Option<(TextRange, String)> {
    let parent = token.parent()?;
    let range = token.text_range();
    match token.kind() {
        SyntaxKind::IDENT => ident_hover(cx, token, &parent),
        SyntaxKind::DISCRETION => Some((range, discretion_hover(&parent))),
        SyntaxKind::STRING_OPEN
        | SyntaxKind::STRING_TEXT
        | SyntaxKind::STRING_CLOSE
        | SyntaxKind::STRING_ESCAPE => string_hover(cx, &parent),
        SyntaxKind::PIPE => Some((range, keyword_docs("|")?.to_string())),
        SyntaxKind::ARROW => Some((range, keyword_docs("->")?.to_string())),
        k if k.is_keyword() => {
            if let Some(docs) = property_value_docs(token) {
                return Some((range, docs.to_string()));
            }
            let word = if k == SyntaxKind::PARALLEL_KW && parent.kind() == SyntaxKind::FOR_EXPR {
                "parallel for"
            } else {
                token.text()
            };
            Some((range, keyword_docs(word)?.to_string()))
        }
        _ => None,
    }
}

fn ident_hover(
    cx: &Cx<'_>,
    token: &SyntaxToken,
    parent: &SyntaxNode,
) -> Option<(TextRange, String)> {
    let range = token.text_range();
    match parent.kind() {
        SyntaxKind::NAME | SyntaxKind::NAME_REF => {
            let prange = parent.text_range();
            if let Some(r) = cx.sema.refs.iter().find(|r| r.range == prange) {
                return r.target.map(|t| (range, def_hover(cx, t, false)));
            }
            // Definitions; an assignment's target is a NAME_REF.
            if let Some(i) = cx
                .sema
                .defs
                .iter()
                .position(|d| d.name_range == prange && d.kind != DefKind::PipelineItem)
            {
                return Some((range, def_hover(cx, DefId(i as u32), true)));
            }
            if parent.kind() == SyntaxKind::NAME {
                program_argument_hover(cx, parent).map(|md| (range, md))
            } else {
                property_value_docs(token).map(|d| (range, d.to_string()))
            }
        }
        SyntaxKind::PROPERTY if parent.first_token().as_ref() == Some(token) => {
            let ctx = property_context(parent)?;
            Some((range, property_docs(ctx, token.text())?.to_string()))
        }
        SyntaxKind::MODIFIER => {
            let m = ast::Modifier::cast(parent.clone())?;
            if m.key_token().as_ref() != Some(token) {
                return None;
            }
            let ctx = property_context(parent)?;
            Some((range, property_docs(ctx, token.text())?.to_string()))
        }
        _ => None,
    }
}

/// A string: an import path (the program or skill it binds), or a
/// well-known value (`"first"`, `on-fail: "continue"`, `persist: "project"`).
fn string_hover(cx: &Cx<'_>, string: &SyntaxNode) -> Option<(TextRange, String)> {
    let lit = ast::StringLit::cast(string.clone())?;
    let range = string.text_range();
    let parent = string.parent()?;
    match parent.kind() {
        SyntaxKind::USE_STMT | SyntaxKind::IMPORT_STMT => {
            let stmt = parent.text_range();
            let (i, _) = cx.sema.defs.iter().enumerate().find(|(_, d)| {
                d.range == stmt && matches!(d.kind, DefKind::Program | DefKind::Skill)
            })?;
            Some((range, def_hover(cx, DefId(i as u32), true)))
        }
        SyntaxKind::MODIFIER => {
            let m = ast::Modifier::cast(parent)?;
            let key = m.key().unwrap_or_else(|| "join".to_string());
            Some((range, value_docs(&key, &lit.value())?.to_string()))
        }
        SyntaxKind::PROPERTY => {
            let key = ast::Property::cast(parent)?.key();
            Some((range, value_docs(&key, &lit.value())?.to_string()))
        }
        _ => None,
    }
}

/// Docs for a word written as a property value (`model: opus`, `persist: true`).
fn property_value_docs(token: &SyntaxToken) -> Option<&'static str> {
    let prop = token
        .parent_ancestors()
        .take_while(|n| n.kind() != SyntaxKind::PROPERTY_BLOCK)
        .find_map(ast::Property::cast)?;
    // Only the value itself, not a word inside an array or object.
    let value = prop.any_value()?;
    if value.syntax().text_range() != token.text_range() {
        return None;
    }
    value_docs(&prop.key(), token.text())
}

fn discretion_hover(expr: &SyntaxNode) -> String {
    let general = keyword_docs("**").unwrap_or_default();
    let role = expr.parent().and_then(|parent| match parent.kind() {
        SyntaxKind::IF_STMT | SyntaxKind::ELIF_CLAUSE => {
            Some("Here: the branch runs when the VM judges this condition true.")
        }
        SyntaxKind::LOOP_EXPR => match ast::LoopExpr::cast(parent).map(|l| l.loop_kind()) {
            Some(ast::LoopKind::While) => {
                Some("Here: the loop goes on while the VM judges this condition true.")
            }
            _ => Some("Here: the loop stops as soon as the VM judges this condition met."),
        },
        SyntaxKind::CHOICE_STMT => {
            Some("Here: the VM runs the one `option` that best fits this criterion.")
        }
        SyntaxKind::INPUT_DECL => {
            Some("Here: the description of an input, for whoever supplies it.")
        }
        _ => None,
    });
    match role {
        Some(role) => format!("{general}\n\n{role}"),
        None => general.to_string(),
    }
}

// ---- diagnostics -----------------------------------------------------------------

/// A diagnostic's code, message and the first paragraph of its docs, then
/// where its whole page is (`page`: its address under `docs-url`).
pub(crate) fn explain_diagnostic(d: &Diagnostic, page: Option<&str>) -> String {
    let mut out = format!(
        "**{} {}** `{}`: {}",
        d.severity.as_str(),
        d.code.as_str(),
        d.name,
        d.message
    );
    if let Some(rule) = rule(d.code.as_str()) {
        let docs = rule.docs();
        if let Some(para) = first_paragraph(&docs) {
            out.push_str("\n\n");
            out.push_str(&para);
        }
        let code = d.code.as_str();
        out.push_str(&match page {
            Some(url) => format!("\n\n*More: [{code}]({url}), or `prose explain {code}`*"),
            None => format!("\n\n*More: `prose explain {code}`*"),
        });
    }
    out
}

/// The first paragraph of a docs page that is not a heading.
fn first_paragraph(docs: &str) -> Option<String> {
    let mut lines = docs
        .lines()
        .skip_while(|l| l.trim().is_empty() || l.starts_with('#'))
        .take_while(|l| !l.trim().is_empty())
        .peekable();
    lines.peek()?;
    Some(lines.collect::<Vec<_>>().join("\n"))
}

// ---- small helpers ----------------------------------------------------------------

pub(crate) use prose_syntax::ast::node_spanning as node_at;

/// The 1-based line of `offset`.
pub(crate) fn line_number(text: &str, offset: TextSize) -> usize {
    let end = usize::from(offset).min(text.len());
    prose_syntax::lines::count_breaks(&text[..end]) + 1
}

/// The first line of `range`'s text, shortened.
fn first_line(text: &str, range: TextRange) -> String {
    let s = text
        .get(usize::from(range.start())..usize::from(range.end()))
        .unwrap_or("");
    let line = prose_syntax::lines::lines(s)
        .next()
        .unwrap_or("")
        .trim_end();
    excerpt(line, 100)
}

/// `text` with whitespace runs collapsed, cut to about `max` characters.
pub(crate) fn excerpt(text: &str, max: usize) -> String {
    let collapsed = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed.chars().count() <= max {
        return collapsed;
    }
    let mut cut: String = collapsed.chars().take(max).collect();
    if let Some(space) = cut.rfind(' ')
        && space > max / 2
    {
        cut.truncate(space);
    }
    cut.push('…');
    cut
}

/// The text of a simple value: a word, or a string's content.
fn word_value(e: &Expr) -> String {
    match e {
        Expr::String(s) => s.value(),
        other => other.syntax().text().to_string(),
    }
}

fn code_block(out: &mut String, code: &str) {
    out.push_str("```prose\n");
    out.push_str(code);
    out.push_str("\n```\n\n");
}

/// `# ...` lines directly above the line where `start` begins a statement,
/// as Markdown (the comment markers removed).
pub(crate) fn leading_comments(text: &str, start: TextSize) -> Option<String> {
    let start = usize::from(start).min(text.len());
    let line_start = prose_syntax::lines::line_start(text, start);
    if !text[line_start..start].trim().is_empty() {
        return None;
    }
    let mut lines = Vec::new();
    let above: Vec<&str> = prose_syntax::lines::lines(&text[..line_start]).collect();
    for line in above.into_iter().rev() {
        let Some(comment) = line.trim_start().strip_prefix('#') else {
            break;
        };
        lines.push(comment.strip_prefix(' ').unwrap_or(comment).trim_end());
        if lines.len() == 12 {
            break;
        }
    }
    if lines.iter().all(|l| l.trim().is_empty()) {
        return None;
    }
    lines.reverse();
    Some(lines.join("\n"))
}
