//! Rule registry: Variables and context, composition blocks, parallel blocks.

use super::super::Rule;


pub(crate) static RULES: &[&Rule] = &[
];
