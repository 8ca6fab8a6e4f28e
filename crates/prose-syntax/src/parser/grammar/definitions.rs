//! Definitions and program composition: `use`, `import`, `input` and
//! `output` declarations, `agent` and `block` definitions with their
//! parameter lists, and property blocks (`name: value` lines).

use super::{
    colon_body,
    expressions::expr,
    finish_line, indented_lines,
    lists::{err_and_bump_item, list_sep, modifier_list, string, unclosed},
    name, opt_name, statement,
};
use crate::parser::{Output, Parser};
use crate::{SyntaxErrorCode::*, SyntaxKind::*};

pub(super) fn use_stmt(p: &mut Parser<'_, impl Output>) {
    let m = p.start();
    p.bump(USE_KW);
    if p.at(STRING_OPEN) {
        string(p);
    } else {
        p.err_and_bump("a program path string, e.g. \"@handle/slug\"");
    }
    if p.eat(AS_KW) {
        opt_name(p, "an alias name after `as`");
    }
    finish_line(p);
    m.complete(p, USE_STMT);
}

pub(super) fn import_stmt(p: &mut Parser<'_, impl Output>) {
    let m = p.start();
    p.bump(IMPORT_KW);
    string(p);
    if p.eat(FROM_KW) {
        if p.at(STRING_OPEN) {
            string(p);
        } else {
            p.err_and_bump("a source string after `from`");
        }
    } else {
        p.err_unexpected("`from` and a source string");
    }
    finish_line(p);
    m.complete(p, IMPORT_STMT);
}

/// `input name: "description"`; a missing name is left to the validator (E020).
pub(super) fn input_decl(p: &mut Parser<'_, impl Output>) {
    let m = p.start();
    p.bump(INPUT_KW);
    if p.at_name() {
        name(p);
    }
    if p.expect(COLON) && expr(p).is_none() {
        recover_line(p);
    }
    finish_line(p);
    m.complete(p, INPUT_DECL);
}

/// `output name = expr`, `output = expr` (E023 in the validator) or the bare
/// `output expr` real programs use as a block's return value.
pub(super) fn output_decl(p: &mut Parser<'_, impl Output>) {
    let m = p.start();
    p.bump(OUTPUT_KW);
    if p.at_name() && p.nth_at(1, EQ) {
        name(p);
        p.bump(EQ);
    } else if p.at(EQ) {
        p.bump(EQ);
    }
    if expr(p).is_none() {
        recover_line(p);
    }
    finish_line(p);
    m.complete(p, OUTPUT_DECL);
}

pub(super) fn recover_line(p: &mut Parser<'_, impl Output>) {
    if p.at_line_end() {
        return;
    }
    let m = p.start();
    while !p.at_line_end() {
        p.bump_any();
    }
    m.complete(p, ERROR);
}

// ---- definitions --------------------------------------------------------

pub(super) fn agent_def(p: &mut Parser<'_, impl Output>) {
    let m = p.start();
    p.bump(AGENT_KW);
    opt_name(p, "an agent name");
    if p.at(COLON) {
        p.bump(COLON);
        if p.at(NEWLINE) && p.nth_at(1, INDENT) {
            property_block(p);
        } else if p.at_line_end() {
            // `agent name:` with no properties: allowed, nothing to configure.
            finish_line(p);
        } else {
            p.err_unexpected("end of line; agent properties go on indented lines below");
            finish_line(p);
        }
    } else {
        p.err_unexpected("`:` after the agent name");
        if p.at(NEWLINE) && p.nth_at(1, INDENT) {
            property_block(p);
        } else {
            finish_line(p);
        }
    }
    m.complete(p, AGENT_DEF);
}

/// `block name(params):` body. A missing name is left to the validator.
pub(super) fn block_def(p: &mut Parser<'_, impl Output>) {
    let m = p.start();
    p.bump(BLOCK_KW);
    if p.at_name() {
        name(p);
    }
    if p.at(L_PAREN) {
        param_list(p);
    }
    // `block process(chunk, depth) (max_depth: 50):` (prose.md).
    if p.at(L_PAREN) {
        modifier_list(p);
    }
    colon_body(p, "the block");
    m.complete(p, BLOCK_DEF);
}

pub(super) fn param_list(p: &mut Parser<'_, impl Output>) {
    let m = p.start();
    let open = p.current_range();
    p.bump(L_PAREN);
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
            COLON => {
                p.err_unexpected("`)`");
                break;
            }
            _ if p.at_name() => {
                let param = p.start();
                name(p);
                param.complete(p, PARAM);
                if !list_sep(p, R_PAREN, COLON, "`,` or `)`") {
                    break;
                }
            }
            _ => err_and_bump_item(p, "a parameter name"),
        }
    }
    m.complete(p, PARAM_LIST);
}

/// `NEWLINE INDENT (property | comment)* DEDENT`
pub(super) fn property_block(p: &mut Parser<'_, impl Output>) {
    let m = p.start();
    p.bump(NEWLINE);
    p.bump(INDENT);
    if p.enter() {
        while !p.at(DEDENT) && !p.at(EOF) {
            property_line(p);
        }
        p.leave();
    } else {
        while !p.at(DEDENT) && !p.at(EOF) {
            p.skip_nested();
            p.eat(NEWLINE);
        }
    }
    p.eat(DEDENT);
    m.complete(p, PROPERTY_BLOCK);
}

pub(super) fn at_property_start(p: &mut Parser<'_, impl Output>) -> bool {
    let k = p.current();
    (k == IDENT || k.is_keyword()) && p.nth_at(1, COLON)
}

fn property_line(p: &mut Parser<'_, impl Output>) {
    if at_property_start(p) {
        property(p);
        return;
    }
    if p.at(INDENT) {
        // Over-indented lines inside a property block: report once, keep
        // reading them as properties.
        let m = p.start();
        p.bump(INDENT);
        let range = p.current_range();
        p.error(E005, "Unexpected indentation", range);
        while !p.at(DEDENT) && !p.at(EOF) {
            property_line(p);
        }
        p.eat(DEDENT);
        m.complete(p, ERROR);
        return;
    }
    // Not `name: value`: a value on its own line (e.g. a multi-line string
    // under `prompt:`) belongs to the property above; anything else is an
    // error, but parse it so nothing is lost.
    let m = p.start();
    let range = p.current_range();
    let found = p.found();
    p.error(
        E004,
        format!("Unexpected {found}: expected a property (`name: value`)"),
        range,
    );
    statement(p);
    m.complete(p, ERROR);
}

/// `name: value`, where the value may be a nested property block
/// (`permissions:`) or an indented value on the next lines.
pub(super) fn property(p: &mut Parser<'_, impl Output>) {
    let m = p.start();
    p.bump_remap(IDENT);
    p.bump(COLON);
    if p.at(NEWLINE) && p.nth_at(1, INDENT) {
        // A nested property block (`permissions:`), or the value on the
        // following indented line(s).
        indented_lines(p);
    } else if p.at_line_end() {
        // `name:` with nothing: the validator reports empty values.
        finish_line(p);
    } else {
        if expr(p).is_none() {
            recover_line(p);
        }
        finish_line(p);
    }
    m.complete(p, PROPERTY);
}
