//! The docs tables: the hover texts of keywords ([`keyword_docs`]),
//! property keys by where they are written ([`PropertyContext`],
//! [`property_docs`]), well-known values ([`value_docs`]) and models.
//! Completion shows the same texts.

use prose_syntax::{AstNode, SyntaxKind, SyntaxNode, ast};

// ---- the docs tables ----------------------------------------------------------------

/// A docs entry: the syntax, what it means, and optionally a tiny example.
macro_rules! doc {
    ($syntax:literal, $meaning:literal) => {
        concat!("```prose\n", $syntax, "\n```\n\n", $meaning)
    };
    ($syntax:literal, $meaning:literal, $example:literal) => {
        concat!(
            "```prose\n",
            $syntax,
            "\n```\n\n",
            $meaning,
            "\n\n*Example*\n```prose\n",
            $example,
            "\n```"
        )
    };
}

/// Hover text of a keyword (also `parallel for`, `**` for discretion
/// conditions, and the `|` and `->` operators). Completion labels such as `session:`, `do:` and
/// `loop while` are accepted too.
pub(crate) fn keyword_docs(word: &str) -> Option<&'static str> {
    let word = match word {
        "**" => word,
        "loop while" | "loop until" => "loop",
        _ => word.strip_suffix(':').unwrap_or(word),
    };
    Some(match word {
        "use" => doc!(
            "use \"@handle/slug\" [as name]",
            "Imports another OpenProse program so this one can call it like a function. \
             Without `as`, the program goes by the last segment of its path. Its `input`s \
             become the named arguments of the call; its `output`s the fields of the result.",
            "use \"@alice/research\" as research\nlet r = research(topic: \"tides\")"
        ),
        "import" => doc!(
            "import \"skill\" from \"source\"",
            "The older way to bring in a skill that agents then list under `skills:`. \
             New programs import other programs with `use`.",
            "import \"web-search\" from \"@anthropic/skills\""
        ),
        "from" => doc!(
            "import \"skill\" from \"source\"",
            "Names where a skill brought in by the older `import` statement comes from."
        ),
        "as" => doc!(
            "use \"...\" as name · catch as err: · repeat N as i: · loop ... as i:",
            "Gives something a name: the alias of an imported program, the error inside a \
             `catch` body, or the iteration counter of `repeat` and `loop` (counting from 0).",
            "repeat 3 as i:\n  session \"Write variant {i}\""
        ),
        "input" => doc!(
            "input name: \"description\"",
            "Declares a value the caller supplies before the program starts. Inputs come \
             before any executable statement and are visible everywhere in the program; \
             the description tells the caller what to pass.",
            "input topic: \"The subject to research\""
        ),
        "output" => doc!(
            "output name = expression",
            "Binds a variable like `let` and also makes it part of the program's result: \
             a caller that invokes this program reads it as `result.name` or by \
             destructuring.",
            "output summary = session \"Summarize the findings\""
        ),
        "agent" => doc!(
            "agent name:\n  property: value",
            "Defines a reusable template for subagents: model, system prompt, memory \
             (`persist`), skills and permissions. Sessions use it with `session: name` \
             and may override its properties. Agents may be defined anywhere in the file.",
            "agent reviewer:\n  model: opus\n  prompt: \"You review code for bugs\""
        ),
        "session" => doc!(
            "session \"prompt\"\nsession: agent\nsession name: agent",
            "Runs one subagent and waits for it to finish; bind its result with `let`, \
             `const` or `output`. With an agent, the session starts from the agent's \
             settings without its saved memory (see `resume:`); properties indented below \
             override them for this session only.",
            "let draft = session: writer\n  prompt: \"Draft the introduction\""
        ),
        "resume" => doc!(
            "resume: agent",
            "Continues a persistent agent (one with `persist:`) with the memory it built in \
             earlier sessions, where `session:` would start it fresh. The memory must \
             already exist.",
            "resume: captain\n  prompt: \"Review step 2 of the plan\""
        ),
        "let" => doc!(
            "let name = expression",
            "Binds a result (usually a session's) to a variable that later sessions read \
             through `context:` or `{name}` in a prompt. It may be reassigned with \
             `name = ...`. All variables share one program-wide namespace, so each name \
             must be unique.",
            "let research = session \"Research the topic\""
        ),
        "const" => doc!(
            "const name = expression",
            "Like `let`, but the variable can never be reassigned.",
            "const plan = session \"Write the plan\""
        ),
        "do" => doc!(
            "do:\n  statements\ndo name\ndo name(arguments)",
            "`do:` runs an indented body in order. `do name` runs a `block` defined \
             elsewhere, passing the arguments to its parameters by position.",
            "do review(\"security\")"
        ),
        "block" => doc!(
            "block name(param, ...):\n  statements",
            "Defines a named, reusable sequence of statements, run with `do name(...)`. \
             Parameters are visible only in the body and cannot be reassigned there. Blocks \
             may be used before their definition.",
            "block review(topic):\n  session \"Review {topic}\""
        ),
        "parallel" => doc!(
            "parallel (\"all\" | \"first\" | \"any\", on-fail: \"...\", count: N):\n  branches",
            "Runs every statement of the body at the same time, then waits: for all of them \
             (`\"all\"`, the default), the first to finish (`\"first\"`) or the first `count` \
             successes (`\"any\"`). `on-fail` says what a failing branch does. Name branches \
             (`a = session ...`) to use their results afterwards.",
            "parallel:\n  sec = session \"Security review\"\n  perf = session \"Performance review\""
        ),
        "parallel for" => doc!(
            "parallel for item in collection:\n  statements",
            "A `for` loop whose iterations all run at the same time (fan-out). It accepts \
             the same modifiers as `parallel`.",
            "parallel for topic in topics:\n  session \"Research {topic}\""
        ),
        "for" => doc!(
            "for item[, index] in collection:\n  statements",
            "Runs the body once per element of a collection (a variable or an array), in \
             order. The item and the optional index (from 0) are visible only in the body. \
             Write `parallel for` to run all iterations at once.",
            "for file in [\"a.md\", \"b.md\"]:\n  session \"Proofread {file}\""
        ),
        "in" => doc!(
            "for item in collection:",
            "Separates the loop variables of a `for` from the collection it walks through."
        ),
        "repeat" => doc!(
            "repeat N [as i]:\n  statements",
            "Runs the body a fixed number of times; N is a positive integer. `as i` names \
             the iteration number, counting from 0.",
            "repeat 3:\n  session \"Suggest a product name\""
        ),
        "loop" => doc!(
            "loop [until | while **condition**] [(max: N)] [as i]:\n  statements",
            "Repeats the body until the VM judges the condition met (`until`) or no longer \
             true (`while`); a plain `loop:` stops only at `max`. Give every loop a \
             `(max: N)` safety limit.",
            "loop until **the tests pass** (max: 5):\n  session \"Fix the next failing test\""
        ),
        "until" => doc!(
            "loop until **condition**:",
            "The loop stops as soon as the VM judges the condition met; it is checked \
             before every iteration.",
            "loop until **the draft is ready** (max: 4):\n  session \"Improve the draft\""
        ),
        "while" => doc!(
            "loop while **condition**:",
            "The loop goes on as long as the VM judges the condition true (the same as \
             `until` with the condition negated).",
            "loop while **there are open questions** (max: 5):\n  session \"Answer one\""
        ),
        "try" => doc!(
            "try:\n  statements\ncatch [as err]:\n  statements\nfinally:\n  statements",
            "Runs the body; when something in it fails, the `catch` body handles the error \
             instead of stopping the program, and the `finally` body runs either way. A \
             `try` needs a `catch`, a `finally` or both.",
            "try:\n  session \"Call the API\"\ncatch as err:\n  session \"Explain the failure\"\n    context: err"
        ),
        "catch" => doc!(
            "catch [as err]:\n  statements",
            "Handles a failure in the `try` body. `as err` names the error, visible only in \
             this body. A bare `throw` inside passes the error on to an outer handler.",
            "catch as err:\n  session \"Log the error\"\n    context: err"
        ),
        "finally" => doc!(
            "finally:\n  statements",
            "Runs after the `try` (and `catch`) body whether or not anything failed: the \
             place for cleanup.",
            "finally:\n  session \"Close the connection\""
        ),
        "throw" => doc!(
            "throw [\"message\"]",
            "Fails on purpose. With a message it raises a new error; alone inside a \
             `catch` body it raises the error being handled again.",
            "throw \"The repository has no tests\""
        ),
        "choice" => doc!(
            "choice **criteria**:\n  option \"label\":\n    statements",
            "The VM weighs the criteria, picks the one option that fits best and runs only \
             that option's body.",
            "choice **how risky the change is**:\n  option \"Low\":\n    session \"Merge it\"\n  option \"High\":\n    session \"Ask for a second review\""
        ),
        "option" => doc!(
            "option \"label\":\n  statements",
            "One branch of a `choice`. The label, unique within the choice, says when this \
             branch is the right one.",
            "option \"Quick fix\":\n  session \"Patch the bug\""
        ),
        "if" => doc!(
            "if **condition**:\n  statements\nelif **condition**:\n  statements\nelse:\n  statements",
            "Runs the body when the VM judges the condition true; otherwise the first \
             `elif` whose condition holds, otherwise the `else` body.",
            "if **the review found blocking issues**:\n  session \"Fix them\"\nelse:\n  session \"Ship it\""
        ),
        "elif" => doc!(
            "elif **condition**:\n  statements",
            "A further branch of an `if`, tried only when the conditions before it did not \
             hold."
        ),
        "else" => doc!(
            "else:\n  statements",
            "The branch of an `if` that runs when no condition held; at most one per `if`."
        ),
        "map" => doc!(
            "collection | map:\n  statements",
            "Transforms every element in order and yields the collection of results. \
             Inside the body the current element is `item`.",
            "let summaries = articles | map:\n  session \"Summarize {item}\""
        ),
        "filter" => doc!(
            "collection | filter:\n  statements",
            "Keeps the elements for which the body answers yes (or true). Inside the body \
             the current element is `item`.",
            "let open = issues | filter:\n  session \"Is {item} still open? Answer yes or no.\""
        ),
        "reduce" => doc!(
            "collection | reduce(acc, x):\n  statements",
            "Folds a collection into one value: the first element is the starting \
             accumulator `acc`, and the body combines it with each further element `x`. \
             Both names are required.",
            "let story = chapters | reduce(text, chapter):\n  session \"Append {chapter} to {text}\""
        ),
        "pmap" => doc!(
            "collection | pmap:\n  statements",
            "Like `map`, but all elements are processed at the same time. Inside the body \
             the current element is `item`.",
            "let reviews = files | pmap:\n  session \"Review {item}\""
        ),
        "true" | "false" => doc!(
            "true · false",
            "Boolean values. As an agent's `persist: true`, memory that lasts for the \
             current run."
        ),
        "null" => doc!("null", "The empty value."),
        "and" | "or" | "not" => doc!(
            "a and b · a or b · not a",
            "Logic in plain-expression conditions. Inside a discretion condition \
             (`**...**`), say the logic in words instead."
        ),
        "return" => doc!(
            "return expression",
            "Ends the current block and hands back a value. Not in the OpenProse reference; \
             accepted because real programs use it."
        ),
        "break" => doc!(
            "break",
            "Leaves the innermost loop. Not in the OpenProse reference; accepted because \
             real programs use it."
        ),
        "continue" => doc!(
            "continue",
            "Skips to the next iteration of the innermost loop. Not in the OpenProse \
             reference; accepted because real programs use it."
        ),
        "assert" => doc!(
            "assert condition:\n  \"message\"",
            "Stops with the message when the condition does not hold. Not in the OpenProse \
             reference; accepted because real programs use it."
        ),
        "**" => doc!(
            "**condition**\n***\n  a longer condition\n***",
            "A discretion condition: plain language that the OpenProse VM judges at run \
             time from everything that has happened so far, instead of a boolean \
             expression. Used by `if`, `elif`, `loop until/while` and `choice`.",
            "if **the summary is missing key facts**:\n  session \"Add them\""
        ),
        "|" => doc!(
            "collection | map: ... | filter: ... | reduce(acc, x): ... | pmap: ...",
            "The pipe: hands a collection to a `map`, `filter`, `reduce` or `pmap` \
             operation. Operations chain from left to right.",
            "let short = ideas | filter:\n  session \"Is {item} short? Answer yes or no.\""
        ),
        "->" => doc!(
            "step -> step -> step",
            "Runs the steps one after the other on a single line; the same as writing them \
             on separate lines.",
            "session \"Plan\" -> session \"Build\" -> session \"Review\""
        ),
        _ => return None,
    })
}

/// Where a property or modifier is written: which keys are valid there and
/// what they mean.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PropertyContext {
    /// The properties of an `agent` definition.
    Agent,
    /// The properties of a `session` or `resume:` (and `session "x" (...)`).
    Session,
    /// The keys inside `permissions:`.
    Permissions,
    /// The modifiers of `parallel (...)` and `parallel for ... (...)`.
    Parallel,
    /// The modifiers of `loop (...)`.
    Loop,
}

/// The context of a `PROPERTY` node (by its owner) or a `MODIFIER` node
/// (by the construct its list belongs to).
pub(crate) fn property_context(node: &SyntaxNode) -> Option<PropertyContext> {
    let owner = match node.kind() {
        SyntaxKind::PROPERTY => node.parent()?.parent()?,
        SyntaxKind::MODIFIER => node.parent()?.parent()?,
        SyntaxKind::PROPERTY_BLOCK | SyntaxKind::MODIFIER_LIST => node.parent()?,
        _ => return None,
    };
    Some(match owner.kind() {
        SyntaxKind::AGENT_DEF => PropertyContext::Agent,
        SyntaxKind::SESSION_EXPR | SyntaxKind::RESUME_EXPR => PropertyContext::Session,
        SyntaxKind::PROPERTY if ast::Property::cast(owner)?.key() == "permissions" => {
            PropertyContext::Permissions
        }
        SyntaxKind::PARALLEL_EXPR | SyntaxKind::FOR_EXPR => PropertyContext::Parallel,
        SyntaxKind::LOOP_EXPR => PropertyContext::Loop,
        _ => return None,
    })
}

/// Hover text of a property key where it is valid (`None` elsewhere).
pub(crate) fn property_docs(context: PropertyContext, key: &str) -> Option<&'static str> {
    use PropertyContext::*;
    Some(match (context, key) {
        (Agent, "model") => doc!(
            "model: sonnet | opus | haiku",
            "The model this agent's sessions run on, unless a session overrides it: \
             `haiku` for quick simple steps, `sonnet` as the balanced default, `opus` for \
             the hardest reasoning.",
            "agent analyst:\n  model: opus"
        ),
        (Session, "model") => doc!(
            "model: sonnet | opus | haiku",
            "The model for this session only, overriding the agent's.",
            "session: analyst\n  model: haiku\n  prompt: \"Skim the log\""
        ),
        (Agent, "prompt") => doc!(
            "prompt: \"...\"",
            "The agent's system prompt: who it is and how it works. Every session that \
             uses the agent starts from it.",
            "agent editor:\n  prompt: \"You edit for clarity and brevity\""
        ),
        (Session, "prompt") => doc!(
            "prompt: \"...\"",
            "The task of this session. With an agent, it comes on top of the agent's own \
             system prompt.",
            "session: editor\n  prompt: \"Tighten the introduction\""
        ),
        (Agent, "persist") => doc!(
            "persist: true | project | user | \"path\"",
            "Gives the agent a memory that `resume:` continues. `true` keeps it for this run \
             only; `project` in `.prose/agents/NAME/` across runs; `user` in \
             `~/.prose/agents/NAME/` across projects; a string names the directory.",
            "agent captain:\n  persist: project"
        ),
        (Agent, "skills") => doc!(
            "skills: [\"name\", ...]",
            "The skills this agent may use. Each must be imported in the program.",
            "agent researcher:\n  skills: [\"web-search\"]"
        ),
        (Agent, "permissions") => doc!(
            "permissions:\n  read | write | execute: [\"glob\", ...]\n  bash | network: allow | deny | prompt",
            "What the agent may touch: file patterns it may read, write or execute, and \
             whether it may use the shell or the network.",
            "agent auditor:\n  permissions:\n    read: [\"src/**\"]\n    bash: deny"
        ),
        (Session, "permissions") => doc!(
            "permissions:\n  read | write | execute: [\"glob\", ...]\n  bash | network: allow | deny | prompt",
            "Overrides the agent's permissions for this session only.",
            "session: auditor\n  permissions:\n    network: allow"
        ),
        (Agent, "context") => doc!(
            "context: name | [a, b] | { a, b }",
            "Variables that every session of this agent receives as context.",
            "agent writer:\n  context: style-guide"
        ),
        (Session, "context") => doc!(
            "context: name | [a, b] | { a, b } | []",
            "Earlier results this session gets to see. `[]` starts it with no context at \
             all.",
            "session \"Write the report\"\n  context: [research, analysis]"
        ),
        (Session, "retry") => doc!(
            "retry: N",
            "Runs the session again, up to N more times, when it fails. N is a positive \
             integer; more than 10 is unusual.",
            "session \"Call the flaky API\"\n  retry: 3"
        ),
        (Session, "backoff") => doc!(
            "backoff: none | linear | exponential",
            "How long to wait between retries: not at all (the default), a fixed delay, or \
             a delay that doubles each time.",
            "session \"Call the rate-limited API\"\n  retry: 5\n  backoff: exponential"
        ),
        (Permissions, "read") => doc!(
            "read: [\"glob\", ...]",
            "Files the agent may read.",
            "read: [\"*.md\", \"docs/**\"]"
        ),
        (Permissions, "write") => doc!(
            "write: [\"glob\", ...]",
            "Files the agent may create or change.",
            "write: [\"output/\"]"
        ),
        (Permissions, "execute") => doc!(
            "execute: [\"glob\", ...]",
            "Files the agent may run.",
            "execute: [\"scripts/*.sh\"]"
        ),
        (Permissions, "bash") => doc!(
            "bash: allow | deny | prompt",
            "Whether the agent may run shell commands: always, never, or after asking the \
             user each time.",
            "bash: deny"
        ),
        (Permissions, "network") => doc!(
            "network: allow | deny | prompt",
            "Whether the agent may use the network: always, never, or after asking the \
             user each time.",
            "network: prompt"
        ),
        (Parallel, "on-fail") => doc!(
            "on-fail: \"fail-fast\" | \"continue\" | \"ignore\"",
            "What a failing branch does: cancel the others and fail at once (the default), \
             let the others finish and fail afterwards, or count as done.",
            "parallel (on-fail: \"continue\"):"
        ),
        (Parallel, "count") => doc!(
            "count: N",
            "With the `\"any\"` strategy: how many branches must succeed before the program \
             goes on (1 by default).",
            "parallel (\"any\", count: 2):"
        ),
        (Loop, "max") => doc!(
            "max: N",
            "The most iterations the loop may run, even if its condition is never met. \
             N is a positive integer.",
            "loop until **done** (max: 10):"
        ),
        _ => return None,
    })
}

/// Hover text of a well-known property value: `value_docs("model", "opus")`.
/// The bare join strategy of `parallel ("first")` has the key `"join"`.
pub(crate) fn value_docs(key: &str, value: &str) -> Option<&'static str> {
    Some(match (key, value) {
        ("model", "haiku") => concat!(
            "**haiku**: the fastest, lightest model. Suits quick, simple steps: ",
            "classifying, extracting, short answers."
        ),
        ("model", "sonnet") => concat!(
            "**sonnet**: the balanced, general-purpose model and a good default for ",
            "most sessions."
        ),
        ("model", "opus") => concat!(
            "**opus**: the most capable model, for complex reasoning and careful, detailed ",
            "analysis; slower and costlier."
        ),
        ("persist", "true" | "execution") => concat!(
            "**persist: true**: the agent keeps a memory for the current run only ",
            "(`.prose/runs/{id}/agents/NAME/`)."
        ),
        ("persist", "false") => {
            "**persist: false**: the agent has no memory (the same as no `persist:`)."
        }
        ("persist", "project") => concat!(
            "**persist: project**: the agent's memory lives in `.prose/agents/NAME/` and ",
            "survives across runs of this project."
        ),
        ("persist", "user") => concat!(
            "**persist: user**: the agent's memory lives in `~/.prose/agents/NAME/` and ",
            "follows the user across projects."
        ),
        ("backoff", "none") => "**none**: retry immediately (the default).",
        ("backoff", "linear") => "**linear**: wait the same delay before every retry.",
        ("backoff", "exponential") => {
            "**exponential**: double the delay before each retry (1s, 2s, 4s, ...)."
        }
        ("bash" | "network", "allow") => "**allow**: permitted.",
        ("bash" | "network", "deny") => "**deny**: forbidden.",
        ("bash" | "network", "prompt") => "**prompt**: ask the user each time.",
        ("join", "all") => "**\"all\"**: wait for every branch (the default).",
        ("join", "first") => {
            "**\"first\"**: take the first branch to finish and cancel the others."
        }
        ("join", "any") => {
            "**\"any\"**: go on once `count` branches (1 by default) have succeeded."
        }
        ("on-fail", "fail-fast") => {
            "**\"fail-fast\"**: a failing branch cancels the others and fails the block (the default)."
        }
        ("on-fail", "continue") => {
            "**\"continue\"**: let every branch finish, then report the failures."
        }
        ("on-fail", "ignore") => {
            "**\"ignore\"**: failures count as done; the block always succeeds."
        }
        _ => return None,
    })
}

/// A few words on what a model is for (agent hovers).
pub(super) fn model_blurb(model: &str) -> Option<&'static str> {
    Some(match model {
        "haiku" => "fast, for simple steps",
        "sonnet" => "balanced, general purpose",
        "opus" => "most capable, for complex reasoning",
        _ => return None,
    })
}
