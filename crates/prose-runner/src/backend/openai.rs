//! The `openai` backend: any OpenAI-compatible HTTP endpoint (base URL, model, key from an environment variable): llama.cpp, vLLM, Ollama.
//!
//! Not implemented yet: [`create`] returns a placeholder whose requests
//! fail with a clear message and whose preflight refuses the run. The real
//! backend replaces this file (its permission mapping goes in
//! [`super::Backend::enforces`], its model names in
//! [`super::Backend::default_model_name`]).

use std::sync::Arc;

use super::{
    Backend, BackendError,
    registry::{BackendKind, NotImplemented},
};
use crate::config::RunnerConfig;

/// Builds the backend from the configuration.
pub(crate) fn create(_config: &RunnerConfig) -> Result<Arc<dyn Backend>, BackendError> {
    Ok(Arc::new(NotImplemented(BackendKind::Openai)))
}
