//! `--format sarif`: a SARIF 2.1.0 log, the format code scanning reads
//! (GitHub's `upload-sarif` action, GitLab, IDE viewers).
//!
//! One run, tool `prose` with the rules that have results (each with its
//! name, summary, its docs page as Markdown help, and `helpUri` when
//! `docs-url` is configured); one result per diagnostic with its exact
//! region and related locations. Columns are Unicode scalar values, as in
//! every output of `prose check`, and the run says so (`columnKind`).
//! Relative paths are relative URI references (what code scanning wants
//! from a run at the repository root); absolute ones are `file://` URIs.

use std::io::{self, Write};

use prose_ide::{Diagnostic, Severity};
use serde_json::{Value, json};

use crate::{line_index::LineIndex, report::Report};

pub fn write(out: &mut dyn Write, report: &Report, docs_url: Option<&str>) -> io::Result<()> {
    // The rules with results, in code order.
    let mut codes: Vec<&'static str> = report.diagnostics().map(|(_, d)| d.code.as_str()).collect();
    codes.sort_unstable();
    codes.dedup();
    let rules: Vec<Value> = codes.iter().map(|code| rule(code, docs_url)).collect();
    let mut results = Vec::new();
    for file in &report.files {
        let index = LineIndex::new(&file.text);
        for d in &file.diagnostics {
            let rule_index = codes.binary_search(&d.code.as_str()).unwrap_or(0);
            results.push(result(report, &file.path, &index, d, rule_index));
        }
    }
    let log = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "prose",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    });
    serde_json::to_writer_pretty(&mut *out, &log)?;
    writeln!(out)
}

fn rule(code: &str, docs_url: Option<&str>) -> Value {
    let Some(rule) = prose_ide::rule(code) else {
        return json!({ "id": code });
    };
    let docs = rule.docs();
    let mut value = json!({
        "id": rule.code,
        "name": rule.name,
        "shortDescription": { "text": rule.summary },
        "help": { "text": docs, "markdown": docs },
        "defaultConfiguration": { "level": level(rule.strict) },
    });
    if let Some(uri) = docs_url.and_then(|base| prose_ide::config::docs_url_for(base, code)) {
        value["helpUri"] = json!(uri);
    }
    value
}

fn result(report: &Report, path: &str, index: &LineIndex, d: &Diagnostic, rule: usize) -> Value {
    let related: Vec<Value> = d
        .related
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let location = match report.file_by_key(&r.path) {
                Some(f) => physical(&f.path, Some((&LineIndex::new(&f.text), r.range))),
                None => physical(&r.path, None),
            };
            json!({ "id": i, "physicalLocation": location, "message": { "text": r.message } })
        })
        .collect();
    let mut value = json!({
        "ruleId": d.code.as_str(),
        "ruleIndex": rule,
        "level": level(d.severity),
        "message": { "text": d.message },
        "locations": [{ "physicalLocation": physical(path, Some((index, d.range))) }],
    });
    if !related.is_empty() {
        value["relatedLocations"] = json!(related);
    }
    value
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info | Severity::Hint => "note",
    }
}

/// A `physicalLocation`: the file, and the region when its text is known.
fn physical(path: &str, region: Option<(&LineIndex, prose_ide::TextRange)>) -> Value {
    let mut value = json!({ "artifactLocation": { "uri": uri(path) } });
    if let Some((index, range)) = region {
        let start = index.line_col(range.start().into());
        let end = index.line_col(range.end().into());
        value["region"] = json!({
            "startLine": start.line,
            "startColumn": start.column,
            "endLine": end.line,
            "endColumn": end.column,
        });
    }
    value
}

/// A path as a URI reference: relative stays relative, absolute becomes
/// `file://`; `\` becomes `/`, and bytes outside the unreserved set and
/// `/` are percent-encoded.
fn uri(path: &str) -> String {
    let path = path.replace('\\', "/");
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    if path.starts_with('/') {
        format!("file://{out}")
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::report_of;

    #[test]
    fn uris() {
        assert_eq!(uri("docs/a b.prose"), "docs/a%20b.prose");
        assert_eq!(uri("/abs/é.prose"), "file:///abs/%C3%A9.prose");
        assert_eq!(uri("..\\x.prose"), "../x.prose");
    }

    #[test]
    fn a_log_with_rules_results_and_related_locations() {
        let report = report_of(&[(
            "dup.prose",
            "agent a:\n  model: opus\nagent a:\n  model: opus\n",
        )]);
        let mut out = Vec::new();
        write(&mut out, &report, Some("https://example.com/d/{code}.html")).unwrap();
        let log: Value = serde_json::from_slice(&out).unwrap();
        let run = &log["runs"][0];
        let rule = &run["tool"]["driver"]["rules"][0];
        assert_eq!(rule["id"], "E006");
        assert_eq!(rule["name"], "duplicate-agent");
        assert_eq!(rule["helpUri"], "https://example.com/d/E006.html");
        assert!(
            rule["help"]["markdown"]
                .as_str()
                .unwrap()
                .starts_with("# E006")
        );
        let result = &run["results"][0];
        assert_eq!(result["ruleId"], "E006");
        assert_eq!(result["level"], "error");
        let location = &result["locations"][0]["physicalLocation"];
        assert_eq!(location["artifactLocation"]["uri"], "dup.prose");
        assert_eq!(
            location["region"],
            json!({"startLine": 3, "startColumn": 7, "endLine": 3, "endColumn": 8})
        );
        let related = &result["relatedLocations"][0]["physicalLocation"];
        assert_eq!(related["artifactLocation"]["uri"], "dup.prose");
        assert_eq!(related["region"]["startLine"], 1);
    }
}
