//! Rule registry: Loops, discretion conditions, pipelines, error handling, choice and if.

use super::super::Rule;


pub(crate) static RULES: &[&Rule] = &[
];
