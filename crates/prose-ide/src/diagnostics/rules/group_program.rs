//! Rule registry: Strings, use/import, inputs, outputs and program invocation.

use super::super::Rule;


pub(crate) static RULES: &[&Rule] = &[
];
