//! The `K` codes: one file per code, each with its documentation (`//!`),
//! its [`Rule`], its check and its tests.

mod assumes_resumed_session;
mod branch_without_if;
mod discard_outside_pattern;
mod follow_without_list;
mod if_without_then;
mod incomplete_ask_flow;
mod missing_spawn_file;
mod misspelled_keyword;
mod misspelled_signal;
mod run_without_command;
mod spawn_without_file;
mod terminate_without_message;
mod then_without_if;
mod unbound_variable;

use crate::diagnostic::{Acc, Rule};

/// A rule's check.
type Check = fn(&Ctx<'_>, &mut Acc);
use crate::instructions::Ctx;

pub(crate) mod prelude {
    pub(crate) use crate::{
        Lookup, Severity,
        diagnostic::{Acc, Rule, closest, did_you_mean},
        instructions::{Ctx, Keyword, KeywordRole, VariableRole},
        text::{range, slice},
    };
}

/// Every `K` rule with its check, sorted by code.
pub(crate) static RULES: &[(&Rule, Check)] = &[
    (&misspelled_keyword::RULE, misspelled_keyword::check),
    (&branch_without_if::RULE, branch_without_if::check),
    (&if_without_then::RULE, if_without_then::check),
    (
        &terminate_without_message::RULE,
        terminate_without_message::check,
    ),
    (&run_without_command::RULE, run_without_command::check),
    (&spawn_without_file::RULE, spawn_without_file::check),
    (&missing_spawn_file::RULE, missing_spawn_file::check),
    (&follow_without_list::RULE, follow_without_list::check),
    (&unbound_variable::RULE, unbound_variable::check),
    (
        &discard_outside_pattern::RULE,
        discard_outside_pattern::check,
    ),
    (
        &assumes_resumed_session::RULE,
        assumes_resumed_session::check,
    ),
    (&incomplete_ask_flow::RULE, incomplete_ask_flow::check),
    (&misspelled_signal::RULE, misspelled_signal::check),
    (&then_without_if::RULE, then_without_if::check),
];
