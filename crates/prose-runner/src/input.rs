//! Asking the user for a program input the run was not given.
//!
//! The CLI asks on the terminal; the language server sends
//! `prose/inputRequest` to the editor. A run without a provider is
//! non-interactive: every input must be given before it starts.

use futures::future::BoxFuture;

/// One question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputRequest {
    pub run_id: String,
    /// The input's name.
    pub name: String,
    /// Its description or question, interpolated.
    pub description: String,
}

/// Answers input requests, asynchronously.
pub trait InputProvider: Send + Sync {
    /// The value, or `None` when the user declined (the run is then
    /// cancelled).
    fn ask(&self, request: InputRequest) -> BoxFuture<'static, Option<String>>;
}

impl<F> InputProvider for F
where
    F: Fn(InputRequest) -> Option<String> + Send + Sync,
{
    fn ask(&self, request: InputRequest) -> BoxFuture<'static, Option<String>> {
        let answer = self(request);
        Box::pin(async move { answer })
    }
}
