//! Fixes of control flow and program structure: a `loop:` bounded with
//! `(max: 10)`, a count below 1 made `1`, an empty `throw` message
//! dropped, a repeated import removed, a late input moved to the header,
//! tab indentation made spaces.

use prose_syntax::{
    AstNode, SyntaxKind, TextRange, TextSize,
    ast::{self, Expr, Stmt},
};

use super::{Acc, Cx, Fix, Insert, delete, insert, replace, token_of};
use crate::{features::rename::TextEdit, semantics::DefKind};

// ---- control flow ---------------------------------------------------------------

/// P705: `loop:` gets `(max: 10)`.
pub(super) fn unbounded_loop(cx: &Cx<'_>, acc: &mut Acc<'_>) {
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
pub(super) fn count_to_one(cx: &Cx<'_>, acc: &mut Acc<'_>) {
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
pub(super) fn empty_throw_message(cx: &Cx<'_>, acc: &mut Acc<'_>) {
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
pub(super) fn remove_duplicate_import(cx: &Cx<'_>, acc: &mut Acc<'_>) {
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
pub(super) fn move_input(cx: &Cx<'_>, acc: &mut Acc<'_>) {
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
pub(super) fn tab_indentation(cx: &Cx<'_>, acc: &mut Acc<'_>) {
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
