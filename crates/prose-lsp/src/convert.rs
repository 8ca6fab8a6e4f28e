//! Byte offsets <-> LSP positions, and `prose-ide` values -> LSP values.
//!
//! The analysis speaks UTF-8 byte offsets; LSP positions are (line, column)
//! pairs whose column counts UTF-16 code units unless the client and the
//! server agreed on UTF-8 in `initialize` (`general.positionEncodings`).
//!
//! Lines end at `\n`; a `\r` right before it belongs to the line break, so
//! a column never points between `\r` and `\n`. (A lone `\r` is not a line
//! break for the OpenProse lexer either.)
//!
//! Two directions, two policies:
//! - offsets -> positions never fail: an offset past the end, inside a
//!   character or inside a `\r\n` is moved back to the nearest valid place;
//! - positions -> offsets come strict ([`LineText::offset`], `None` when the
//!   position is not in the document: for requests, which then answer with
//!   an error) or clamped ([`LineText::offset_clamped`]: the LSP rule that a
//!   column past the end of a line means its end; used for edits).

use line_index::{LineCol, LineIndex, WideEncoding, WideLineCol};
use ls_types::{
    CodeDescription, DiagnosticRelatedInformation, DiagnosticSeverity, DiagnosticTag, Location,
    NumberOrString, Position, PositionEncodingKind, Range, Uri,
};
use prose_ide::{Severity, Tag, TextRange, TextSize};

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

/// A document's text with its line index.
#[derive(Debug, Clone)]
pub struct LineText {
    text: String,
    index: LineIndex,
}

impl LineText {
    pub fn new(text: String) -> LineText {
        let index = LineIndex::new(&text);
        LineText { text, index }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn len(&self) -> usize {
        self.text.len()
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// The byte range of line `line` without its line break (`\n` or
    /// `\r\n`), or `None` past the last line.
    fn line_content(&self, line: u32) -> Option<TextRange> {
        let range = self.index.line(line)?;
        let text = &self.text[range];
        let trimmed = text
            .strip_suffix('\n')
            .map(|t| t.strip_suffix('\r').unwrap_or(t))
            .unwrap_or(text);
        Some(TextRange::at(range.start(), TextSize::of(trimmed)))
    }

    /// `offset` moved back to a character boundary inside the text.
    fn floor_boundary(&self, offset: TextSize) -> TextSize {
        let mut at = usize::from(offset).min(self.text.len());
        while !self.text.is_char_boundary(at) {
            at -= 1;
        }
        TextSize::from(at as u32)
    }

    /// The position of a byte offset. Never fails: see the module docs.
    pub fn position(&self, enc: Encoding, offset: TextSize) -> Position {
        let offset = self.floor_boundary(offset);
        let mut lc = self.index.line_col(offset);
        if let Some(content) = self.line_content(lc.line) {
            // Inside a `\r\n`: the end of the line's content.
            lc.col = lc.col.min(u32::from(content.len()));
        }
        let col = match enc {
            Encoding::Utf8 => lc.col,
            Encoding::Utf16 => self
                .index
                .to_wide(WideEncoding::Utf16, lc)
                .map_or(lc.col, |w| w.col),
        };
        Position::new(lc.line, col)
    }

    pub fn range(&self, enc: Encoding, range: TextRange) -> Range {
        Range::new(
            self.position(enc, range.start()),
            self.position(enc, range.end()),
        )
    }

    /// The byte offset a column of a line lands on, before any checks:
    /// `(line content, offset)`.
    fn raw_offset(&self, enc: Encoding, pos: Position) -> Option<(TextRange, u64)> {
        let content = self.line_content(pos.line)?;
        let col = match enc {
            Encoding::Utf8 => u64::from(pos.character),
            Encoding::Utf16 => {
                let wide = WideLineCol {
                    line: pos.line,
                    col: pos.character,
                };
                // `None` only on overflow: far past any line's end.
                self.index
                    .to_utf8(WideEncoding::Utf16, wide)
                    .map_or(u64::MAX, |LineCol { col, .. }| u64::from(col))
            }
        };
        Some((
            content,
            u64::from(u32::from(content.start())).saturating_add(col),
        ))
    }

    /// The offset of a position, or `None` when it is not in the document:
    /// a line past the last one, a column past the end of its line or
    /// inside a character (the middle of a surrogate pair or, in UTF-8
    /// mode, of a multi-byte character).
    pub fn offset(&self, enc: Encoding, pos: Position) -> Option<TextSize> {
        let (content, offset) = self.raw_offset(enc, pos)?;
        if offset > u64::from(u32::from(content.end())) {
            return None;
        }
        let offset = offset as usize;
        self.text
            .is_char_boundary(offset)
            .then(|| TextSize::from(offset as u32))
    }

    /// The offset of a position, clamped into the document: a line past the
    /// last one means the end of the text, a column past the end of a line
    /// means the end of that line (before its line break), a column inside
    /// a character means the start of that character.
    pub fn offset_clamped(&self, enc: Encoding, pos: Position) -> TextSize {
        let Some((content, offset)) = self.raw_offset(enc, pos) else {
            return TextSize::of(self.text.as_str());
        };
        let offset = offset.min(u64::from(u32::from(content.end())));
        self.floor_boundary(TextSize::from(offset as u32))
    }

    /// The byte range of an LSP range, strictly (see [`LineText::offset`]);
    /// `None` also when the end comes before the start.
    pub fn text_range(&self, enc: Encoding, range: Range) -> Option<TextRange> {
        let start = self.offset(enc, range.start)?;
        let end = self.offset(enc, range.end)?;
        (start <= end).then(|| TextRange::new(start, end))
    }

    /// Applies one `didChange` content change: the whole text when `range`
    /// is `None`, else the clamped range (a reversed range is read forwards).
    pub fn apply_change(&mut self, enc: Encoding, range: Option<Range>, new_text: &str) {
        match range {
            None => self.text = new_text.to_string(),
            Some(range) => {
                let a = usize::from(self.offset_clamped(enc, range.start));
                let b = usize::from(self.offset_clamped(enc, range.end));
                self.text.replace_range(a.min(b)..a.max(b), new_text);
            }
        }
        self.index = LineIndex::new(&self.text);
    }
}

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

    fn pos(line: u32, character: u32) -> Position {
        Position::new(line, character)
    }

    fn off(n: u32) -> TextSize {
        TextSize::from(n)
    }

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
    fn ascii_round_trips() {
        let t = LineText::new("ab\ncd\n".into());
        for enc in [Encoding::Utf8, Encoding::Utf16] {
            assert_eq!(t.position(enc, off(0)), pos(0, 0));
            assert_eq!(t.position(enc, off(2)), pos(0, 2));
            assert_eq!(t.position(enc, off(3)), pos(1, 0));
            assert_eq!(t.position(enc, off(6)), pos(2, 0));
            for o in 0..=6 {
                assert_eq!(t.offset(enc, t.position(enc, off(o))), Some(off(o)));
            }
        }
    }

    #[test]
    fn utf16_counts_non_bmp_as_two_units() {
        // "é" is 2 bytes / 1 unit; "😀" is 4 bytes / 2 units (a surrogate pair).
        let t = LineText::new("é😀x\n😀".into());
        let e = Encoding::Utf16;
        assert_eq!(t.position(e, off(2)), pos(0, 1)); // after é
        assert_eq!(t.position(e, off(6)), pos(0, 3)); // after 😀
        assert_eq!(t.position(e, off(7)), pos(0, 4)); // after x
        assert_eq!(t.position(e, off(12)), pos(1, 2)); // end of text
        assert_eq!(t.offset(e, pos(0, 3)), Some(off(6)));
        assert_eq!(t.offset(e, pos(1, 2)), Some(off(12)));
        // The middle of the surrogate pair is not a position in the text...
        assert_eq!(t.offset(e, pos(0, 2)), None);
        // ...and clamps to the start of the character.
        assert_eq!(t.offset_clamped(e, pos(0, 2)), off(2));
        // An offset inside a character moves back to its start.
        assert_eq!(t.position(e, off(4)), pos(0, 1));
    }

    #[test]
    fn utf8_mode_counts_bytes() {
        let t = LineText::new("é😀x".into());
        let e = Encoding::Utf8;
        assert_eq!(t.position(e, off(6)), pos(0, 6));
        assert_eq!(t.offset(e, pos(0, 6)), Some(off(6)));
        assert_eq!(t.offset(e, pos(0, 1)), None); // inside é
        assert_eq!(t.offset_clamped(e, pos(0, 1)), off(0));
        assert_eq!(t.offset_clamped(e, pos(0, 4)), off(2)); // inside 😀
    }

    #[test]
    fn crlf_line_breaks_are_not_columns() {
        let t = LineText::new("ab\r\ncd\r\n".into());
        for enc in [Encoding::Utf8, Encoding::Utf16] {
            assert_eq!(t.position(enc, off(2)), pos(0, 2));
            // Between `\r` and `\n`: the end of the line's content.
            assert_eq!(t.position(enc, off(3)), pos(0, 2));
            assert_eq!(t.position(enc, off(4)), pos(1, 0));
            assert_eq!(t.offset(enc, pos(1, 2)), Some(off(6)));
            assert_eq!(t.offset(enc, pos(0, 3)), None);
            assert_eq!(t.offset_clamped(enc, pos(0, 3)), off(2));
            assert_eq!(t.offset(enc, pos(2, 0)), Some(off(8)));
        }
    }

    #[test]
    fn positions_past_the_end() {
        let t = LineText::new("ab\ncd".into());
        for enc in [Encoding::Utf8, Encoding::Utf16] {
            assert_eq!(t.offset(enc, pos(0, 9)), None);
            assert_eq!(t.offset(enc, pos(2, 0)), None);
            assert_eq!(t.offset(enc, pos(u32::MAX, u32::MAX)), None);
            assert_eq!(t.offset_clamped(enc, pos(0, 9)), off(2));
            assert_eq!(t.offset_clamped(enc, pos(1, u32::MAX)), off(5));
            assert_eq!(t.offset_clamped(enc, pos(7, 1)), off(5));
            assert_eq!(t.position(enc, off(99)), pos(1, 2));
            assert_eq!(
                t.text_range(enc, Range::new(pos(1, 1), pos(0, 0))),
                None,
                "reversed"
            );
        }
        let empty = LineText::new(String::new());
        assert_eq!(empty.position(Encoding::Utf16, off(0)), pos(0, 0));
        assert_eq!(empty.offset(Encoding::Utf16, pos(0, 0)), Some(off(0)));
        assert_eq!(empty.offset(Encoding::Utf16, pos(0, 1)), None);
    }

    #[test]
    fn applies_incremental_changes() {
        let mut t = LineText::new("a😀b\nline two\n".into());
        let e = Encoding::Utf16;
        // Replace the emoji (UTF-16 columns 1..3) with "é".
        t.apply_change(e, Some(Range::new(pos(0, 1), pos(0, 3))), "é");
        assert_eq!(t.text(), "aéb\nline two\n");
        // Insert at the end of line 2, and past the end of the document.
        t.apply_change(e, Some(Range::new(pos(1, 99), pos(1, 99))), "!");
        t.apply_change(e, Some(Range::new(pos(9, 0), pos(9, 0))), "tail");
        assert_eq!(t.text(), "aéb\nline two!\ntail");
        // Delete across lines, then replace everything.
        t.apply_change(e, Some(Range::new(pos(0, 2), pos(1, 5))), "");
        assert_eq!(t.text(), "aétwo!\ntail");
        assert_eq!(t.position(e, off(9)), pos(1, 1));
        t.apply_change(e, None, "new");
        assert_eq!(t.text(), "new");
        assert_eq!(t.position(e, off(3)), pos(0, 3));
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
