//! `prose check --statistics`: how many problems each code has, instead of
//! the problems themselves; the most frequent first.
//!
//! ```text
//!     12  W005  unknown-property  (9 fixable)
//!      3  E007  undefined-agent
//! ```
//!
//! "Fixable" counts the problems `prose check --fix` would fix (those with
//! a safe quick fix). With `--format json`: one array of
//! `{"code","name","count","fixable"}` objects in the same order.

use std::{
    collections::BTreeMap,
    io::{self, Write},
};

use prose_ide::Diagnostic;
use serde::Serialize;

use crate::report::{CheckedFile, Report};

/// One code's counts.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct Row {
    pub code: &'static str,
    pub name: &'static str,
    pub count: usize,
    pub fixable: usize,
}

/// The counts per code, by count (descending), then code.
pub fn rows(report: &Report, fixable: &dyn Fn(&CheckedFile, &Diagnostic) -> bool) -> Vec<Row> {
    let mut by_code: BTreeMap<&'static str, Row> = BTreeMap::new();
    for (file, d) in report.diagnostics() {
        let row = by_code.entry(d.code.as_str()).or_insert(Row {
            code: d.code.as_str(),
            name: d.name,
            count: 0,
            fixable: 0,
        });
        row.count += 1;
        row.fixable += usize::from(fixable(file, d));
    }
    let mut rows: Vec<Row> = by_code.into_values().collect();
    rows.sort_by_key(|r| std::cmp::Reverse(r.count));
    rows
}

/// Aligned rows: count, code, name, and `(N fixable)` where there are some.
pub fn human(out: &mut dyn Write, rows: &[Row]) -> io::Result<()> {
    let width = rows
        .iter()
        .map(|r| r.count.to_string().len())
        .max()
        .unwrap_or(1);
    let name_width = rows.iter().map(|r| r.name.len()).max().unwrap_or(0);
    for r in rows {
        let fixable = if r.fixable > 0 {
            format!("  ({} fixable)", r.fixable)
        } else {
            String::new()
        };
        let line = format!(
            "{:>width$}  {:<5} {:<name_width$}{fixable}",
            r.count, r.code, r.name
        );
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}

/// The rows as one JSON array on one line.
pub fn json(out: &mut dyn Write, rows: &[Row]) -> io::Result<()> {
    serde_json::to_writer(&mut *out, rows)?;
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::*;
    use crate::report::report_of;

    #[test]
    fn counts_per_code_most_frequent_first() {
        let report = report_of(&[(
            "a.prose",
            "agent a:\n  model: opsu\n  promt: \"p\"\n  modle: x\nsession: b\n",
        )]);
        let rows = rows(&report, &|_, d| d.code.as_str() == "W005");
        let mut out = Vec::new();
        human(&mut out, &rows).unwrap();
        expect![[r#"
            2  W005  unknown-property  (2 fixable)
            1  E007  undefined-agent
            1  E008  invalid-model
        "#]]
        .assert_eq(&String::from_utf8(out).unwrap());
        let mut out = Vec::new();
        json(&mut out, &rows).unwrap();
        expect![[r#"
            [{"code":"W005","name":"unknown-property","count":2,"fixable":2},{"code":"E007","name":"undefined-agent","count":1,"fixable":0},{"code":"E008","name":"invalid-model","count":1,"fixable":0}]
        "#]]
        .assert_eq(&String::from_utf8(out).unwrap());
    }
}
