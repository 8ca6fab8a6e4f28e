//! End-to-end tests of `prose dialect parse` (the real binary, agent output
//! on stdin; see tests/common/mod.rs for how it is built). The contract is
//! in docs/dialect.md.

mod common;

use common::Sandbox;
use serde_json::Value;

/// The JSON lines of a run, parsed.
fn lines(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The contract's view of an action: verb, marker, intent and chain.
fn shape(action: &Value) -> Value {
    if action.is_null() {
        return Value::Null;
    }
    serde_json::json!({
        "verb": action["verb"],
        "marker": action["marker"],
        "intent": action["intent"],
        "chain": shape(&action["chain"]),
    })
}

const AGENT_OUTPUT: &str = "\
I'll check my notes first.
/recall project deadlines
/reply sounds good .
/post bluesky \"hello\" ?public
/recall meeting notes -> /summarize -> /tell @entropy
/recall notes -> /tell @entropy
/post bluesky \"\"\"
multi-line
content
\"\"\"
/batch {
  /recall project_notes
  /fetch https://project-docs.example.com
}
Done.
";

#[test]
fn one_json_object_per_action_with_the_contract_fields() {
    let sb = Sandbox::new("dialect-contract");
    let run = sb.prose_with_stdin(&["dialect", "parse"], AGENT_OUTPUT.as_bytes());
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.stderr, "");
    let got = lines(&run.stdout);
    assert_eq!(got.len(), 7, "{}", run.stdout);
    for (v, line) in got.iter().zip(run.stdout.lines()) {
        assert!(line.starts_with("{\"input\":"), "{line}");
        for key in ["input", "action", "error"] {
            assert!(v.get(key).is_some(), "{key} in {line}");
        }
        if !v["action"].is_null() {
            for key in ["verb", "marker", "intent", "chain"] {
                assert!(v["action"].get(key).is_some(), "{key} in {line}");
            }
        }
    }
    let view: Vec<Value> = got
        .iter()
        .map(|v| serde_json::json!([v["input"], shape(&v["action"]), v["error"]]))
        .collect();
    let expected = serde_json::json!([
        ["/recall project deadlines",
         {"verb": "recall", "marker": null, "intent": "search", "chain": null}, null],
        ["/reply sounds good .",
         {"verb": "reply", "marker": ".", "intent": "thread", "chain": null}, null],
        ["/post bluesky \"hello\" ?public",
         {"verb": "post", "marker": "?public", "intent": "bluesky", "chain": null}, null],
        // The seed's /summarize is not a verb: the chain stops before it.
        ["/recall meeting notes -> /summarize -> /tell @entropy",
         {"verb": "recall", "marker": null, "intent": "search", "chain": null},
         "I don't know the verb /summarize - the common ones are /recall, /search, /reply, /post and /tell"],
        ["/recall notes -> /tell @entropy",
         {"verb": "recall", "marker": null, "intent": "search",
          "chain": {"verb": "tell", "marker": null, "intent": "agent", "chain": null}}, null],
        ["/post bluesky \"\"\"\nmulti-line\ncontent\n\"\"\"",
         {"verb": "post", "marker": null, "intent": "bluesky", "chain": null}, null],
        ["/batch {\n  /recall project_notes\n  /fetch https://project-docs.example.com\n}",
         {"verb": "batch", "marker": null, "intent": null, "chain": null}, null],
    ]);
    assert_eq!(Value::Array(view), expected);
    // More fields: where each action is, and its arguments.
    assert_eq!(got[0]["line"], 2);
    assert_eq!(
        got[5]["action"]["arguments"]["content"]["text"],
        "multi-line\ncontent"
    );
    assert_eq!(
        got[6]["action"]["arguments"]["actions"][1]["intent"],
        "markdown"
    );
    let span = &got[0]["span"];
    let (start, end) = (
        span["start"].as_u64().unwrap(),
        span["end"].as_u64().unwrap(),
    );
    assert_eq!(
        &AGENT_OUTPUT[start as usize..end as usize],
        "/recall project deadlines"
    );
}

#[test]
fn an_unknown_verb_has_a_null_action_and_an_error() {
    let sb = Sandbox::new("dialect-unknown");
    let run = sb.prose_with_stdin(&["dialect", "parse"], b"/aprove req-1\n/recal x\n");
    assert_eq!(
        run.code, 0,
        "errors in actions are not a failure of the command"
    );
    let got = lines(&run.stdout);
    assert_eq!(got[0]["action"], Value::Null);
    assert_eq!(
        got[0]["error"],
        "/aprove looks like /approve, but I never guess a permission decision - write /approve exactly"
    );
    assert_eq!(
        got[0]["diagnostics"],
        serde_json::json!([{"code": "D003", "severity": "error",
            "message": got[0]["error"],
            "range": {"start": {"line": 1, "column": 2}, "end": {"line": 1, "column": 8}}}])
    );
    // A corrected verb runs: a hint, no error.
    assert_eq!(got[1]["action"]["verb"], "recall");
    assert_eq!(got[1]["action"]["written"], "recal");
    assert_eq!(got[1]["error"], Value::Null);
    assert_eq!(got[1]["diagnostics"][0]["code"], "D002");
}

#[test]
fn a_registry_tells_reads_from_searches() {
    let sb = Sandbox::new("dialect-registry");
    sb.write(
        "blocks.txt",
        "# blocks\nproject_notes\nmeeting_notes\n[context]\npersona\n",
    );
    let input = b"/recall project_notes\n/recall read notes\n/remember persona + \"likes tea\"\n";
    let without = lines(&sb.prose_with_stdin(&["dialect", "parse"], input).stdout);
    assert_eq!(without[0]["action"]["intent"], "search");
    assert_eq!(without[1]["error"], Value::Null);
    assert_eq!(without[2]["action"]["verb"], "recall");

    let run = sb.prose_with_stdin(&["dialect", "parse", "--registry", "blocks.txt"], input);
    assert_eq!(run.code, 0, "{run:?}");
    let with = lines(&run.stdout);
    assert_eq!(with[0]["action"]["intent"], "read");
    assert_eq!(
        with[1]["error"],
        "'recall' found multiple blocks matching 'notes' - did you mean project_notes or meeting_notes?"
    );
    assert_eq!(with[2]["action"]["verb"], "context");
}

#[test]
fn usage_and_input_failures_exit_2() {
    let sb = Sandbox::new("dialect-failures");
    sb.write("bad.txt", "a\n[core]\n");
    let missing = sb.prose_with_stdin(
        &["dialect", "parse", "--registry", "nope.txt"],
        b"/recall x\n",
    );
    assert_eq!(missing.code, 2, "{missing:?}");
    assert!(
        missing.stderr.contains("nope.txt does not exist"),
        "{}",
        missing.stderr
    );
    assert_eq!(missing.stdout, "");

    let bad = sb.prose_with_stdin(
        &["dialect", "parse", "--registry", "bad.txt"],
        b"/recall x\n",
    );
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr
            .contains("bad.txt: line 2: unknown section `[core]`"),
        "{}",
        bad.stderr
    );

    let binary = sb.prose_with_stdin(&["dialect", "parse"], b"/recall \xff\n");
    assert_eq!(binary.code, 2);
    assert!(
        binary
            .stderr
            .contains("<stdin> is not valid UTF-8 (invalid byte at offset 8)"),
        "{}",
        binary.stderr
    );

    assert_eq!(
        sb.prose_with_stdin(&["dialect", "parse", "--bogus"], b"")
            .code,
        2
    );
    assert_eq!(sb.prose_with_stdin(&["dialect"], b"").code, 2);
}

#[test]
fn empty_input_and_prose_only_print_nothing() {
    let sb = Sandbox::new("dialect-empty");
    for input in [&b""[..], b"just some prose\n", b"/usr/bin/env is a path\n"] {
        let run = sb.prose_with_stdin(&["dialect", "parse"], input);
        assert_eq!((run.code, run.stdout.as_str()), (0, ""), "{input:?}");
    }
}

#[test]
fn crlf_bom_and_a_large_transcript() {
    let sb = Sandbox::new("dialect-large");
    let run = sb.prose_with_stdin(
        &["dialect", "parse"],
        "\u{feff}/reply hi .\r\n/cancel\r\n".as_bytes(),
    );
    let got = lines(&run.stdout);
    assert_eq!(got[0]["input"], "/reply hi .");
    assert_eq!(got[0]["action"]["arguments"]["content"]["text"], "hi");
    assert_eq!(got[1]["line"], 2);

    let transcript = "Thinking...\n/recall project_notes\n/reply ok .\n".repeat(20_000);
    let run = sb.prose_with_stdin(&["dialect", "parse"], transcript.as_bytes());
    assert_eq!(run.code, 0);
    assert_eq!(run.stdout.lines().count(), 40_000);
}

#[test]
fn explain_knows_the_dialect_codes() {
    let sb = Sandbox::new("dialect-explain");
    let run = sb.prose(&["explain", "D009"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout.starts_with("# D009 `halt-without-reason`\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .ends_with("Severity: error in the `default` profile, error in `strict`.\n")
    );
    let list = sb.prose(&["explain"]);
    assert!(
        list.stdout.contains("D001  unknown-verb"),
        "{}",
        list.stdout
    );
}

/// `prose check` on `.dialect` files: the registry `prose.toml` names
/// (`[dialect] registry`) checks block names; a registry that cannot be
/// read is a configuration error (status 2).
#[test]
fn check_uses_the_registry_of_prose_toml() {
    let sb = Sandbox::new("dialect-check-registry");
    sb.write(
        "prose.toml",
        "[dialect]\nregistry = \"agents/blocks.txt\"\n",
    )
    .write("agents/blocks.txt", "project_notes\nmeeting_notes\n")
    .write("out.dialect", "/recall read notes\n/recall project_notes\n");
    let run = sb.prose(&["check", "out.dialect"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout.contains(
            "error[D012]: 'recall' found multiple blocks matching 'notes' - did you mean project_notes or meeting_notes?"
        ),
        "{run:?}"
    );
    assert!(run.stdout.contains("out.dialect:1:14"), "{run:?}");

    sb.write("prose.toml", "[dialect]\nregistry = \"nope.txt\"\n");
    let run = sb.prose(&["check", "out.dialect"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr
            .contains("prose.toml: [dialect] registry `nope.txt`: cannot read"),
        "{run:?}"
    );
    sb.write("nope.txt", "[memory]\n");
    let run = sb.prose(&["check", "out.dialect"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr.contains("line 1: unknown section `[memory]`"),
        "{run:?}"
    );
}

/// `prose check --fix` applies the safe dialect fixes (a corrected verb's
/// spelling, `@` before a bare target) and never a guessed permission
/// decision.
#[test]
fn check_fix_applies_the_safe_fixes() {
    let sb = Sandbox::new("dialect-fix");
    sb.write(
        "out.dialect",
        "/recal notes\n/tell entropy hi\n/aprove req-1\n",
    );
    let run = sb.prose(&["check", "--fix", "out.dialect"]);
    assert_eq!(run.code, 1, "the misspelled /approve is left: {run:?}");
    assert_eq!(
        std::fs::read_to_string(sb.path().join("out.dialect")).unwrap(),
        "/recall notes\n/tell @entropy hi\n/aprove req-1\n"
    );
    assert!(run.stdout.contains("error[D003]"), "{run:?}");
}
