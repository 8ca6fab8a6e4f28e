//! The `M` codes: one file per code, each with its documentation (`//!`),
//! its [`Rule`], its check and its tests.

mod command_in_content;
mod command_not_allowed_here;
mod duplicate_push_name;
mod invalid_read_path;
mod invalid_run_count;
mod malformed_push_option;
mod malformed_quote;
mod missing_read_file;
mod push_without_prompt;
mod read_target_has_commands;
mod unknown_command;
mod unknown_push_option;

use crate::diagnostic::{Acc, Rule};

/// A rule's check.
type Check = fn(&Ctx<'_>, &mut Acc);
use crate::prompt::Ctx;

pub(crate) mod prelude {
    pub(crate) use crate::{
        Lookup, Severity,
        diagnostic::{Acc, Rule, closest, did_you_mean},
        prompt::{CommandKind, Ctx, Phase},
        text::line_number,
    };
}

/// Every `M` rule with its check, sorted by code.
pub(crate) static RULES: &[(&Rule, Check)] = &[
    (&unknown_command::RULE, unknown_command::check),
    (
        &command_not_allowed_here::RULE,
        command_not_allowed_here::check,
    ),
    (&command_in_content::RULE, command_in_content::check),
    (&invalid_read_path::RULE, invalid_read_path::check),
    (&missing_read_file::RULE, missing_read_file::check),
    (
        &read_target_has_commands::RULE,
        read_target_has_commands::check,
    ),
    (&malformed_push_option::RULE, malformed_push_option::check),
    (&unknown_push_option::RULE, unknown_push_option::check),
    (&push_without_prompt::RULE, push_without_prompt::check),
    (&duplicate_push_name::RULE, duplicate_push_name::check),
    (&invalid_run_count::RULE, invalid_run_count::check),
    (&malformed_quote::RULE, malformed_quote::check),
];
