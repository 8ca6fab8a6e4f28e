//! Rule registry: Strings, use/import, inputs, outputs and program invocation.

use crate::diagnostics::Rule;

#[path = "program_shared.rs"]
mod program_shared;

#[path = "duplicate_import.rs"]
mod duplicate_import;
#[path = "duplicate_input.rs"]
mod duplicate_input;
#[path = "duplicate_output.rs"]
mod duplicate_output;
#[path = "empty_input_description.rs"]
mod empty_input_description;
#[path = "empty_input_name.rs"]
mod empty_input_name;
#[path = "empty_output_name.rs"]
mod empty_output_name;
#[path = "empty_use_path.rs"]
mod empty_use_path;
#[path = "import_alias_required.rs"]
mod import_alias_required;
#[path = "input_after_executable.rs"]
mod input_after_executable;
#[path = "invalid_use_path.rs"]
mod invalid_use_path;
#[path = "missing_program_input.rs"]
mod missing_program_input;
#[path = "output_conflicts_variable.rs"]
mod output_conflicts_variable;
#[path = "text_after_triple_quote.rs"]
mod text_after_triple_quote;
#[path = "undefined_interpolation.rs"]
mod undefined_interpolation;
#[path = "unescaped_quote_in_string.rs"]
mod unescaped_quote_in_string;
#[path = "unknown_import_source.rs"]
mod unknown_import_source;
#[path = "unknown_program.rs"]
mod unknown_program;
#[path = "unknown_program_input.rs"]
mod unknown_program_input;
#[path = "unknown_program_output.rs"]
mod unknown_program_output;
#[path = "unresolved_import.rs"]
mod unresolved_import;

pub(crate) static RULES: &[&Rule] = &[
    &undefined_interpolation::RULE,
    &text_after_triple_quote::RULE,
    &unescaped_quote_in_string::RULE,
    &duplicate_import::RULE,
    &empty_use_path::RULE,
    &invalid_use_path::RULE,
    &import_alias_required::RULE,
    &unknown_import_source::RULE,
    &unresolved_import::RULE,
    &empty_input_name::RULE,
    &duplicate_input::RULE,
    &input_after_executable::RULE,
    &empty_input_description::RULE,
    &empty_output_name::RULE,
    &duplicate_output::RULE,
    &output_conflicts_variable::RULE,
    &unknown_program::RULE,
    &missing_program_input::RULE,
    &unknown_program_input::RULE,
    &unknown_program_output::RULE,
];
