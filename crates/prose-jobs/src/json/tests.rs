use expect_test::{Expect, expect};
use proptest::prelude::*;

use super::{Value, ValueKind, parse};

/// The tree as compact text, then every error with its source text.
fn render(text: &str) -> String {
    fn value(text: &str, v: &Value, out: &mut String) {
        match &v.kind {
            ValueKind::Null => out.push_str("null"),
            ValueKind::Bool(b) => out.push_str(&b.to_string()),
            ValueKind::Number(Some(n)) => out.push_str(&n.to_string()),
            ValueKind::Number(None) => out.push_str("<bad number>"),
            ValueKind::String(s) => out.push_str(&format!("{:?}", s.as_str())),
            ValueKind::Missing => out.push_str(&format!("<missing {:?}>", &text[v.range])),
            ValueKind::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    value(text, item, out);
                }
                out.push(']');
            }
            ValueKind::Object(members) => {
                out.push('{');
                for (i, m) in members.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(&format!("{:?}: ", m.key.as_str()));
                    value(text, &m.value, out);
                }
                out.push('}');
            }
        }
    }
    let doc = parse(text);
    let mut out = String::new();
    match &doc.root {
        Some(root) => value(text, root, &mut out),
        None => out.push_str("<no value>"),
    }
    out.push('\n');
    for e in &doc.errors {
        out.push_str(&format!(
            "{:?} {:?}: {}\n",
            e.range, &text[e.range], e.message
        ));
    }
    out
}

fn check(text: &str, expected: Expect) {
    expected.assert_eq(&render(text));
}

#[test]
fn jsonc_comments_and_trailing_commas_are_accepted() {
    check(
        "\u{feff}// entry\n{ /* models */ \"a\": [1, 2,], \"b\": {\"c\": null,}, }\n",
        expect![[r#"
            {"a": [1, 2], "b": {"c": null}}
        "#]],
    );
}

#[test]
fn empty_and_blank_files() {
    check(
        "",
        expect![[r#"
            <no value>
            0..0 "": Expected a JSON object; the file is empty
        "#]],
    );
    check(
        "  // nothing\n",
        expect![[r#"
            <no value>
            13..13 "": Expected a JSON object; the file is empty
        "#]],
    );
}

#[test]
fn missing_commas_colons_and_values_are_recovered() {
    check(
        r#"{"a": 1 "b" 2, "c": , "d": [1 2,, 3], "e": }"#,
        expect![[r#"
            {"a": 1, "b": 2, "c": <missing "">, "d": [1, 2, 3], "e": <missing "">}
            7..7 "": Expected `,`
            11..11 "": Expected `:` after the property name
            20..21 ",": Expected a value, found `,`
            29..29 "": Expected `,`
            32..33 ",": Unexpected `,`; expected a value
            43..44 "}": Expected a value, found `}`
        "#]],
    );
}

#[test]
fn unquoted_names_and_words_single_quotes() {
    check(
        r#"{models: {driving: gpt}, 'x': 'y'}"#,
        expect![[r#"
            {"models": {"driving": <missing "gpt">}, "x": "y"}
            1..7 "models": Property names must be in double quotes: write `"models"`
            10..17 "driving": Property names must be in double quotes: write `"driving"`
            19..22 "gpt": Unexpected word `gpt`; a string must be in double quotes
            25..26 "'": Strings must use double quotes
            30..31 "'": Strings must use double quotes
        "#]],
    );
}

#[test]
fn strings_escapes_and_control_characters() {
    check(
        "[\"a\\qb\", \"\\u12\", \"tab\there\", \"\\ud800x\", \"\\ud83d\\ude00\", \"\\\"\\\\\\/\\b\\f\\n\\r\\t\"]",
        expect![[r#"
            ["aqb", "12", "tab\there", "�x", "😀", "\"\\/\u{8}\u{c}\n\r\t"]
            3..5 "\\q": Invalid escape `\q`; valid escapes are \" \\ \/ \b \f \n \r \t and \uXXXX
            10..12 "\\u": Invalid escape: `\u` must be followed by four hex digits
            21..22 "\t": Control character (tab) in a string; write it as an escape such as `\t` or `\u0009`
            30..36 "\\ud800": Invalid escape `\ud800`: a lone surrogate is not a character
        "#]],
    );
}

#[test]
fn unterminated_strings_end_at_the_line() {
    check(
        "{\"a\": \"open\n, \"b\": \"ok\", \"c\": \"x\\\n}",
        expect![[r#"
            {"a": "open", "b": "ok", "c": "x"}
            6..11 "\"open": Unterminated string: the closing `"` is missing
            30..33 "\"x\\": Unterminated string: the closing `"` is missing
        "#]],
    );
}

#[test]
fn numbers() {
    check(
        "[0, -1.5e3, 01, 1., .5, -, 0x1F, 1e, 2E+2]",
        expect![[r#"
            [0, -1500, <bad number>, <bad number>, <missing ".">, 5, <bad number>, <bad number>, <bad number>, 200]
            12..14 "01": Invalid number `01`
            16..18 "1.": Invalid number `1.`
            20..21 ".": Unexpected character; expected a value
            21..21 "": Expected `,`
            24..25 "-": Invalid number `-`
            27..31 "0x1F": Invalid number `0x1F`
            33..35 "1e": Invalid number `1e`
        "#]],
    );
}

#[test]
fn unclosed_and_mismatched_brackets() {
    check(
        r#"{"a": [1, 2}, "b": {"c": 3]"#,
        expect![[r#"
            {"a": [1, 2]}
            6..7 "[": Unclosed `[`: expected `]` before this `}`
            12..13 ",": Unexpected `,` after the end of the JSON value
        "#]],
    );
    check(
        r#"{"a": [1, {"b": "#,
        expect![[r#"
            {"a": [1, {"b": <missing "">}]}
            0..1 "{": Unclosed `{`: expected `}` before the end of the file
            6..7 "[": Unclosed `[`: expected `]` before the end of the file
            10..11 "{": Unclosed `{`: expected `}` before the end of the file
            16..16 "": Expected a value, found end of the file
        "#]],
    );
}

#[test]
fn junk_and_trailing_text() {
    check(
        "{\"a\": 1 @ # } trailing /* open",
        expect![[r#"
            {"a": 1}
            8..9 "@": Expected `,` or `}`, found character
            14..22 "trailing": Unexpected `trailing` after the end of the JSON value
        "#]],
    );
}

#[test]
fn deep_nesting_is_cut_off_without_recursion() {
    let text = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let doc = parse(&text);
    assert_eq!(doc.errors.len(), 1, "{:?}", doc.errors);
    assert!(doc.errors[0].message.starts_with("Nesting deeper than 128"));
    let unclosed = "{\"a\":".repeat(50_000);
    let doc = parse(&unclosed);
    assert!(doc.errors.iter().any(|e| e.message.starts_with("Nesting")));
}

/// Our reading of `text` as a `serde_json::Value`, when it has no errors.
fn to_serde(v: &Value) -> serde_json::Value {
    match &v.kind {
        ValueKind::Null | ValueKind::Missing => serde_json::Value::Null,
        ValueKind::Bool(b) => serde_json::Value::Bool(*b),
        ValueKind::Number(n) => serde_json::Number::from_f64(n.unwrap_or(f64::NAN))
            .map_or(serde_json::Value::Null, serde_json::Value::Number),
        ValueKind::String(s) => serde_json::Value::String(s.as_str().to_string()),
        ValueKind::Array(items) => serde_json::Value::Array(items.iter().map(to_serde).collect()),
        ValueKind::Object(members) => serde_json::Value::Object(
            members
                .iter()
                .map(|m| (m.key.as_str().to_string(), to_serde(&m.value)))
                .collect(),
        ),
    }
}

/// `v` with every number as an f64, as we read them.
fn floats(v: &serde_json::Value) -> serde_json::Value {
    match v {
        serde_json::Value::Number(n) => serde_json::Number::from_f64(n.as_f64().unwrap())
            .map_or(serde_json::Value::Null, serde_json::Value::Number),
        serde_json::Value::Array(items) => {
            serde_json::Value::Array(items.iter().map(floats).collect())
        }
        serde_json::Value::Object(m) => {
            serde_json::Value::Object(m.iter().map(|(k, v)| (k.clone(), floats(v))).collect())
        }
        other => other.clone(),
    }
}

fn arb_json() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::Bool),
        (-1e6f64..1e6).prop_map(|f| serde_json::json!(f)),
        any::<i32>().prop_map(|i| serde_json::json!(i)),
        "\\PC{0,12}".prop_map(serde_json::Value::String),
        "[\\u{0}-\\u{1f}\"\\\\$a-z]{0,6}".prop_map(serde_json::Value::String),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::Array),
            prop::collection::btree_map("[a-z$-]{0,6}", inner, 0..6)
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Valid JSON (compact or pretty) reads without errors and gives the
    /// same value as serde_json.
    #[test]
    fn valid_json_reads_like_serde_json(v in arb_json(), pretty in any::<bool>()) {
        let text = if pretty { serde_json::to_string_pretty(&v).unwrap() } else { v.to_string() };
        let doc = parse(&text);
        prop_assert!(doc.errors.is_empty(), "{text}: {:?}", doc.errors);
        prop_assert_eq!(to_serde(doc.root.as_ref().unwrap()), floats(&v));
    }

    /// Every string's decoded text maps back into its own literal.
    #[test]
    fn string_ranges_stay_inside_their_literal(s in "\\PC{0,20}") {
        let text = serde_json::to_string(&s).unwrap();
        let doc = parse(&text);
        let root = doc.root.unwrap();
        let ValueKind::String(js) = &root.kind else { panic!() };
        for (i, _) in s.char_indices() {
            let r = js.source_range(i, s.len());
            prop_assert!(js.range().contains_range(r));
        }
    }

    /// Any text: no panic, and when we report no error, serde_json agrees
    /// that it is JSON (after comments and trailing commas, which we accept).
    #[test]
    fn any_text_never_panics(text in "[\\[\\]{}:,\"\\\\ a-z0-9.eE+\\-\\n/*']{0,40}") {
        let doc = parse(&text);
        if doc.errors.is_empty() && !text.contains('/') && !text.contains(",]") && !text.contains(",}") {
            let serde: Result<serde_json::Value, _> = serde_json::from_str(&text);
            prop_assert!(serde.is_ok(), "we accept {text:?}, serde_json does not");
        }
        if serde_json::from_str::<serde_json::Value>(&text).is_ok() {
            prop_assert!(doc.errors.is_empty(), "serde_json accepts {text:?}, we report {:?}", doc.errors);
        }
    }
}
