//! End-to-end tests of `prose fmt` (the real binary, run in a scratch
//! directory; see tests/common/mod.rs for how it is built).
//!
//! `formats_the_official_corpus_safely` runs when `PROSE_CORPUS` names the
//! corpus directory (relative paths are taken from the workspace root), e.g.
//! `PROSE_CORPUS=../shared/corpus/openprose-examples cargo test -p prose-e2e --test fmt`.

mod common;

use std::fs;

use common::Sandbox;
use prose_syntax::SyntaxKind;

const UGLY: &str = "agent a:\n    model:opus   \n\n\n\nsession: a\n    prompt:\"hi\"\n";
const PRETTY: &str = "agent a:\n  model: opus\n\nsession: a\n  prompt: \"hi\"\n";
const BROKEN: &str = "session   \"x\" foo\n";

fn read(sb: &Sandbox, rel: &str) -> String {
    fs::read_to_string(sb.path().join(rel)).expect("read a sandbox file")
}

#[test]
fn formats_files_in_place_and_searches_directories() {
    let sb = Sandbox::new("fmt-in-place");
    sb.write("main.prose", UGLY)
        .write("lib/deep/util.prose", UGLY)
        .write("lib/notes.txt", UGLY)
        .write("named.txt", UGLY)
        .write("ok.prose", PRETTY);
    let run = sb.prose(&["fmt", "main.prose", "lib", "named.txt", "ok.prose"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.stdout, "");
    assert_eq!(run.stderr, "");
    assert_eq!(read(&sb, "main.prose"), PRETTY);
    assert_eq!(read(&sb, "lib/deep/util.prose"), PRETTY);
    // Directories are searched for `*.prose` only; a named file is formatted
    // whatever its extension.
    assert_eq!(read(&sb, "lib/notes.txt"), UGLY);
    assert_eq!(read(&sb, "named.txt"), PRETTY);
    // Formatting is a fixed point.
    let again = sb.prose(&["fmt", "--check", "."]);
    assert_eq!(again.code, 0, "{again:?}");
    assert_eq!(again.stdout, "");
}

#[test]
fn check_lists_unformatted_files_and_changes_nothing() {
    let sb = Sandbox::new("fmt-check");
    sb.write("b.prose", UGLY)
        .write("a/ugly.prose", UGLY)
        .write("a/pretty.prose", PRETTY);
    let run = sb.prose(&["fmt", "--check", "."]);
    assert_eq!(run.code, 1, "{run:?}");
    let sep = std::path::MAIN_SEPARATOR;
    assert_eq!(
        run.stdout,
        format!(".{sep}a{sep}ugly.prose\n.{sep}b.prose\n")
    );
    assert_eq!(run.stderr, "");
    assert_eq!(read(&sb, "b.prose"), UGLY);

    let run = sb.prose(&["fmt", "--check", "a/pretty.prose"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.stdout, "");
}

#[test]
fn files_with_syntax_errors_are_left_alone() {
    let sb = Sandbox::new("fmt-broken");
    sb.write("broken.prose", BROKEN).write("ugly.prose", UGLY);
    // Exit 2: could not format (1 is "would reformat").
    let run = sb.prose(&["fmt", "broken.prose", "ugly.prose"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(run.stdout, "");
    assert!(
        run.stderr.contains(
            "broken.prose was not formatted: it has a syntax error (see `prose check broken.prose`)"
        ),
        "{}",
        run.stderr
    );
    assert_eq!(read(&sb, "broken.prose"), BROKEN);
    // The other files are still formatted.
    assert_eq!(read(&sb, "ugly.prose"), PRETTY);

    let run = sb.prose(&["fmt", "--check", "broken.prose"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(run.stdout, "");
    assert!(run.stderr.contains("broken.prose"), "{}", run.stderr);

    // A file that would change and one that cannot be formatted: 2 wins,
    // and the one that would change is still listed.
    sb.write("ugly.prose", UGLY);
    let run = sb.prose(&["fmt", "--check", "broken.prose", "ugly.prose"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(run.stdout, "ugly.prose\n");
}

#[test]
fn diff_shows_the_changes_and_writes_nothing() {
    let sb = Sandbox::new("fmt-diff");
    sb.write("ugly.prose", UGLY).write("pretty.prose", PRETTY);
    let run = sb.prose(&["fmt", "--diff", "."]);
    assert_eq!(run.code, 1, "{run:?}");
    assert_eq!(run.stderr, "");
    let sep = std::path::MAIN_SEPARATOR;
    assert!(
        run.stdout
            .starts_with(&format!("--- .{sep}ugly.prose\n+++ .{sep}ugly.prose\n@@ ")),
        "{run:?}"
    );
    assert_eq!(read(&sb, "ugly.prose"), UGLY);
    // The diff is a patch that makes the file formatted.
    let patched = apply_unified(UGLY, &run.stdout);
    assert_eq!(patched, PRETTY);

    let run = sb.prose(&["fmt", "--diff", "pretty.prose"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.stdout, "");
}

/// Applies a one-file unified diff (as `prose fmt --diff` prints it).
fn apply_unified(old: &str, diff: &str) -> String {
    let old: Vec<&str> = old.split_inclusive('\n').collect();
    let mut out = String::new();
    let mut at = 0;
    for line in diff.split_inclusive('\n').skip(2) {
        if let Some(header) = line.strip_prefix("@@ -") {
            let start: usize = header.split([',', ' ']).next().unwrap().parse().unwrap();
            while at + 1 < start {
                out.push_str(old[at]);
                at += 1;
            }
        } else if let Some(text) = line.strip_prefix('+') {
            out.push_str(text);
        } else if line.starts_with('-') {
            at += 1;
        } else if let Some(text) = line.strip_prefix(' ') {
            out.push_str(text);
            at += 1;
        }
    }
    for rest in &old[at..] {
        out.push_str(rest);
    }
    out
}

/// The shipped examples are in the canonical layout, compiler.md's
/// chained pipelines (`pipeline.prose`) included.
#[test]
fn the_examples_are_formatted() {
    let sb = Sandbox::new("fmt-examples");
    let examples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples");
    let clean: Vec<String> = ["hello", "pipeline", "research-pipeline"]
        .iter()
        .map(|name| examples.join(format!("{name}.prose")).display().to_string())
        .collect();
    let mut args = vec!["fmt", "--check"];
    args.extend(clean.iter().map(String::as_str));
    let run = sb.prose(&args);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.stdout, "");
}

#[test]
fn nothing_to_format_is_an_error() {
    let sb = Sandbox::new("fmt-empty");
    sb.mkdir("empty").write("a/x.prose", PRETTY).mkdir("b");
    let run = sb.prose(&["fmt", "--check", "empty"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert_eq!(
        run.stderr,
        "error: nothing to format: empty holds no *.prose file\n"
    );
    // Beside a directory with programs, an empty one is a warning.
    let run = sb.prose(&["fmt", "--check", "a", "b"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(run.stderr, "warning: b holds no *.prose file\n");
}

#[test]
fn unreadable_paths_exit_2_and_the_rest_is_formatted() {
    let sb = Sandbox::new("fmt-missing");
    sb.write("ugly.prose", UGLY)
        .write("latin1.prose", b"session \"caf\xe9\"\n");
    let run = sb.prose(&["fmt", "missing.prose", "latin1.prose", "ugly.prose"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(
        run.stderr.contains("missing.prose does not exist"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("latin1.prose is not valid UTF-8"),
        "{}",
        run.stderr
    );
    assert_eq!(read(&sb, "ugly.prose"), PRETTY);

    let usage = sb.prose(&["fmt"]);
    assert_eq!(usage.code, 2, "{usage:?}");
}

#[test]
fn line_endings_and_untouched_text() {
    let sb = Sandbox::new("fmt-crlf");
    let crlf = "agent a:\r\n    model: opus\r\n    prompt: \"\"\"\r\n   keep   \r\n\"\"\"\r\n";
    sb.write("crlf.prose", crlf);
    let run = sb.prose(&["fmt", "crlf.prose"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        read(&sb, "crlf.prose"),
        "agent a:\r\n  model: opus\r\n  prompt: \"\"\"\r\n   keep   \r\n\"\"\"\r\n"
    );
}

#[test]
fn help_documents_the_exit_status() {
    let sb = Sandbox::new("fmt-help");
    let run = sb.prose(&["fmt", "--help"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.contains("--check"), "{}", run.stdout);
    assert!(run.stdout.contains("Exit status:"), "{}", run.stdout);
    assert!(run.stdout.contains("syntax errors"), "{}", run.stdout);
}

// ---- the official corpus --------------------------------------------------

/// The tokens that are not blanks or line breaks, with comments trimmed at
/// the end (trailing blanks are the only thing a comment may lose).
fn visible_tokens(text: &str) -> Vec<(SyntaxKind, String)> {
    let lexed = prose_syntax::lexer::lex(text);
    lexed
        .iter(text)
        .filter(|(k, _)| !matches!(k, SyntaxKind::WHITESPACE | SyntaxKind::NEWLINE))
        .map(|(k, t)| {
            let t = if k == SyntaxKind::COMMENT {
                t.trim_end()
            } else {
                t
            };
            (k, t.to_string())
        })
        .collect()
}

/// `text` with every blank run tripled (indentation included, but not the
/// blanks before a trailing comment, whose alignment is kept) and blanks
/// at every line end: the same program, badly laid out.
fn mangle(text: &str) -> String {
    let lexed = prose_syntax::lexer::lex(text);
    let tokens: Vec<_> = lexed.iter(text).collect();
    let mut out = String::new();
    for (i, (kind, piece)) in tokens.iter().enumerate() {
        let trailing_comment = i > 0
            && tokens[i - 1].0 != SyntaxKind::NEWLINE
            && tokens
                .get(i + 1)
                .is_some_and(|(k, _)| *k == SyntaxKind::COMMENT);
        match kind {
            SyntaxKind::WHITESPACE if !trailing_comment => out.push_str(&piece.repeat(3)),
            SyntaxKind::NEWLINE => {
                out.push_str(" \t");
                out.push_str(piece);
            }
            _ => out.push_str(piece),
        }
    }
    out
}

#[test]
fn formats_the_official_corpus_safely() {
    let Some(corpus) = prose_test_support::corpus_dir() else {
        return;
    };
    let files = prose_test_support::prose_files(&corpus);

    let sb = Sandbox::new("fmt-corpus");
    let mut originals = Vec::new();
    for path in &files {
        let rel = path
            .strip_prefix(&corpus)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let text = fs::read_to_string(path).unwrap();
        sb.write(&format!("corpus/{rel}"), &text);
        sb.write(&format!("mangled/{rel}"), mangle(&text));
        originals.push((rel, text));
    }

    // Two programs have syntax errors: they are not formatted (status 2).
    let run = sb.prose(&["fmt", "corpus"]);
    assert!(run.code == 0 || run.code == 2, "{run:?}");
    let mangled = sb.prose(&["fmt", "mangled"]);
    assert_eq!(mangled.code, run.code, "{mangled:?}");
    let mut skipped = 0;
    for (rel, original) in &originals {
        let formatted = read(&sb, &format!("corpus/{rel}"));
        let before = prose_syntax::parse(original);
        let after = prose_syntax::parse(&formatted);
        if before.broken().next().is_none() {
            // Every program whose tree is whole is formatted (notes on
            // string text, such as an unknown escape, do not stop it)...
            assert!(
                !run.stderr.contains(rel.as_str()),
                "{rel} was not formatted:\n{}",
                run.stderr
            );
            // ... to one canonical form, however badly it was laid out.
            assert!(
                read(&sb, &format!("mangled/{rel}")) == formatted,
                "{rel}: the mangled copy formats differently"
            );
        } else {
            // ... and only programs with syntax errors are skipped, unchanged.
            assert!(
                run.stderr.contains(rel.as_str()),
                "{rel} is not named:\n{}",
                run.stderr
            );
            assert_eq!(&formatted, original, "{rel} has syntax errors yet changed");
            skipped += 1;
        }
        // (b) Only whitespace changed: the same tokens, strings and comments.
        assert_eq!(
            visible_tokens(&formatted),
            visible_tokens(original),
            "{rel}: the tokens changed"
        );
        // (c) The result has no new errors.
        let codes = |p: &prose_syntax::Parse| {
            p.errors()
                .iter()
                .map(|e| (e.code, e.message.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(codes(&after), codes(&before), "{rel}: the errors changed");
        // No trailing whitespace outside strings, one final newline.
        if formatted != *original {
            assert!(
                formatted.ends_with('\n') && !formatted.ends_with("\n\n"),
                "{rel}"
            );
        }
    }
    // (a) Idempotence: a second pass changes nothing.
    let again = sb.prose(&["fmt", "--check", "corpus"]);
    assert_eq!(
        again.stdout, "",
        "formatting is not idempotent for these files"
    );
    assert_eq!(again.code, if skipped > 0 { 2 } else { 0 }, "{again:?}");
    println!(
        "{} corpus files: {} formatted, {skipped} skipped for syntax errors",
        originals.len(),
        originals.len() - skipped
    );
}
