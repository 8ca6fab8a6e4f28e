// Unit tests of the extension's pure parts (no VS Code needed): how run events
// read in the output channel. Run with `node --test test/`.
import assert from "node:assert/strict";
import { buildSync } from "esbuild";
import { createRequire } from "node:module";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "prose-ext-")), "events.cjs");
buildSync({ entryPoints: [path.join(here, "..", "src", "events.ts")], outfile: out, format: "cjs", platform: "node", logLevel: "error" });
const { formatEvent, isFinal, programName } = createRequire(import.meta.url)(out);

const common = { version: 1, run_id: "20261125-140000-abc123", time: "2026-11-25T14:00:00.123Z" };

test("run_started names the program, backend, run and inputs", () => {
  const line = formatEvent({ ...common, seq: 0, type: "run_started", program: "hello.prose", run_dir: "/w/.prose/runs/x", backend: "mock", resumed: false, dry_run: false, inputs: { topic: "ai" } });
  assert.equal(line, '[14:00:00.123] Started hello.prose with backend mock (run 20261125-140000-abc123, /w/.prose/runs/x); inputs: topic = "ai"');
});

test("session events carry the session id and branch", () => {
  const line = formatEvent({ ...common, seq: 3, type: "session_started", session_id: "s2@12", branch: "p3.b1", kind: "session", agent: "writer", model: "opus", binding: "draft", line: 12, prompt_excerpt: "Write" });
  assert.equal(line, '[14:00:00.123] s2@12 p3.b1 session writer (opus) -> draft started at line 12: "Write"');
  const failed = formatEvent({ ...common, seq: 4, type: "session_failed", session_id: "s2@12", kind: "session", duration_ms: 1500, error: "timeout", attempt: 1, will_retry: true });
  assert.equal(failed, "[14:00:00.123] s2@12 session failed (attempt 1, will retry): timeout");
});

test("bindings, conditions, choices and the end of a run", () => {
  assert.equal(
    formatEvent({ ...common, seq: 5, type: "binding_written", name: "greeting", path: "bindings/greeting.md", excerpt: "Hello" }),
    '[14:00:00.123] Binding greeting written to bindings/greeting.md: "Hello"',
  );
  assert.equal(
    formatEvent({ ...common, seq: 6, type: "condition_evaluated", condition: "it is done", result: false, line: 4 }),
    "[14:00:00.123] Condition **it is done** (line 4) is false",
  );
  const end = { ...common, seq: 7, type: "run_finished", status: "failed", duration_ms: 2300, outputs: {}, error: "no backend" };
  assert.equal(formatEvent(end), "[14:00:00.123] Run failed in 2.3s: no backend");
  assert.ok(isFinal(end));
});

test("unknown event types are shown with their fields", () => {
  const line = formatEvent({ ...common, seq: 8, type: "tool_used", tool: "read", path: "a.md" });
  assert.equal(line, '[14:00:00.123] tool_used {"tool":"read","path":"a.md"}');
});

test("a job task's events: its sessions, tools, checks, retries and end", () => {
  const started = { ...common, seq: 1, type: "task_started", entry: "team.jobs.json", task: "plan-task", mode: "double", task_model: "gpt-5.2", driving_model: "" };
  assert.equal(
    formatEvent(started),
    "[14:00:00.123] Task plan-task of team.jobs.json: task session on gpt-5.2, a driving session on the backend's default model for each condition",
  );
  assert.equal(
    formatEvent({ ...started, mode: "single" }),
    "[14:00:00.123] Task plan-task of team.jobs.json: one session on gpt-5.2 (single model)",
  );
  assert.equal(
    formatEvent({ ...common, seq: 2, type: "tool_called", session_id: "s2@7", name: "job_boolean_true", argument: "it holds", role: "driving" }),
    '[14:00:00.123] s2@7 driving called job_boolean_true: "it holds"',
  );
  assert.equal(
    formatEvent({ ...common, seq: 3, type: "availability_checked", check: "previousTasks", result: false, reason: "no previous task was given" }),
    "[14:00:00.123] ✗ availability previousTasks: no previous task was given",
  );
  assert.equal(
    formatEvent({ ...common, seq: 4, type: "criteria_checked", check: "condition", result: true, reason: "done", attempt: 2 }),
    "[14:00:00.123] ✓ criteria condition (attempt 2): done",
  );
  assert.equal(
    formatEvent({ ...common, seq: 5, type: "retry", action: "RetryWithNewSession", attempt: 2, max_attempts: 3, reason: "not yet" }),
    "[14:00:00.123] ↻ RetryWithNewSession: attempt 2 of 3: not yet",
  );
  assert.equal(
    formatEvent({ ...common, seq: 6, type: "task_finished", task: "plan-task", outcome: "criteria_unmet", reason: "no retries left", variables: {} }),
    "[14:00:00.123] Task plan-task criteria_unmet: no retries left",
  );
});

test("program names are file names", () => {
  assert.equal(programName({ ...common, seq: 0, type: "run_started", program: "examples/deep/hello.prose" }), "hello.prose");
});
