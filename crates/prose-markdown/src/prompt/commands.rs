//! The slash commands of seed 004: which exist, where each is processed,
//! and their documentation (our words) for hover and completion.

/// A slash command by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CommandKind {
    /// `/read FILE`: before the model runs, inject the file as a fake
    /// `read` tool round-trip.
    Read,
    /// `/push [options] PROMPT`: queue a task.
    Push,
    /// `/run [N]`: start queued tasks.
    Run,
    /// `/check`: execution time only.
    Check,
    /// `/receive`: execution time only.
    Receive,
    /// `/send`: execution time only.
    Send,
    /// `/queue`: execution time only.
    Queue,
    /// `/inbox`: execution time only.
    Inbox,
    /// Any other name.
    Unknown,
}

/// Every known command, in the order completion offers them.
pub const COMMANDS: [CommandKind; 8] = [
    CommandKind::Read,
    CommandKind::Push,
    CommandKind::Run,
    CommandKind::Check,
    CommandKind::Receive,
    CommandKind::Send,
    CommandKind::Queue,
    CommandKind::Inbox,
];

impl CommandKind {
    /// The kind of command `name` (exact, lowercase).
    pub fn from_name(name: &str) -> CommandKind {
        COMMANDS
            .into_iter()
            .find(|c| c.name() == name)
            .unwrap_or(CommandKind::Unknown)
    }

    /// The name without the slash (`read`); `""` for [`CommandKind::Unknown`].
    pub fn name(self) -> &'static str {
        match self {
            CommandKind::Read => "read",
            CommandKind::Push => "push",
            CommandKind::Run => "run",
            CommandKind::Check => "check",
            CommandKind::Receive => "receive",
            CommandKind::Send => "send",
            CommandKind::Queue => "queue",
            CommandKind::Inbox => "inbox",
            CommandKind::Unknown => "",
        }
    }

    /// Whether the prompt processor runs it before the content.
    pub fn allowed_leading(self) -> bool {
        matches!(
            self,
            CommandKind::Read | CommandKind::Push | CommandKind::Run
        )
    }

    /// Whether the prompt processor runs it after the model finishes.
    pub fn allowed_trailing(self) -> bool {
        self == CommandKind::Push
    }

    /// Whether it is one of the commands the agent uses while it runs (as
    /// tool calls), never pre-processed.
    pub fn execution_time_only(self) -> bool {
        matches!(
            self,
            CommandKind::Check
                | CommandKind::Receive
                | CommandKind::Send
                | CommandKind::Queue
                | CommandKind::Inbox
        )
    }

    /// Its usage line (`/read FILE`).
    pub fn usage(self) -> &'static str {
        match self {
            CommandKind::Read => "/read FILE",
            CommandKind::Push => "/push [name=NAME] PROMPT",
            CommandKind::Run => "/run [N]",
            CommandKind::Check => "/check",
            CommandKind::Receive => "/receive",
            CommandKind::Send => "/send",
            CommandKind::Queue => "/queue",
            CommandKind::Inbox => "/inbox",
            CommandKind::Unknown => "",
        }
    }

    /// One line for completion lists.
    pub fn summary(self) -> &'static str {
        match self {
            CommandKind::Read => "Give the model a file before it starts (a fake read tool call)",
            CommandKind::Push => "Queue a task for an agent",
            CommandKind::Run => "Start queued tasks",
            CommandKind::Check => "Look for finished task results without waiting (while running)",
            CommandKind::Receive => "Wait for a task result (while running)",
            CommandKind::Send => "Send a message to another agent (while running)",
            CommandKind::Queue => "Show the task queue (while running)",
            CommandKind::Inbox => "Show the inbox (while running)",
            CommandKind::Unknown => "",
        }
    }

    /// Markdown documentation for hover and completion.
    pub fn docs(self) -> String {
        let body = match self {
            CommandKind::Read => {
                "Before the model sees anything, the file is read on the client and put into the \
                 conversation as if the model had called its `read` tool: a `tool_use` message \
                 `{\"tool\": \"read\", \"path\": \"…\"}` followed by a `tool_result` with the file's \
                 text. No model call happens. A file that does not exist gives an error result, \
                 as a real tool call would. Commands inside the file are **not** expanded.\n\n\
                 Allowed among the leading commands only."
            }
            CommandKind::Push => {
                "Adds a task to the queue. Options come first (`name=NAME` names the task, so its \
                 result can be found later); the rest is the task's prompt, quoted or not. A \
                 quoted prompt may use `\\n` for a line break, and may itself start with \
                 commands (`\"/read spec.md\\nDo phase 2.\"`).\n\n\
                 Among the leading commands, the task is queued before the model runs; among the \
                 trailing commands, after it finishes (useful for dependent work)."
            }
            CommandKind::Run => {
                "Starts queued tasks: all of them, or the first `N` (a positive whole number).\n\n\
                 Allowed among the leading commands only."
            }
            CommandKind::Check => {
                "Looks for results of queued tasks without waiting. The agent uses it while it \
                 runs, as a tool call: the prompt processor never runs it."
            }
            CommandKind::Receive => {
                "Waits until a queued task's result arrives. The agent uses it while it runs, as a \
                 tool call: the prompt processor never runs it."
            }
            CommandKind::Send => {
                "Sends a message to another agent. The agent uses it while it runs, as a tool \
                 call: the prompt processor never runs it."
            }
            CommandKind::Queue => {
                "Shows the state of the task queue. The agent uses it while it runs, as a tool \
                 call: the prompt processor never runs it."
            }
            CommandKind::Inbox => {
                "Shows the agent's inbox. The agent uses it while it runs, as a tool call: the \
                 prompt processor never runs it."
            }
            CommandKind::Unknown => return String::new(),
        };
        format!("```text\n{}\n```\n{}", self.usage(), body)
    }
}

/// The options `/push` knows.
pub const PUSH_OPTIONS: [&str; 1] = ["name"];

/// Markdown documentation of a `/push` option.
pub fn push_option_docs(key: &str) -> Option<&'static str> {
    match key {
        "name" => Some(
            "`name=NAME` names the queued task, so that `/check` and `/receive` can tell its \
             result from the others. Names are made of letters, digits, `-`, `_` and `.`, and \
             each is used once per prompt.",
        ),
        _ => None,
    }
}
