//! Rule registry: Agents, sessions, resume, properties, skills and permissions.

use super::super::Rule;

#[path = "duplicate_agent.rs"]
mod duplicate_agent;
#[path = "undefined_agent.rs"]
mod undefined_agent;

pub(crate) static RULES: &[&Rule] = &[
    &duplicate_agent::RULE,
    &undefined_agent::RULE,
];
