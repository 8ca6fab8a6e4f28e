//! OpenProse programs (`*.prose`): name resolution, contracts, every
//! validation rule (`rules/`, one file per code) and the IDE features
//! (`features/`, one file per feature). The tree comes from `prose-syntax`.

pub mod contract;
pub(crate) mod ctx;
pub mod external;
pub mod features;
pub mod imports;
pub(crate) mod injections;
pub(crate) mod kind_index;
pub mod prompt_edit;
pub(crate) mod rule_parts;
#[cfg(test)]
pub(crate) mod rule_tests;
pub(crate) mod rules;
pub mod semantics;
pub(crate) mod statement_edit;
pub(crate) mod statement_rules;
pub(crate) mod suggestions;
pub mod vocabulary;
pub(crate) mod workspace_reads;
