//! Control flow: `try`/`catch`/`finally`, `throw`, `return`/`break`/
//! `continue`, `assert`, conditions, `choice`/`option`, `if`/`elif`/`else`
//! and clauses without their statement, then the loops and parallel
//! blocks: `parallel`, `for`, `repeat` and `loop`.

use super::{
    colon_body, colon_body_may_be_empty,
    definitions::recover_line,
    expressions::{expr, expr_bp},
    finish_line,
    lists::{modifier_list, string},
    opt_name,
};
use crate::parser::{CompletedMarker, Marker, Output, Parser};
use crate::{SyntaxErrorCode::*, SyntaxKind, SyntaxKind::*};

pub(super) fn try_stmt(p: &mut Parser<'_, impl Output>) -> CompletedMarker {
    let m = p.start();
    p.bump(TRY_KW);
    colon_body(p, "`try`");
    if p.at(CATCH_KW) {
        catch_clause(p);
    }
    if p.at(FINALLY_KW) {
        let f = p.start();
        p.bump(FINALLY_KW);
        colon_body(p, "`finally`");
        f.complete(p, FINALLY_CLAUSE);
    }
    m.complete(p, TRY_STMT)
}

fn catch_clause(p: &mut Parser<'_, impl Output>) {
    let m = p.start();
    p.bump(CATCH_KW);
    if p.eat(AS_KW) {
        opt_name(p, "an error variable name after `as`");
    }
    colon_body(p, "`catch`");
    m.complete(p, CATCH_CLAUSE);
}

/// A clause keyword with no statement to attach to (`else` without `if`).
/// Parsed whole; the validator reports it.
pub(super) fn orphan_clause(p: &mut Parser<'_, impl Output>, kind: SyntaxKind, what: &str) {
    let m = p.start();
    let kw = p.current();
    p.bump_any();
    if kw == CATCH_KW && p.eat(AS_KW) {
        opt_name(p, "an error variable name after `as`");
    } else if kw == ELIF_KW {
        condition(p);
    }
    if matches!(kw, ELIF_KW | ELSE_KW) {
        colon_body_may_be_empty(p, what);
    } else {
        colon_body(p, what);
    }
    m.complete(p, kind);
}

pub(super) fn throw_stmt(p: &mut Parser<'_, impl Output>) {
    let m = p.start();
    p.bump(THROW_KW);
    if !p.at_line_end() && expr(p).is_none() {
        recover_line(p);
    }
    finish_line(p);
    m.complete(p, THROW_STMT);
}

pub(super) fn keyword_stmt(p: &mut Parser<'_, impl Output>, kind: SyntaxKind) {
    let m = p.start();
    p.bump_any();
    if !p.at_line_end() && expr(p).is_none() {
        recover_line(p);
    }
    finish_line(p);
    m.complete(p, kind);
}

/// `assert condition` with an optional `:` body holding the message.
pub(super) fn assert_stmt(p: &mut Parser<'_, impl Output>) {
    let m = p.start();
    p.bump(ASSERT_KW);
    condition(p);
    if p.at(COLON) {
        colon_body(p, "`assert`");
    } else {
        finish_line(p);
    }
    m.complete(p, ASSERT_STMT);
}

/// A condition: a discretion or a plain expression. An empty one is left
/// to the validator when the `:` follows directly.
fn condition(p: &mut Parser<'_, impl Output>) {
    if p.at(COLON) {
        return;
    }
    let saved = p.no_call;
    p.no_call = true;
    if expr_bp(p, 1).is_none() {
        // reported by expr
    }
    p.no_call = saved;
}

pub(super) fn choice_stmt(p: &mut Parser<'_, impl Output>) -> CompletedMarker {
    let m = p.start();
    p.bump(CHOICE_KW);
    condition(p);
    colon_body_may_be_empty(p, "`choice`");
    m.complete(p, CHOICE_STMT)
}

pub(super) fn option_clause(p: &mut Parser<'_, impl Output>) {
    let m = p.start();
    p.bump(OPTION_KW);
    string(p);
    colon_body_may_be_empty(p, "the option");
    m.complete(p, OPTION_CLAUSE);
}

pub(super) fn if_stmt(p: &mut Parser<'_, impl Output>) -> CompletedMarker {
    let m = p.start();
    p.bump(IF_KW);
    condition(p);
    colon_body_may_be_empty(p, "`if`");
    loop {
        match p.current() {
            ELIF_KW => {
                let c = p.start();
                p.bump(ELIF_KW);
                condition(p);
                colon_body_may_be_empty(p, "`elif`");
                c.complete(p, ELIF_CLAUSE);
            }
            ELSE_KW => {
                let c = p.start();
                p.bump(ELSE_KW);
                colon_body_may_be_empty(p, "`else`");
                c.complete(p, ELSE_CLAUSE);
            }
            _ => break,
        }
    }
    m.complete(p, IF_STMT)
}

/// `parallel (mods): body` or `parallel for ...`.
pub(super) fn parallel_expr(p: &mut Parser<'_, impl Output>) -> CompletedMarker {
    let m = p.start();
    p.bump(PARALLEL_KW);
    if p.at(L_PAREN) {
        modifier_list(p);
    }
    if p.at(FOR_KW) {
        return for_expr(p, Some(m));
    }
    colon_body(p, "`parallel`");
    m.complete(p, PARALLEL_EXPR)
}

/// `for item[, i] in collection: body` (optionally after `parallel`).
pub(super) fn for_expr(
    p: &mut Parser<'_, impl Output>,
    started: Option<Marker>,
) -> CompletedMarker {
    let m = started.unwrap_or_else(|| p.start());
    p.bump(FOR_KW);
    if p.at(IN_KW) {
        // `for in xs:`: `in` is a name only where a name is needed.
        let range = text_size::TextRange::empty(p.prev_range().end());
        p.error(E005, "Expected a loop variable name", range);
    } else if opt_name(p, "a loop variable name") && p.eat(COMMA) {
        opt_name(p, "an index variable name");
    }
    if p.expect(IN_KW) {
        if p.at(COLON) {
            let range = text_size::TextRange::empty(p.prev_range().end());
            p.error(E005, "Expected a collection after `in`", range);
            colon_body(p, "`for`");
            return m.complete(p, FOR_EXPR);
        }
        let saved = p.no_call;
        p.no_call = false;
        if expr_bp(p, 1).is_none() {
            recover_to_colon(p);
        }
        p.no_call = saved;
    } else {
        recover_to_colon(p);
    }
    colon_body(p, "`for`");
    m.complete(p, FOR_EXPR)
}

fn recover_to_colon(p: &mut Parser<'_, impl Output>) {
    if p.at(COLON) || p.at_line_end() {
        return;
    }
    let m = p.start();
    while !p.at(COLON) && !p.at_line_end() {
        p.bump_any();
    }
    m.complete(p, ERROR);
}

/// `repeat N [as i]: body`
pub(super) fn repeat_expr(p: &mut Parser<'_, impl Output>) -> CompletedMarker {
    let m = p.start();
    p.bump(REPEAT_KW);
    if p.at(COLON) || p.at(AS_KW) {
        p.err_unexpected("a repeat count");
    } else {
        let saved = p.no_call;
        p.no_call = true;
        if expr_bp(p, 1).is_none() {
            recover_to_colon(p);
        }
        p.no_call = saved;
    }
    if p.eat(AS_KW) {
        opt_name(p, "an index variable name after `as`");
    }
    colon_body(p, "`repeat`");
    m.complete(p, REPEAT_EXPR)
}

/// `loop [until|while condition] [(max: N)] [as i]: body`
pub(super) fn loop_expr(p: &mut Parser<'_, impl Output>) -> CompletedMarker {
    let m = p.start();
    p.bump(LOOP_KW);
    if p.at(UNTIL_KW) || p.at(WHILE_KW) {
        p.bump_any();
        if p.at(COLON) || p.at(L_PAREN) || p.at(AS_KW) {
            // Empty condition: left to the validator.
        } else {
            condition(p);
        }
    }
    if p.at(L_PAREN) {
        modifier_list(p);
    }
    if p.eat(AS_KW) {
        opt_name(p, "an iteration variable name after `as`");
    }
    colon_body(p, "`loop`");
    m.complete(p, LOOP_EXPR)
}
