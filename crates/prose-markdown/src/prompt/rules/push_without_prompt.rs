//! # M009 `push-without-prompt`
//!
//! **`/push` without a prompt.** After its options, `/push` needs the
//! prompt of the task it queues: a quoted string or the rest of the line.
//!
//! ## Why is this bad?
//! A task without a prompt gives the agent that runs it nothing to do.
//!
//! ## Example
//! ```markdown
//! /push name=tests
//! Implement the feature.
//! ```
//!
//! ## Fix
//! ```markdown
//! /push name=tests "Write tests for the feature"
//! Implement the feature.
//! ```
//!
//! ## Severity
//! Error: the task cannot run.

use super::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "M009",
    name: "push-without-prompt",
    summary: "`/push` without a prompt",
    severity: Severity::Error,
    source: include_str!("push_without_prompt.rs"),
};

pub(crate) fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for cmd in ctx.file.processed() {
        let Some(push) = cmd.push.as_ref() else {
            continue;
        };
        match &push.prompt {
            None => {
                acc.report(cmd.range, "`/push` needs a prompt: the task to queue");
            }
            Some(p) if p.text.trim().is_empty() => {
                acc.report(p.range, "The prompt of this `/push` is empty");
            }
            Some(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::prompt::tests::check_code;
    use expect_test::expect;

    #[test]
    fn no_prompt_or_empty_prompt() {
        check_code(
            "M009",
            "/push\n/push name=a\n/push name=b \"\"\n/push Write the docs\nText.\n",
            expect![[r#"
                M009 1:1-1:6 error: `/push` needs a prompt: the task to queue
                M009 2:1-2:13 error: `/push` needs a prompt: the task to queue
                M009 3:14-3:16 error: The prompt of this `/push` is empty
            "#]],
        );
    }
}
