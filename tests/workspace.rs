//! End-to-end: `prose explain`, `prose.toml`, `--profile`, `--root`, and the
//! files the CLI loads from the workspace (memory files, imported programs).

mod common;

use common::Sandbox;

const DUPLICATE_AGENT: &str = "agent a:\n  model: opus\nagent a:\n  model: opus\n";

#[test]
fn explain_prints_a_code_page_and_lists_codes() {
    let sb = Sandbox::new("explain");
    let run = sb.prose(&["explain", "E006"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(
        run.stdout.starts_with("# E006 `duplicate-agent`\n"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("## Example"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("Severity: error in the `default` profile, error in `strict`."),
        "{}",
        run.stdout
    );

    let by_name = sb.prose(&["explain", "duplicate-agent"]);
    assert_eq!(by_name.stdout, run.stdout);

    let list = sb.prose(&["explain"]);
    assert_eq!(list.code, 0);
    assert!(
        list.stdout
            .lines()
            .any(|l| l.starts_with("E006  duplicate-agent")),
        "{}",
        list.stdout
    );

    let unknown = sb.prose(&["explain", "X999"]);
    assert_eq!(unknown.code, 2);
    assert!(
        unknown.stderr.contains("unknown diagnostic code `X999`"),
        "{}",
        unknown.stderr
    );
}

#[test]
fn prose_toml_severity_overrides_apply() {
    let sb = Sandbox::new("severity");
    sb.write("main.prose", DUPLICATE_AGENT);
    let before = sb.prose(&["check", "--format", "json", "main.prose"]);
    assert_eq!(before.code, 1, "{before:?}");
    assert!(
        before
            .stdout
            .contains(r#""code":"E006","severity":"error""#),
        "{}",
        before.stdout
    );

    sb.write("prose.toml", "[severity]\nE006 = \"warning\"\n");
    let warned = sb.prose(&["check", "--format", "json", "main.prose"]);
    assert_eq!(warned.code, 0, "warnings do not fail: {warned:?}");
    assert!(
        warned
            .stdout
            .contains(r#""code":"E006","severity":"warning""#),
        "{}",
        warned.stdout
    );

    sb.write("prose.toml", "[severity]\nE006 = \"off\"\n");
    let off = sb.prose(&["check", "--format", "json", "main.prose"]);
    assert_eq!(
        off.stdout.trim(),
        r#"{"version":1,"files":1,"diagnostics":[]}"#
    );
}

#[test]
fn a_broken_prose_toml_is_a_usage_failure_naming_the_file() {
    let sb = Sandbox::new("badconfig");
    sb.write("main.prose", "session \"hi\"\n");
    sb.write("prose.toml", "profile = \"lenient\"\n");
    let run = sb.prose(&["check", "main.prose"]);
    assert_eq!(run.code, 2, "{run:?}");
    assert!(run.stderr.contains("prose.toml"), "{}", run.stderr);
    assert!(
        run.stderr.contains("unknown profile `lenient`"),
        "{}",
        run.stderr
    );
}

#[test]
fn root_is_found_upwards_and_can_be_given() {
    let sb = Sandbox::new("root");
    sb.write("proj/prose.toml", "[severity]\nE006 = \"off\"\n");
    sb.write("proj/sub/main.prose", DUPLICATE_AGENT);
    // From inside the project, the config one level up applies.
    let inside = sb.prose_in("proj/sub", &["check", "--format", "json", "main.prose"]);
    assert_eq!(inside.code, 0, "{inside:?}");
    // From outside, it does not, unless --root names the project.
    let outside = sb.prose(&["check", "--format", "json", "proj/sub/main.prose"]);
    assert_eq!(outside.code, 1, "{outside:?}");
    let rooted = sb.prose(&[
        "check",
        "--root",
        "proj",
        "--format",
        "json",
        "proj/sub/main.prose",
    ]);
    assert_eq!(rooted.code, 0, "{rooted:?}");
}
