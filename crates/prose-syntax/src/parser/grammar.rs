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

use super::{CompletedMarker, Output, Parser};
use crate::{SyntaxErrorCode::*, SyntaxKind, SyntaxKind::*};

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

// ---- program composition ------------------------------------------------

fn use_stmt(p: &mut Parser<'_, impl Output>) {
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

fn import_stmt(p: &mut Parser<'_, impl Output>) {
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
fn input_decl(p: &mut Parser<'_, impl Output>) {
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
fn output_decl(p: &mut Parser<'_, impl Output>) {
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

fn recover_line(p: &mut Parser<'_, impl Output>) {
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

fn agent_def(p: &mut Parser<'_, impl Output>) {
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
fn block_def(p: &mut Parser<'_, impl Output>) {
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

fn param_list(p: &mut Parser<'_, impl Output>) {
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
fn property_block(p: &mut Parser<'_, impl Output>) {
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

fn at_property_start(p: &mut Parser<'_, impl Output>) -> bool {
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
fn property(p: &mut Parser<'_, impl Output>) {
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

// ---- control flow statements ---------------------------------------------

fn try_stmt(p: &mut Parser<'_, impl Output>) -> CompletedMarker {
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
fn orphan_clause(p: &mut Parser<'_, impl Output>, kind: SyntaxKind, what: &str) {
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

fn throw_stmt(p: &mut Parser<'_, impl Output>) {
    let m = p.start();
    p.bump(THROW_KW);
    if !p.at_line_end() && expr(p).is_none() {
        recover_line(p);
    }
    finish_line(p);
    m.complete(p, THROW_STMT);
}

fn keyword_stmt(p: &mut Parser<'_, impl Output>, kind: SyntaxKind) {
    let m = p.start();
    p.bump_any();
    if !p.at_line_end() && expr(p).is_none() {
        recover_line(p);
    }
    finish_line(p);
    m.complete(p, kind);
}

/// `assert condition` with an optional `:` body holding the message.
fn assert_stmt(p: &mut Parser<'_, impl Output>) {
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

fn choice_stmt(p: &mut Parser<'_, impl Output>) -> CompletedMarker {
    let m = p.start();
    p.bump(CHOICE_KW);
    condition(p);
    colon_body_may_be_empty(p, "`choice`");
    m.complete(p, CHOICE_STMT)
}

fn option_clause(p: &mut Parser<'_, impl Output>) {
    let m = p.start();
    p.bump(OPTION_KW);
    string(p);
    colon_body_may_be_empty(p, "the option");
    m.complete(p, OPTION_CLAUSE);
}

fn if_stmt(p: &mut Parser<'_, impl Output>) -> CompletedMarker {
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

// ---- expressions ------------------------------------------------------------

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
fn expr_bp(p: &mut Parser<'_, impl Output>, min_bp: u8) -> Option<CompletedMarker> {
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

/// A string literal: open quote, pieces, close quote (missing when unterminated).
fn string(p: &mut Parser<'_, impl Output>) -> CompletedMarker {
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
fn err_and_bump_item(p: &mut Parser<'_, impl Output>, expected: &str) {
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
fn unclosed(
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
fn list_sep(
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

fn array(p: &mut Parser<'_, impl Output>) -> CompletedMarker {
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
fn object(p: &mut Parser<'_, impl Output>) -> CompletedMarker {
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

fn arg_list(p: &mut Parser<'_, impl Output>) {
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
fn modifier_list(p: &mut Parser<'_, impl Output>) {
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
fn session_expr(p: &mut Parser<'_, impl Output>) -> CompletedMarker {
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

fn resume_expr(p: &mut Parser<'_, impl Output>) -> CompletedMarker {
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
fn do_expr(p: &mut Parser<'_, impl Output>) -> CompletedMarker {
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

/// `parallel (mods): body` or `parallel for ...`.
fn parallel_expr(p: &mut Parser<'_, impl Output>) -> CompletedMarker {
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
fn for_expr(p: &mut Parser<'_, impl Output>, started: Option<super::Marker>) -> CompletedMarker {
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
fn repeat_expr(p: &mut Parser<'_, impl Output>) -> CompletedMarker {
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
fn loop_expr(p: &mut Parser<'_, impl Output>) -> CompletedMarker {
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
