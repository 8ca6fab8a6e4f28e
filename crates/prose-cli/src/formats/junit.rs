//! `--format junit`: JUnit XML, which CI systems (GitLab, Jenkins, Azure
//! Pipelines, test report actions) show as test results.
//!
//! One `<testsuite>` per file (named by its path); each error or warning
//! is a failed `<testcase>` named `CODE name` with the message and its
//! `path:line:column`; a file without errors or warnings has one passing
//! test case `prose check`. Info and hints are not tests.

use std::io::{self, Write};

use prose_ide::Severity;
use quick_junit::{NonSuccessKind, TestCase, TestCaseStatus, TestSuite};

use crate::{line_index::LineIndex, report::Report};

pub fn write(out: &mut dyn Write, report: &Report) -> io::Result<()> {
    let mut junit = quick_junit::Report::new("prose check");
    for file in &report.files {
        let index = LineIndex::new(&file.text);
        let mut suite = TestSuite::new(file.path.as_str());
        for d in &file.diagnostics {
            if !matches!(d.severity, Severity::Error | Severity::Warning) {
                continue;
            }
            let at = index.line_col(d.range.start().into());
            let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
            status
                .set_message(d.message.as_str())
                .set_type(d.severity.as_str())
                .set_description(format!(
                    "{}:{}:{}: {} {}[{}]: {}",
                    file.path,
                    at.line,
                    at.column,
                    d.severity.as_str(),
                    d.code.as_str(),
                    d.name,
                    d.message
                ));
            let mut case = TestCase::new(format!("{} {}", d.code.as_str(), d.name), status);
            case.set_classname(file.path.as_str());
            suite.add_test_case(case);
        }
        if suite.test_cases.is_empty() {
            let mut case = TestCase::new("prose check", TestCaseStatus::success());
            case.set_classname(file.path.as_str());
            suite.add_test_case(case);
        }
        junit.add_test_suite(suite);
    }
    // quick-junit ends the document with a line break.
    junit.serialize(&mut *out).map_err(io::Error::other)
}

#[cfg(test)]
mod tests {
    use expect_test::expect;

    use super::*;
    use crate::report::report_of;

    #[test]
    fn a_suite_per_file_and_a_failure_per_problem() {
        let mut report = report_of(&[("bad.prose", "session \"x\" foo\n"), ("good.prose", "")]);
        report.files[0].diagnostics[0].message = "`<&>` \"quoted\"".into();
        let mut out = Vec::new();
        write(&mut out, &report).unwrap();
        expect![[r#"
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="prose check" tests="2" skipped="0" failures="1" errors="0">
                <testsuite name="bad.prose" tests="1" skipped="0" errors="0" failures="1">
                    <testcase name="E004 unexpected-token" classname="bad.prose">
                        <failure message="`&lt;&amp;&gt;` &quot;quoted&quot;" type="error">bad.prose:1:13: error E004[unexpected-token]: `&lt;&amp;&gt;` &quot;quoted&quot;</failure>
                    </testcase>
                </testsuite>
                <testsuite name="good.prose" tests="1" skipped="0" errors="0" failures="0">
                    <testcase name="prose check" classname="good.prose"/>
                </testsuite>
            </testsuites>
        "#]]
        .assert_eq(&String::from_utf8(out).unwrap());
    }
}
