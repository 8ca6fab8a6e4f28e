//! Expressions: pipelines (`| map:`), arrows (`->`) and continuation
//! lines, binary and ternary operators by precedence climbing, prefix and
//! postfix (calls, member access) expressions, and the primary
//! expressions, which hand the keyword ones to their own modules.

use super::{
    colon_body,
    control::{choice_stmt, for_expr, if_stmt, loop_expr, parallel_expr, repeat_expr, try_stmt},
    definitions::{param_list, recover_line},
    lists::{arg_list, array, object, string, unclosed},
    name_ref,
    sessions::{do_expr, resume_expr, session_expr},
    statement,
};
use crate::parser::{CompletedMarker, Output, Parser};
use crate::{SyntaxErrorCode::*, SyntaxKind, SyntaxKind::*};

/// Parses an expression. Returns `None` (after reporting) when none starts here.
pub(super) fn expr(p: &mut Parser<'_, impl Output>) -> Option<CompletedMarker> {
    if !p.enter() {
        p.skip_nested();
        return None;
    }
    let r = pipe_expr(p);
    p.leave();
    r
}

/// Whether the upcoming tokens continue the current expression on the next
/// line(s): `NEWLINE [INDENT] |` or `NEWLINE [INDENT] ->`.
fn continuation(p: &mut Parser<'_, impl Output>, op: SyntaxKind) -> bool {
    (p.at(NEWLINE) && (p.nth_at(1, op) || p.nth_at(1, INDENT) && p.nth_at(2, op)))
        || (matches!(p.last(), NEWLINE | DEDENT) && (p.at(op) || p.at(INDENT) && p.nth_at(1, op)))
}

/// Consumes the layout tokens before a continuation line; returns whether
/// an INDENT was opened (to be closed by [`close_continuation`]).
fn open_continuation(p: &mut Parser<'_, impl Output>) -> bool {
    p.eat(NEWLINE);
    p.eat(INDENT)
}

fn close_continuation(p: &mut Parser<'_, impl Output>, indents: u32) {
    for _ in 0..indents {
        // The end of the last continuation line (unless a block ended it).
        p.eat(NEWLINE);
        // Lines left over at the continuation's indentation are not part
        // of the expression; keep them, reported.
        while !p.at(DEDENT) && !p.at(EOF) {
            let m = p.start();
            let range = p.current_range();
            p.error(E005, "Unexpected indentation", range);
            statement(p);
            m.complete(p, ERROR);
        }
        p.eat(DEDENT);
    }
}

fn pipe_expr(p: &mut Parser<'_, impl Output>) -> Option<CompletedMarker> {
    let mut lhs = arrow_expr(p)?;
    let mut indents = 0;
    loop {
        if p.at(PIPE) && !p.line_ended() {
            // `items | map: ...` on the same line.
        } else if continuation(p, PIPE) {
            if open_continuation(p) {
                indents += 1;
            }
        } else {
            break;
        }
        let m = lhs.precede(p);
        pipe_op(p);
        lhs = m.complete(p, PIPE_EXPR);
    }
    close_continuation(p, indents);
    Some(lhs)
}

/// `| map: body`, `| reduce(acc, item): body`, or an unknown operator
/// (kept; the validator reports it).
fn pipe_op(p: &mut Parser<'_, impl Output>) {
    let m = p.start();
    p.bump(PIPE);
    if p.at_name() {
        let kw = p.current();
        if matches!(kw, MAP_KW | FILTER_KW | PMAP_KW | REDUCE_KW) {
            p.bump_any();
        } else {
            name_ref(p);
        }
        if p.at(L_PAREN) {
            param_list(p);
        }
        if p.at(COLON) && !matches!(p.nth(1), NEWLINE | EOF | DEDENT | INDENT) {
            inline_pipe_body(p);
        } else {
            colon_body(p, "the pipeline operation");
        }
    } else {
        // A missing or non-name operator is the validator's P801.
        recover_line(p);
    }
    m.complete(p, PIPE_OP);
}

/// `: expr` on the same line as the pipeline operation. The body is one
/// expression without pipes, so that `| filter: session "a" | map: ...`
/// and a following `| map:` line chain onto the pipeline instead of
/// piping the body's result.
fn inline_pipe_body(p: &mut Parser<'_, impl Output>) {
    p.bump(COLON);
    let b = p.start();
    let s = p.start();
    if p.enter() {
        arrow_expr(p);
        p.leave();
    } else {
        p.skip_nested();
    }
    s.complete(p, EXPR_STMT);
    b.complete(p, BLOCK);
}

fn arrow_expr(p: &mut Parser<'_, impl Output>) -> Option<CompletedMarker> {
    let first = expr_bp(p, 1)?;
    let mut indents = 0;
    if !(p.at(ARROW) || continuation(p, ARROW)) {
        return Some(first);
    }
    let m = first.precede(p);
    loop {
        if p.at(ARROW) && !matches!(p.last(), NEWLINE | DEDENT) {
        } else if continuation(p, ARROW) {
            if open_continuation(p) {
                indents += 1;
            }
        } else {
            break;
        }
        p.bump(ARROW);
        if expr_bp(p, 1).is_none() {
            break;
        }
    }
    close_continuation(p, indents);
    Some(m.complete(p, ARROW_EXPR))
}

/// Binding power of the ternary `cond ? a : b` (binds loosest).
const TERNARY_BP: u8 = 1;

fn infix_bp(kind: SyntaxKind) -> Option<u8> {
    Some(match kind {
        OR_KW | PIPE2 => 2,
        AND_KW | AMP2 => 3,
        // `mode is "fetch"`, `mode is not "fetch"`: a comparison written
        // in words, as real conditions do.
        EQ2 | NEQ | LT | LTEQ | GT | GTEQ | IS_KW => 4,
        PLUS | MINUS => 5,
        STAR | SLASH | PERCENT => 6,
        _ => return None,
    })
}

/// Binary operators by precedence climbing over prefix/postfix expressions.
pub(super) fn expr_bp(p: &mut Parser<'_, impl Output>, min_bp: u8) -> Option<CompletedMarker> {
    let mut lhs = prefix_expr(p)?;
    loop {
        if p.line_ended() {
            break;
        }
        let op = p.current();
        if op == QUESTION && min_bp <= TERNARY_BP {
            let m = lhs.precede(p);
            p.bump(QUESTION);
            if !p.enter() {
                p.skip_nested();
                lhs = m.complete(p, TERNARY_EXPR);
                break;
            }
            let then = expr_bp(p, TERNARY_BP + 1);
            if then.is_some() && p.expect(COLON) {
                expr_bp(p, TERNARY_BP);
            }
            p.leave();
            lhs = m.complete(p, TERNARY_EXPR);
            continue;
        }
        let Some(bp) = infix_bp(op) else { break };
        if bp < min_bp {
            break;
        }
        let m = lhs.precede(p);
        p.bump_any();
        if op == IS_KW {
            p.eat(NOT_KW);
        }
        if !p.enter() {
            p.skip_nested();
            lhs = m.complete(p, BINARY_EXPR);
            break;
        }
        let rhs = if p.at(COLON) {
            missing_operand(p);
            None
        } else {
            expr_bp(p, bp + 1)
        };
        p.leave();
        lhs = m.complete(p, BINARY_EXPR);
        if rhs.is_none() {
            break;
        }
    }
    Some(lhs)
}

fn prefix_expr(p: &mut Parser<'_, impl Output>) -> Option<CompletedMarker> {
    if matches!(p.current(), NOT_KW | BANG | MINUS) && !(p.at(NOT_KW) && p.nth_at(1, EQ)) {
        let m = p.start();
        p.bump_any();
        if !p.enter() {
            p.skip_nested();
            return Some(m.complete(p, PREFIX_EXPR));
        }
        if p.at(COLON) {
            missing_operand(p);
        } else {
            expr_bp(p, 3);
        }
        p.leave();
        return Some(m.complete(p, PREFIX_EXPR));
    }
    postfix_expr(p)
}

/// An operator followed by `:`: the `:` ends a header (`if depth <=:`), so
/// the operand is missing; the `:` is left for the header.
fn missing_operand(p: &mut Parser<'_, impl Output>) {
    let range = text_size::TextRange::empty(p.prev_range().end());
    p.error(E005, "Expected an expression", range);
}

fn postfix_expr(p: &mut Parser<'_, impl Output>) -> Option<CompletedMarker> {
    let mut lhs = primary(p)?;
    loop {
        if p.line_ended() {
            break;
        }
        match p.current() {
            DOT if p.nth_is_name(1) => {
                let m = lhs.precede(p);
                p.bump(DOT);
                name_ref(p);
                lhs = m.complete(p, FIELD_EXPR);
            }
            L_PAREN if !p.no_call => {
                let m = lhs.precede(p);
                arg_list(p);
                lhs = m.complete(p, CALL_EXPR);
            }
            L_BRACK => {
                // Indexing `xs[0]`: kept as a call-like postfix on an array.
                let m = lhs.precede(p);
                array(p);
                lhs = m.complete(p, CALL_EXPR);
            }
            _ => break,
        }
    }
    Some(lhs)
}

fn primary(p: &mut Parser<'_, impl Output>) -> Option<CompletedMarker> {
    let cm = match p.current() {
        STRING_OPEN => string(p),
        DISCRETION => {
            let m = p.start();
            p.bump(DISCRETION);
            m.complete(p, DISCRETION_EXPR)
        }
        NUMBER | TRUE_KW | FALSE_KW | NULL_KW => {
            let m = p.start();
            p.bump_any();
            m.complete(p, LITERAL)
        }
        L_BRACK => array(p),
        L_BRACE => object(p),
        L_PAREN => {
            let m = p.start();
            let open = p.current_range();
            p.bump(L_PAREN);
            let saved = p.no_call;
            p.no_call = false;
            expr(p);
            p.no_call = saved;
            if !p.eat(R_PAREN) {
                if p.at_line_end() {
                    unclosed(p, open, "(", ")");
                } else {
                    p.err_unexpected("`)`");
                }
            }
            m.complete(p, PAREN_EXPR)
        }
        ELLIPSIS => {
            let m = p.start();
            p.bump(ELLIPSIS);
            m.complete(p, LITERAL)
        }
        SESSION_KW if !p.nth_at(1, EQ) => session_expr(p),
        RESUME_KW if p.nth_at(1, COLON) => resume_expr(p),
        DO_KW => do_expr(p),
        PARALLEL_KW => parallel_expr(p),
        FOR_KW => for_expr(p, None),
        REPEAT_KW => repeat_expr(p),
        LOOP_KW => loop_expr(p),
        // Compound statements used for their value: `x = try: ...`.
        TRY_KW => {
            return Some(try_stmt(p));
        }
        IF_KW => {
            return Some(if_stmt(p));
        }
        CHOICE_KW => {
            return Some(choice_stmt(p));
        }
        _ if p.at_name() => name_ref(p),
        _ => {
            p.err_and_bump("an expression");
            return None;
        }
    };
    Some(cm)
}
