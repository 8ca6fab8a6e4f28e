//! # D009 `halt-without-reason`
//!
//! **/halt without a reason.** An emergency stop must say why.
//!
//! ## Why is this bad?
//! /halt terminates the process. Whoever restarts it needs to know what
//! happened, and a stop without a reason may be an accident.
//!
//! ## Example
//! ```dialect
//! /halt !
//! ```
//!
//! ## Fix
//! ```dialect
//! /halt "memory store is corrupting writes" !
//! ```

use super::{Code, Severity};

pub(crate) const CODE: Code = Code {
    code: "D009",
    name: "halt-without-reason",
    summary: "/halt without a reason",
    severity: Severity::Error,
    source: include_str!("halt_without_reason.rs"),
};

#[cfg(test)]
mod tests {
    use crate::diagnostics::tests::check;
    use expect_test::expect;

    #[test]
    fn bare_and_marked() {
        check(
            "/halt\n/halt !\n/halt disk full !\n",
            expect![[r#"
                D009 1:2-1:6 error: /halt needs a reason - say why everything must stop: /halt "reason for emergency stop" !
                D009 2:2-2:6 error: /halt needs a reason - say why everything must stop: /halt "reason for emergency stop" !
            "#]],
        );
    }
}
