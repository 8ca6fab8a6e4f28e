//! # K009 `unbound-variable`
//!
//! **Variable not bound by the condition's pattern.** In the action of an
//! `_if_`/`_elif_` whose condition has a `like "…"` pattern, a `{name}`
//! that no enclosing condition binds. A condition binds every `{name}` it
//! holds: in its patterns (`like "SGN_PENDING ({identifier})"`), in a
//! fenced `like:` pattern, or quoted elsewhere in it (`an answer
//! ("{answer}")`).
//!
//! ## Why is this bad?
//! Usually a typo or a renamed variable: the model fills in a value it
//! never matched.
//!
//! Not reported: braces with alternatives (`{msg|SGN_X}`), braces with
//! more than four words (seed 000 allows "instructions between the curly
//! braces"), and actions of conditions without a pattern, where braces are
//! placeholders for the reader.
//!
//! ## Example
//! ```markdown
//! _if_ _subreplied_ like "SGN_PENDING ({identifier})", _then_ _run_ `agent-cli resume {id}`.
//! ```
//!
//! ## Fix
//! ```markdown
//! _if_ _subreplied_ like "SGN_PENDING ({identifier})", _then_ _run_ `agent-cli resume {identifier}`.
//! ```
//!
//! A quick fix renames a variable close to a bound one.
//!
//! ## Severity
//! Warning: the brace may be meant for the reader.

use super::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "K009",
    name: "unbound-variable",
    summary: "Variable not bound by the condition's pattern",
    severity: Severity::Warning,
    source: include_str!("unbound_variable.rs"),
};

pub(crate) fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for v in &ctx.ins.variables {
        if v.role != VariableRole::Use || v.discard || v.choice || v.instruction || v.in_pattern {
            continue;
        }
        let enclosing: Vec<_> = ctx.ins.enclosing_branches(v.range).collect();
        if !enclosing.iter().any(|b| b.has_pattern) {
            continue;
        }
        let mut bound: Vec<&str> = enclosing
            .iter()
            .flat_map(|b| b.bindings.iter().map(String::as_str))
            .collect();
        bound.dedup();
        if bound.contains(&v.name.as_str()) {
            continue;
        }
        let guess = closest(&v.name, bound.iter().copied());
        let list = if bound.is_empty() {
            "it binds no variable".to_string()
        } else {
            format!(
                "it binds {}",
                bound
                    .iter()
                    .map(|b| format!("`{{{b}}}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        let dym = did_you_mean(guess.map(|g| format!("{{{g}}}")));
        let d = acc.report(
            v.range,
            format!(
                "`{}` is not bound by the condition's pattern{dym}: {list}",
                slice(ctx.text, v.range)
            ),
        );
        if let Some(g) = guess {
            d.fix(format!("Change to `{{{g}}}`"), v.range, format!("{{{g}}}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::instructions::tests::{check_code, check_fix};
    use expect_test::expect;

    #[test]
    fn unbound_names_in_actions() {
        check_code(
            "K009",
            r#"_if_ _subreplied_ like "SGN_PENDING ({identifier})", _then_ _run_ `resume {identifer}`.
_if_ _instructed_ like "greet {name}", _then_ _terminate_ "Hi {nmae}, {other}".
"#,
            expect![[r#"
                K009 1:75-1:86 warning: `{identifer}` is not bound by the condition's pattern (did you mean `{identifier}`?): it binds `{identifier}`
                K009 2:63-2:69 warning: `{nmae}` is not bound by the condition's pattern (did you mean `{name}`?): it binds `{name}`
                K009 2:71-2:78 warning: `{other}` is not bound by the condition's pattern: it binds `{name}`
            "#]],
        );
    }

    #[test]
    fn bound_nested_quoted_and_placeholder_braces_are_fine() {
        check_code(
            "K009",
            r#"## _if_ _resumed_ like "SGN_RESUME", _then_:
- _if_ _repliedpreviously_ (like "{prev}" AND not like "SGN_PENDING{*}"), _then_:
    - _terminate_ "{prev}".
- _elif_ _subrepliedpreviously_ like "SGN_PENDING ({identifier})", _then_:
    - _run_ `$PWD/agent-cli resume {identifier}`.
    - _if_ the question file now contains an answer ("{answer}"), _then_:
        - _terminate_ "{answer} for {identifier}".
- _else_:
    - _terminate_ "{some msg|SGN_UNHANDLED}".
    - _terminate_ "{a one line summary of the result}".

## Elsewhere
_if_ the build fails, _then_ write {the log} to a file.

_if_ _instructed_ like:
```md
_spawn_ `{file name}.md`
```
, _then_ _run_ `$PWD/agent-cli spawn $PWD/{file name}.md`.
"#,
            expect![""],
        );
    }

    #[test]
    fn quick_fix() {
        check_fix(
            "K009",
            "_if_ _instructed_ like \"greet {name}\", _then_ _terminate_ \"Hi {nmae}\".\n",
            expect![[r#"
                _if_ _instructed_ like "greet {name}", _then_ _terminate_ "Hi {name}".
            "#]],
        );
    }
}
