//! Fixture tests of markdown files in the engine: every diagnostic path
//! (the prompt file's `M` codes, instruction `K` codes, fenced programs),
//! and every feature (hover, completion, tokens, links, definition,
//! outline, lens, model view, quick fixes, the files to load).

use expect_test::{Expect, expect};
use prose_syntax::{TextRange, TextSize};

use crate::{
    AnalysisHost, FileId, FilePosition, FileRange,
    auxiliary::AuxState,
    config::Profile,
    fixture::{CURSOR, Fixture},
    kind::FileKind,
    openprose::rule_tests::{line_col, render},
};

/// `l:c-l:c` of a range.
pub(crate) fn at(text: &str, r: TextRange) -> String {
    let (l1, c1) = line_col(text, r.start().into());
    let (l2, c2) = line_col(text, r.end().into());
    format!("{l1}:{c1}-{l2}:{c2}")
}

/// A host with `fixture` (a headerless text is a file of `kind`), the
/// auxiliary `files` (`None`: missing), and every other auxiliary path the
/// file names missing; the file under test and the `$0` offset, if any.
pub(crate) fn setup(
    fixture: &str,
    kind: FileKind,
    files: &[(&str, Option<&str>)],
) -> (AnalysisHost, FileId, String, Option<TextSize>) {
    let f = Fixture::parse_as(fixture, kind);
    let (mut host, _) = f.host(Some(Profile::Default));
    let (path, text) = f
        .files
        .iter()
        .find(|(p, _)| !p.ends_with("prose.toml"))
        .cloned()
        .expect("a file");
    let file = host.file_id(&path).unwrap();
    for (p, t) in files {
        let state = match t {
            Some(t) => AuxState::Text(t.to_string()),
            None => AuxState::Missing,
        };
        host.set_aux_file(&format!("/ws/{p}"), state);
    }
    let known = host.aux_paths();
    let aux = host.analysis().external_paths(file).unwrap().aux;
    for p in aux {
        if !known.contains(&p) && host.file_id(&p).is_none() {
            host.set_aux_file(&p, AuxState::Missing);
        }
    }
    let offset = f.markers.first().map(|(_, o)| TextSize::new(*o as u32));
    (host, file, text, offset)
}

fn check(fixture: &str, kind: FileKind, files: &[(&str, Option<&str>)], expect: Expect) {
    let (host, file, text, _) = setup(fixture, kind, files);
    let diags = host.analysis().diagnostics(file).unwrap();
    expect.assert_eq(&render(&text, &diags));
}

fn prompt(fixture: &str, expect: Expect) {
    check(fixture, FileKind::PromptFile, &[], expect);
}

fn markdown(fixture: &str, expect: Expect) {
    check(fixture, FileKind::Markdown, &[], expect);
}

// ---- diagnostics ------------------------------------------------------------

#[test]
fn prompt_files_get_m_codes_and_k_codes_in_their_content() {
    prompt(
        r#"/read docs/design.md
/push name=a "Research A"
/push name=a "Research B"
/run 0
/raed x.md
Implement the feature.
_if_ tests fail, _then_ _termiante_ "SGN_FAIL".
/read late.md
"#,
        expect![[r#"
            M005 1:7-1:21 warning: `docs/design.md` does not exist: the model gets an error result instead of its text
            M010 3:12-3:13 error: Task name `a` is already used by the `/push` on line 2
              related 2:12-2:13: first used here
            M011 4:6-4:7 error: `/run` takes a positive whole number (how many queued tasks to start), not `0`
            M001 5:1-5:6 warning: Unknown command `/raed` (did you mean `/read`?): the commands processed here are `/read`, `/push` and `/run`
            K001 7:25-7:36 warning: `_termiante_` is not a keyword: did you mean `_terminate_`?
            M002 8:1-8:6 error: `/read` is processed only before the content; after the model finishes the file is read for no one (move it to the top)
            M005 8:7-8:14 warning: `late.md` does not exist: the model gets an error result instead of its text
        "#]],
    );
}

#[test]
fn read_targets_are_auxiliary_files() {
    let fixture = "/read docs/persona.md\n/read $PWD/notes.md\n/read missing.md\nWork.\n";
    check(
        fixture,
        FileKind::PromptFile,
        &[
            ("docs/persona.md", Some("/read other.md\n# Persona\n")),
            ("notes.md", Some("Notes\n")),
        ],
        expect![[r#"
            M006 1:7-1:22 hint: `docs/persona.md` starts with commands (`/read other.md`); they are not expanded: the model sees them as text
            M005 3:7-3:17 warning: `missing.md` does not exist: the model gets an error result instead of its text
        "#]],
    );
    // Paths the host never looked up are unknown: nothing is reported.
    let f = Fixture::parse_as(fixture, FileKind::PromptFile);
    let (host, file) = f.host(None);
    assert!(host.analysis().diagnostics(file).unwrap().is_empty());
}

#[test]
fn workspace_files_answer_before_auxiliary_files() {
    prompt(
        "#- /ws/task.prompt.md\n/read main.prose\nRun it.\n#- /ws/main.prose\nsession \"x\"\n",
        expect![""],
    );
}

#[test]
fn instruction_files_get_k_codes_and_ordinary_markdown_none() {
    markdown(
        r#"# Agent

_if_ _instructed_ like "review {file}", _then_ _run_ `lint {path}`.
_else_ _terminate_ SGN_DONE.
_if_ nothing is left, _then_ _spawn_ `agents/gone.md`.
"#,
        expect![[r#"
            K009 3:60-3:66 warning: `{path}` is not bound by the condition's pattern: it binds `{file}`
            K004 4:8-4:19 warning: Quote the message: `_terminate_ "SGN_DONE"` (the caller matches the exact reply)
            K007 5:39-5:53 warning: `agents/gone.md` does not exist: the sub-agent has no instructions to start with
        "#]],
    );
    markdown(
        r#"# Project

You can _run_ the tests with `cargo test`. Only _if_ needed, _remember_ to
update the _changelog_. See `_if_` in the docs, and [the _spawn_ guide](x/_spawn_/y.md).
"#,
        expect![""],
    );
}

#[test]
fn configured_instruction_files_are_checked_without_using_the_language() {
    let fixture = "#- /ws/prose.toml\n[files]\ninstructions = [\"AGENTS.md\"]\n#- /ws/AGENTS.md\n_if_ the build fails, stop.\n";
    check(
        fixture,
        FileKind::Markdown,
        &[],
        expect![[r#"
            K003 1:1-1:5 error: `_if_` without `_then_`: write `_if_ CONDITION, _then_ ACTION` in the same paragraph or list item
        "#]],
    );
    check(
        "#- /ws/NOTES.md\n_if_ the build fails, stop.\n",
        FileKind::Markdown,
        &[],
        expect![""],
    );
}

#[test]
fn fenced_programs_and_dialect_are_checked_in_place() {
    markdown(
        r#"# Example

```prose
session: reviewer
```

- In a list:

  ```prose
  let x = y
  ```

```dialect
/summarize notes
```

```prose ignore
session: nobody
```
"#,
        expect![[r#"
            E007 4:10-4:18 error: Agent not defined: `reviewer`
            P402 10:11-10:12 error: Undefined variable: `y` (did you mean `x`?)
            D001 14:2-14:11 error: I don't know the verb /summarize - the common ones are /recall, /search, /reply, /post and /tell
        "#]],
    );
}

#[test]
fn the_host_files_configuration_applies_to_guests() {
    let fixture = "#- /ws/prose.toml\nignore = [\"E007\"]\n[severity]\nK004 = \"error\"\n#- /ws/AGENTS.md\n_if_ done, _then_ _terminate_ SGN_DONE.\n\n```prose\nsession: nobody\n```\n";
    check(
        fixture,
        FileKind::Markdown,
        &[],
        expect![[r#"
            K004 1:19-1:30 error: Quote the message: `_terminate_ "SGN_DONE"` (the caller matches the exact reply)
        "#]],
    );
}

// ---- features ---------------------------------------------------------------

fn position(
    fixture: &str,
    kind: FileKind,
    files: &[(&str, Option<&str>)],
) -> (AnalysisHost, FilePosition, String) {
    let (host, file, text, offset) = setup(fixture, kind, files);
    let offset = offset.expect("a $0 cursor");
    (host, FilePosition { file, offset }, text)
}

fn hover(fixture: &str, kind: FileKind, files: &[(&str, Option<&str>)]) -> String {
    let (host, pos, text) = position(fixture, kind, files);
    match host.analysis().hover(pos).unwrap() {
        Some(h) => format!("{}\n{}", at(&text, h.range), h.markdown),
        None => "none".into(),
    }
}

#[test]
fn hover_in_prompt_files() {
    let h = hover(
        "/read docs/a$0.md\nWork.\n",
        FileKind::PromptFile,
        &[("docs/a.md", Some("# A\nline 2\n"))],
    );
    expect![[r#"
        1:7-1:16
        **`docs/a.md`**

        ```markdown
        # A
        line 2
        ```
    "#]]
    .assert_eq(&h);
    let h = hover("/re$0ad gone.md\nWork.\n", FileKind::PromptFile, &[]);
    assert!(h.starts_with("1:1-1:6\n```text\n/read FILE\n```"), "{h}");
    let h = hover("/read gone$0.md\nWork.\n", FileKind::PromptFile, &[]);
    assert!(
        h.contains("The file does not exist")
            && h.contains("---\n\n**warning M005** `missing-read-file`"),
        "the problem follows: {h}"
    );
    let h = hover(
        "Work, then _terminate$0_ \"SGN_DONE\".\n",
        FileKind::PromptFile,
        &[],
    );
    assert!(
        h.starts_with("1:12-1:23\n```markdown\n_terminate_ \"MESSAGE\""),
        "{h}"
    );
}

/// Issue 11 B: every keyword and every SOP signal has its hover in an
/// instruction file, a prompt string of a program and a job prompt, with
/// the expansion the seed gives.
#[test]
fn every_keyword_and_signal_has_its_hover_wherever_agents_read() {
    use prose_markdown::instructions::vocabulary::{KEYWORDS, SIGNALS};
    let words = KEYWORDS
        .iter()
        .map(|k| (k.written(), k.expansion().to_string()))
        .chain(
            SIGNALS
                .iter()
                .map(|s| (s.name.to_string(), s.name.to_string())),
        );
    for (word, expected) in words {
        let line = format!("_if_ _instructed_, _then_ {word} and _terminate_ \"SGN_DONE\".");
        let cursor = line.replacen(&word, &format!("{}$0{}", &word[..2], &word[2..]), 1);
        let json_cursor = cursor.replace('"', "\\\"");
        for (fixture, kind) in [
            (format!("{cursor}\n"), FileKind::Markdown),
            (
                format!("session \"{}\"\n", cursor.replace('"', "\\\"")),
                FileKind::OpenProse,
            ),
            (
                format!("{{\"tasks\": {{\"t\": {{\"prompt\": [\"{json_cursor}\"]}}}}}}\n"),
                FileKind::JobEntry,
            ),
        ] {
            let h = hover(&fixture, kind, &[]);
            assert!(h.contains(&expected), "{word} in {kind:?}: {h}");
        }
    }
}

#[test]
fn hover_in_instruction_files_and_fences() {
    let h = hover(
        "_if_ _resum$0ed_ like \"SGN_RESUME\", _then_ _terminate_ \"x\".\n",
        FileKind::Markdown,
        &[],
    );
    assert!(h.starts_with("1:6-1:15\n"), "{h}");
    assert!(h.contains("**_resumed_**"), "{h}");
    assert!(
        h.contains("**hint K011**"),
        "with the hint's explanation: {h}"
    );
    let h = hover(
        "# Docs\n\n```prose\nagent a:\n  model: opus\nsess$0ion: a\n```\n",
        FileKind::Markdown,
        &[],
    );
    assert!(h.starts_with("6:1-6:8\n"), "{h}");
    assert!(h.contains("session"), "{h}");
    assert_eq!(
        hover("You can _ru$0n_ the tests.\n", FileKind::Markdown, &[]),
        "none",
        "ordinary markdown has no instruction hover"
    );
}

fn completions(fixture: &str, kind: FileKind) -> Vec<String> {
    let (host, pos, text) = position(fixture, kind, &[]);
    host.analysis()
        .completions(pos)
        .unwrap()
        .iter()
        .map(|c| format!("{} {}", c.label, at(&text, c.replace_range)))
        .collect()
}

#[test]
fn completion_by_place() {
    assert_eq!(
        completions("/r$0\nWork.\n", FileKind::PromptFile),
        ["/read 1:1-1:3", "/run 1:1-1:3"]
    );
    assert_eq!(
        completions("Work.\n_ter$0\n", FileKind::PromptFile),
        ["_terminate_ 2:1-2:5"]
    );
    assert_eq!(
        completions(
            "_if_ x, _then_ _terminate_ \"a\".\n_fol$0\n",
            FileKind::Markdown
        ),
        ["_follow_ 2:1-2:5"]
    );
    assert!(
        completions("# Readme\n_ter$0\n", FileKind::Markdown).is_empty(),
        "not in ordinary markdown"
    );
    let in_fence = completions("```prose\nagent a:\n  mod$0\n```\n", FileKind::Markdown);
    assert!(
        in_fence.iter().any(|c| c.starts_with("model 3:3-3:6")),
        "{in_fence:?}"
    );
}

#[test]
fn path_completion_names_the_directory_to_list() {
    let (host, pos, text) = position("/read docs/de$0\nWork.\n", FileKind::PromptFile, &[]);
    let p = host.analysis().path_completion(pos).unwrap().unwrap();
    assert_eq!(
        (
            p.dir.as_str(),
            p.typed.as_str(),
            at(&text, p.replace).as_str()
        ),
        ("/ws/docs", "de", "1:12-1:14")
    );
    let (host, pos, _) = position("/read $PWD/a$0\nWork.\n", FileKind::PromptFile, &[]);
    let p = host.analysis().path_completion(pos).unwrap().unwrap();
    assert_eq!((p.dir.as_str(), p.typed.as_str()), ("/ws", "a"));
    let (host, pos, _) = position("Wo$0rk.\n", FileKind::PromptFile, &[]);
    assert_eq!(host.analysis().path_completion(pos).unwrap(), None);
}

pub(crate) fn tokens(fixture: &str, kind: FileKind) -> String {
    let (host, file, text, _) = setup(fixture, kind, &[]);
    let mut out = String::new();
    for t in host.analysis().semantic_tokens(file, None).unwrap() {
        out.push_str(&format!(
            "{} {} {}\n",
            at(&text, t.range),
            &text[t.range],
            t.kind.name()
        ));
    }
    out
}

#[test]
fn semantic_tokens_of_prompt_files_instructions_and_fences() {
    expect![[r#"
        1:1-1:6 /read keyword
        1:7-1:11 a.md string
        2:1-2:5 /run keyword
        2:6-2:7 2 number
        3:10-3:21 _terminate_ macro
        3:22-3:23 " string
        3:23-3:31 SGN_DONE enumMember
        3:31-3:32 " string
    "#]]
    .assert_eq(&tokens(
        "/read a.md\n/run 2\nWork and _terminate_ \"SGN_DONE\".\n",
        FileKind::PromptFile,
    ));
    expect![[r#"
        1:1-1:5 _if_ keyword
        1:6-1:15 _resumed_ event
        1:16-1:20 like operator
        1:21-1:24 "x" regexp
        1:26-1:32 _then_ keyword
    "#]]
    .assert_eq(&tokens(
        "_if_ _resumed_ like \"x\", _then_ stop.\n",
        FileKind::Markdown,
    ));
    assert_eq!(tokens("You can _run_ the tests.\n", FileKind::Markdown), "");
    expect![[r#"
        2:1-2:8 session keyword
        2:9-2:10 " string
        2:10-2:11 x string
        2:11-2:12 " string
    "#]]
    .assert_eq(&tokens(
        "```prose\nsession \"x\"\n```\n",
        FileKind::Markdown,
    ));
}

#[test]
fn links_and_definitions() {
    let (host, file, text, _) = setup(
        "/read docs/a.md\n/read gone.md\nWork, then _spawn_ `agents/b.md`.\n",
        FileKind::PromptFile,
        &[("docs/a.md", Some("A")), ("agents/b.md", Some("B"))],
    );
    let links: Vec<String> = host
        .analysis()
        .document_links(file)
        .unwrap()
        .iter()
        .map(|l| format!("{} {}", at(&text, l.range), l.target))
        .collect();
    assert_eq!(
        links,
        ["1:7-1:16 /ws/docs/a.md", "3:21-3:32 /ws/agents/b.md"]
    );

    let (host, pos, text) = position(
        "## _if_ _subreplied_ like \"SGN_PENDING ({id})\", _then_:\n- _run_ `resume {i$0d}`\n",
        FileKind::Markdown,
        &[],
    );
    let targets = host.analysis().goto_definition(pos).unwrap();
    let t: Vec<String> = targets
        .iter()
        .map(|t| format!("{} {}", at(&text, t.full_range), t.name))
        .collect();
    assert_eq!(t, ["1:41-1:45 {id}"]);
}

#[test]
fn outline_of_a_prompt_file() {
    let (host, file, text, _) = setup(
        "/read a.md\n\n# Task\nDo it.\n\n/push name=n \"Next\"\n",
        FileKind::PromptFile,
        &[],
    );
    let mut out = String::new();
    fn walk(
        text: &str,
        s: &[crate::features::document_symbols::DocumentSymbol],
        depth: usize,
        out: &mut String,
    ) {
        for s in s {
            out.push_str(&format!(
                "{}{:?} {} {}\n",
                "  ".repeat(depth),
                s.kind,
                s.name,
                at(text, s.full_range)
            ));
            walk(text, &s.children, depth + 1, out);
        }
    }
    walk(
        &text,
        &host.analysis().document_symbols(file).unwrap(),
        0,
        &mut out,
    );
    expect![[r#"
        Heading Leading commands 1:1-1:11
          Command /read a.md 1:1-1:11
        Heading Content 3:1-4:7
          Heading Task 3:1-4:7
        Heading Trailing commands 6:1-6:20
          Command /push name=n "Next" 6:1-6:20
    "#]]
    .assert_eq(&out);
    let (host, file, _, _) = setup("# Title\n", FileKind::Markdown, &[]);
    assert!(host.analysis().document_symbols(file).unwrap().is_empty());
}

#[test]
fn the_model_view_lens_and_its_text() {
    let (host, file, text, _) = setup(
        "/read docs/a.md\n/read gone.md\nDo it.\n",
        FileKind::PromptFile,
        &[("docs/a.md", Some("# A\n"))],
    );
    let analysis = host.analysis();
    let lenses = analysis.code_lenses(file).unwrap();
    assert_eq!(lenses.len(), 1);
    assert_eq!(at(&text, lenses[0].range), "1:1-1:6");
    assert_eq!(lenses[0].title, "Show what the model receives");
    assert_eq!(
        lenses[0].command,
        crate::code_lens::LensCommand::ShowModelView
    );
    let view = analysis.model_view(file).unwrap().unwrap();
    expect![[r#"
        # What the model receives

        Before the model runs, in order:

        1. `/read docs/a.md`: injected as messages 1 and 2
        2. `/read gone.md`: injected as messages 3 and 4

        ## 1. Assistant: tool_use

        ```json
        {"tool": "read", "path": "docs/a.md"}
        ```

        ## 2. Tool result

        ```markdown
        # A
        ```

        ## 3. Assistant: tool_use

        ```json
        {"tool": "read", "path": "gone.md"}
        ```

        ## 4. Tool result (error)

        ```text
        Error: gone.md: file not found
        ```

        ## 5. User message

        ```markdown
        Do it.
        ```
    "#]]
    .assert_eq(&view);
    let (host, file, _, _) = setup("_if_ a, _then_ b.\n", FileKind::Markdown, &[]);
    assert!(host.analysis().code_lenses(file).unwrap().is_empty());
    assert_eq!(host.analysis().model_view(file).unwrap(), None);
}

fn actions(fixture: &str, kind: FileKind) -> Vec<String> {
    let (host, file, text, _) = setup(fixture, kind, &[]);
    let range = TextRange::up_to(TextSize::of(text.as_str()));
    host.analysis()
        .code_actions(FileRange { file, range })
        .unwrap()
        .iter()
        .map(|a| {
            let edits: Vec<String> = a.edit.edits[0]
                .1
                .iter()
                .map(|e| format!("{} {:?}", at(&text, e.range), e.new_text))
                .collect();
            format!(
                "{} {:?} preferred={} safe={} {}",
                a.diagnostic_code.unwrap_or("-"),
                a.title,
                a.is_preferred,
                a.is_safe,
                edits.join(", ")
            )
        })
        .collect()
}

#[test]
fn quick_fixes() {
    expect![[r#"
        [
            "M001 \"Change to `/read`\" preferred=true safe=false 1:1-1:6 \"/read\"",
            "K001 \"Change to `_terminate_`\" preferred=true safe=false 2:12-2:23 \"_terminate_\"",
            "K004 \"Quote the message\" preferred=true safe=true 3:29-3:37 \"\\\"SGN_DONE\\\"\"",
        ]
    "#]]
    .assert_debug_eq(&actions(
        "/raed a.md\nWork, then _termiante_ \"X\".\n_if_ ok, _then_ _terminate_ SGN_DONE.\n",
        FileKind::PromptFile,
    ));
}

#[test]
fn auxiliary_paths_to_load() {
    let (host, file, _, _) = setup(
        "/read docs/a.md\n/read docs/a.md\n/push \"/read b.md\\nGo\"\nWork, then _spawn_ `agents/c.md`.\n\n```prose\nagent x:\n  model: opus\n  persist: project\n```\n",
        FileKind::PromptFile,
        &[],
    );
    let paths = host.analysis().external_paths(file).unwrap();
    assert_eq!(paths.aux, ["/ws/docs/a.md", "/ws/b.md", "/ws/agents/c.md"]);
    assert_eq!(
        paths.memory,
        ["/ws/.prose/agents/x/memory.md"],
        "from the fence"
    );
    let _ = CURSOR;
}
