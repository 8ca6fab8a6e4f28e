// The extension's side of the run API in a real VS Code, against a stand-in
// for the server's run API (editors/tests/fake-runner/server.mjs, a proxy in
// front of the real prose-lsp): the Run program lens, the input box of
// prose/inputRequest, run events in the output channel, the status bar while
// a program runs, Stop run, Dry run, and the arguments the extension sends.
// When the server has its own run API, e2e.mjs runs a program for real.
//
//   node editors/tests/vscode/runs.mjs VSIX

import * as fs from "node:fs";
import * as path from "node:path";
import { openBrowser, runTest, scratch, serverBinary, startCodeServer, testsDir, vsixArgument } from "./lib.mjs";
import { assert, command, openFile, panelText, Shots, Steps, TIMEOUT, until } from "./ui.mjs";

const vsix = vsixArgument("runs.mjs");
const shots = new Shots(path.join(testsDir, "artifacts", "vscode-runs"));
const steps = new Steps(shots);
const step = (page, name, fn) => steps.step(page, name, fn);


/** The messages the client sent, as the stand-in logged them. */
function sent(log) {
  return fs.existsSync(log) ? fs.readFileSync(log, "utf8").trim().split("\n").map((l) => JSON.parse(l)) : [];
}

const executed = (log, name) => sent(log).filter((m) => m.method === "workspace/executeCommand" && m.params.command === name);

async function main() {
  const tools = scratch("runs-tools");
  const ws = scratch("runs-workspace");
  fs.copyFileSync(path.join(testsDir, "fixtures", "workspace", "hello.prose"), path.join(ws, "hello.prose"));
  const log = path.join(tools, "client.jsonl");
  const wrapper = path.join(tools, "server.sh");
  const fake = path.join(testsDir, "fake-runner", "server.mjs");
  fs.writeFileSync(wrapper, `#!/bin/sh\nFAKE_RUNNER_LOG='${log}' exec '${process.execPath}' '${fake}' '${serverBinary}' "$@"\n`, { mode: 0o755 });
  const cs = await startCodeServer({
    name: "runs",
    vsix,
    workspace: ws,
    userSettings: { "git.enabled": false, "prose.server.path": wrapper },
  });
  const { page } = await openBrowser(cs.url, ws);
  await page.waitForSelector(".explorer-folders-view", { timeout: TIMEOUT });
  const panel = () => panelText(page);
  const status = page.locator('[id$="prose.status"]').first();
  const hello = `file://${path.join(ws, "hello.prose")}`;

  await step(page, "run from the lens, with an input, events and the status bar", async () => {
    await openFile(page, "hello.prose");
    const lens = page.locator(".codelens-decoration a", { hasText: "Run program" });
    await lens.first().waitFor({ state: "visible", timeout: TIMEOUT });
    await lens.first().click();
    const input = page.locator(".quick-input-widget", { hasText: "Input topic" });
    await input.waitFor({ state: "visible", timeout: TIMEOUT });
    await page.keyboard.type("typesetting");
    await shots.take(page, "input");
    await page.keyboard.press("Enter");
    await until("the events in the output channel", async () => (await panel()).includes("Binding greeting written to bindings/greeting.md"));
    await until("the status bar to show the run", async () => (await status.innerText()).includes("Running hello.prose"));
    const text = await panel();
    assert(text.includes("Started hello.prose with backend mock"), text);
    assert(text.includes('Input topic = "typesetting"'), text);
    assert(text.includes('s1@3 session (sonnet) -> greeting started at line 3: "Say hello in one short sentence"'), text);
    await shots.take(page, "running");
    const [run] = executed(log, "prose.run");
    assert(JSON.stringify(run.params.arguments) === JSON.stringify([{ uri: hello }]), `prose.run arguments: ${JSON.stringify(run.params.arguments)}`);
    const init = sent(log).find((m) => m.method === "initialize");
    assert(init.params.capabilities.experimental.proseInputRequest === true, "experimental.proseInputRequest");
    const answer = sent(log).find((m) => typeof m.id === "string" && m.id.startsWith("fake-runner-"));
    assert(JSON.stringify(answer.result) === JSON.stringify({ value: "typesetting" }), `input answer: ${JSON.stringify(answer)}`);
  });

  await step(page, "stop the run from the status bar", async () => {
    await status.click();
    await until("the run to end cancelled", async () => (await panel()).includes("Run cancelled"));
    await until("the status bar to forget the run", async () => !(await status.innerText()).includes("Running"));
    const [cancel] = executed(log, "prose.cancelRun");
    assert(/^20261125-140000-\d{6}$/.test(cancel.params.arguments[0].runId), JSON.stringify(cancel.params.arguments));
    await shots.take(page, "stopped");
  });

  await step(page, "dry run shows the plan", async () => {
    await command(page, "OpenProse: Dry Run");
    await until("the plan in the output channel", async () => (await panel()).includes("1. session \"Say hello in one short sentence\" -> greeting"));
    const [dry] = executed(log, "prose.dryRun");
    assert(JSON.stringify(dry.params.arguments) === JSON.stringify([{ uri: hello }]), JSON.stringify(dry.params.arguments));
  });

  await step(page, "escape on the input cancels the run", async () => {
    await command(page, "OpenProse: Run Program");
    await page.locator(".quick-input-widget", { hasText: "Input topic" }).waitFor({ state: "visible", timeout: TIMEOUT });
    await page.keyboard.press("Escape");
    await until("the run cancelled for its input", async () => (await panel()).includes("Cancelled: input topic not given"));
    const answers = sent(log).filter((m) => typeof m.id === "string" && m.id.startsWith("fake-runner-"));
    assert(answers.at(-1).result === null, `answered null: ${JSON.stringify(answers.at(-1))}`);
  });
}

await runTest(steps, main);
