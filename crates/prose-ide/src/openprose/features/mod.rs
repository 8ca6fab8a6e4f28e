//! OpenProse IDE features: one module per feature, each a plain function
//! over the database returning plain data (byte offsets, labels), with its
//! fixture tests (`$0` marks the cursor; see `crate::fixture`). The
//! `Analysis` methods that dispatch to them by file kind are in
//! `crate::features`. Only `prose-lsp` converts these to LSP.

pub mod code_actions;
pub mod code_lens;
pub mod completion;
pub mod document_symbols;
pub mod folding;
pub mod formatting;
pub mod highlight_related;
pub mod hover;
pub mod inlay_hints;
pub mod navigation;
pub mod references;
pub mod rename;
pub mod selection;
pub mod semantic_tokens;
pub mod signature_help;
pub mod workspace_symbols;
