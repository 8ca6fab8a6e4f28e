// A stand-in for the server's run API (docs/lsp.md, "Running programs"), to
// test the editors' side of it before the runner exists: a proxy in front of
// the real prose-lsp that forwards everything, and itself
//   - adds prose.run, prose.dryRun, prose.cancelRun, prose.revealErrors to
//     executeCommandProvider and a codeLensProvider to the capabilities;
//   - answers textDocument/codeLens with the contract's two lenses;
//   - answers those commands: prose.run asks the input `topic` with
//     prose/inputRequest (when the client declared proseInputRequest), then
//     sends the events of docs/runner.md as prose/runEvent, slowly, so the
//     run can be seen and stopped; prose.cancelRun ends it as cancelled.
// Every message from the client is appended to $FAKE_RUNNER_LOG (JSON lines).
//
//   node server.mjs REAL_PROSE_LSP [ARGS...]

import { spawn } from "node:child_process";
import * as fs from "node:fs";

const [real, ...args] = process.argv.slice(2);
const log = process.env.FAKE_RUNNER_LOG;
const STEP_MS = Number(process.env.FAKE_RUNNER_STEP_MS ?? 400);
const COMMANDS = ["prose.run", "prose.dryRun", "prose.cancelRun", "prose.revealErrors"];
const server = spawn(real, args, { stdio: ["pipe", "pipe", "inherit"] });
server.on("exit", (code) => process.exit(code ?? 0));

function frames(stream, onMessage) {
  let buffer = Buffer.alloc(0);
  stream.on("data", (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const end = buffer.indexOf("\r\n\r\n");
      if (end < 0) {
        return;
      }
      const length = Number(/Content-Length: *(\d+)/i.exec(buffer.subarray(0, end).toString())?.[1]);
      if (buffer.length < end + 4 + length) {
        return;
      }
      const body = buffer.subarray(end + 4, end + 4 + length).toString("utf8");
      buffer = buffer.subarray(end + 4 + length);
      onMessage(JSON.parse(body));
    }
  });
}

function send(stream, message) {
  const body = Buffer.from(JSON.stringify(message), "utf8");
  stream.write(`Content-Length: ${body.length}\r\n\r\n`);
  stream.write(body);
}
const toClient = (m) => send(process.stdout, m);
const toServer = (m) => send(server.stdin, m);

let initializeId;
let inputRequests = false;
const pending = new Map(); // our requests to the client: id -> resolve
let nextId = 1;
const runs = new Map(); // runId -> { seq, timer, cancelled }

function request(method, params) {
  const id = `fake-runner-${nextId++}`;
  toClient({ jsonrpc: "2.0", id, method, params });
  return new Promise((resolve) => pending.set(id, resolve));
}

function event(runId, type, fields = {}) {
  const run = runs.get(runId);
  toClient({
    jsonrpc: "2.0",
    method: "prose/runEvent",
    params: { version: 1, type, run_id: runId, seq: run.seq++, time: new Date().toISOString(), ...fields },
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function run(uri) {
  const path = decodeURIComponent(new URL(uri).pathname);
  const program = path.split("/").pop();
  const runId = `20261125-140000-${String(nextId++).padStart(6, "0")}`;
  const runDir = `${path.slice(0, path.lastIndexOf("/"))}/.prose/runs/${runId}`;
  runs.set(runId, { seq: 0, cancelled: false });
  const live = () => !runs.get(runId).cancelled;
  (async () => {
    let topic = "(default)";
    if (inputRequests) {
      const answer = await request("prose/inputRequest", { runId, name: "topic", description: "What to write about" });
      if (answer === null) {
        runs.get(runId).cancelled = true;
        event(runId, "cancelled", { reason: "input topic not given" });
        event(runId, "run_finished", { status: "cancelled", duration_ms: 5, outputs: {} });
        return;
      }
      topic = answer.value;
    }
    event(runId, "run_started", { program, run_dir: runDir, backend: "mock", resumed: false, dry_run: false, inputs: { topic } });
    event(runId, "input_received", { name: "topic", excerpt: topic });
    const steps = [
      ["session_started", { session_id: "s1@3", kind: "session", agent: "", model: "sonnet", binding: "greeting", line: 3, prompt_excerpt: "Say hello in one short sentence" }],
      ["session_finished", { session_id: "s1@3", kind: "session", duration_ms: 1200, output_excerpt: "Hello!", binding: "greeting" }],
      ["binding_written", { session_id: "s1@3", name: "greeting", path: "bindings/greeting.md", excerpt: "Hello!" }],
    ];
    for (const [type, fields] of steps) {
      await sleep(STEP_MS);
      if (!live()) {
        return;
      }
      event(runId, type, fields);
    }
    // Long enough to be seen running, and stopped.
    for (let i = 0; i < 50 && live(); i++) {
      await sleep(STEP_MS);
    }
    if (live()) {
      event(runId, "run_finished", { status: "succeeded", duration_ms: 2000, outputs: { message: "Hello!" } });
      runs.delete(runId);
    }
  })();
  return { runId, runDir };
}

function cancel(runId) {
  const r = runs.get(runId);
  if (r && !r.cancelled) {
    r.cancelled = true;
    event(runId, "cancelled", { reason: "prose.cancelRun" });
    event(runId, "run_finished", { status: "cancelled", duration_ms: 1500, outputs: {} });
  }
  return null;
}

function lenses(uri) {
  const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  return [
    { range, command: { title: "▶ Run program", command: "prose.run", arguments: [{ uri }] } },
    { range, command: { title: "Dry run", command: "prose.dryRun", arguments: [{ uri }] } },
  ];
}

frames(process.stdin, async (m) => {
  if (log) {
    fs.appendFileSync(log, `${JSON.stringify(m)}\n`);
  }
  if (m.id !== undefined && m.method === undefined && pending.has(m.id)) {
    pending.get(m.id)(m.result ?? null);
    pending.delete(m.id);
    return;
  }
  if (m.method === "initialize") {
    initializeId = m.id;
    inputRequests = m.params?.capabilities?.experimental?.proseInputRequest === true;
  }
  if (m.method === "textDocument/codeLens") {
    toClient({ jsonrpc: "2.0", id: m.id, result: lenses(m.params.textDocument.uri) });
    return;
  }
  if (m.method === "workspace/executeCommand" && COMMANDS.includes(m.params.command)) {
    const [arg] = m.params.arguments ?? [];
    let result = null;
    if (m.params.command === "prose.run") {
      result = await run(arg.uri);
    } else if (m.params.command === "prose.dryRun") {
      result = { plan: `1. session "Say hello in one short sentence" -> greeting\n2. output message = greeting` };
    } else if (m.params.command === "prose.cancelRun") {
      result = cancel(arg.runId);
    }
    toClient({ jsonrpc: "2.0", id: m.id, result });
    return;
  }
  toServer(m);
});

frames(server.stdout, (m) => {
  if (m.id !== undefined && m.id === initializeId && m.result) {
    const caps = m.result.capabilities;
    // Once the real server offers the run API itself, its ids are not
    // added twice (vscode-languageclient refuses a duplicate command).
    caps.executeCommandProvider = { commands: [...new Set([...(caps.executeCommandProvider?.commands ?? []), ...COMMANDS])] };
    caps.codeLensProvider = { resolveProvider: false };
  }
  toClient(m);
});
process.stdin.on("end", () => server.stdin.end());
