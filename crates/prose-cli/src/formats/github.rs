//! `--format github`: one GitHub Actions workflow command per diagnostic
//! (`::error file=a.prose,line=3,col=5,endLine=3,endColumn=9,title=...::message`),
//! which the runner turns into annotations on the pull request's files.
//!
//! Errors are `error`, warnings `warning`, info and hints `notice`. Columns
//! are sent only for a range on one line (GitHub ignores them otherwise).
//! Values are escaped as the Actions toolkit does: `%`, CR and LF in the
//! message; also `:` and `,` in the properties. Paths are as given, so run
//! from the repository root for the annotations to land on the files.

use std::io::{self, Write};

use prose_ide::Severity;

use crate::{line_index::LineIndex, report::Report};

pub fn write(out: &mut dyn Write, report: &Report) -> io::Result<()> {
    for file in &report.files {
        let index = LineIndex::new(&file.text);
        for d in &file.diagnostics {
            let command = match d.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info | Severity::Hint => "notice",
            };
            let start = index.line_col(d.range.start().into());
            let end = index.line_col(d.range.end().into());
            let mut props = vec![
                format!("file={}", property(&file.path)),
                format!("line={}", start.line),
            ];
            if start.line == end.line {
                props.push(format!("col={}", start.column));
            }
            props.push(format!("endLine={}", end.line));
            if start.line == end.line {
                props.push(format!("endColumn={}", end.column));
            }
            let title = format!("{} ({})", d.code.as_str(), d.name);
            props.push(format!("title={}", property(&title)));
            writeln!(out, "::{command} {}::{}", props.join(","), data(&d.message))?;
        }
    }
    Ok(())
}

/// Escapes a command's message.
fn data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escapes a command's property value.
fn property(s: &str) -> String {
    data(s).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::*;
    use crate::report::{CheckedFile, report_of};

    #[test]
    fn commands_escape_and_columns_only_on_one_line() {
        let mut report = report_of(&[("dir/a,b.prose", "session \"x\" foo\nlet a = [1,\n")]);
        let diagnostics = &mut report.files[0].diagnostics;
        diagnostics[0].message = "50% done:\nnext".into();
        // A range over two lines gets no columns.
        diagnostics[1].range = prose_ide::TextRange::new(8.into(), 20.into());
        report.files.push(CheckedFile::unread(
            "gone.prose".into(),
            "gone.prose does not exist".into(),
        ));
        let mut out = Vec::new();
        write(&mut out, &report).unwrap();
        expect![[r#"
            ::error file=dir/a%2Cb.prose,line=1,col=13,endLine=1,endColumn=16,title=E004 (unexpected-token)::50%25 done:%0Anext
            ::error file=dir/a%2Cb.prose,line=1,endLine=2,title=E005 (invalid-syntax)::Unclosed `[`: expected `]`
            ::error file=gone.prose,line=1,col=1,endLine=1,endColumn=1,title=F001 (unreadable-file)::gone.prose does not exist
        "#]]
        .assert_eq(&String::from_utf8(out).unwrap());
    }
}
