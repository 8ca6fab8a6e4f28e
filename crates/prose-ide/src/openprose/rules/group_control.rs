//! Rule registry: Loops, discretion conditions, pipelines, error handling, choice and if.

use crate::diagnostics::Rule;

#[path = "choice_without_options.rs"]
mod choice_without_options;
#[path = "control_shared.rs"]
pub(super) mod control_shared;
#[path = "duplicate_option_label.rs"]
mod duplicate_option_label;
#[path = "elif_without_if.rs"]
mod elif_without_if;
#[path = "else_without_if.rs"]
mod else_without_if;
#[path = "empty_condition_body.rs"]
mod empty_condition_body;
#[path = "empty_discretion.rs"]
mod empty_discretion;
#[path = "empty_option_body.rs"]
mod empty_option_body;
#[path = "empty_throw_message.rs"]
mod empty_throw_message;
#[path = "error_variable_shadows_outer.rs"]
mod error_variable_shadows_outer;
#[path = "invalid_backoff.rs"]
mod invalid_backoff;
#[path = "invalid_pipe_operator.rs"]
mod invalid_pipe_operator;
#[path = "loop_variable_shadows_outer.rs"]
mod loop_variable_shadows_outer;
#[path = "max_not_integer.rs"]
mod max_not_integer;
#[path = "max_not_positive.rs"]
mod max_not_positive;
#[path = "multiple_else.rs"]
mod multiple_else;
#[path = "pipeline_variable_shadows_outer.rs"]
mod pipeline_variable_shadows_outer;
#[path = "reduce_without_variables.rs"]
mod reduce_without_variables;
#[path = "repeat_count_not_integer.rs"]
mod repeat_count_not_integer;
#[path = "repeat_count_not_positive.rs"]
mod repeat_count_not_positive;
#[path = "retry_count_high.rs"]
mod retry_count_high;
#[path = "retry_not_integer.rs"]
mod retry_not_integer;
#[path = "retry_not_positive.rs"]
mod retry_not_positive;
#[path = "short_discretion.rs"]
mod short_discretion;
#[path = "try_without_handler.rs"]
mod try_without_handler;
#[path = "unbounded_loop.rs"]
mod unbounded_loop;
#[path = "undefined_collection.rs"]
mod undefined_collection;

pub(crate) static RULES: &[&Rule] = &[
    &repeat_count_not_positive::RULE,
    &repeat_count_not_integer::RULE,
    &undefined_collection::RULE,
    &loop_variable_shadows_outer::RULE,
    &unbounded_loop::RULE,
    &max_not_positive::RULE,
    &max_not_integer::RULE,
    &empty_discretion::RULE,
    &short_discretion::RULE,
    &invalid_pipe_operator::RULE,
    &reduce_without_variables::RULE,
    &pipeline_variable_shadows_outer::RULE,
    &try_without_handler::RULE,
    &error_variable_shadows_outer::RULE,
    &empty_throw_message::RULE,
    &retry_not_positive::RULE,
    &retry_not_integer::RULE,
    &retry_count_high::RULE,
    &invalid_backoff::RULE,
    &choice_without_options::RULE,
    &duplicate_option_label::RULE,
    &empty_option_body::RULE,
    &elif_without_if::RULE,
    &else_without_if::RULE,
    &multiple_else::RULE,
    &empty_condition_body::RULE,
];
