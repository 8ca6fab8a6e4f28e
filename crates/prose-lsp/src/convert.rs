//! Byte offsets <-> LSP positions, and `prose-ide` values -> LSP values.
//!
//! The analysis speaks UTF-8 byte offsets; LSP positions are (line, column)
//! pairs whose column counts UTF-16 code units unless the client and the
//! server agreed on UTF-8 in `initialize` (`general.positionEncodings`).
//!
//! The conversion of positions lives with the text it is about:
//! [`LineText`] (`line_text.rs`).

use ls_types::{
    CodeDescription, DiagnosticRelatedInformation, DiagnosticSeverity, DiagnosticTag, Location,
    NumberOrString, PositionEncodingKind, Range, Uri,
};
use prose_ide::{Severity, Tag, TextRange};

/// How columns are counted in LSP positions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Encoding {
    /// Bytes of UTF-8: what the analysis uses, so no conversion per line.
    Utf8,
    /// UTF-16 code units: the LSP default, which every client supports.
    #[default]
    Utf16,
}

impl Encoding {
    /// UTF-8 when the client offers it, else UTF-16 (which every client
    /// must support, offered or not).
    pub fn negotiate(offered: Option<&[PositionEncodingKind]>) -> Encoding {
        match offered {
            Some(kinds) if kinds.contains(&PositionEncodingKind::UTF8) => Encoding::Utf8,
            _ => Encoding::Utf16,
        }
    }

    /// The value of `ServerCapabilities::position_encoding`.
    pub fn kind(self) -> PositionEncodingKind {
        match self {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
        }
    }
}

pub use crate::line_text::LineText;

/// The `source` of every diagnostic this server sends.
pub const SOURCE: &str = "prose";

pub fn severity(severity: Severity) -> DiagnosticSeverity {
    match severity {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
        Severity::Info => DiagnosticSeverity::INFORMATION,
        Severity::Hint => DiagnosticSeverity::HINT,
    }
}

pub fn tag(tag: Tag) -> DiagnosticTag {
    match tag {
        Tag::Unnecessary => DiagnosticTag::UNNECESSARY,
        Tag::Deprecated => DiagnosticTag::DEPRECATED,
    }
}

/// The link to a code's page under the docs URL (`docs-url` of
/// `prose.toml`, or the editor's `docsUrl`); none without one, so no link
/// ever points at a page that is not there.
pub fn code_description(code: &str, docs_url: Option<&str>) -> Option<CodeDescription> {
    let href = prose_ide::config::docs_url_for(docs_url?, code)?
        .parse()
        .ok()?;
    Some(CodeDescription { href })
}

/// Converts one diagnostic of the file `text`, linking its code's page
/// under `docs_url` when there is one. `related` resolves the location of
/// a related note in any file (`None` drops the note).
pub fn diagnostic(
    enc: Encoding,
    text: &LineText,
    d: &prose_ide::Diagnostic,
    docs_url: Option<&str>,
    mut related: impl FnMut(&str, TextRange) -> Option<(Uri, Range)>,
) -> ls_types::Diagnostic {
    let related_information: Vec<_> = d
        .related
        .iter()
        .filter_map(|r| {
            let (uri, range) = related(&r.path, r.range)?;
            Some(DiagnosticRelatedInformation {
                location: Location { uri, range },
                message: r.message.clone(),
            })
        })
        .collect();
    let tags: Vec<_> = d.tags.iter().map(|&t| tag(t)).collect();
    ls_types::Diagnostic {
        range: text.range(enc, d.range),
        severity: Some(severity(d.severity)),
        code: Some(NumberOrString::String(d.code.as_str().to_string())),
        code_description: code_description(d.code.as_str(), docs_url),
        source: Some(SOURCE.to_string()),
        message: d.message.clone(),
        related_information: (!related_information.is_empty()).then_some(related_information),
        tags: (!tags.is_empty()).then_some(tags),
        data: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::line_text::tests::{off, pos};

    #[test]
    fn negotiates_utf8_only_when_offered() {
        assert_eq!(Encoding::negotiate(None), Encoding::Utf16);
        assert_eq!(
            Encoding::negotiate(Some(&[PositionEncodingKind::UTF16])),
            Encoding::Utf16
        );
        assert_eq!(
            Encoding::negotiate(Some(&[
                PositionEncodingKind::UTF32,
                PositionEncodingKind::UTF8
            ])),
            Encoding::Utf8
        );
    }

    #[test]
    fn converts_diagnostics() {
        use prose_ide::{Diagnostic, DiagnosticCode, Related};
        let t = LineText::new("😀 x\n".into());
        let d = Diagnostic {
            code: DiagnosticCode("E006"),
            name: "undefined-session",
            severity: Severity::Warning,
            message: "m".into(),
            range: TextRange::new(off(5), off(6)),
            related: vec![Related {
                path: "/w/a.prose".into(),
                range: TextRange::new(off(0), off(4)),
                message: "here".into(),
            }],
            tags: vec![Tag::Unnecessary],
        };
        let uri: Uri = "file:///w/a.prose".parse().unwrap();
        let resolve = |_: &str, r| Some((uri.clone(), t.range(Encoding::Utf16, r)));
        // No docs URL, no link.
        let out = diagnostic(Encoding::Utf16, &t, &d, None, resolve);
        assert_eq!(out.code_description, None);
        let docs = Some("file:///ext/docs/diagnostics/");
        let out = diagnostic(Encoding::Utf16, &t, &d, docs, resolve);
        assert_eq!(out.range, Range::new(pos(0, 3), pos(0, 4)));
        assert_eq!(out.code, Some(NumberOrString::String("E006".into())));
        assert_eq!(
            out.code_description.unwrap().href.as_str(),
            "file:///ext/docs/diagnostics/E006.md"
        );
        assert_eq!(out.source.as_deref(), Some("prose"));
        assert_eq!(out.severity, Some(DiagnosticSeverity::WARNING));
        assert_eq!(out.tags, Some(vec![DiagnosticTag::UNNECESSARY]));
        let related = out.related_information.unwrap();
        assert_eq!(related[0].message, "here");
        assert_eq!(related[0].location.range, Range::new(pos(0, 0), pos(0, 2)));
    }
}
