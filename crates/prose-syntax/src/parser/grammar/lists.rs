//! String literals and bracketed lists: arrays, objects, call argument
//! lists and `(key: value)` modifier lists, with the shared recovery for
//! a missing separator or closer.

use super::{expressions::expr, name, name_ref};
use crate::parser::{CompletedMarker, Output, Parser};
use crate::{SyntaxErrorCode::*, SyntaxKind, SyntaxKind::*};

/// A string literal: open quote, pieces, close quote (missing when unterminated).
pub(super) fn string(p: &mut Parser<'_, impl Output>) -> CompletedMarker {
    let m = p.start();
    p.bump(STRING_OPEN);
    loop {
        match p.current() {
            STRING_TEXT | STRING_ESCAPE => p.bump_any(),
            INTERP_OPEN => {
                let i = p.start();
                p.bump(INTERP_OPEN);
                if p.at(IDENT) {
                    name_ref(p);
                }
                while p.at(DOT) && p.nth_at(1, IDENT) {
                    p.bump(DOT);
                    p.bump(IDENT);
                }
                p.eat(INTERP_CLOSE);
                i.complete(p, INTERPOLATION);
            }
            STRING_CLOSE => {
                p.bump(STRING_CLOSE);
                break;
            }
            _ => break,
        }
    }
    m.complete(p, STRING)
}

/// Like [`Parser::err_and_bump`], but a misplaced string is reported and
/// wrapped whole (a string is several tokens).
pub(super) fn err_and_bump_item(p: &mut Parser<'_, impl Output>, expected: &str) {
    if !p.at(STRING_OPEN) {
        p.err_and_bump(expected);
        return;
    }
    let m = p.start();
    let start = p.current_range().start();
    string(p);
    let range = text_size::TextRange::new(start, p.prev_range().end());
    p.error(
        E004,
        format!("Unexpected string: expected {expected}"),
        range,
    );
    m.complete(p, ERROR);
}

/// A bracketed list reached the end of its line without its closer.
pub(super) fn unclosed(
    p: &mut Parser<'_, impl Output>,
    open: text_size::TextRange,
    bracket: &str,
    closer: &str,
) {
    p.error(
        E005,
        format!("Unclosed `{bracket}`: expected `{closer}`"),
        open,
    );
}

/// After an item of a bracketed list: eats the `,` separator. A `stop`
/// token (the `:` of a header, the `=` after a pattern) means the closer
/// is missing: reported, left for the enclosing construct, returns false.
/// Other junk is reported and skipped.
pub(super) fn list_sep(
    p: &mut Parser<'_, impl Output>,
    closer: SyntaxKind,
    stop: SyntaxKind,
    expected: &str,
) -> bool {
    if p.at(closer) || p.eat(COMMA) || p.at_line_end() {
        return true;
    }
    if p.at(stop) {
        p.err_unexpected(expected);
        return false;
    }
    p.err_and_bump(expected);
    true
}

pub(super) fn array(p: &mut Parser<'_, impl Output>) -> CompletedMarker {
    let m = p.start();
    let open = p.current_range();
    p.bump(L_BRACK);
    let saved = p.no_call;
    p.no_call = false;
    loop {
        match p.current() {
            R_BRACK => {
                p.bump(R_BRACK);
                break;
            }
            NEWLINE | EOF | DEDENT | INDENT => {
                unclosed(p, open, "[", "]");
                break;
            }
            COMMA => p.err_and_bump("an array element"),
            COLON => {
                p.err_unexpected("`]`");
                break;
            }
            _ => {
                if expr(p).is_none() {
                    continue;
                }
                if !list_sep(p, R_BRACK, COLON, "`,` or `]`") {
                    break;
                }
            }
        }
    }
    p.no_call = saved;
    m.complete(p, ARRAY_EXPR)
}

/// `{ a, b }` (object context shorthand) or `{ key: value, ... }`.
pub(super) fn object(p: &mut Parser<'_, impl Output>) -> CompletedMarker {
    let m = p.start();
    let open = p.current_range();
    p.bump(L_BRACE);
    let saved = p.no_call;
    p.no_call = false;
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
            _ if p.at_name() || p.at(STRING_OPEN) => {
                let f = p.start();
                if p.at(STRING_OPEN) {
                    string(p);
                } else if p.nth_at(1, COLON) {
                    name(p);
                } else {
                    // `{ source, access.token }`: a shorthand may be a
                    // dotted path (its last name is the field's key).
                    let mut path = name_ref(p);
                    while p.at(DOT) && p.nth_is_name(1) {
                        let m = path.precede(p);
                        p.bump(DOT);
                        name_ref(p);
                        path = m.complete(p, FIELD_EXPR);
                    }
                }
                if p.eat(COLON) && expr(p).is_none() {
                    // reported
                }
                f.complete(p, OBJECT_FIELD);
                if !p.at(R_BRACE) && !p.eat(COMMA) && !p.at_line_end() {
                    p.err_and_bump("`,` or `}`");
                }
            }
            _ => p.err_and_bump("a field name"),
        }
    }
    p.no_call = saved;
    m.complete(p, OBJECT_EXPR)
}

pub(super) fn arg_list(p: &mut Parser<'_, impl Output>) {
    let m = p.start();
    let open = p.current_range();
    p.bump(L_PAREN);
    let saved = p.no_call;
    p.no_call = false;
    loop {
        match p.current() {
            R_PAREN => {
                p.bump(R_PAREN);
                break;
            }
            NEWLINE | EOF | DEDENT | INDENT => {
                unclosed(p, open, "(", ")");
                break;
            }
            COMMA => p.err_and_bump("an argument"),
            COLON => {
                p.err_unexpected("`)`");
                break;
            }
            _ => {
                let a = p.start();
                if p.at_name() && p.nth_at(1, COLON) {
                    name(p);
                    p.bump(COLON);
                }
                let ok = expr(p).is_some();
                a.complete(p, ARG);
                if !ok {
                    continue;
                }
                if !list_sep(p, R_PAREN, COLON, "`,` or `)`") {
                    break;
                }
            }
        }
    }
    p.no_call = saved;
    m.complete(p, ARG_LIST);
}

/// `( item, key: value, ... )` after `parallel`, `loop`, a session, ...
pub(super) fn modifier_list(p: &mut Parser<'_, impl Output>) {
    let m = p.start();
    let open = p.current_range();
    p.bump(L_PAREN);
    let saved = p.no_call;
    p.no_call = false;
    loop {
        match p.current() {
            R_PAREN => {
                p.bump(R_PAREN);
                break;
            }
            NEWLINE | EOF | DEDENT | INDENT => {
                unclosed(p, open, "(", ")");
                break;
            }
            COMMA => p.err_and_bump("a modifier"),
            COLON => {
                p.err_unexpected("`)`");
                break;
            }
            _ => {
                let a = p.start();
                let k = p.current();
                if (k == IDENT || k.is_keyword()) && p.nth_at(1, COLON) {
                    p.bump_remap(IDENT);
                    p.bump(COLON);
                }
                let ok = expr(p).is_some();
                a.complete(p, MODIFIER);
                if !ok {
                    continue;
                }
                if !list_sep(p, R_PAREN, COLON, "`,` or `)`") {
                    break;
                }
            }
        }
    }
    p.no_call = saved;
    m.complete(p, MODIFIER_LIST);
}
