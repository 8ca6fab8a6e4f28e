//! # P101 `undefined-interpolation`
//!
//! **Undefined interpolation variable.** A string interpolates `{NAME}` (or
//! `{NAME.field}`) but no variable NAME is in scope there.
//!
//! A name resolves when a loop, parameter, error or pipeline variable of an
//! enclosing construct has it, or when a variable declaration (`input`,
//! `let`, `const`, `output`, a named result, a destructured name) with that
//! name comes earlier in the file. Inside a `block` body or an `agent`
//! definition any declaration in the file counts, because both run later.
//! Agents, blocks and imported programs are not variables.
//!
//! Text in braces that is not an identifier or dotted path (`{}`, JSON,
//! code) is literal and never reported; so is `\{`.
//!
//! ## Example
//! ```prose
//! let research = session "Research the topic"
//! session "Summarize {reserch}"
//! ```
//!
//! ## Fix
//! ```prose
//! let research = session "Research the topic"
//! session "Summarize {research}"
//! ```
//!
//! The diagnostic is on the name inside the braces; the message suggests the
//! closest variable visible there, within two edits, and says when the name
//! is an agent, block or imported program rather than a variable.
//!
//! ## Specification
//! compiler.md, String Literals › Validation: "Undefined interpolation
//! variable" (Error; the table has no message), and Interpolation Rules 2:
//! "Referenced variables must be in scope". compiler.md gives the row no
//! E-code; this project numbers it P101.
//!
//! ## Profiles
//! `default` reports a **hint**: an undefined `{name}` is passed to the
//! session as literal text. All 16 cases in the official programs (5 files)
//! are placeholders for the subagent to fill in, for example
//! `examples/28-gas-town.prose:315` (`{convoy_id}`, a value the subagent
//! creates itself) and `examples/48-habit-miner.prose:347`
//! (`{pattern.maturity}` in a `map` body). prose.md substitutes only names
//! that exist. One placeholder, `{rig-name}` in a directory-tree sketch at
//! `examples/28-gas-town.prose:1214`, is within two edits of the variable
//! `rig_name` (a block parameter, not visible there), so a typo heuristic
//! cannot raise these to warnings without false positives; the suggestion
//! stays in the message.

use crate::openprose::rules::prelude::*;
use crate::openprose::suggestions::distance_within;

pub(crate) const RULE: Rule = Rule {
    code: "P101",
    name: "undefined-interpolation",
    summary: "Undefined interpolation variable",
    strict: Severity::Error,
    default: Level::On(Severity::Hint),
    source: include_str!("undefined_interpolation.rs"),
    check: Check::OpenProse(check),
};

/// A declaration that any hoisted body (block, agent) can see.
fn is_declaration(kind: DefKind) -> bool {
    kind.is_flat_binding() || kind == DefKind::Input
}

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for r in &ctx.sema().refs {
        if r.kind != RefKind::Variable(RefSite::Interpolation) || r.target.is_some() {
            continue;
        }
        let Some(token) = ctx
            .syntax()
            .covering_element(r.range)
            .into_token()
            .or_else(|| {
                ctx.syntax()
                    .covering_element(r.range)
                    .into_node()
                    .and_then(|n| n.first_token())
            })
        else {
            continue;
        };
        let hoisted = token
            .parent_ancestors()
            .any(|a| matches!(a.kind(), SyntaxKind::BLOCK_DEF | SyntaxKind::AGENT_DEF));
        if hoisted
            && ctx
                .sema()
                .named(&r.name)
                .any(|id| is_declaration(ctx.sema().def(id).kind))
        {
            continue;
        }
        let written = token
            .parent_ancestors()
            .find(|a| a.kind() == SyntaxKind::INTERPOLATION)
            .map_or_else(|| format!("{{{}}}", r.name), |i| i.text().to_string());
        let kind_note = ctx
            .sema()
            .named(&r.name)
            .map(|id| ctx.sema().def(id))
            .find(|d| !d.kind.is_variable())
            .map(|d| {
                format!(
                    " (`{}` is {}, not a variable)",
                    r.name,
                    an(d.kind.describe())
                )
            })
            .unwrap_or_default();
        let suggestion = closest_variable(ctx, r)
            .map(|s| format!(" (did you mean `{s}`?)"))
            .unwrap_or_default();
        acc.report(
            r.range,
            format!(
                "Undefined interpolation variable `{}`{kind_note}{suggestion}: `{written}` is passed to the session as literal text; write `\\{written}` if that is meant",
                r.name
            ),
        );
    }
}

fn an(what: &str) -> String {
    let vowel = what.starts_with(['a', 'e', 'i', 'o', 'u']);
    format!("{} {what}", if vowel { "an" } else { "a" })
}

/// The closest variable visible at the reference, within two edits (none
/// once the file's suggestion budget is spent).
fn closest_variable<'a>(ctx: &'a Ctx<'_>, r: &crate::semantics::Reference) -> Option<&'a str> {
    if !ctx.suggestions().spend(ctx.sema().defs.len()) {
        return None;
    }
    let chars = r.name.chars().count();
    ctx.sema()
        .defs
        .iter()
        .filter(|d| d.kind.is_variable() && d.name != r.name)
        .filter(|d| d.scope.is_none_or(|s| s.contains_range(r.range)))
        // A character is at most four bytes: names whose byte lengths
        // differ by more than eight are more than two edits apart.
        .filter(|d| d.name.len().abs_diff(r.name.len()) <= 2 * 4)
        .filter_map(|d| {
            Some((
                distance_within(&r.name, chars, &d.name, 2)?,
                d.name.as_str(),
            ))
        })
        .min()
        .map(|(_, n)| n)
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_code_strict, check_no};
    use expect_test::expect;

    const PLACEHOLDERS: &str = r#"agent captain:
  model: opus
let research = session "Research"
session "Use {reserch} and {convoy_id.status} and {captain}"
"#;

    #[test]
    fn default_hints() {
        check_code(
            "P101",
            PLACEHOLDERS,
            expect![[r#"
                P101 4:15-4:22 hint: Undefined interpolation variable `reserch` (did you mean `research`?): `{reserch}` is passed to the session as literal text; write `\{reserch}` if that is meant
                P101 4:29-4:38 hint: Undefined interpolation variable `convoy_id`: `{convoy_id.status}` is passed to the session as literal text; write `\{convoy_id.status}` if that is meant
                P101 4:52-4:59 hint: Undefined interpolation variable `captain` (`captain` is an agent, not a variable): `{captain}` is passed to the session as literal text; write `\{captain}` if that is meant
            "#]],
        );
    }

    #[test]
    fn strict_errors() {
        check_code_strict(
            "P101",
            PLACEHOLDERS,
            expect![[r#"
                P101 4:15-4:22 error: Undefined interpolation variable `reserch` (did you mean `research`?): `{reserch}` is passed to the session as literal text; write `\{reserch}` if that is meant
                P101 4:29-4:38 error: Undefined interpolation variable `convoy_id`: `{convoy_id.status}` is passed to the session as literal text; write `\{convoy_id.status}` if that is meant
                P101 4:52-4:59 error: Undefined interpolation variable `captain` (`captain` is an agent, not a variable): `{captain}` is passed to the session as literal text; write `\{captain}` if that is meant
            "#]],
        );
    }

    #[test]
    fn resolved_names_and_literal_braces() {
        check_no(
            "P101",
            r#"input topic: "t"
agent writer:
  model: opus
  prompt: "Write about {topic} using {notes}"
let notes = session "Research {topic}"
for item, i in [1, 2]:
  session "{item} {i} {notes.summary}"
block b(p):
  session "{p} {later}"
let later = notes | map:
  session "{item}"
session "{} {\"json\": 1} \{notes} { spaced }"
"#,
        );
    }
}
