//! Rule registry: Variables and context, composition blocks, parallel blocks.

use crate::diagnostics::Rule;

#[path = "variables_shared.rs"]
mod variables_shared;

#[path = "block_argument_count.rs"]
mod block_argument_count;
#[path = "block_conflicts_with_agent.rs"]
mod block_conflicts_with_agent;
#[path = "const_reassignment.rs"]
mod const_reassignment;
#[path = "count_exceeds_branches.rs"]
mod count_exceeds_branches;
#[path = "count_less_than_one.rs"]
mod count_less_than_one;
#[path = "count_without_any.rs"]
mod count_without_any;
#[path = "duplicate_block.rs"]
mod duplicate_block;
#[path = "duplicate_variable.rs"]
mod duplicate_variable;
#[path = "empty_block_name.rs"]
mod empty_block_name;
#[path = "invalid_join_strategy.rs"]
mod invalid_join_strategy;
#[path = "invalid_on_fail.rs"]
mod invalid_on_fail;
#[path = "non_identifier_in_context.rs"]
mod non_identifier_in_context;
#[path = "parameter_shadows_outer.rs"]
mod parameter_shadows_outer;
#[path = "undefined_block.rs"]
mod undefined_block;
#[path = "undefined_context_variable.rs"]
mod undefined_context_variable;
#[path = "undefined_variable.rs"]
mod undefined_variable;
#[path = "variable_conflicts_with_agent.rs"]
mod variable_conflicts_with_agent;

pub(crate) static RULES: &[&Rule] = &[
    &duplicate_variable::RULE,
    &const_reassignment::RULE,
    &undefined_variable::RULE,
    &variable_conflicts_with_agent::RULE,
    &undefined_context_variable::RULE,
    &non_identifier_in_context::RULE,
    &block_argument_count::RULE,
    &parameter_shadows_outer::RULE,
    &undefined_block::RULE,
    &duplicate_block::RULE,
    &block_conflicts_with_agent::RULE,
    &empty_block_name::RULE,
    &invalid_join_strategy::RULE,
    &invalid_on_fail::RULE,
    &count_without_any::RULE,
    &count_less_than_one::RULE,
    &count_exceeds_branches::RULE,
];
