//! Job entries through the engine: every code, with its exact message,
//! range, severity, related location and tag, as `prose check` and the
//! editor report it; the configuration (`[severity]`, `select`, `ignore`,
//! profiles) applied to J codes; the shipped examples.
//!
//! The checks themselves are tested in `prose-jobs` (one file per code);
//! these tests prove that the engine reports all of them, unchanged.

use std::collections::BTreeSet;

use expect_test::{Expect, expect};

use crate::{
    config::Profile,
    diagnostics::Diagnostic,
    kind::FileKind,
    openprose::rule_tests::{diagnostics_as, line_col, render},
};

/// A job entry with a bit of everything (and one unknown variable,
/// `$nope`), for the feature tests: variables used directly and through
/// an escape (`\u0024style`), a keyword two grid rows share, tasks that
/// name each other, tools and runtime variables.
pub(crate) const ENTRY: &str = r#"{
  "models": {"driving": "gpt-5-mini", "planning": "gpt-5.2", "coding": "gpt-5.2-codex", "reviewers": ["claude-opus-4.5"]},
  "promptVariables": {
    "rules": ["Read AGENTS.md first.", "\u0024style"],
    "style": ["Be brief."],
    "answer": ["Call job_boolean_true if it holds, job_boolean_false if not."]
  },
  "grid": [{"keyword": "scrum", "automate": false, "jobs": [{"name": "problem", "id": "scrum-problem"}]}, {"keyword": "scrum", "automate": true, "jobs": []}],
  "tasks": {
    "plan-task": {"model": "planning", "prompt": ["$rules", "Write the plan for $user-input."], "requireUserInput": true},
    "code-task": {"model": "coding", "prompt": ["$rules $style", "Follow the plan. $user-input $nope"], "requireUserInput": true, "availability": {"previousTasks": ["plan-task"], "previousJobKeywords": ["scrum"]}, "criteria": {"toolExecuted": ["job_boolean_true"], "condition": ["$answer", "The code builds."], "runConditionInSameSession": false, "failureAction": ["RetryWithUserPrompt", 2, ["Fix it: $reported-false-reason"]]}}
  }
}
"#;

pub(crate) const SCRUM: &str = include_str!("../../../../docs/examples/scrum.jobs.json");
pub(crate) const BROKEN: &str = include_str!("../../../../docs/examples/broken.jobs.json");

fn diagnostics(fixture: &str, profile: Profile) -> (String, Vec<Diagnostic>) {
    diagnostics_as(fixture, FileKind::JobEntry, profile)
}

/// The diagnostics as `render` shows them, plus the tags.
fn show(text: &str, diags: &[Diagnostic]) -> String {
    let mut out = render(text, diags);
    for d in diags.iter().filter(|d| !d.tags.is_empty()) {
        let (line, col) = line_col(text, d.range.start().into());
        out.push_str(&format!(
            "tags of {} at {line}:{col}: {:?}\n",
            d.code.as_str(),
            d.tags
        ));
    }
    out
}

fn check(fixture: &str, expect: Expect) {
    let (text, diags) = diagnostics(fixture, Profile::Default);
    expect.assert_eq(&show(&text, &diags));
}

#[test]
fn the_realistic_entry_is_clean() {
    for profile in [Profile::Default, Profile::Strict] {
        let (_, diags) = diagnostics(SCRUM, profile);
        assert_eq!(diags, Vec::new());
    }
}

/// The engine reports what the front end finds, unchanged: code,
/// severity, message, range, related locations and tags (the front end's
/// own tests pin the messages of `broken.jobs.json`).
#[test]
fn the_broken_example_reports_every_error_at_its_place() {
    let (_, diags) = diagnostics(BROKEN, Profile::Default);
    let front_end = prose_jobs::validate(&prose_jobs::parse(BROKEN));
    assert_eq!(diags.len(), front_end.len());
    assert!(diags.len() >= 19, "{diags:?}");
    for (d, f) in diags.iter().zip(&front_end) {
        assert_eq!(
            (d.code.as_str(), d.severity.as_str(), &d.message, d.range),
            (f.code, f.severity.as_str(), &f.message, f.range)
        );
        let related: Vec<_> = d.related.iter().map(|r| (r.range, &r.message)).collect();
        let expected: Vec<_> = f.related.iter().map(|r| (r.range, &r.message)).collect();
        assert_eq!(related, expected);
        assert!(d.related.iter().all(|r| r.path == "/ws/example.jobs.json"));
        assert_eq!(d.tags.contains(&crate::Tag::Unnecessary), f.unnecessary);
    }
}

/// The codes the broken example does not show, with their exact messages.
#[test]
fn duplicates_names_and_limits() {
    // `$a` doubles 24 times: 32 MiB of text.
    let letter = |i: u8| char::from(b'a' + i);
    let mut vars: Vec<String> = (0..24)
        .map(|i| {
            let (v, next) = (letter(i), letter(i + 1));
            format!(r#""{v}": ["${next} ${next}"]"#)
        })
        .collect();
    vars.push(format!(r#""{}": ["x"]"#, letter(24)));
    let text = format!(
        r#"{{
  "models": {{"driving": "d", "planning": "p", "coding": "c", "reviewers": []}},
  "promptVariables": {{"$plan": ["Plan."], "step2": ["Two."], {}}},
  "grid": [],
  "tasks": {{
    "t": {{"prompt": ["${}"], "requireUserInput": false, "requireUserInput": false}}
  }}
}}
"#,
        vars.join(", "),
        letter(0)
    );
    check(
        &text,
        expect![[r#"
        J008 3:23-3:30 warning: entry.promptVariables["$plan"]: Write the name without "$": prompts use it as $plan, which looks up "plan".
        J008 3:43-3:50 warning: entry.promptVariables["step2"]: No prompt can use this variable: $step2 reads as $step followed by "2". A name is words of letters joined by hyphens.
        J019 6:21-6:27 error: entry.tasks["t"].prompt: The expanded prompt is 33554431 bytes, more than the limit of 1048576 bytes.
        J005 6:29-6:47 warning: entry.tasks["t"].requireUserInput: Duplicate key "requireUserInput"; only the last one counts, so this one is ignored.
          related 6:56-6:74: the key that counts
    "#]],
    );
}

#[test]
fn every_code_is_reported_through_the_engine() {
    let (_, broken) = diagnostics(BROKEN, Profile::Strict);
    let mut seen: BTreeSet<&str> = broken.iter().map(|d| d.code.as_str()).collect();
    let extra = r#"{"models": {"driving": "d", "planning": "p", "coding": "c", "reviewers": []},
      "promptVariables": {"$a": ["x"], "a": ["y"], "b": ["z"]}, "grid": [], "tasks": {"t": {"prompt": ["$a", "$b"], "requireUserInput": false}},
      "tasks": {"t": {"prompt": ["$a"], "requireUserInput": false}}}"#;
    let (_, extra) = diagnostics(extra, Profile::Strict);
    seen.extend(extra.iter().map(|d| d.code.as_str()));
    let (_, limit) = diagnostics(
        r#"{"models": {"driving": "d", "planning": "p", "coding": "c", "reviewers": []}, "grid": [],
           "promptVariables": {"a": ["$b $b $b $b $b $b $b $b"], "b": ["$c $c $c $c $c $c $c $c"], "c": ["$d $d $d $d $d $d $d $d"],
                               "d": ["$e $e $e $e $e $e $e $e"], "e": ["$f $f $f $f $f $f $f $f"], "f": ["$g $g $g $g $g $g $g $g"],
                               "g": ["$h $h $h $h $h $h $h $h"], "h": ["abcdefghijklmnopqrstuvwxyz"]},
           "tasks": {"t": {"prompt": ["$a"], "requireUserInput": false}}}"#,
        Profile::Strict,
    );
    seen.extend(limit.iter().map(|d| d.code.as_str()));
    let all: BTreeSet<&str> = super::rules().iter().map(|r| r.code).collect();
    let missing: Vec<_> = all.difference(&seen).collect();
    assert!(missing.is_empty(), "never reported: {missing:?}");
}

#[test]
fn many_errors_in_one_file_are_all_reported_in_order() {
    // 300 tasks, each with the same three mistakes.
    let tasks: Vec<String> = (0..300)
        .map(|i| {
            format!(r#""t{i}": {{"model": "planing", "prompt": ["$nope"], "requireUserInput": 1}}"#)
        })
        .collect();
    let text = format!(
        "{{\"models\": {{\"driving\": \"d\", \"planning\": \"p\", \"coding\": \"c\", \"reviewers\": []}},\n\"promptVariables\": {{}}, \"grid\": [],\n\"tasks\": {{\n{}\n}}}}\n",
        tasks.join(",\n")
    );
    let (_, diags) = diagnostics(&text, Profile::Default);
    let count = |code: &str| diags.iter().filter(|d| d.code.as_str() == code).count();
    assert_eq!(
        (count("J010"), count("J015"), count("J002")),
        (300, 300, 300)
    );
    assert_eq!(diags.len(), 900);
    assert!(
        diags
            .windows(2)
            .all(|w| w[0].range.start() <= w[1].range.start())
    );
    assert_eq!(
        diags[899].message,
        "entry.tasks[\"t299\"].requireUserInput: Expected a boolean, found a number."
    );
}

#[test]
fn configuration_applies_to_job_codes() {
    let entry = r#"{"models": {"driving": "d", "planning": "p", "coding": "c", "reviewers": []},
  "promptVariables": {"unused": ["x"]}, "grid": [],
  "tasks": {"t": {"model": "planing", "prompt": ["$nope"], "requireUserInput": false}}}
"#;
    // The defaults.
    check(
        entry,
        expect![[r#"
            J020 2:23-2:31 warning: entry.promptVariables["unused"]: $unused is never used: no task's prompt expands it.
            J010 3:28-3:37 error: entry.tasks["t"].model: "planing" is not a model key; did you mean "planning"?
            J015 3:51-3:56 error: entry.tasks["t"].prompt: Cannot find prompt variable: $nope.
            tags of J020 at 2:23: [Unnecessary]
        "#]],
    );
    // `[severity]` turns one off and raises another; `ignore` drops one.
    check(
        &format!(
            "#- /ws/prose.toml\nignore = [\"J015\"]\n[severity]\nJ020 = \"error\"\nJ010 = \"off\"\n#- /ws/a.jobs.json\n{entry}"
        ),
        expect![[r#"
            J020 2:23-2:31 error: entry.promptVariables["unused"]: $unused is never used: no task's prompt expands it.
            tags of J020 at 2:23: [Unnecessary]
        "#]],
    );
    // `select` keeps only what it names (a prefix works).
    check(
        &format!("#- /ws/prose.toml\nselect = [\"J01\"]\n#- /ws/a.jobs.json\n{entry}"),
        expect![[r#"
            J010 3:28-3:37 error: entry.tasks["t"].model: "planing" is not a model key; did you mean "planning"?
            J015 3:51-3:56 error: entry.tasks["t"].prompt: Cannot find prompt variable: $nope.
        "#]],
    );
}

#[test]
fn a_syntax_error_does_not_hide_the_other_checks() {
    check(
        r#"{"models": {"driving": "d", "planning": "p", "coding": "c", "reviewers": []}
  "promptVariables": {}, "grid": [],
  "tasks": {"t": {"model": "x", "prompt": ["$y"], "requireUserInput": false,}},
}"#,
        expect![[r#"
            J001 1:77-1:77 error: Expected `,`
            J010 3:28-3:31 error: entry.tasks["t"].model: "x" is not a model key; expected "driving", "planning" or "coding".
            J015 3:45-3:47 error: entry.tasks["t"].prompt: Cannot find prompt variable: $y.
        "#]],
    );
}

#[test]
fn other_json_is_not_a_job_entry() {
    // `package.json` has no kind: a directory scan skips it, and the
    // engine reports nothing for it as a job entry.
    let config = crate::Config::default();
    assert_eq!(
        crate::kind::kind_of_path("/ws/package.json", Some("/ws"), &config),
        None
    );
    for name in ["/ws/jobs.json", "/ws/ci/nightly.jobs.json"] {
        assert_eq!(
            crate::kind::kind_of_path(name, Some("/ws"), &config),
            Some(FileKind::JobEntry)
        );
    }
}

/// Every feature at many offsets of broken, truncated and clean entries:
/// an answer or nothing, never a panic, and every range inside the text.
#[test]
fn every_feature_answers_anywhere() {
    use crate::{FilePosition, FileRange, TextRange, TextSize, fixture::Fixture};

    let mut texts: Vec<String> = vec![ENTRY.into(), BROKEN.into(), SCRUM.into()];
    for cut in [1, 7, 40, 300, 1000, 2500] {
        for base in [ENTRY, BROKEN] {
            let at = (0..=cut.min(base.len()))
                .rev()
                .find(|&i| base.is_char_boundary(i))
                .unwrap();
            texts.push(base[..at].to_string());
        }
    }
    texts.push("{\"tasks\": {\"a\": {\"prompt\": [\"$".into());
    texts.push("[1, 2".into());
    texts.push("\"\\u0024x".into());
    texts.push(String::new());
    for text in &texts {
        let (host, file) = Fixture::parse_as(text, FileKind::JobEntry).host(None);
        let a = host.analysis();
        let len = TextSize::of(text.as_str());
        let inside = |r: TextRange| assert!(r.end() <= len, "{r:?} past {len:?} in {text:?}");
        a.diagnostics(file)
            .unwrap()
            .iter()
            .for_each(|d| inside(d.range));
        a.document_symbols(file)
            .unwrap()
            .iter()
            .for_each(|s| inside(s.full_range));
        a.folding_ranges(file)
            .unwrap()
            .iter()
            .for_each(|f| inside(f.range));
        a.semantic_tokens(file, None)
            .unwrap()
            .iter()
            .for_each(|t| inside(t.range));
        for lens in a.code_lenses(file).unwrap() {
            inside(lens.range);
            if let crate::code_lens::LensCommand::ShowTaskPrompt { task } = &lens.command {
                a.expanded_prompt(file, task).unwrap();
            }
        }
        let whole = TextRange::up_to(len);
        let actions = a.code_actions(FileRange { file, range: whole }).unwrap();
        for edit in actions
            .iter()
            .flat_map(|c| &c.edit.edits)
            .flat_map(|(_, e)| e)
        {
            inside(edit.range);
        }
        // Every char boundary of short texts, a sample of long ones.
        let step = (text.len() / 400).max(1);
        for at in (0..=text.len())
            .step_by(step)
            .filter(|&i| text.is_char_boundary(i))
        {
            let pos = FilePosition {
                file,
                offset: TextSize::from(at as u32),
            };
            if let Some(h) = a.hover(pos).unwrap() {
                inside(h.range);
            }
            a.completions(pos)
                .unwrap()
                .iter()
                .for_each(|c| inside(c.replace_range));
            a.goto_definition(pos)
                .unwrap()
                .iter()
                .for_each(|t| inside(t.full_range));
            a.references(pos, true)
                .unwrap()
                .iter()
                .for_each(|r| inside(r.range));
            a.highlight_related(pos)
                .unwrap()
                .iter()
                .for_each(|(r, _)| inside(*r));
            if let Ok(r) = a.prepare_rename(pos).unwrap() {
                inside(r);
                let change = a.rename(pos, "renamed").unwrap();
                for (_, edits) in change.iter().flat_map(|c| &c.edits) {
                    edits.iter().for_each(|e| inside(e.range));
                }
            }
        }
    }
}

/// What an injection host hands its guest: every prompt string in file
/// order, decoded, mapping back to the source through escapes.
#[test]
fn prompt_strings_for_injection() {
    use crate::fixture::Fixture;

    let (host, file) = Fixture::parse_as(ENTRY, FileKind::JobEntry).host(None);
    let a = host.analysis();
    let strings = a
        .with_db(|db| super::prompt_strings(db, a.source_file(file)))
        .unwrap();
    let texts: Vec<&str> = strings.iter().map(|s| s.as_str()).collect();
    expect![[r#"
        [
            "Read AGENTS.md first.",
            "$style",
            "Be brief.",
            "Call job_boolean_true if it holds, job_boolean_false if not.",
            "$rules",
            "Write the plan for $user-input.",
            "$rules $style",
            "Follow the plan. $user-input $nope",
            "$answer",
            "The code builds.",
            "Fix it: $reported-false-reason",
        ]"#]]
    .assert_eq(&format!("{texts:#?}"));
    let escaped = strings.iter().find(|s| s.as_str() == "$style").unwrap();
    assert_eq!(&ENTRY[escaped.source_range(0, 6)], "\\u0024style");
    assert_eq!(&ENTRY[escaped.content_range()], "\\u0024style");
}
