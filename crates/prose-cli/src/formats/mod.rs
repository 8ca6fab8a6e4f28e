//! The machine formats of `prose check` besides JSON (`render.rs` has the
//! human and JSON ones): GitHub workflow commands, SARIF, JUnit XML.

pub mod github;
pub mod junit;
pub mod sarif;
