//! Diagnostic documentation kept in the rule's own source file.
//!
//! Every language of the workspace documents each diagnostic code in the
//! leading `//!` comment of the file that implements it: a page starting
//! `# CODE `name``, with an `## Example` block that triggers the code and a
//! `## Fix` block that does not. The front ends (`prose-dialect`, ...) and
//! the engine's shared registry (`prose-ide`) read those pages with these
//! functions, so a page reads the same in `prose explain`, in
//! `docs/diagnostics/` and through a front end's own API.
//!
//! ```
//! let source = "//! # D009 `halt-without-reason`\n//!\n//! ## Example\n//! ```dialect\n//! /halt\n//! ```\n\nconst X: u8 = 0;\n";
//! let page = prose_rule_docs::page(source);
//! assert!(page.starts_with("# D009 `halt-without-reason`\n"));
//! assert_eq!(prose_rule_docs::fenced_block(&page, "Example", "dialect").as_deref(), Some("/halt\n"));
//! ```

/// The documentation page of a rule file: its leading `//!` comment as
/// markdown (blank lines before it skipped; one space after `//!` taken
/// off). Empty when the file does not start with one.
pub fn page(source: &str) -> String {
    let mut out = String::new();
    for line in source.lines() {
        let Some(rest) = line.strip_prefix("//!") else {
            if line.trim().is_empty() {
                continue;
            }
            break;
        };
        out.push_str(rest.strip_prefix(' ').unwrap_or(rest));
        out.push('\n');
    }
    out
}

/// The body of the first block fenced in `lang` after the heading
/// `## {heading}` of a page (a fence of three or more backticks, closed by
/// the same fence), each line with its line break; `None` when there is
/// none or it is never closed.
pub fn fenced_block(page: &str, heading: &str, lang: &str) -> Option<String> {
    let start = page.find(&format!("## {heading}"))?;
    let mut lines = page[start..].split_inclusive('\n');
    let fence = lines.by_ref().find_map(|l| {
        let ticks = l.len() - l.trim_start_matches('`').len();
        (ticks >= 3 && l[ticks..].trim_end() == lang).then(|| &l[..ticks])
    })?;
    let mut body = String::new();
    for l in lines {
        if l.trim_end() == fence {
            return Some(body);
        }
        body.push_str(l);
    }
    None
}

/// The first uncaptioned block fenced in `lang` in the section
/// `## {heading}` of a page (to the next `## ` heading outside a fence), and
/// the files its blocks captioned ``File `PATH`:`` (on the line before the
/// fence) define, as `(PATH, body)`: the files an example reads. `None`
/// when the section has no uncaptioned block of `lang`.
pub fn example_with_files(
    page: &str,
    heading: &str,
    lang: &str,
) -> Option<(String, Vec<(String, String)>)> {
    let start = page.find(&format!("## {heading}"))?;
    let mut main = None;
    let mut files = Vec::new();
    let mut caption: Option<String> = None;
    let mut fence: Option<(&str, Option<String>, String)> = None;
    for (i, l) in page[start..].split_inclusive('\n').enumerate() {
        if let Some((ticks, path, body)) = fence.as_mut() {
            if l.trim_end() == *ticks {
                match path.take() {
                    Some(p) => files.push((p, std::mem::take(body))),
                    None if main.is_none() => main = Some(std::mem::take(body)),
                    None => {}
                }
                fence = None;
            } else {
                body.push_str(l);
            }
            continue;
        }
        if i > 0 && l.starts_with("## ") {
            break;
        }
        let ticks = l.len() - l.trim_start_matches('`').len();
        if ticks >= 3 {
            let path = caption.take();
            if l[ticks..].trim_end() == lang {
                fence = Some((&l[..ticks], path, String::new()));
            }
        } else if !l.trim().is_empty() {
            caption = l
                .trim()
                .strip_prefix("File `")
                .and_then(|r| r.strip_suffix("`:"))
                .map(str::to_string);
        }
    }
    Some((main?, files))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_is_the_leading_doc_comment() {
        let source = "\n//! # E001 `x`\n//!\n//!Tight.\n//! ## Example\nuse a;\n//! not docs\n";
        assert_eq!(page(source), "# E001 `x`\n\nTight.\n## Example\n");
        assert_eq!(page("use a;\n//! late\n"), "");
    }

    #[test]
    fn fenced_blocks_by_heading_and_language() {
        let docs = "# C\n## Example\n```json\n{}\n```\n````prose\nlet x = \"```\"\n````\n## Fix\n```prose\nok\n";
        assert_eq!(
            fenced_block(docs, "Example", "json").as_deref(),
            Some("{}\n")
        );
        assert_eq!(
            fenced_block(docs, "Example", "prose").as_deref(),
            Some("let x = \"```\"\n"),
            "a longer fence holds a shorter one"
        );
        assert_eq!(fenced_block(docs, "Fix", "prose"), None, "never closed");
        assert_eq!(fenced_block(docs, "Why", "prose"), None);
    }

    #[test]
    fn examples_with_the_files_they_read() {
        let docs = "## Example\nFile `a.md`:\n```markdown\n# A\n```\n\n```markdown\n/read a.md\n```\n```markdown\nlater\n```\n## Fix\n```markdown\nok\n```\n";
        assert_eq!(
            example_with_files(docs, "Example", "markdown"),
            Some((
                "/read a.md\n".to_string(),
                vec![("a.md".to_string(), "# A\n".to_string())]
            ))
        );
        assert_eq!(
            example_with_files(docs, "Fix", "markdown"),
            Some(("ok\n".to_string(), Vec::new()))
        );
        assert_eq!(example_with_files(docs, "Example", "prose"), None);
    }
}
