//! End-to-end tests of the `prose` command line (the real binary, run in a
//! scratch directory; see tests/common/mod.rs for how it is built).

mod common;

use common::Sandbox;

/// CRLF line endings, and non-ASCII characters before the error on its line:
/// `é` is 2 bytes and `😀` 4 bytes (2 UTF-16 units), yet each is one column.
const CRLF_UNICODE: &str =
    "# ünïcödé\r\nagent a:\r\n  model: sonnet\r\n\r\nsession \"héllo 😀\" foo\r\n";

/// An error reported at the end of a CRLF line (on the `\r`).
const CRLF_EOL: &str = "let x =\r\n";

const GOOD: &str = "agent a:\n  model: sonnet\n\nsession: a\n  prompt: \"Hello\"\n";
const BAD: &str = "session \"x\" foo\n";

#[test]
fn json_has_exact_one_based_scalar_value_positions() {
    let sb = Sandbox::new("json");
    sb.write("crlf.prose", CRLF_UNICODE)
        .write("eol.prose", CRLF_EOL);
    let run = sb.prose(&["check", "--format", "json", "eol.prose", "crlf.prose"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(run.stderr, "");
    // Ordered by path, then position.
    assert_eq!(
        run.stdout,
        concat!(
            r#"{"version":1,"files":2,"diagnostics":["#,
            r#"{"path":"crlf.prose","code":"E004","severity":"error","#,
            r#""message":"Unexpected `foo`: expected end of line","#,
            r#""range":{"start":{"line":5,"column":19},"end":{"line":5,"column":22}}},"#,
            r#"{"path":"eol.prose","code":"E005","severity":"error","#,
            r#""message":"Expected an expression","#,
            r#""range":{"start":{"line":1,"column":8},"end":{"line":1,"column":8}}}"#,
            "]}\n"
        )
    );
    // The contract: valid JSON with exactly these keys.
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let keys: Vec<_> = v.as_object().unwrap().keys().cloned().collect();
    assert_eq!(keys.len(), 3);
    let d = &v["diagnostics"][0];
    assert_eq!(d.as_object().unwrap().len(), 5);
}

#[test]
fn json_for_a_clean_file() {
    let sb = Sandbox::new("json-clean");
    sb.write("good.prose", GOOD);
    let run = sb.prose(&["check", "--format=json", "good.prose"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "{\"version\":1,\"files\":1,\"diagnostics\":[]}\n"
    );
}

#[test]
fn human_output_has_code_location_source_line_and_carets() {
    let sb = Sandbox::new("human");
    sb.write("crlf.prose", CRLF_UNICODE);
    let run = sb.prose(&["check", "crlf.prose"]);
    assert_eq!(run.code, 1, "{run:?}");
    let out = &run.stdout;
    assert!(out.contains("error[E004]: Unexpected `foo`"), "{out}");
    assert!(out.contains("crlf.prose:5:19"), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    // The source line (without its `\r`), then carets under exactly `foo`;
    // `😀` is two terminal cells wide, so the carets start at cell 20.
    let src = lines
        .iter()
        .position(|l| *l == "5 | session \"héllo 😀\" foo")
        .unwrap_or_else(|| panic!("no source line in\n{out}"));
    assert_eq!(lines[src + 1], format!("  |{}^^^", " ".repeat(20)));
    assert_eq!(lines.last(), Some(&"1 error, 0 warnings in 1 file"));
    assert!(
        !out.contains('\x1b'),
        "no colour when stdout is not a terminal"
    );
    assert!(!out.contains('\r'));
}

#[test]
fn colour_follows_clicolor_force_and_no_color() {
    let sb = Sandbox::new("colour");
    sb.write("bad.prose", BAD);
    let forced = sb.prose_with_env(&["check", "bad.prose"], &[("CLICOLOR_FORCE", "1")]);
    assert_eq!(forced.code, 1);
    assert!(forced.stdout.contains('\x1b'), "{forced:?}");
    let no_color = sb.prose_with_env(
        &["check", "bad.prose"],
        &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")],
    );
    assert_eq!(no_color.code, 1);
    assert!(!no_color.stdout.contains('\x1b'), "{no_color:?}");
    // JSON is never coloured.
    let json = sb.prose_with_env(
        &["check", "--format", "json", "bad.prose"],
        &[("CLICOLOR_FORCE", "1")],
    );
    assert!(!json.stdout.contains('\x1b'), "{json:?}");
}

#[test]
fn exit_codes() {
    let sb = Sandbox::new("exit");
    sb.write("good.prose", GOOD).write("bad.prose", BAD);

    let run = sb.prose(&["check", "good.prose"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.stdout, "0 errors, 0 warnings in 1 file\n");

    let run = sb.prose(&["check", "good.prose", "bad.prose"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stdout.ends_with("1 error, 0 warnings in 2 files\n"));

    // Usage errors.
    for args in [
        &["check", "--format", "xml", "good.prose"][..],
        &["check", "--bogus", "good.prose"],
        &["frobnicate"],
        &[],
    ] {
        let run = sb.prose(args);
        assert_eq!(run.code, 2, "{args:?}: {run:?}");
        assert_eq!(run.stdout, "", "{args:?}");
        assert!(!run.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn non_utf8_file_is_reported_and_the_others_still_checked() {
    let sb = Sandbox::new("utf8");
    let mut bytes = b"session \"caf".to_vec(); // 12 bytes
    bytes.extend_from_slice(b"\xc3\xa9 \xff\"\n"); // `é`, space, then 0xFF at 15
    sb.write("bad-encoding.prose", bytes)
        .write("other.prose", BAD);

    // The file is an F001 diagnostic of the report, in path order.
    let run = sb.prose(&["check", "bad-encoding.prose", "other.prose"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(run.stderr, "");
    assert!(
        run.stdout.starts_with(
            "error[F001]: bad-encoding.prose is not valid UTF-8 (invalid byte at offset 15)\n--> bad-encoding.prose\n\n"
        ),
        "{run:?}"
    );
    assert!(run.stdout.contains("other.prose:1:13"), "{run:?}");
    assert!(
        run.stdout
            .ends_with("1 error, 0 warnings in 1 file; 1 path could not be read\n")
    );

    // In JSON too (and on stderr, for whoever watches the log).
    let run = sb.prose(&["check", "--format", "json", "."]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(
        run.stderr,
        "error: ./bad-encoding.prose is not valid UTF-8 (invalid byte at offset 15)\n"
    );
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["files"], 1);
    assert_eq!(
        v["diagnostics"][0],
        serde_json::json!({
            "path": "./bad-encoding.prose", "code": "F001", "severity": "error",
            "message": "./bad-encoding.prose is not valid UTF-8 (invalid byte at offset 15)",
            "range": {"start": {"line": 1, "column": 1}, "end": {"line": 1, "column": 1}}
        })
    );
    assert_eq!(v["diagnostics"][1]["path"], "./other.prose");
}

#[test]
fn nonexistent_path_is_reported_and_the_others_still_checked() {
    let sb = Sandbox::new("missing");
    sb.write("good.prose", GOOD);
    let run = sb.prose(&["check", "missing.prose", "good.prose", "nodir/"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(run.stderr, "");
    assert_eq!(
        run.stdout,
        "error[F001]: missing.prose does not exist\n--> missing.prose\n\n\
         error[F001]: nodir/ does not exist\n--> nodir/\n\n\
         0 errors, 0 warnings in 1 file; 2 paths could not be read\n"
    );
}

#[test]
fn directories_are_recursed_in_sorted_order() {
    let sb = Sandbox::new("recurse");
    sb.write("proj/b.prose", BAD)
        .write("proj/a.prose", BAD)
        .write("proj/sub/deeper/d.prose", BAD)
        .write("proj/sub/c.prose", BAD)
        .write("proj/a-b.prose", GOOD)
        .write("proj/notes.txt", BAD) // not `*.prose`: skipped in directories
        .write("proj/sub/x.prose.bak", BAD)
        .write("explicit.txt", BAD) // named explicitly: checked
        .mkdir("proj/empty");

    let run = sb.prose(&["check", "--format", "json", "proj", "explicit.txt"]);
    assert_eq!(run.code, 1, "{run:?}");
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(v["files"], 6);
    let paths: Vec<&str> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        paths,
        [
            "explicit.txt",
            "proj/a.prose",
            "proj/b.prose",
            "proj/sub/c.prose",
            "proj/sub/deeper/d.prose",
        ]
    );

    // Paths stay as spelled, and a file reached twice is checked once.
    let run = sb.prose(&["check", "./proj/sub/", "./proj/sub/c.prose"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(
        run.stdout.contains(" --> ./proj/sub/c.prose:1:13\n"),
        "{run:?}"
    );
    assert!(run.stdout.contains(" --> ./proj/sub/deeper/d.prose:1:13\n"));
    assert!(run.stdout.ends_with("2 errors, 0 warnings in 2 files\n"));

    // A directory without files to check is an error alone, a warning
    // beside others (tests/cli_ci.rs has more).
    let run = sb.prose(&["check", "proj/empty"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(run.stdout, "");
}

#[test]
fn dump_cst_and_dump_tokens() {
    let sb = Sandbox::new("dump");
    sb.write("bad.prose", BAD);

    let run = sb.prose(&["dump-cst", "bad.prose"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.starts_with("SOURCE_FILE@0..16\n"), "{run:?}");
    assert!(run.stdout.contains("error E004"), "{run:?}");

    let run = sb.prose(&["dump-tokens", "bad.prose"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout
            .starts_with("SESSION_KW \"session\"\nWHITESPACE \" \"\nSTRING_OPEN \"\\\"\"\n"),
        "{run:?}"
    );

    for cmd in ["dump-cst", "dump-tokens"] {
        let run = sb.prose(&[cmd, "missing.prose"]);
        assert_eq!(run.code, 2, "{run:?}");
        assert_eq!(run.stderr, "error: missing.prose does not exist\n");
    }
}

#[test]
fn version_and_help() {
    let sb = Sandbox::new("help");
    // The version and the commit it was built from (with its date).
    let run = sb.prose(&["--version"]);
    assert_eq!(run.code, 0);
    let commit = std::process::Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8(o.stdout).unwrap().trim().to_string());
    let expected = format!("prose {} (", env!("CARGO_PKG_VERSION"));
    match commit {
        Some(commit) => {
            assert!(
                run.stdout.starts_with(&format!("{expected}{commit} ")),
                "{run:?}"
            );
            assert!(run.stdout.ends_with(")\n"), "{run:?}");
        }
        // Built outside a checkout: the version alone.
        None => assert!(run.stdout.starts_with("prose "), "{run:?}"),
    }
    let run = sb.prose(&["check", "--version"]);
    assert!(
        run.stdout
            .starts_with(&format!("prose-check {}", &expected[6..])),
        "{run:?}"
    );

    let run = sb.prose(&["--help"]);
    assert_eq!(run.code, 0);
    for word in ["Usage: prose <COMMAND>", "check", "dump-cst", "dump-tokens"] {
        assert!(run.stdout.contains(word), "{word}: {}", run.stdout);
    }

    let run = sb.prose(&["check", "--help"]);
    assert_eq!(run.code, 0);
    for word in ["--format", "human", "json", "Exit status"] {
        assert!(run.stdout.contains(word), "{word}: {}", run.stdout);
    }
}

/// A directory gives every file of a known kind (docs/languages.md), in
/// path order, and nothing else; job entries, markdown and dialect files
/// are not read as programs.
#[test]
fn directories_give_every_kind_of_document() {
    let sb = Sandbox::new("kinds");
    // Job entries that check clean (tests/jobs.rs has the J checks).
    let entry = "{\"models\": {\"driving\": \"d\", \"planning\": \"p\", \"coding\": \"c\", \"reviewers\": []},\n \"promptVariables\": {}, \"grid\": [], \"tasks\": {}}\n";
    sb.write("prose.toml", "[files]\njobs = [\"ci/*.json\"]\n")
        .write("a.prose", GOOD)
        .write("team.jobs.json", entry)
        .write("ci/nightly.json", entry)
        .write("package.json", "{ not a program }\n")
        .write("notes.md", "# Notes\n\nSome _emphasis_ here.\n")
        .write(".agents/review.md", "/read a.prose\nReview it.\n")
        .write("out.dialect", "/recall notes\n")
        .write(".git/x.prose", BAD)
        .write("node_modules/m/README.md", "# m\n");
    let run = sb.prose(&["check", "--format", "json", "."]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.stdout,
        "{\"version\":1,\"files\":6,\"diagnostics\":[]}\n"
    );
    // A file named explicitly is checked whatever its name: as a program
    // when no kind matches.
    let run = sb.prose(&["check", "--format", "json", "package.json"]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stdout.contains("\"path\":\"package.json\""), "{run:?}");
}
