//! Generates large, valid OpenProse programs for benchmarks and tests.
//!
//! Shared by `benches/parse.rs` and `tests/robustness.rs` through
//! `#[path]`, so it stays out of the crate's public API.
//!
//! Every construct of the language appears in each generated unit; units
//! are numbered so names differ and the text is not one repeated string.

#![allow(dead_code)]

use std::fmt::Write;

/// One unit of a generated program: every construct once. `{n}` is
/// replaced by the unit number.
const UNIT: &str = r#"# ===== unit {n}: every construct of the language =====
use "@alice/research-{n}"
use "@bob/critique" as critic_{n}
import "code-analyzer" from "github:anthropic/code-tools"

input topic_{n}: "The topic to research, unit {n}"
input depth_{n}: **how deep the research should go**

# Agents with every property, including a permissions block.
agent researcher_{n}:
  model: sonnet
  prompt: "You are a careful research assistant (unit {n})"
  persist: project
  skills: ["web-search", "summarize"]
  permissions:
    read: ["src/**/*.ts", "docs/**/*", "*.md"]
    write: []
    bash: deny
    network: allow

agent writer_{n}:
  model: opus
  persist: true
  prompt: """
    You write clear, short prose about {topic_{n}}.
    Quote "sources" and keep \{braces\} literal.
  """

# Every session form.
session "Hello {topic_{n}}, depth {depth_{n}}"
session: researcher_{n}
  prompt: "Find sources on {topic_{n}}"
  context: { topic_{n}, depth_{n} }
let draft_{n} = session draft: writer_{n}
  prompt: "Draft the article"
  context: [topic_{n}, depth_{n}]
session "Call the flaky API" (retry: 3, backoff: "exponential")
let quick_{n} = session "Quick take"
  model: haiku
  context: {}

# Resume.
resume: researcher_{n}
  prompt: "Continue where you left off"
let again_{n} = resume: researcher_{n}

# Bindings: let, const, assignment, destructuring, arithmetic.
const limit_{n} = 3
let total_{n} = (limit_{n} + 2) * 4 - 10 / 2 % 3
total_{n} = total_{n} + 1
let flags_{n} = [true, false, null, 1.5, "x", -2]
let config_{n} = { name: "run-{n}", retries: 2, tags: ["a", "b"], nested: { ok: true } }
let { findings, sources } = critic_{n}(topic: "quantum computing", depth: 2)
let pick_{n} = total_{n} > 2 ? "big" : "small"
assert total_{n} >= 0
let report_{n} = critic_{n}(topic: findings.title, sources: sources)

# Composition: do blocks, block definitions with parameters, calls.
let summary_{n} = do:
  session "Outline the summary"
  session "Write the summary"
block review_{n}(code, focus):
  session "Review {code} for {focus}"
  output verdict = session "Give the verdict"
block cleanup_{n}:
  session "Clean up"
do review_{n}("main.rs", "safety")
do cleanup_{n}

# Arrow sequences, inline and over continuation lines.
session "Plan" -> session "Build" -> session "Test"
let pipeline_{n} = session "Research"
  prompt: "Collect the facts"
-> session "Draft"
-> session editor: writer_{n}
  prompt: "Edit the draft"

# Parallel with modifiers and named branches.
parallel ("first", on-fail: "continue", count: 2):
  fast = session "Approach A"
  safe = session "Approach B"
  session "Approach C"
parallel:
  left = do review_{n}("a.rs", "style")
  right = do review_{n}("b.rs", "speed")

# Loops.
repeat 3:
  session "Brainstorm"
repeat limit_{n} as i:
  session "Iteration {i}"
for item in flags_{n}:
  session "Inspect {item}"
for item, i in ["alpha", "beta", "gamma"]:
  session "Item {i}: {item}"
parallel for topic in ["x", "y"]:
  session "Research {topic}"
parallel ("all") for idea, k in flags_{n}:
  session "Expand {idea}"
loop until **the draft is polished** (max: 5) as attempt:
  session "Polish attempt {attempt}"
loop while ***
  there is more work
  and budget remains
*** (max: 3):
  session "Work"
loop as tick:
  session "Tick {tick}"
  if tick > 2:
    continue
  break

# Pipelines chained over continuation lines.
let ideas_{n} = ["AI tutor", "smart garden", "fitness tracker"]
let chosen_{n} = ideas_{n}
  | filter:
    session "Is this idea about technology?"
      context: item
  | map:
    session "Write a pitch"
      context: item
  | reduce(acc, pitch):
    session "Merge {pitch} into {acc}"
  | pmap:
    session "Research the market"
let inline_{n} = ideas_{n} | map: session "Name it"

# Errors.
try:
  session "Risky call"
catch as err:
  session "Recover"
    context: err
  throw
finally:
  session "Release resources"
try:
  session "Second try"
catch:
  throw "Validation failed: missing required fields"

# Choice and conditionals.
choice **which approach fits best**:
  option "Fast":
    session "Go fast"
  option "Safe":
    session "Go safe"
if **the tests pass**:
  session "Ship it"
elif total_{n} > 3 and not config_{n}.nested.ok:
  session "Retry"
elif total_{n} == 2 || limit_{n} != 1 && total_{n} <= 9:
  session "Check again"
else:
  session "Give up"

# Outputs: named and bare.
output result_{n} = summary_{n}
output report_{n}

"#;

/// A program of at least `min_bytes` bytes made of numbered [`UNIT`]s.
pub fn program(min_bytes: usize) -> String {
    let mut out = String::with_capacity(min_bytes + UNIT.len() * 2);
    let mut n = 0usize;
    while out.len() < min_bytes {
        let num = n.to_string();
        // `{n}` only; every other brace in the unit is program text.
        let mut rest = UNIT;
        while let Some(i) = rest.find("{n}") {
            out.push_str(&rest[..i]);
            out.push_str(&num);
            rest = &rest[i + 3..];
        }
        out.push_str(rest);
        n += 1;
    }
    out
}

/// A generated program of at least `lines` lines, cut after a whole unit
/// (the language server benchmarks open one of about 5,000 lines).
pub fn program_of_lines(lines: usize) -> String {
    let mut bytes = lines * 30;
    loop {
        let text = program(bytes);
        if text.lines().count() >= lines {
            return text;
        }
        bytes += bytes / 10;
    }
}

/// Deterministic garbage of exactly `len` bytes: a mix of valid program
/// text, unbalanced brackets, stray quotes and discretion markers, tabs,
/// CRLFs, random indentation and non-ASCII characters. Always valid UTF-8.
pub fn garbage(len: usize) -> String {
    const PIECES: &[&str] = &[
        "session", "agent", "let", "x", " = ", ":", "\n", "\n  ", "\n    ", "\r\n", "\t", "(", ")",
        "[", "]", "{", "}", "\"", "\"\"\"", "**", "***", "->", " | ", "map:", "if ", "#", "é",
        "日本", "\u{FEFF}", "@", "$", ",", "1.5", "\\q", "{name}", "parallel", "for", " in ",
        "try:", "catch", "else", "output", "==", "!", "?", "...", "\x00", "\x7f",
    ];
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut out = String::with_capacity(len + 16);
    while out.len() < len {
        // xorshift64*
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        let r = state.wrapping_mul(0x2545_F491_4F6C_DD1D);
        let _ = write!(out, "{}", PIECES[(r >> 33) as usize % PIECES.len()]);
    }
    // Cut back to `len` at a char boundary.
    let mut end = len.min(out.len());
    while !out.is_char_boundary(end) {
        end -= 1;
    }
    out.truncate(end);
    out
}
