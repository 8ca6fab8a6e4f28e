//! Session handles that belong to one backend.
//!
//! A backend with conversations of its own returns a
//! [`super::BackendResponse::session_handle`]; the runner keeps it with the
//! persistent agent's memory and hands it back on the agent's next
//! `resume:` ([`super::SessionIdentity::handle`]). The memory outlives a
//! change of backend (a project-scoped agent used with `claude` today and
//! `openai` tomorrow), so every handle starts with the name of the backend
//! that made it (`claude:5f0c...`, `openai:{...}`) and a backend ignores
//! handles that are not its own: the agent then starts a new conversation,
//! with its memory in the prompt as always.

use super::{SessionIdentity, SessionMode};

/// `backend:value`.
pub fn make(backend: &str, value: &str) -> String {
    format!("{backend}:{value}")
}

/// The value of the handle `identity` carries when it is a resume of a
/// conversation `backend` made; `None` otherwise.
pub fn resumable<'a>(identity: &'a SessionIdentity, backend: &str) -> Option<&'a str> {
    if identity.mode != SessionMode::Resume {
        return None;
    }
    identity
        .handle
        .as_deref()?
        .strip_prefix(backend)?
        .strip_prefix(':')
        .map(str::trim)
        .filter(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn identity(mode: SessionMode, handle: Option<&str>) -> SessionIdentity {
        SessionIdentity {
            mode,
            key: Some("agent:captain@run".into()),
            handle: handle.map(str::to_string),
        }
    }

    #[test]
    fn only_own_handles_on_resume() {
        let h = make("claude", "5f0c");
        assert_eq!(h, "claude:5f0c");
        assert_eq!(
            resumable(&identity(SessionMode::Resume, Some(&h)), "claude"),
            Some("5f0c")
        );
        assert_eq!(
            resumable(
                &identity(SessionMode::Resume, Some("claude:5f0c\n")),
                "claude"
            ),
            Some("5f0c")
        );
        assert_eq!(
            resumable(&identity(SessionMode::Resume, Some(&h)), "codex"),
            None
        );
        assert_eq!(
            resumable(&identity(SessionMode::Resume, Some("claudex:1")), "claude"),
            None
        );
        assert_eq!(
            resumable(&identity(SessionMode::New, Some(&h)), "claude"),
            None
        );
        assert_eq!(
            resumable(&identity(SessionMode::Resume, None), "claude"),
            None
        );
        assert_eq!(
            resumable(&identity(SessionMode::Resume, Some("claude:")), "claude"),
            None
        );
    }
}
