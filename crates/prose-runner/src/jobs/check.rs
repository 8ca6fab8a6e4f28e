//! Refusing entries with errors: every diagnostic of `prose_jobs::validate`
//! (J001-J020), as the analysis's [`prose_ide::Diagnostic`]s, so that the
//! CLI prints them as `prose check` prints a program's and the server can
//! show them like a program's ([`crate::run::StartError::ProgramErrors`]).
//! Warnings do not stop a run.

use std::path::Path;

use prose_ide::{Diagnostic, DiagnosticCode, Related, Severity, Tag};
use prose_jobs::{JobDiagnostic, ParsedEntry};

/// One diagnostic of the entry at `path`.
pub fn to_diagnostic(path: &Path, d: JobDiagnostic) -> Diagnostic {
    let key = crate::check::key(path);
    Diagnostic {
        code: DiagnosticCode(d.code),
        name: d.name,
        severity: match d.severity {
            prose_jobs::Severity::Error => Severity::Error,
            prose_jobs::Severity::Warning => Severity::Warning,
        },
        message: d.message,
        range: d.range,
        related: d
            .related
            .into_iter()
            .map(|r| Related {
                path: key.clone(),
                range: r.range,
                message: r.message,
            })
            .collect(),
        tags: if d.unnecessary {
            vec![Tag::Unnecessary]
        } else {
            Vec::new()
        },
    }
}

/// The entry read, and every diagnostic of it (sorted by position).
pub fn check(path: &Path, text: &str) -> (ParsedEntry, Vec<Diagnostic>) {
    let parsed = prose_jobs::parse(text);
    let mut diags: Vec<Diagnostic> = prose_jobs::validate(&parsed)
        .into_iter()
        .map(|d| to_diagnostic(path, d))
        .collect();
    diags.sort_by_key(|d| (d.range.start(), d.range.end()));
    (parsed, diags)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_and_warnings_keep_their_code_range_and_related_places() {
        let text = r#"{"models": {"driving": "d", "planning": "p", "coding": "c", "reviewers": []},
 "promptVariables": {"unused": ["x"]}, "grid": [],
 "tasks": {"t": {"model": "planing", "prompt": ["Go."], "requireUserInput": false}}}"#;
        let (parsed, diags) = check(Path::new("/ws/a.jobs.json"), text);
        assert!(parsed.entry.task("t").is_some());
        let codes: Vec<(&str, Severity)> = diags.iter().map(|d| (d.code.0, d.severity)).collect();
        assert_eq!(
            codes,
            [("J020", Severity::Warning), ("J010", Severity::Error)]
        );
        assert_eq!(&text[diags[1].range], "\"planing\"");
        assert_eq!(diags[0].tags, [Tag::Unnecessary]);
    }
}
