//! Session expressions: `session`, `resume` and `do`, with the property
//! block that may follow a session header.

use super::{
    body,
    definitions::{property, property_block},
    lists::{arg_list, err_and_bump_item, modifier_list, string},
    name, name_ref,
};
use crate::SyntaxKind::*;
use crate::parser::{CompletedMarker, Output, Parser};

/// Properties after a session / resume header, if an indented block follows.
fn opt_properties(p: &mut Parser<'_, impl Output>) {
    // Only a `name:` line opens a property block. Anything else indented
    // below is not the session's: a continuation line (`  -> session "b"`,
    // `  | map:`) or unexpected indentation, reported as such.
    if p.at(NEWLINE) && p.nth_at(1, INDENT) {
        let k = p.nth(2);
        if (k == IDENT || k.is_keyword()) && p.nth_at(3, COLON) {
            property_block(p);
        }
    }
}

/// `session "prompt"`, `session: agent`, `session name: agent`, `session name:`,
/// each optionally followed by `(modifiers)` and a property block.
pub(super) fn session_expr(p: &mut Parser<'_, impl Output>) -> CompletedMarker {
    let m = p.start();
    p.bump(SESSION_KW);
    match p.current() {
        STRING_OPEN => {
            string(p);
        }
        COLON => {
            p.bump(COLON);
            if p.at_name() {
                name_ref(p);
            } else if !p.at_line_end() {
                err_and_bump_item(p, "an agent name after `session:`");
            }
        }
        _ if p.at_name() && p.nth_at(1, COLON) => {
            name(p);
            p.bump(COLON);
            if p.at_name() {
                name_ref(p);
            }
        }
        _ => {}
    }
    if p.at(L_PAREN) {
        modifier_list(p);
    }
    // `session "Research AI" context: "AI"`: one property on the session's
    // own line (compiler.md, Parallel For-Each, writes it so).
    if p.at_name() && p.nth_at(1, COLON) && !p.line_ended() {
        let b = p.start();
        property(p);
        b.complete(p, PROPERTY_BLOCK);
        return m.complete(p, SESSION_EXPR);
    }
    // `session "x":` before a property block: a stray colon, accepted.
    if p.at(COLON) && p.nth_at(1, NEWLINE) && p.nth_at(2, INDENT) {
        p.bump(COLON);
    }
    opt_properties(p);
    m.complete(p, SESSION_EXPR)
}

pub(super) fn resume_expr(p: &mut Parser<'_, impl Output>) -> CompletedMarker {
    let m = p.start();
    p.bump(RESUME_KW);
    p.bump(COLON);
    if p.at_name() {
        name_ref(p);
    } else {
        p.err_unexpected("an agent name after `resume:`");
    }
    opt_properties(p);
    m.complete(p, RESUME_EXPR)
}

/// `do:` block or `do name(args)`.
pub(super) fn do_expr(p: &mut Parser<'_, impl Output>) -> CompletedMarker {
    let m = p.start();
    p.bump(DO_KW);
    if p.at(COLON) {
        p.bump(COLON);
        body(p, "`do`");
        return m.complete(p, DO_EXPR);
    }
    if p.at_name() {
        name_ref(p);
        if p.at(L_PAREN) {
            arg_list(p);
        }
    } else {
        p.err_unexpected("`:` or a block name after `do`");
    }
    m.complete(p, DO_CALL)
}
