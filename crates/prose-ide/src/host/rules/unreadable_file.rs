//! # F001 `unreadable-file`
//!
//! **File could not be read.** A path named on the command line does not
//! exist, or a file (or directory) could not be read, or a file is not
//! valid UTF-8 text. The file was not checked at all.
//!
//! ## Example
//! ```text
//! $ prose check --format json notes-latin1.prose
//! {"version":1,"files":0,"diagnostics":[{"path":"notes-latin1.prose","code":"F001",
//!   "severity":"error","message":"notes-latin1.prose is not valid UTF-8 (invalid byte at offset 3)",
//!   "range":{"start":{"line":1,"column":1},"end":{"line":1,"column":1}}}]}
//! ```
//!
//! ## Fix
//! Correct the path, make the file readable, or convert it to UTF-8
//! (for example `iconv -f latin1 -t utf-8`).
//!
//! The diagnostic is at line 1, column 1 of the path, in every output
//! format, so a tool reading the report learns that the file was skipped.
//! It is always an error and cannot be configured, and `prose check`
//! exits with status 2 when it reports one (the other files are still
//! checked). The language server does not load such a file from disk
//! (an editor sends the text of the files it opens).

use crate::{
    config::Level,
    diagnostics::{Check, Rule, Severity},
};

pub(crate) const RULE: Rule = Rule {
    code: "F001",
    name: "unreadable-file",
    summary: "File could not be read",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("unreadable_file.rs"),
    check: Check::Host,
};
