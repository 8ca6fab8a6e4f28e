//! The prompt a backend receives (docs/runner.md, "The prompt").
//!
//! The task comes first, exactly as the program wrote it after
//! interpolation, so a session with nothing else is just its text. Then, in
//! this order and only when present, one section each:
//!
//! ```text
//! {task}
//!
//! ## System
//!
//! {the agent's prompt}
//!
//! ## Memory
//!
//! {the persistent agent's memory.md, on resume:}
//!
//! ## Context: {name}
//!
//! {the binding's value}
//! ```
//!
//! (one `## Context:` section per context binding, in the order written).

use crate::backend::PromptParts;

/// The full prompt for `parts`.
pub fn render(parts: &PromptParts) -> String {
    let mut s = parts.task.clone();
    let mut section = |title: &str, body: &str| {
        if !s.is_empty() {
            s.push_str("\n\n");
        }
        s.push_str("## ");
        s.push_str(title);
        s.push_str("\n\n");
        s.push_str(body.trim_end());
    };
    if let Some(system) = &parts.system {
        section("System", system);
    }
    if let Some(memory) = &parts.memory {
        section("Memory", memory);
    }
    for c in &parts.context {
        section(&format!("Context: {}", c.name), &c.text);
    }
    s
}

/// The task of a condition request.
pub fn condition_task(condition: &str) -> String {
    format!(
        "Decide whether this condition holds, given the context below:\n\n{condition}\n\nAnswer with one word: true or false."
    )
}

/// The task of a choice request.
pub fn choice_task(criteria: &str, labels: &[String]) -> String {
    let mut s = format!("Choose the option that best fits: {criteria}\n\nOptions:\n");
    for l in labels {
        s.push_str("- ");
        s.push_str(l);
        s.push('\n');
    }
    s.push_str("\nAnswer with the label of one option, exactly as written.");
    s
}

/// The task of a filter's judgement, when the filter body's answer does
/// not read as yes or no.
pub fn judgement_task(item: &str, answer: &str) -> String {
    format!(
        "A filter asked whether to keep this item:\n\n{item}\n\nThe answer was:\n\n{answer}\n\nDoes the answer mean the item should be kept? Answer with one word: true or false."
    )
}

/// Appended to the task when an answer could not be read and is asked
/// again.
pub fn reask_note(kind: crate::backend::RequestKind, previous: &str) -> String {
    let expected = match kind {
        crate::backend::RequestKind::Choice => "the label of one option, exactly as written",
        _ => "one word: true or false",
    };
    format!(
        "\n\nYour previous answer could not be read: {:?}. Answer with {expected}, and nothing else.",
        crate::events::excerpt(previous)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::ContextItem;

    #[test]
    fn a_bare_task_is_just_its_text_and_sections_follow() {
        let mut parts = PromptParts {
            task: "Summarise".into(),
            ..Default::default()
        };
        assert_eq!(render(&parts), "Summarise");
        parts.system = Some("You are terse.\n".into());
        parts.memory = Some("# Agent Memory: a\n".into());
        parts.context = vec![
            ContextItem {
                name: "research".into(),
                text: "Facts.".into(),
                path: Some("bindings/research.md".into()),
            },
            ContextItem {
                name: "notes".into(),
                text: "More.".into(),
                path: None,
            },
        ];
        expect_test::expect![[r#"
            Summarise

            ## System

            You are terse.

            ## Memory

            # Agent Memory: a

            ## Context: research

            Facts.

            ## Context: notes

            More."#]]
        .assert_eq(&render(&parts));
    }
}
