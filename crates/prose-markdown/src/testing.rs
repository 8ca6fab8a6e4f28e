//! Test helpers shared by both languages: rendering diagnostics and
//! ranges as `line:col`, applying quick fixes, reading the examples of a
//! code's documentation, and a file lookup for them.

use std::collections::HashMap;

use crate::Diagnostic;

/// `line:col` (1-based, columns in chars) of `offset` in `text`.
pub(crate) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, col)
}

/// `l:c-l:c` of a range.
pub(crate) fn at(text: &str, r: text_size::TextRange) -> String {
    let (l1, c1) = line_col(text, r.start().into());
    let (l2, c2) = line_col(text, r.end().into());
    format!("{l1}:{c1}-{l2}:{c2}")
}

/// One line per diagnostic: `CODE l:c-l:c severity: message`, then its
/// related locations.
pub(crate) fn render(text: &str, diags: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diags {
        out.push_str(&format!(
            "{} {} {}: {}\n",
            d.code,
            at(text, d.range),
            d.severity.as_str(),
            d.message
        ));
        for r in &d.related {
            out.push_str(&format!("  related {}: {}\n", at(text, r.range), r.message));
        }
    }
    out
}

/// The files most tests assume: these exist, everything else is missing
/// (a documentation example adds its own, see `prose_rule_docs::example_with_files`).
fn example_files() -> HashMap<String, Option<String>> {
    let mut m = HashMap::new();
    for (path, text) in [
        ("docs/design.md", "# Design\n\nThe feature.\n"),
        ("docs/testing.md", "# Testing\n"),
        ("notes/summary-template.md", "# Summary\n"),
        ("agents/reviewer.md", "# Reviewer\n"),
    ] {
        m.insert(path.to_string(), Some(text.to_string()));
    }
    m
}

/// A lookup with [`example_files`] where every other path is missing.
pub(crate) struct ExampleFiles(pub HashMap<String, Option<String>>);

impl ExampleFiles {
    /// The example files plus `files` (`None`: missing).
    pub(crate) fn with(files: &[(&str, Option<&str>)]) -> ExampleFiles {
        let mut map = example_files();
        for (p, t) in files {
            map.insert(p.to_string(), t.map(str::to_string));
        }
        ExampleFiles(map)
    }
}

impl crate::FileLookup for ExampleFiles {
    fn lookup(&self, path: &str) -> crate::Lookup<'_> {
        match self.0.get(path) {
            Some(Some(t)) => crate::Lookup::Exists(Some(t)),
            _ => crate::Lookup::Missing,
        }
    }
}

/// `text` with `d`'s quick fix applied.
pub(crate) fn apply_fix(text: &str, d: &Diagnostic) -> String {
    let fix = d.fix.as_ref().expect("the diagnostic has no fix");
    let mut out = text.to_string();
    let mut edits = fix.edits.clone();
    edits.sort_by_key(|e| std::cmp::Reverse(e.range.start()));
    for e in edits {
        out.replace_range(crate::text::span(e.range), &e.new_text);
    }
    out
}

/// Every diagnostic of a documentation example, run as its code's
/// language (`M`: a prompt file, `K`: an instruction file).
fn example_diagnostics(code: &str, text: &str, files: &[(String, String)]) -> Vec<Diagnostic> {
    let f: Vec<(&str, Option<&str>)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), Some(t.as_str())))
        .collect();
    let lookup = ExampleFiles::with(&f);
    if code.starts_with('M') {
        let file = crate::prompt::parse_prompt_file(text);
        crate::prompt::check(text, &file, &lookup)
    } else {
        let ins = crate::instructions::analyze_instructions(
            text,
            crate::instructions::FragmentKind::File,
        );
        crate::instructions::check(text, &ins, &lookup)
    }
}

/// Each code's `## Example` triggers it, and its `## Fix` is clean apart
/// from hints (K011 marks every `_resumed_`), and never triggers the code.
#[test]
fn every_example_triggers_and_fix_does_not() {
    let mut failures = Vec::new();
    for rule in crate::rules() {
        let docs = rule.docs();
        let (Some((example, ex_files)), Some((fix, fix_files))) = (
            prose_rule_docs::example_with_files(&docs, "Example", "markdown"),
            prose_rule_docs::example_with_files(&docs, "Fix", "markdown"),
        ) else {
            failures.push(format!(
                "{}: docs need `## Example` and `## Fix` markdown blocks",
                rule.code
            ));
            continue;
        };
        if !example_diagnostics(rule.code, &example, &ex_files)
            .iter()
            .any(|d| d.code == rule.code)
        {
            failures.push(format!("{}: the Example does not trigger it", rule.code));
        }
        let bad: Vec<_> = example_diagnostics(rule.code, &fix, &fix_files)
            .into_iter()
            .filter(|d| d.code == rule.code || d.severity != crate::Severity::Hint)
            .collect();
        if !bad.is_empty() {
            failures.push(format!(
                "{}: the Fix is not clean:\n{}",
                rule.code,
                render(&fix, &bad)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Codes are unique and sorted (`M` then `K`), kebab-case named, and
/// documented with a title, an explanation of the severity and a summary.
#[test]
fn codes_are_sorted_named_and_documented() {
    let rules = crate::rules();
    assert_eq!(rules.len(), 26);
    for w in rules.windows(2) {
        let same_lang = w[0].code[..1] == w[1].code[..1];
        assert!(
            !same_lang || w[0].code < w[1].code,
            "{} then {}",
            w[0].code,
            w[1].code
        );
    }
    for r in rules {
        let docs = r.docs();
        assert!(
            docs.starts_with(&format!("# {} `{}`", r.code, r.name)),
            "{}: docs must start with `# CODE `name``",
            r.code
        );
        assert!(
            docs.contains("## Severity"),
            "{}: docs must explain the severity",
            r.code
        );
        assert!(
            r.name.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
            "{}",
            r.code
        );
        assert_eq!(crate::rule(r.code).map(|x| x.name), Some(r.name));
        assert_eq!(crate::rule(r.name).map(|x| x.code), Some(r.code));
    }
}

/// The table of codes in `docs/markdown.md`, between its `codes:` markers.
fn codes_table() -> String {
    let mut out = String::from("| code | name | severity | what it reports |\n|---|---|---|---|\n");
    for r in crate::rules() {
        out.push_str(&format!(
            "| {} | `{}` | {} | {} |\n",
            r.code,
            r.name,
            r.severity.as_str(),
            r.summary
        ));
    }
    out
}

/// `docs/markdown.md` lists every code with its name and severity; run with
/// `UPDATE_EXPECT=1` to rewrite the table.
#[test]
fn docs_table_is_fresh() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/markdown.md");
    let doc = std::fs::read_to_string(&path).expect("docs/markdown.md");
    let start_marker = "<!-- codes:start";
    let end_marker = "<!-- codes:end -->";
    let start = doc.find(start_marker).expect("start marker");
    let start = start + doc[start..].find("-->\n").expect("end of start marker") + 4;
    let end = doc.find(end_marker).expect("end marker");
    let fresh = codes_table();
    if doc[start..end] != fresh {
        if std::env::var_os("UPDATE_EXPECT").is_some() {
            let updated = format!("{}{}{}", &doc[..start], fresh, &doc[end..]);
            std::fs::write(&path, updated).expect("write docs/markdown.md");
        } else {
            panic!(
                "docs/markdown.md's table of codes is stale: run `UPDATE_EXPECT=1 cargo test -p prose-markdown docs_table_is_fresh`"
            );
        }
    }
}
