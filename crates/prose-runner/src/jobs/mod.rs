//! Running a job entry's task (seed 002, "Running Tasks") on any backend.
//!
//! A task is run by a **task session** (its prompt, and the prompts of its
//! retries) and a **driving session** (the conditions of its
//! `availability` and `criteria`). With the single-model option they are
//! one conversation with the task's model; otherwise (the double-model
//! option, when `criteria.runConditionInSameSession` is false) each
//! condition is asked of a new session with `models.driving`. Every
//! session is offered the four job tools; their calls set the runtime
//! variables every prompt is expanded with before it is sent.
//!
//! The modules, one concern each:
//!
//! - [`plan`]: what the run will do (the model option, the models, every
//!   prompt after static expansion), decided before anything runs;
//! - [`dry_run`]: the plan as text;
//! - [`tools`]: the job tools, the runtime variables they set, and what a
//!   round's calls decide;
//! - `session`: conversations, and one round (dynamic expansion, the
//!   request, the journal, the tool calls applied);
//! - `exec`: the task's steps (availability, attempts, criteria, retries)
//!   and the end of the run;
//! - [`prepare`](prepare_task): options, checks, the run's directory, start;
//! - [`check`]: the entry's diagnostics, as the analysis's;
//! - [`events`](JobEvent): the job events of the run event contract;
//! - [`describe`]: a job event as one line, for progress displays.
//!
//! The API has the shape of a program's run ([`crate::run`]):
//! [`prepare_task`] then [`start_task`] gives a [`crate::run::RunHandle`]
//! (cancel, wait for the [`crate::run::RunOutcome`]), events go to an
//! [`crate::events::EventSink`], a missing `$user-input` is asked through
//! an [`crate::input::InputProvider`], and [`dry_run_task`] is the plan as
//! text. What the runner decides where the seed is silent is in
//! docs/jobs.md, "Running tasks".

pub mod check;
mod describe;
pub mod dry_run;
mod events;
mod exec;
pub mod plan;
mod prepare;
mod session;
mod state;
pub mod tools;

pub use describe::describe;
pub use events::{JobEvent, TaskOutcome};
pub use plan::{Mode, PlanOptions, TaskPlan};
pub use prepare::{
    ENTRY_FILE, PreparedTask, TaskRunOptions, dry_run_task, prepare_task, start_task,
};
