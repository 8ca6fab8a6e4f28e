//! The keywords and signals of seed 000, with their documentation in our
//! words and the expansion the seed gives each (`_instructed_` stands for
//! "you're instructed").

use crate::tokens::TokenKind;

/// A keyword of the instruction language (written `_name_`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Keyword {
    If,
    Then,
    Elif,
    Else,
    Instructed,
    InstructedPreviously,
    Ask,
    Follow,
    Remember,
    RepliedPreviously,
    Subreplied,
    SubrepliedPreviously,
    Resumed,
    Run,
    Spawn,
    Terminate,
}

/// Every keyword, in the seed's order.
pub const KEYWORDS: [Keyword; 16] = [
    Keyword::If,
    Keyword::Then,
    Keyword::Elif,
    Keyword::Else,
    Keyword::Instructed,
    Keyword::InstructedPreviously,
    Keyword::Ask,
    Keyword::Follow,
    Keyword::Remember,
    Keyword::RepliedPreviously,
    Keyword::Subreplied,
    Keyword::SubrepliedPreviously,
    Keyword::Resumed,
    Keyword::Run,
    Keyword::Spawn,
    Keyword::Terminate,
];

/// What a keyword does in a sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Category {
    /// `_if_ _then_ _elif_ _else_ _follow_`: structure.
    Control,
    /// `_instructed_`, `_resumed_`, …: what a condition tests.
    Condition,
    /// `_ask_ _remember_ _run_ _spawn_ _terminate_`: what to do.
    Action,
}

impl Keyword {
    /// The name between the underscores (`terminate`).
    pub fn name(self) -> &'static str {
        match self {
            Keyword::If => "if",
            Keyword::Then => "then",
            Keyword::Elif => "elif",
            Keyword::Else => "else",
            Keyword::Instructed => "instructed",
            Keyword::InstructedPreviously => "instructedpreviously",
            Keyword::Ask => "ask",
            Keyword::Follow => "follow",
            Keyword::Remember => "remember",
            Keyword::RepliedPreviously => "repliedpreviously",
            Keyword::Subreplied => "subreplied",
            Keyword::SubrepliedPreviously => "subrepliedpreviously",
            Keyword::Resumed => "resumed",
            Keyword::Run => "run",
            Keyword::Spawn => "spawn",
            Keyword::Terminate => "terminate",
        }
    }

    /// As written (`_terminate_`).
    pub fn written(self) -> String {
        format!("_{}_", self.name())
    }

    /// The keyword named `name` (exact, lowercase).
    pub fn from_name(name: &str) -> Option<Keyword> {
        KEYWORDS.into_iter().find(|k| k.name() == name)
    }

    pub fn category(self) -> Category {
        match self {
            Keyword::If | Keyword::Then | Keyword::Elif | Keyword::Else | Keyword::Follow => {
                Category::Control
            }
            Keyword::Instructed
            | Keyword::InstructedPreviously
            | Keyword::RepliedPreviously
            | Keyword::Subreplied
            | Keyword::SubrepliedPreviously
            | Keyword::Resumed => Category::Condition,
            Keyword::Ask
            | Keyword::Remember
            | Keyword::Run
            | Keyword::Spawn
            | Keyword::Terminate => Category::Action,
        }
    }

    /// Its semantic token kind.
    pub fn token_kind(self) -> TokenKind {
        match self.category() {
            Category::Control => TokenKind::Keyword,
            Category::Condition => TokenKind::Condition,
            Category::Action => TokenKind::Action,
        }
    }

    /// Whether it tests something that only exists after the session was
    /// terminated and resumed (seed: "This assumes that your session has
    /// been terminated and resumed at least once").
    pub fn assumes_resumed_session(self) -> bool {
        matches!(
            self,
            Keyword::InstructedPreviously
                | Keyword::RepliedPreviously
                | Keyword::SubrepliedPreviously
                | Keyword::Resumed
        )
    }

    /// What the keyword stands for, as a phrase that can replace it in
    /// the sentence (seed 000's expansions where it gives one).
    pub fn expansion(self) -> &'static str {
        match self {
            Keyword::If => "if",
            Keyword::Then => "then",
            Keyword::Elif => "else if",
            Keyword::Else => "otherwise",
            Keyword::Instructed => "you're instructed",
            Keyword::InstructedPreviously => {
                "you were before your session's first termination instructed"
            }
            Keyword::Ask => {
                "ask the question in `$PWD/question.md`, then _terminate_ \"SGN_PENDING\""
            }
            Keyword::Follow => "perform the numbered tasks one by one, without parallelization",
            Keyword::Remember => "remember this, and keep it when your conversation is compacted",
            Keyword::RepliedPreviously => "you replied previously to your caller with a message",
            Keyword::Subreplied => "a sub-agent you just spawned replied to you with a message",
            Keyword::SubrepliedPreviously => {
                "right before your session's first termination, a sub-agent replied to you with a message"
            }
            Keyword::Resumed => {
                "your caller resumed your previously terminated session with a message"
            }
            Keyword::Run => "run this command with the Bash tool",
            Keyword::Spawn => "_run_ `$PWD/agent-cli spawn $PWD/{file name}.md`",
            Keyword::Terminate => {
                "stop immediately and reply to your caller exactly with this message, then end your session"
            }
        }
    }

    /// How it is used, as one line.
    pub fn usage(self) -> &'static str {
        match self {
            Keyword::If => "_if_ CONDITION, _then_ ACTION",
            Keyword::Then => "_if_ CONDITION, _then_ ACTION",
            Keyword::Elif => "_elif_ CONDITION, _then_ ACTION",
            Keyword::Else => "_else_ ACTION",
            Keyword::Instructed => "_if_ _instructed_ like \"PATTERN\", _then_ …",
            Keyword::InstructedPreviously => {
                "_if_ _instructedpreviously_ like \"PATTERN\", _then_ …"
            }
            Keyword::Ask => "_ask_ \"QUESTION\"",
            Keyword::Follow => "_follow_:\n1) first task\n2) second task",
            Keyword::Remember => "_remember_ FACT",
            Keyword::RepliedPreviously => "_if_ _repliedpreviously_ like \"PATTERN\", _then_ …",
            Keyword::Subreplied => "_if_ _subreplied_ like \"PATTERN\", _then_ …",
            Keyword::SubrepliedPreviously => {
                "_if_ _subrepliedpreviously_ like \"PATTERN\", _then_ …"
            }
            Keyword::Resumed => "_if_ _resumed_ like \"PATTERN\", _then_ …",
            Keyword::Run => "_run_ `COMMAND`",
            Keyword::Spawn => "_spawn_ `FILE.md`",
            Keyword::Terminate => "_terminate_ \"MESSAGE\"",
        }
    }

    /// The explanation shown in hover and completion, after the usage and
    /// the expansion.
    fn explanation(self) -> &'static str {
        match self {
            Keyword::If | Keyword::Then => {
                "A condition and what to do when it holds. Chain further cases with `_elif_` and \
                 a last one with `_else_`, on the following lines or list items at the same level. \
                 After `_then_:` the action may be the nested list, or the section under a heading."
            }
            Keyword::Elif => {
                "Another case of the `_if_` just before it (in the same paragraph, or the previous \
                 line or list item at the same level), tried when the earlier conditions do not hold."
            }
            Keyword::Else => {
                "What to do when none of the conditions of the `_if_`/`_elif_` chain before it holds."
            }
            Keyword::Instructed => {
                "Tests the instruction you were given, usually against a pattern: \
                 `like \"_ask_{*}\"` matches any instruction starting with `_ask_`."
            }
            Keyword::InstructedPreviously => {
                "Tests the instruction you had been given before your session was first \
                 terminated. It assumes the session has been terminated and resumed at least once."
            }
            Keyword::Ask => {
                "When instructed `_ask_ \"{some question}\"`: create `$PWD/question.md` holding \
                 `Q: {some question}` and an empty `A:` line, then `_terminate_ \"SGN_PENDING\"`. \
                 Whoever answers fills in `A:` and resumes the session with `SGN_RESUME`; the SOP's \
                 `_instructedpreviously_ like \"_ask_{*}\"` branch then replies with the answer."
            }
            Keyword::Follow => {
                "Introduces a numbered list of tasks (`1)`, `2)` or `1.`, `2.`) performed in order, \
                 each finished before the next starts."
            }
            Keyword::Remember => {
                "Keeps a fact (a sub-agent's session id, a decision) through the compaction of the \
                 conversation, where ordinary context may be summarised away."
            }
            Keyword::RepliedPreviously => {
                "Tests the reply you gave your caller before this session was resumed. It assumes \
                 the session has been terminated and resumed at least once."
            }
            Keyword::Subreplied => {
                "Tests the reply of the sub-agent you just spawned, for example \
                 `like \"SGN_PENDING ({identifier})\"` when it is waiting for an answer."
            }
            Keyword::SubrepliedPreviously => {
                "Tests what a sub-agent replied right before your session was first terminated. It \
                 assumes the session has been terminated and resumed at least once."
            }
            Keyword::Resumed => {
                "Tests the message your caller resumed your terminated session with (the SOP uses \
                 `SGN_RESUME`). It assumes the session has been terminated and resumed at least once."
            }
            Keyword::Run => "Runs the backticked command with the Bash tool.",
            Keyword::Spawn => {
                "Starts a sub-agent whose instructions are the backticked `.md` file, through \
                 `$PWD/agent-cli spawn`. Its reply is what `_subreplied_` tests."
            }
            Keyword::Terminate => {
                "Stop at once: do not go on with the instructions, reply to your caller with exactly \
                 the quoted message (variables filled in, instructions between braces carried out, \
                 nothing added) and end the session. Signals such as `SGN_PENDING` are messages too."
            }
        }
    }

    /// Markdown documentation for hover and completion.
    pub fn docs(self) -> String {
        format!(
            "```markdown\n{}\n```\n**{}**: {}\n\n{}",
            self.usage(),
            self.written(),
            self.expansion(),
            self.explanation()
        )
    }

    /// The completion snippet (LSP syntax), when the keyword takes an
    /// argument.
    pub fn snippet(self) -> Option<&'static str> {
        match self {
            Keyword::If => Some("_if_ ${1:condition}, _then_ ${0:action}"),
            Keyword::Elif => Some("_elif_ ${1:condition}, _then_ ${0:action}"),
            Keyword::Ask => Some("_ask_ \"${1:question}\""),
            Keyword::Follow => Some("_follow_:\n1) ${1:first task}\n2) ${0:second task}"),
            Keyword::Run => Some("_run_ `${1:command}`"),
            Keyword::Spawn => Some("_spawn_ `${1:agent}.md`"),
            Keyword::Terminate => Some("_terminate_ \"${1:SGN_DONE}\""),
            Keyword::Instructed
            | Keyword::InstructedPreviously
            | Keyword::RepliedPreviously
            | Keyword::Subreplied
            | Keyword::SubrepliedPreviously
            | Keyword::Resumed => None,
            Keyword::Then | Keyword::Else | Keyword::Remember => None,
        }
    }
}

/// A signal the SOP of seed 000 gives a meaning to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SignalDoc {
    pub name: &'static str,
    pub docs: &'static str,
}

/// The signals of the SOP.
pub const SIGNALS: [SignalDoc; 3] = [
    SignalDoc {
        name: "SGN_PENDING",
        docs: "The session stopped to wait: it asked a question (`_ask_`) or one of its sub-agents \
               is waiting (`SGN_PENDING ({identifier})` carries that sub-agent's session id). \
               Resume it with `SGN_RESUME` once there is an answer.",
    },
    SignalDoc {
        name: "SGN_RESUME",
        docs: "The message a caller resumes a pending session with. The SOP then repeats a \
               previous reply, resumes the pending sub-agent, or answers the question asked.",
    },
    SignalDoc {
        name: "SGN_UNHANDLED",
        docs: "The reply of a resumed session that found nothing to continue: no previous reply, \
               no pending sub-agent, no open question.",
    },
];

/// The documentation of signal `name`: the SOP's, or a general one for
/// signals a text defines itself (`SGN_DONE`).
pub fn signal_docs(name: &str) -> String {
    match SIGNALS.iter().find(|s| s.name == name) {
        Some(s) => format!("**`{}`** (SOP signal)\n\n{}", s.name, s.docs),
        None => format!(
            "**`{name}`**\n\nA signal: a fixed message a session replies with (`_terminate_ \"{name}\"`) \
             so that its caller can test it (`_subreplied_ like \"{name}\"`). Not one of the SOP's \
             signals (`SGN_PENDING`, `SGN_RESUME`, `SGN_UNHANDLED`)."
        ),
    }
}

/// Markdown documentation of the `{*}` discard.
pub const DISCARD_DOCS: &str = "**`{*}`**: a discard. In a `like \"…\"` pattern it matches any text \
    and keeps none of it: `like \"_ask_{*}\"` matches every instruction that starts with `_ask_`.";

/// Markdown documentation of `like`.
pub const LIKE_DOCS: &str = "**`like \"PATTERN\"`**: the text matches the pattern. In a pattern \
    `{name}` matches any text and binds it to `name` for the action, and `{*}` matches any text \
    without binding it. `not like` negates; `like:` followed by a fenced block takes the block as \
    the pattern.";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for k in KEYWORDS {
            assert_eq!(Keyword::from_name(k.name()), Some(k));
            assert!(k.docs().contains(&k.written()));
        }
        assert_eq!(Keyword::Instructed.expansion(), "you're instructed");
    }
}
