//! The OpenProse grammar, written as recursive descent over layout tokens.
//!
//! It accepts the wider language real programs use (see
//! docs/syntax.md): bare `output expr`, plain-expression conditions,
//! arithmetic, object literals, `return` / `break` / `assert`, inline
//! bodies (`items | map: session "..."`), `session "x" (retry: 3)`,
//! continuation lines starting with `|` or `->`, and legacy
//! `import "x" from "y"`. What is merely unusual is recorded in the tree
//! and left to the validator; only what cannot be understood is a syntax
//! error.
//!
//! By construct: statements, bodies and bindings here;
//! [`definitions`], [`control`] flow, [`expressions`], [`sessions`],
//! and strings and bracketed [`lists`].

mod control;
mod definitions;
mod expressions;
mod lists;
mod sessions;

use self::{
    control::{
        assert_stmt, choice_stmt, if_stmt, keyword_stmt, option_clause, orphan_clause, throw_stmt,
        try_stmt,
    },
    definitions::{
        agent_def, at_property_start, block_def, import_stmt, input_decl, output_decl, property,
        property_block, recover_line, use_stmt,
    },
    expressions::expr,
    lists::{err_and_bump_item, list_sep, unclosed},
};
use super::{CompletedMarker, Output, Parser};
use crate::{SyntaxErrorCode::*, SyntaxKind::*};

pub(super) fn source_file(p: &mut Parser<'_, impl Output>) {
    let m = p.start();
    while !p.at(EOF) {
        if p.at(DEDENT) {
            // Cannot happen with a well-formed layout; stay robust anyway.
            p.bump_any();
            continue;
        }
        statement(p);
    }
    m.complete(p, SOURCE_FILE);
}

/// `:` followed by an indented block (or an inline statement).
fn colon_body(p: &mut Parser<'_, impl Output>, what: &str) {
    colon_body_with(p, what, false);
}

/// Like [`colon_body`], for the clauses whose empty body the validator
/// reports (`if`/`elif`/`else`: P907, `option`: P903, `choice`: P901): a
/// missing or comment-only body is an empty `BLOCK`, not a syntax error.
fn colon_body_may_be_empty(p: &mut Parser<'_, impl Output>, what: &str) {
    colon_body_with(p, what, true);
}

fn colon_body_with(p: &mut Parser<'_, impl Output>, what: &str, empty_ok: bool) {
    if p.at(COLON) {
        p.bump(COLON);
        body_with(p, what, empty_ok);
    } else if !p.at_line_end() && p.ahead_on_line(COLON).is_some() {
        // `if mode equals "fetch":`: one error at the first word that does
        // not fit, then the header's `:` and body as usual.
        p.err_unexpected(&format!("`:` to start the body of {what}"));
        let m = p.start();
        while !p.at(COLON) {
            p.bump_any();
        }
        m.complete(p, ERROR);
        p.bump(COLON);
        body_with(p, what, empty_ok);
    } else {
        p.err_unexpected(&format!("`:` to start the body of {what}"));
        // Keep going if the block is there anyway.
        if p.at(NEWLINE) && p.nth_at(1, INDENT) {
            body(p, what);
        } else {
            finish_line(p);
        }
    }
}

/// An indented body `NEWLINE INDENT statement* DEDENT`, or an inline
/// statement on the same line.
fn body(p: &mut Parser<'_, impl Output>, what: &str) {
    body_with(p, what, false);
}

fn body_with(p: &mut Parser<'_, impl Output>, what: &str, empty_ok: bool) {
    let m = p.start();
    if p.at(NEWLINE) && p.nth_at(1, INDENT) {
        p.bump(NEWLINE);
        p.bump(INDENT);
        if p.enter() {
            while !p.at(DEDENT) && !p.at(EOF) {
                statement(p);
            }
            p.leave();
        } else {
            while !p.at(DEDENT) && !p.at(EOF) {
                p.skip_nested();
                p.eat(NEWLINE);
            }
        }
        p.eat(DEDENT);
    } else if p.at_line_end() {
        if !empty_ok {
            let range = text_size::TextRange::empty(p.prev_range().end());
            p.error(
                E005,
                format!("Expected an indented block for {what}"),
                range,
            );
        }
        p.eat(NEWLINE);
    } else {
        statement(p);
    }
    m.complete(p, BLOCK);
}

/// Ends a simple statement: a NEWLINE, or nothing after a block / at the
/// end of a block or the file. Junk before the end is one error node.
fn finish_line(p: &mut Parser<'_, impl Output>) {
    if p.line_ended() {
        return;
    }
    match p.current() {
        NEWLINE => p.bump(NEWLINE),
        EOF | DEDENT => {}
        INDENT => {}
        _ => {
            p.err_unexpected("end of line");
            let m = p.start();
            while !p.at_line_end() {
                p.bump_any();
            }
            indented_lines(p);
            m.complete(p, ERROR);
            p.eat(NEWLINE);
        }
    }
}

/// The indented lines under the current line, if any: a property block
/// when they start with `name:`, else a block of statements. After a line
/// already reported as wrong they are read this way inside its error node,
/// without an "Unexpected indentation" of their own.
fn indented_lines(p: &mut Parser<'_, impl Output>) {
    if !(p.at(NEWLINE) && p.nth_at(1, INDENT)) {
        return;
    }
    let k = p.nth(2);
    if (k == IDENT || k.is_keyword()) && p.nth_at(3, COLON) {
        property_block(p);
        return;
    }
    let b = p.start();
    p.bump(NEWLINE);
    p.bump(INDENT);
    while !p.at(DEDENT) && !p.at(EOF) {
        statement(p);
    }
    p.eat(DEDENT);
    b.complete(p, BLOCK);
}

pub(super) fn statement(p: &mut Parser<'_, impl Output>) {
    if !p.enter() {
        p.skip_nested();
        p.eat(NEWLINE);
        return;
    }
    statement_inner(p);
    p.leave();
}

fn statement_inner(p: &mut Parser<'_, impl Output>) {
    match p.current() {
        NEWLINE => {
            // An empty logical line cannot happen; be robust.
            p.bump(NEWLINE);
        }
        INDENT => {
            // An indented line nobody asked for: report it, then parse the
            // nested lines as statements so nothing is lost.
            let range = p.current_range();
            let m = p.start();
            p.bump(INDENT);
            let first = p.current_range();
            p.error(
                E005,
                "Unexpected indentation",
                if first.is_empty() { range } else { first },
            );
            while !p.at(DEDENT) && !p.at(EOF) {
                statement(p);
            }
            p.eat(DEDENT);
            m.complete(p, ERROR);
        }
        USE_KW => use_stmt(p),
        IMPORT_KW if p.nth_at(1, STRING_OPEN) => import_stmt(p),
        INPUT_KW if !p.nth_at(1, EQ) => input_decl(p),
        OUTPUT_KW => output_decl(p),
        AGENT_KW if !p.nth_at(1, EQ) => agent_def(p),
        BLOCK_KW if !p.nth_at(1, EQ) => block_def(p),
        LET_KW | CONST_KW => let_stmt(p),
        TRY_KW => {
            try_stmt(p);
        }
        CATCH_KW => orphan_clause(p, CATCH_CLAUSE, "a `catch` clause"),
        FINALLY_KW => orphan_clause(p, FINALLY_CLAUSE, "a `finally` clause"),
        THROW_KW => throw_stmt(p),
        CHOICE_KW => {
            choice_stmt(p);
        }
        OPTION_KW if p.nth_at(1, STRING_OPEN) => option_clause(p),
        IF_KW => {
            if_stmt(p);
        }
        ELIF_KW => orphan_clause(p, ELIF_CLAUSE, "an `elif` clause"),
        ELSE_KW => orphan_clause(p, ELSE_CLAUSE, "an `else` clause"),
        RETURN_KW if !p.nth_at(1, EQ) => keyword_stmt(p, RETURN_STMT),
        BREAK_KW if !p.nth_at(1, EQ) => keyword_stmt(p, BREAK_STMT),
        CONTINUE_KW if !p.nth_at(1, EQ) => keyword_stmt(p, CONTINUE_STMT),
        ASSERT_KW if !p.nth_at(1, EQ) => assert_stmt(p),
        _ if p.at_name() && p.nth_at(1, EQ) => assign_stmt(p),
        IDENT if matches!(p.nth(1), COLON | IDENT | STRING_OPEN) => unknown_statement(p),
        _ => expr_stmt(p),
    }
}

/// The words a statement starts with, for "did you mean" on a misspelt one.
const STATEMENT_KEYWORDS: &[&str] = &[
    "agent", "assert", "block", "catch", "choice", "const", "do", "elif", "else", "finally", "for",
    "if", "import", "input", "let", "loop", "option", "output", "parallel", "repeat", "resume",
    "return", "session", "throw", "try", "use",
];

/// The statement keyword closest to `word`, if it is a likely misspelling.
fn misspelt_keyword(word: &str) -> Option<&'static str> {
    let bound = (word.len() / 3).max(1);
    STATEMENT_KEYWORDS
        .iter()
        .map(|k| (strsim::damerau_levenshtein(word, k), *k))
        .filter(|&(d, k)| d <= bound && d < k.len())
        .min()
        .map(|(_, k)| k)
}

/// A line starting with a word that no statement starts with, followed by
/// something a name never is (`gate deploy:`, `sesion "Review"`,
/// `paralel:`, `prompt: "..."` outside a property block). One error at
/// the word; the rest of the line, and the indented lines under it, are
/// read without errors of their own. Statements in such a block are parsed
/// at the enclosing level, so what they bind stays visible (no cascade of
/// undefined names after a misspelt `parallel:`).
fn unknown_statement(p: &mut Parser<'_, impl Output>) {
    let word = p.current_text();
    let range = p.current_range();
    let m = p.start();
    if let Some(keyword) = misspelt_keyword(word) {
        p.error(
            E004,
            format!("Unknown statement `{word}`: did you mean `{keyword}`?"),
            range,
        );
    } else if p.nth_at(1, COLON) {
        p.error(
            E004,
            format!(
                "Unexpected property `{word}:` outside a property block: indent it under the session or agent it belongs to"
            ),
            range,
        );
        // The lines below that are properties too were misplaced together.
        while at_property_start(p) {
            property(p);
        }
        m.complete(p, ERROR);
        return;
    } else {
        p.error(
            E004,
            format!(
                "Unknown statement `{word}`: a statement starts with a keyword (`session`, `agent`, `let`, `if`, ...) or is an expression"
            ),
            range,
        );
    }
    while !p.at_line_end() {
        p.bump_any();
    }
    let k = p.nth(2);
    if p.at(NEWLINE)
        && p.nth_at(1, INDENT)
        && !((k == IDENT || k.is_keyword()) && p.nth_at(3, COLON))
    {
        p.bump(NEWLINE);
        p.bump(INDENT);
        m.complete(p, ERROR);
        while !p.at(DEDENT) && !p.at(EOF) {
            statement(p);
        }
        p.eat(DEDENT);
        return;
    }
    indented_lines(p);
    p.eat(NEWLINE);
    m.complete(p, ERROR);
}

fn expr_stmt(p: &mut Parser<'_, impl Output>) {
    let m = p.start();
    if expr(p).is_none() {
        // expr() reported; consume the rest of the line.
        recover_line(p);
        p.eat(NEWLINE);
        m.complete(p, EXPR_STMT);
        return;
    }
    finish_line(p);
    m.complete(p, EXPR_STMT);
}

fn name(p: &mut Parser<'_, impl Output>) {
    let m = p.start();
    p.bump_remap(IDENT);
    m.complete(p, NAME);
}

fn name_ref(p: &mut Parser<'_, impl Output>) -> CompletedMarker {
    let m = p.start();
    p.bump_remap(IDENT);
    m.complete(p, NAME_REF)
}

fn opt_name(p: &mut Parser<'_, impl Output>, what: &str) -> bool {
    if p.at_name() {
        name(p);
        true
    } else {
        p.err_unexpected(what);
        false
    }
}

// ---- bindings -------------------------------------------------------------

fn let_stmt(p: &mut Parser<'_, impl Output>) {
    let m = p.start();
    let kind = if p.at(LET_KW) { LET_STMT } else { CONST_STMT };
    p.bump_any();
    if p.at(L_BRACE) {
        destructure(p);
    } else {
        opt_name(p, "a variable name");
    }
    if p.expect(EQ) && expr(p).is_none() {
        recover_line(p);
    }
    finish_line(p);
    m.complete(p, kind);
}

fn destructure(p: &mut Parser<'_, impl Output>) {
    let m = p.start();
    let open = p.current_range();
    p.bump(L_BRACE);
    loop {
        match p.current() {
            R_BRACE => {
                p.bump(R_BRACE);
                break;
            }
            NEWLINE | EOF | DEDENT | INDENT => {
                unclosed(p, open, "{", "}");
                break;
            }
            EQ => {
                p.err_unexpected("`}`");
                break;
            }
            _ if p.at_name() => {
                name(p);
                if !list_sep(p, R_BRACE, EQ, "`,` or `}`") {
                    break;
                }
            }
            _ => err_and_bump_item(p, "a name to destructure"),
        }
    }
    m.complete(p, DESTRUCTURE_PAT);
}

fn assign_stmt(p: &mut Parser<'_, impl Output>) {
    let m = p.start();
    name_ref(p);
    p.bump(EQ);
    if expr(p).is_none() {
        recover_line(p);
    }
    finish_line(p);
    m.complete(p, ASSIGN_STMT);
}
