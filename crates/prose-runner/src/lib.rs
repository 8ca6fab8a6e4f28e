//! Runs OpenProse programs.
//!
//! The runner is an interpreter of the program's syntax tree: the strict
//! parts of the language (statement order, bindings, scoping, context
//! passing, interpolation, the precedence of agent and session properties)
//! are deterministic Rust; the intelligent parts (sessions, discretion
//! conditions, choices, judgements) are requests to an agent
//! [`backend`]. Run state follows the runtime's own `.prose/runs/` layout
//! and survives a crash: `prose run --resume RUN_ID` goes on without
//! repeating a finished session.
//!
//! Layers, each independent of OpenProse's syntax except the interpreter:
//!
//! - [`backend`]: the [`backend::Backend`] trait, its request and response
//!   types, the permission model, and the backends (`mock`, `command`,
//!   `claude`, `codex`, `openai`, `anthropic`);
//! - [`config`]: the runner's configuration, with the origin of each value;
//! - [`answer`]: reading condition and choice answers.
//!
//! See docs/runner.md for the user's view.

pub mod answer;
pub mod backend;
pub mod check;
pub mod clock;
pub mod config;
pub mod consent;
pub mod events;
pub mod input;
pub(crate) mod interp;
pub mod ir;
pub mod jobs;
pub mod lower;
pub mod plan;
pub mod run;
pub mod state;
pub mod value;
