//! # P708 `empty-discretion`
//!
//! **Discretion condition cannot be empty.** A discretion marker with no
//! text inside (`** **`, `****`, `*** ***`, or `***` then `***` on the next
//! line), or a condition left out entirely (`if:`, `loop until:`,
//! `choice:`).
//!
//! ## Why is this bad?
//! A discretion condition is a question the model answers at run time; an
//! empty one asks nothing, so the branch, loop or choice is decided at
//! random.
//!
//! ## Example
//! ```prose
//! loop until ** ** (max: 5):
//!   session "Improve the draft"
//! ```
//!
//! ## Fix
//! ```prose
//! loop until **the draft is ready to publish** (max: 5):
//!   session "Improve the draft"
//! ```
//!
//! The diagnostic is on the whole discretion marker, or on the keyword
//! (`if`, `elif`, `choice`, `until`, `while`) when the condition is missing.
//! The message depends on the construct:
//!
//! | Where | Message |
//! |---|---|
//! | `loop until` / `loop while` | Discretion condition cannot be empty |
//! | `choice` | Choice criteria cannot be empty |
//! | `if` / `elif` | If/elif condition cannot be empty |
//! | anywhere else (`input x: ** **`, …) | Discretion condition cannot be empty |
//!
//! A plain-expression condition (`if depth <= 0:`) is never empty.
//!
//! ## Specification
//! compiler.md, Unbounded Loops, Validation Rules: "Empty discretion
//! condition" (Error, "Discretion condition cannot be empty"); Choice
//! Blocks: "Empty criteria" (Error, "Choice criteria cannot be empty");
//! Conditional Statements: "Empty condition" (Error, "If/elif condition
//! cannot be empty"). One check, one code (spec-rows.md §1.3). Same
//! severity in every profile.

use crate::openprose::rules::prelude::*;

pub(crate) const RULE: Rule = Rule {
    code: "P708",
    name: "empty-discretion",
    summary: "Discretion condition cannot be empty",
    strict: Severity::Error,
    default: Level::On(Severity::Error),
    source: include_str!("empty_discretion.rs"),
    check: Check::OpenProse(check),
};

const LOOP_MESSAGE: &str = "Discretion condition cannot be empty";
const CHOICE_MESSAGE: &str = "Choice criteria cannot be empty";
const IF_MESSAGE: &str = "If/elif condition cannot be empty";

/// The construct whose condition a discretion is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Place {
    Loop,
    Choice,
    If,
    Other,
}

/// Where `d` is a condition: walks up through `and`/`or`/`not`/parentheses
/// to the header that owns it.
pub(super) fn place(d: &ast::DiscretionExpr) -> Place {
    for a in d.syntax().ancestors().skip(1) {
        match a.kind() {
            SyntaxKind::BINARY_EXPR | SyntaxKind::PREFIX_EXPR | SyntaxKind::PAREN_EXPR => continue,
            SyntaxKind::LOOP_EXPR => return Place::Loop,
            SyntaxKind::CHOICE_STMT => return Place::Choice,
            SyntaxKind::IF_STMT | SyntaxKind::ELIF_CLAUSE => return Place::If,
            _ => return Place::Other,
        }
    }
    Place::Other
}

fn message(place: Place) -> &'static str {
    match place {
        Place::Choice => CHOICE_MESSAGE,
        Place::If => IF_MESSAGE,
        Place::Loop | Place::Other => LOOP_MESSAGE,
    }
}

fn check(ctx: &Ctx<'_>, acc: &mut Acc) {
    for d in nodes::<ast::DiscretionExpr>(ctx) {
        if d.text().is_empty() {
            acc.report(d.syntax().text_range(), message(place(&d)));
        }
    }
    // Conditions left out: the header's keyword is followed directly by `:`
    // (or, for a loop, by its modifiers or `as`). Other missing conditions
    // are syntax errors already.
    for node in ctx.nodes_matching(|k| {
        ast::IfStmt::can_cast(k)
            || ast::ElifClause::can_cast(k)
            || ast::ChoiceStmt::can_cast(k)
            || ast::LoopExpr::can_cast(k)
    }) {
        let (kw, place) = if let Some(i) = ast::IfStmt::cast(node.clone()) {
            (
                i.condition().is_none().then(|| i.keyword()).flatten(),
                Place::If,
            )
        } else if let Some(e) = ast::ElifClause::cast(node.clone()) {
            (
                e.condition().is_none().then(|| e.keyword()).flatten(),
                Place::If,
            )
        } else if let Some(c) = ast::ChoiceStmt::cast(node.clone()) {
            (
                c.criteria().is_none().then(|| c.keyword()).flatten(),
                Place::Choice,
            )
        } else if let Some(l) = ast::LoopExpr::cast(node.clone()) {
            (
                l.condition()
                    .is_none()
                    .then(|| l.condition_keyword())
                    .flatten(),
                Place::Loop,
            )
        } else {
            continue;
        };
        let Some(kw) = kw else { continue };
        if header_continues(&kw) {
            acc.report(kw.text_range(), message(place));
        }
    }
}

/// Whether the token after `kw` (skipping spaces and comments) ends the
/// condition: `:`, a modifier list or `as`.
fn header_continues(kw: &prose_syntax::SyntaxToken) -> bool {
    let mut next = kw.next_sibling_or_token();
    while let Some(e) = next {
        match e.kind() {
            k if k.is_trivia() => next = e.next_sibling_or_token(),
            SyntaxKind::COLON | SyntaxKind::MODIFIER_LIST | SyntaxKind::AS_KW => return true,
            _ => return false,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use crate::openprose::rule_tests::{check_code, check_no};
    use expect_test::expect;

    #[test]
    fn messages_per_construct() {
        check_code(
            "P708",
            r#"loop until ** ** (max: 3):
  session "a"
choice ****:
  option "x":
    session "b"
if **ready** and ***
***:
  session "c"
elif:
  session "d"
input brief: ** **
loop while (max: 2):
  session "e"
"#,
            expect![[r#"
                P708 1:12-1:17 error: Discretion condition cannot be empty
                P708 3:8-3:12 error: Choice criteria cannot be empty
                P708 6:18-7:4 error: If/elif condition cannot be empty
                P708 9:1-9:5 error: If/elif condition cannot be empty
                P708 11:14-11:19 error: Discretion condition cannot be empty
                P708 12:6-12:11 error: Discretion condition cannot be empty
            "#]],
        );
    }

    #[test]
    fn conditions_with_text_are_fine() {
        check_no(
            "P708",
            r#"loop until **done** (max: 3):
  session "a"
if depth <= 0:
  session "b"
elif **almost there**:
  session "c"
choice **the best option**:
  option "x":
    session "d"
loop:
  session "e"
"#,
        );
    }
}
