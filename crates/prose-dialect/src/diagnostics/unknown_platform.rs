//! # D019 `unknown-platform`
//!
//! **Unknown platform, close to a known one.** The /post platform is not
//! `bluesky` or `discord` but within a typo of one of them.
//!
//! ## Why is this bad?
//! Platforms are open-ended ("Bluesky, Discord, etc."), so an unknown one is
//! passed on as written; but one this close to a known platform is more
//! likely a typo. An editor offers the known spelling.
//!
//! ## Example
//! ```dialect
//! /post blusky "hello"
//! ```
//!
//! ## Fix
//! ```dialect
//! /post bluesky "hello"
//! ```

use super::{Code, Severity};

pub(crate) const CODE: Code = Code {
    code: "D019",
    name: "unknown-platform",
    summary: "Unknown platform, close to a known one",
    severity: Severity::Warning,
    source: include_str!("unknown_platform.rs"),
};

#[cfg(test)]
mod tests {
    use crate::diagnostics::tests::check;
    use expect_test::expect;

    #[test]
    fn forms() {
        check(
            "/post blusky \"hello\"\n/post mastodon \"hello\"\n/post @discrod hi\n",
            expect![[r#"
                D019 1:7-1:13 warning: I don't know the platform `blusky` - did you mean bluesky?
                  fix 1:7-1:13: Use bluesky => "bluesky"
                D019 3:7-3:15 warning: I don't know the platform `@discrod` - did you mean discord?
                  fix 3:7-3:15: Use discord => "discord"
            "#]],
        );
    }
}
