//! Tests of the lexer: snapshots of token streams, and the fast path
//! held to the logos automaton.

use super::*;
use expect_test::{Expect, expect};

fn check(text: &str, expect: Expect) {
    let lexed = lex(text);
    let mut out = String::new();
    for (kind, tok) in lexed.iter(text) {
        out.push_str(&format!("{kind:?} {tok:?}\n"));
    }
    for e in lexed.errors() {
        out.push_str(&format!("{e}\n"));
    }
    expect.assert_eq(&out);
    let rebuilt: String = lexed.iter(text).map(|(_, t)| t).collect();
    assert_eq!(rebuilt, text);
}

/// The hand-written fast path lexes exactly as the automaton alone.
#[test]
fn fast_path_agrees_with_the_automaton() {
    let mut texts = Vec::new();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("test_data");
    for sub in ["ok", "err"] {
        for entry in std::fs::read_dir(dir.join(sub)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "prose") {
                texts.push(std::fs::read_to_string(path).unwrap());
            }
        }
    }
    // Random soups of the pieces where the two could differ.
    const PIECES: &[&str] = &[
        " ", "  ", "\t", "\x0C", "\u{FEFF}", "\n", "\r", "\r\n", "#", "# c", "a", "Z_9", "let",
        "session", "map", "-", "->", "--", "a-b", "x-", "-y", "0", "12", "1.5", "1.", ".5", "3s",
        "1.5e", ".", "..", "...", "....", "=", "==", "===", "!", "!=", "<", "<=", ">", ">=", "|",
        "||", "|||", "&", "&&", "*", "**", "***", "****", ":", ",", "(", ")", "[", "]", "{", "}",
        "+", "/", "%", "?", "\"", "\"\"\"", "\\", "{x}", "é", "@", "$", "\0", "~", "^", "'", "`",
        ";",
    ];
    texts.extend(crate::tests::soups(0x9e37_79b9_7f4a_7c15, 3000, 40, PIECES));
    for text in &texts {
        let never = &crate::interrupt::never;
        assert_eq!(
            lex_with(text, true, &Interrupt::new(never)),
            lex_with(text, false, &Interrupt::new(never)),
            "{text:?}"
        );
    }
}

#[test]
fn identifiers_with_hyphens_and_arrows() {
    check(
        "review-pipeline a->b depth - 1 on-fail",
        expect![[r#"
            IDENT "review-pipeline"
            WHITESPACE " "
            IDENT "a"
            ARROW "->"
            IDENT "b"
            WHITESPACE " "
            IDENT "depth"
            WHITESPACE " "
            MINUS "-"
            WHITESPACE " "
            NUMBER "1"
            WHITESPACE " "
            IDENT "on-fail"
        "#]],
    );
}

#[test]
fn string_pieces_and_escapes() {
    check(
        r#"session "Hi {name}, {a.b} {} {x y} \{ \" \q""#,
        expect![[r#"
            SESSION_KW "session"
            WHITESPACE " "
            STRING_OPEN "\""
            STRING_TEXT "Hi "
            INTERP_OPEN "{"
            IDENT "name"
            INTERP_CLOSE "}"
            STRING_TEXT ", "
            INTERP_OPEN "{"
            IDENT "a"
            DOT "."
            IDENT "b"
            INTERP_CLOSE "}"
            STRING_TEXT " {} {x y} "
            STRING_ESCAPE "\\{"
            STRING_TEXT " "
            STRING_ESCAPE "\\\""
            STRING_TEXT " "
            STRING_ESCAPE "\\q"
            STRING_CLOSE "\""
            E002 41..43: Unknown escape sequence `\q`: write `\\q` to keep the backslash; valid escapes are \\, \", \n, \t, \{ and \}
        "#]],
    );
}

#[test]
fn unterminated_single_string_stops_at_newline() {
    check(
        "session \"Hello\nsession \"x\"",
        expect![[r#"
            SESSION_KW "session"
            WHITESPACE " "
            STRING_OPEN "\""
            STRING_TEXT "Hello"
            NEWLINE "\n"
            SESSION_KW "session"
            WHITESPACE " "
            STRING_OPEN "\""
            STRING_TEXT "x"
            STRING_CLOSE "\""
            E001 8..9: Unterminated string literal
        "#]],
    );
}

#[test]
fn triple_strings_with_quote_runs() {
    check(
        "\"\"\"Is it \"ok\"?\"\"\"\"\" x \"\"\"\n  a\n\"\"\"",
        expect![[r#"
            STRING_OPEN "\"\"\""
            STRING_TEXT "Is it \"ok\"?\"\""
            STRING_CLOSE "\"\"\""
            WHITESPACE " "
            IDENT "x"
            WHITESPACE " "
            STRING_OPEN "\"\"\""
            STRING_TEXT "\n  a\n"
            STRING_CLOSE "\"\"\""
        "#]],
    );
}

#[test]
fn discretions() {
    check(
        "if **a * b** or ***\nmulti\n***: **open\n",
        expect![[r#"
            IF_KW "if"
            WHITESPACE " "
            DISCRETION "**a * b**"
            WHITESPACE " "
            OR_KW "or"
            WHITESPACE " "
            DISCRETION "***\nmulti\n***"
            COLON ":"
            WHITESPACE " "
            DISCRETION "**open"
            NEWLINE "\n"
            E005 31..33: Unterminated discretion condition: `**` needs a closing `**` on the same line
        "#]],
    );
}

#[test]
fn four_stars_are_an_empty_discretion() {
    check(
        "if ****: ******\n",
        expect![[r#"
            IF_KW "if"
            WHITESPACE " "
            DISCRETION "****"
            COLON ":"
            WHITESPACE " "
            DISCRETION "******"
            NEWLINE "\n"
        "#]],
    );
}

#[test]
fn garbage_and_comments() {
    check(
        "a @@ é # c \"x\"\r\n\t$",
        expect![[r##"
            IDENT "a"
            WHITESPACE " "
            ERROR_TOKEN "@@"
            WHITESPACE " "
            ERROR_TOKEN "é"
            WHITESPACE " "
            COMMENT "# c \"x\""
            NEWLINE "\r\n"
            WHITESPACE "\t"
            ERROR_TOKEN "$"
        "##]],
    );
}

#[test]
fn unterminated_triple_string_and_trailing_backslash() {
    check(
        "\"\"\"abc\\",
        expect![[r#"
            STRING_OPEN "\"\"\""
            STRING_TEXT "abc"
            STRING_ESCAPE "\\"
            E001 0..3: Unterminated string literal: `"""` needs a closing `"""`
            E002 6..7: Unknown escape sequence: a backslash at the end of a line; write `\\` to keep it; valid escapes are \\, \", \n, \t, \{ and \}
        "#]],
    );
}

/// `skip_to` and `count_breaks` read eight bytes at a time: they must give
/// what a byte-by-byte scan gives, for every length and every position of
/// the first stop, with bytes on both sides of each stop's value.
#[test]
fn word_at_a_time_scans_agree_with_byte_scans() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut byte = || {
        // Mostly the stops and their neighbours, high bytes and zeros.
        const PICKS: &[u8] = b"\"!#\n\x0b\t\r\x0e\x0c\\[]{|z {\x00\x80\xff\xdc\xa2\x01";
        PICKS[(crate::tests::next_random(&mut state) % PICKS.len() as u64) as usize]
    };
    for len in 0..70 {
        for _ in 0..200 {
            let bytes: Vec<u8> = (0..len).map(|_| byte()).collect();
            let naive = |stops: &[u8]| {
                bytes
                    .iter()
                    .position(|b| stops.contains(b))
                    .unwrap_or(bytes.len())
            };
            assert_eq!(
                skip_to(&bytes, [b'"', b'\n', b'\r', b'\\']),
                naive(b"\"\n\r\\"),
                "{bytes:?}"
            );
            assert_eq!(skip_to(&bytes, [b'\\', b'{']), naive(b"\\{"), "{bytes:?}");
            assert_eq!(line_len(&bytes), naive(b"\n\r"), "{bytes:?}");
            assert_eq!(
                count_breaks(&bytes),
                bytes.iter().filter(|&&b| b == b'\n').count()
            );
        }
    }
    let long = "a\n".repeat(1000);
    assert_eq!(count_breaks(long.as_bytes()), 1000);
}
