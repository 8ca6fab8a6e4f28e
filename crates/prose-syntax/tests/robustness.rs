//! Robustness: hostile, huge and malformed inputs.
//!
//! Every input must parse without panicking into a tree whose text is the
//! input, with errors whose ranges lie inside the text on char boundaries.
//! Small inputs also pin their exact diagnostics (codes and ranges), so a
//! change in recovery shows up here. There are no timing assertions: a hang
//! is caught by the harness timeout, speed is measured by `benches/parse.rs`.

#[path = "../benches/program_gen/mod.rs"]
mod program_gen;

use expect_test::{Expect, expect};
use prose_syntax::{Parse, SyntaxKind, parse};

/// Parses `text` and checks the invariants every parse must satisfy.
fn parse_checked(text: &str) -> Parse {
    let parse = parse(text);
    let root = parse.syntax_node();
    assert_eq!(root.kind(), SyntaxKind::SOURCE_FILE);
    assert_eq!(usize::from(root.text_range().end()), text.len());
    // Compare without building a second huge String when it differs.
    let rebuilt = root.text().to_string();
    assert!(rebuilt == text, "the tree is not lossless");
    assert!(tree_depth(&parse) <= 1000, "the tree is too deep");
    for e in parse.errors() {
        let (start, end) = (usize::from(e.range.start()), usize::from(e.range.end()));
        assert!(start <= end && end <= text.len(), "error out of range: {e}");
        assert!(
            text.is_char_boundary(start) && text.is_char_boundary(end),
            "error not on char boundaries: {e}"
        );
    }
    parse
}

/// The depth of the tree (the root alone is 1), computed without recursion.
fn tree_depth(parse: &Parse) -> usize {
    let (mut depth, mut max) = (0usize, 0usize);
    for event in parse.syntax_node().preorder() {
        match event {
            prose_syntax::WalkEvent::Enter(_) => {
                depth += 1;
                max = max.max(depth);
            }
            prose_syntax::WalkEvent::Leave(_) => depth -= 1,
        }
    }
    max
}

/// Parses, checks the invariants, and compares the diagnostics.
fn check(text: &str, expect: Expect) {
    let parse = parse_checked(text);
    let mut out = String::new();
    for e in parse.errors() {
        out.push_str(&format!("{e}\n"));
    }
    expect.assert_eq(&out);
}

/// The diagnostics, with runs of consecutive errors that share code and
/// message folded into one line (`first range ... last range (count)`).
fn summary(parse: &Parse) -> String {
    let mut out = String::new();
    let errors = parse.errors();
    let mut i = 0;
    while i < errors.len() {
        let e = &errors[i];
        let mut j = i + 1;
        while j < errors.len() && errors[j].code == e.code && errors[j].message == e.message {
            j += 1;
        }
        if j - i == 1 {
            out.push_str(&format!("{e}\n"));
        } else {
            let last = &errors[j - 1];
            out.push_str(&format!(
                "{} {:?} ... {:?} ({}x): {}\n",
                e.code.as_str(),
                e.range,
                last.range,
                j - i,
                e.message
            ));
        }
        i = j;
    }
    out
}

/// Parses, checks the invariants, and compares the folded diagnostics.
fn check_summary(text: &str, expect: Expect) -> Parse {
    let parse = parse_checked(text);
    expect.assert_eq(&summary(&parse));
    parse
}

// ---- byte soup -------------------------------------------------------------

#[test]
fn binary_bytes_lossily_decoded() {
    let bytes: Vec<u8> = (0..=255u8).cycle().take(256 * 16).collect();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let parse = parse_checked(&text);
    assert!(!parse.errors().is_empty());
}

#[test]
fn raw_control_characters() {
    let text: String = (0u8..32).chain([127]).map(char::from).collect();
    check(
        &text,
        expect![[r#"
            E004 0..9: Unexpected unrecognised character: expected an expression
            E004 11..12: Unexpected unrecognised character: expected an expression
            E004 14..33: Unexpected unrecognised character: expected an expression
        "#]],
    );
}

#[test]
fn control_characters_between_tokens() {
    check(
        "session\x00\"a\x01b\"\x07\nlet x\x1b= 1\x7f\n",
        expect![[r#"
            E004 7..8: Unexpected unrecognised character: expected end of line
            E004 20..21: Unexpected unrecognised character: expected `=`
        "#]],
    );
}

// ---- nesting ---------------------------------------------------------------

fn nested_ifs(levels: usize) -> String {
    let mut text = String::new();
    for depth in 0..levels {
        text.push_str(&"  ".repeat(depth));
        text.push_str("if **x**:\n");
    }
    text.push_str(&"  ".repeat(levels));
    text.push_str("session \"deep\"\n");
    text
}

#[test]
fn two_hundred_nested_blocks() {
    // One "too deep" error where the limit is reached; the rest is kept flat.
    check(
        &nested_ifs(200),
        expect![[r#"
        E005 3050..3052: Nesting is too deep: more than 100 levels are not analysed
    "#]],
    );
}

#[test]
fn forty_nested_blocks_are_fine() {
    let parse = parse_checked(&nested_ifs(40));
    assert_eq!(parse.errors(), &[]);
}

#[test]
fn two_hundred_nested_brackets() {
    check_summary(
        &"[".repeat(200),
        expect![[r#"
        E005 0..1 ... 98..99 (99x): Unclosed `[`: expected `]`
        E005 99..100: Nesting is too deep: more than 100 levels are not analysed
    "#]],
    );
}

#[test]
fn two_hundred_balanced_brackets() {
    let text = format!("let x = {}1{}\n", "[".repeat(200), "]".repeat(200));
    check(
        &text,
        expect![[r#"
        E005 107..108: Nesting is too deep: more than 100 levels are not analysed
    "#]],
    );
}

#[test]
fn a_hundred_thousand_nested_brackets() {
    // Must not overflow the stack: the parser stops recursing at its depth
    // limit and keeps the rest flat.
    check_summary(
        &"[".repeat(100_000),
        expect![[r#"
        E005 0..1 ... 98..99 (99x): Unclosed `[`: expected `]`
        E005 99..100: Nesting is too deep: more than 100 levels are not analysed
    "#]],
    );
}

#[test]
fn a_hundred_thousand_balanced_brackets_in_a_statement() {
    let text = format!("let x = {}1{}\n", "[".repeat(100_000), "]".repeat(100_000));
    check_summary(
        &text,
        expect![[r#"
        E005 107..108: Nesting is too deep: more than 100 levels are not analysed
    "#]],
    );
}

#[test]
fn deeply_nested_parentheses_and_operators() {
    let mut text = String::from("let x = ");
    for i in 0..5_000 {
        text.push_str(["(", "-(", "not (", "!("][i % 4]);
        text.push_str("a + b * c == ");
    }
    text.push('d');
    text.push_str(&")".repeat(5_000));
    text.push('\n');
    check_summary(
        &text,
        expect![[r#"
        E005 557..558: Nesting is too deep: more than 100 levels are not analysed
    "#]],
    );
}

#[test]
fn long_chains_of_binary_operators() {
    // Left-associative chains are loops in the parser but nest one tree node
    // per operator; the tree keeps at most 1000 levels (a deeper tree would
    // overflow the stack when dropped) and says so once.
    let ops = [
        "+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "and", "or", "&&", "||",
    ];
    let mut text = String::from("let x = a");
    for i in 0..20_000 {
        text.push_str(&format!(" {} a{i}", ops[i % ops.len()]));
    }
    text.push('\n');
    check_summary(
        &text,
        expect![[r#"
        E005 8..9: Nesting is too deep: the syntax tree keeps at most 1000 levels
    "#]],
    );
}

#[test]
fn a_few_hundred_operators_are_fine() {
    let text = format!("let x = a{}\n", " + a".repeat(500));
    let parse = parse_checked(&text);
    assert_eq!(parse.errors(), &[]);
}

#[test]
fn long_left_nested_chains() {
    // Every construct the grammar builds with `precede` in a loop, plus the
    // flat ones (arrows) and the right-nested ternary.
    let n = 5_000;
    let cases = [
        format!("let x = a{}\n", ".b".repeat(n)),
        format!("let x = f{}\n", "(1)".repeat(n)),
        format!("let x = xs{}\n", "[0]".repeat(n)),
        format!("session \"a\"{}\n", " -> session \"b\"".repeat(n)),
        format!("let x = a{}", "\n  | map: session \"b\"".repeat(n)),
        format!("session \"a\"{}", "\n-> session \"b\"".repeat(n)),
        format!("let x = a{}\n", " ? b : c".repeat(n)),
    ];
    let mut out = String::new();
    for text in &cases {
        out.push_str(&format!("{}:\n", &text[..12].escape_debug()));
        out.push_str(&summary(&parse_checked(text)));
    }
    expect![[r#"
        let x = a.b.:
        E005 8..9: Nesting is too deep: the syntax tree keeps at most 1000 levels
        let x = f(1):
        E005 8..9: Nesting is too deep: the syntax tree keeps at most 1000 levels
        let x = xs[0:
        E005 8..10: Nesting is too deep: the syntax tree keeps at most 1000 levels
        session \"a\" :
        let x = a\n  :
        E005 8..9: Nesting is too deep: the syntax tree keeps at most 1000 levels
        session \"a\"\n:
        let x = a ? :
        E005 796..797: Nesting is too deep: more than 100 levels are not analysed
    "#]]
    .assert_eq(&out);
}

#[test]
fn long_prefix_and_ternary_chains() {
    let text = format!(
        "let x = {}a\nlet y = {}b\nlet z = {}c\n",
        "- ".repeat(10_000),
        "not ".repeat(10_000),
        "a ? b : ".repeat(10_000),
    );
    check_summary(
        &text,
        expect![[r#"
        E005 206..207 ... 60816..60817 (3x): Nesting is too deep: more than 100 levels are not analysed
    "#]],
    );
}

#[test]
fn deep_indentation_staircase() {
    // 2000 indentation levels (2 MB), each a statement: no recursion past
    // the limit.
    let mut text = String::new();
    for depth in 0..2_000 {
        text.push_str(&" ".repeat(depth));
        text.push_str("do:\n");
    }
    let parse = parse_checked(&text);
    assert!(!parse.errors().is_empty());
}

// ---- delimiters ------------------------------------------------------------

#[test]
fn lone_triple_quote() {
    check(
        "\"\"\"",
        expect![[r#"
            E001 0..3: Unterminated string literal: `"""` needs a closing `"""`
        "#]],
    );
}

#[test]
fn unterminated_triple_quote_after_statement() {
    check(
        "session \"\"\"\n  never closed\nsession \"x\"\n",
        expect![[r#"
            E001 8..11: Unterminated string literal: `"""` needs a closing `"""`
        "#]],
    );
}

#[test]
fn unterminated_triple_star_discretion() {
    check(
        "if ***\nthe condition never ends\n  session \"x\"\n",
        expect![[r#"
            E005 3..6: Unterminated discretion condition: `***` needs a closing `***`
            E005 46..46: Expected `:` to start the body of `if`
        "#]],
    );
}

#[test]
fn lone_triple_star() {
    check(
        "***",
        expect![[r#"
            E005 0..3: Unterminated discretion condition: `***` needs a closing `***`
        "#]],
    );
}

#[test]
fn only_punctuation() {
    check(
        "-> | : ( ) { } [ ]\n",
        expect![[r#"
            E004 0..2: Unexpected `->`: expected an expression
        "#]],
    );
}

#[test]
fn punctuation_soup() {
    let pieces = ["->", "|", ":", "(", ")", "{", "}", "[", "]"];
    let mut text = String::new();
    for i in 0..20_000 {
        text.push_str(pieces[(i * 7 + i / 9) % pieces.len()]);
        text.push(if i % 13 == 0 { '\n' } else { ' ' });
    }
    parse_checked(&text);
}

// ---- line endings, BOM, indentation ---------------------------------------

const SMALL_PROGRAM: &str = "agent a:\n  model: sonnet\n  prompt: \"\"\"\n    multi\n  \"\"\"\n\nif **ok**:\n  session: a\n    prompt: \"go\"\nelse:\n  session \"no\"\n";

#[test]
fn crlf_everywhere() {
    let text = SMALL_PROGRAM.replace('\n', "\r\n");
    check(&text, expect![""]);
}

#[test]
fn lone_carriage_returns() {
    let text = SMALL_PROGRAM.replace('\n', "\r");
    check(&text, expect![""]);
}

#[test]
fn byte_order_mark() {
    check(&format!("\u{FEFF}{SMALL_PROGRAM}"), expect![""]);
}

#[test]
fn byte_order_marks_everywhere() {
    let text = SMALL_PROGRAM.replace(' ', "\u{FEFF} ");
    parse_checked(&text);
}

#[test]
fn tabs_mixed_with_spaces() {
    check(
        "if **a**:\n\tsession \"tab\"\n    session \"four spaces\"\n  \tsession \"two spaces and a tab\"\n \t session \"mixed\"\n",
        expect![[r#"
            E005 88..95: Unexpected indentation
        "#]],
    );
}

#[test]
fn inconsistent_dedent() {
    check(
        "if **a**:\n    session \"x\"\n  session \"y\"\n",
        expect![[r#"
            E005 28..35: Inconsistent indentation: this line lines up with no enclosing block
        "#]],
    );
}

// ---- size ------------------------------------------------------------------

#[test]
fn ten_megabytes_of_garbage() {
    let text = program_gen::garbage(10 * 1024 * 1024);
    assert_eq!(text.len(), 10 * 1024 * 1024);
    let parse = parse_checked(&text);
    assert!(!parse.errors().is_empty());
}

#[test]
fn enormous_single_line() {
    // 1.7 MB on one line: a session with a huge prompt, then a huge array.
    let mut text = String::from("session \"");
    text.push_str(&"lorem {ipsum} dolor \\n sit ".repeat(40_000));
    text.push_str("\" -> session \"x\"");
    text.push_str(" -> session \"y\" (retry: [");
    text.push_str(&"1, \"two\", three, ".repeat(40_000));
    text.push_str("4])");
    let parse = parse_checked(&text);
    assert_eq!(parse.errors(), &[]);
}

#[test]
fn enormous_single_line_of_garbage() {
    let text = program_gen::garbage(2 * 1024 * 1024).replace(['\n', '\r'], " ");
    parse_checked(&text);
}

#[test]
fn generated_program_parses_without_errors() {
    // One unit uses every construct; a few units check they compose.
    for units_bytes in [1, 20_000] {
        let text = program_gen::program(units_bytes);
        let parse = parse_checked(&text);
        assert_eq!(
            parse.errors(),
            &[],
            "the generated program must be error-free"
        );
    }
}

#[test]
fn generated_program_uses_every_construct() {
    use SyntaxKind::*;
    let text = program_gen::program(1);
    let parse = parse_checked(&text);
    let seen: std::collections::HashSet<SyntaxKind> = parse
        .syntax_node()
        .descendants_with_tokens()
        .map(|e| e.kind())
        .collect();
    for kind in [
        USE_STMT,
        IMPORT_STMT,
        INPUT_DECL,
        OUTPUT_DECL,
        AGENT_DEF,
        PROPERTY_BLOCK,
        BLOCK_DEF,
        PARAM_LIST,
        LET_STMT,
        CONST_STMT,
        ASSIGN_STMT,
        DESTRUCTURE_PAT,
        TRY_STMT,
        CATCH_CLAUSE,
        FINALLY_CLAUSE,
        THROW_STMT,
        CHOICE_STMT,
        OPTION_CLAUSE,
        IF_STMT,
        ELIF_CLAUSE,
        ELSE_CLAUSE,
        SESSION_EXPR,
        RESUME_EXPR,
        DO_EXPR,
        DO_CALL,
        PARALLEL_EXPR,
        FOR_EXPR,
        REPEAT_EXPR,
        LOOP_EXPR,
        PIPE_EXPR,
        PIPE_OP,
        ARROW_EXPR,
        CALL_EXPR,
        ARG_LIST,
        MODIFIER_LIST,
        ARRAY_EXPR,
        OBJECT_EXPR,
        BINARY_EXPR,
        PREFIX_EXPR,
        PAREN_EXPR,
        TERNARY_EXPR,
        LITERAL,
        OBJECT_FIELD,
        BREAK_STMT,
        CONTINUE_STMT,
        ASSERT_STMT,
        FIELD_EXPR,
        STRING,
        INTERPOLATION,
        DISCRETION_EXPR,
        COMMENT,
        STRING_ESCAPE,
    ] {
        assert!(
            seen.contains(&kind),
            "the generated program has no {kind:?}"
        );
    }
}

#[test]
fn long_comment_of_non_ascii() {
    let text = format!("# {}\nsession \"x\"\n", "é日本".repeat(200_000));
    check(&text, expect![[r#""#]]);
}

#[test]
fn long_run_of_byte_order_marks() {
    let text = format!("session{}\"x\"\n", "\u{FEFF} ".repeat(200_000));
    check(&text, expect![[r#""#]]);
}

#[test]
fn long_hyphenated_identifier() {
    let text = format!("let {}a = 1\n", "a-".repeat(300_000));
    check(&text, expect![[r#""#]]);
}

#[test]
fn long_number_and_whitespace_runs() {
    let text = format!(
        "let x = {}.5{}\n{}",
        "9".repeat(300_000),
        " \t\x0C".repeat(100_000),
        "\r".repeat(100_000)
    );
    check(&text, expect![[r#""#]]);
}

#[test]
fn hyphenated_identifier_edges() {
    // The identifier tail is lexed by a callback; pin its edges.
    let text = "on-fail-x- a--b c-1 d- -e f_g-h_i\n";
    let lexed = prose_syntax::lexer::lex(text);
    let tokens: Vec<String> = lexed
        .iter(text)
        .filter(|(k, _)| *k != SyntaxKind::WHITESPACE)
        .map(|(k, t)| format!("{k:?} {t:?}"))
        .collect();
    expect![[r#"
        [
            "IDENT \"on-fail-x\"",
            "MINUS \"-\"",
            "IDENT \"a\"",
            "MINUS \"-\"",
            "MINUS \"-\"",
            "IDENT \"b\"",
            "IDENT \"c-1\"",
            "IDENT \"d\"",
            "MINUS \"-\"",
            "MINUS \"-\"",
            "IDENT \"e\"",
            "IDENT \"f_g-h_i\"",
            "NEWLINE \"\\n\"",
        ]
    "#]]
    .assert_debug_eq(&tokens);
}
