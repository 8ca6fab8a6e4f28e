// The VS Code extension in a real VS Code (code-server in headless Chromium):
// diagnostics, hover, completion, rename, formatting, a quick fix, the
// extension's own views, a job task's expanded prompt (its code lens), a
// job task's Dry run and Run task lenses, and
// running a program with the mock backend.
//
//   node editors/tests/vscode/e2e.mjs VSIX
//
// Screenshots of every step: editors/tests/artifacts/vscode/. Prints
// "N passed, N failed, N skipped" last; exits 1 when a step failed.

import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { openBrowser, runTest, scratch, serverBinary, startCodeServer, testsDir, vsixArgument } from "./lib.mjs";
import { assert, command, fileHas, goTo, openFile, panelText, save, Shots, Steps, TIMEOUT, until } from "./ui.mjs";

const vsix = vsixArgument("e2e.mjs");

/** The commands the server advertises (`executeCommandProvider`), asked over stdio. */
function serverCommands(binary) {
  return new Promise((resolve) => {
    const child = spawn(binary, [], { stdio: ["pipe", "pipe", "ignore"] });
    let out = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve([]);
    }, 20_000);
    child.stdout.on("data", (d) => {
      out += d;
      const body = out.slice(out.indexOf("\r\n\r\n") + 4);
      try {
        const msg = JSON.parse(body);
        clearTimeout(timer);
        child.kill("SIGKILL");
        resolve(msg.result?.capabilities?.executeCommandProvider?.commands ?? []);
      } catch {
        // not complete yet
      }
    });
    const init = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { processId: null, rootUri: null, capabilities: {} } });
    child.stdin.write(`Content-Length: ${Buffer.byteLength(init)}\r\n\r\n${init}`);
  });
}

const shots = new Shots(path.join(testsDir, "artifacts", "vscode"));
const steps = new Steps(shots);
const step = (page, name, fn) => steps.step(page, name, fn);



async function main() {
  const ws = scratch("workspace");
  fs.cpSync(path.join(testsDir, "fixtures", "workspace"), ws, { recursive: true });
  const cs = await startCodeServer({
    name: "e2e",
    vsix,
    workspace: ws,
    userSettings: {
      "git.enabled": false,
      "git.openRepositoryInParentFolders": "never",
      "prose.runner.backend": "mock",
      // `:` is a completion trigger: a list that opens while a step types
      // must not take the step's Enter (the steps only look at the list).
      "editor.acceptSuggestionOnEnter": "off",
      // Auto-closing asks the line's tokens whether the cursor is in a
      // string or a comment: tokenized on the main thread, they are there
      // when the next key is typed (in a worker, a fresh line could still
      // be untokenized, and `"""` was then left unclosed in CI).
      "editor.experimental.asyncTokenization": false,
    },
  });
  const { page } = await openBrowser(cs.url, ws);
  await page.waitForSelector(".explorer-folders-view", { timeout: TIMEOUT });
  await editorSteps(page, ws);
  await missingServer(page);
}

async function editorSteps(page, ws) {
  await step(page, "diagnostics", async () => {
    await openFile(page, "review.prose");
    await page.waitForSelector(".squiggly-error", { timeout: TIMEOUT });
    const problems = page.locator("#status\\.problems");
    await until("the Problems count to be 1 error", async () => /Errors: 1\b/.test((await problems.getAttribute("aria-label")) ?? ""));
    await page.keyboard.press("Control+Shift+M");
    const row = page.locator(".markers-panel .monaco-list-row", { hasText: "Unknown escape sequence" });
    await row.first().waitFor({ timeout: TIMEOUT });
    const text = await page.locator(".markers-panel").innerText();
    assert(text.includes("Unknown escape sequence `\\q`: write `\\\\q` to keep the backslash; valid escapes are"), `Problems panel: ${text}`);
    assert(text.includes("E002"), `the code in the Problems panel: ${text}`);
    await shots.take(page, "diagnostics");
    await page.keyboard.press("Control+Shift+M");
  });

  await step(page, "hover", async () => {
    await openFile(page, "agents.prose");
    await goTo(page, 14, 3);
    await command(page, "Show or Focus Hover");
    const hover = page.locator(".monaco-hover", { hasText: "Runs one subagent" });
    await hover.first().waitFor({ state: "visible", timeout: TIMEOUT });
    await page.waitForTimeout(500); // the fade-in
    await shots.take(page, "hover");
    await page.keyboard.press("Escape");
  });

  await step(page, "completion", async () => {
    await openFile(page, "agents.prose");
    await page.keyboard.press("Control+End");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.type("session: ");
    // `:` opens the list by itself; an answer overtaken by the edit's
    // re-analysis closes it, so ask again until it shows the agents.
    const widget = page.locator(".suggest-widget.visible");
    await until("agent names in the completion list", async () => {
      if (!(await widget.isVisible())) {
        await page.keyboard.press("Control+Space");
        await widget.waitFor({ timeout: 10_000 });
      }
      const labels = await widget.locator(".monaco-list-row").allInnerTexts();
      return labels.some((l) => l.includes("researcher")) && labels.some((l) => l.includes("writer"));
    });
    await shots.take(page, "completion");
    await page.keyboard.press("Escape");
    await command(page, "File: Revert File");
    await page.waitForSelector(".tab.active.dirty", { state: "detached", timeout: TIMEOUT });
  });

  await step(page, "rename", async () => {
    await openFile(page, "agents.prose");
    await goTo(page, 3, 8);
    await page.keyboard.press("F2");
    const input = page.locator(".rename-box input");
    await input.waitFor({ state: "visible", timeout: TIMEOUT });
    await input.fill("scholar");
    await shots.take(page, "rename");
    await page.keyboard.press("Enter");
    await page.waitForSelector(".rename-box", { state: "hidden", timeout: TIMEOUT });
    await save(page);
    const file = path.join(ws, "agents.prose");
    await fileHas(file, "agent scholar:");
    const text = fs.readFileSync(file, "utf8");
    assert(text.includes("let notes = session: scholar"), `the reference renamed too:\n${text}`);
    assert(!text.includes("researcher"), `no researcher left:\n${text}`);
  });

  await step(page, "format", async () => {
    await openFile(page, "messy.prose");
    await command(page, "Format Document");
    await save(page);
    const file = path.join(ws, "messy.prose");
    await fileHas(file, "agent helper:\n  model: haiku\n");
    const text = fs.readFileSync(file, "utf8");
    const expected = 'agent helper:\n  model: haiku\n  prompt: "You help"\n\nsession: helper\n  prompt: "Say hello"\n';
    assert(text === expected, `formatted text:\n${text}`);
    await shots.take(page, "format");
  });

  await step(page, "quick fix", async () => {
    await openFile(page, "typo.prose");
    await page.waitForSelector(".squiggly-error", { timeout: TIMEOUT });
    await goTo(page, 2, 11);
    await page.keyboard.press("Control+.");
    const rows = page.locator(".action-widget .monaco-list-row.action");
    await rows.first().waitFor({ state: "visible", timeout: TIMEOUT });
    const first = await rows.first().innerText();
    assert(first.includes("Change to `sonnet`"), `the first (preferred) fix: ${first}`);
    await shots.take(page, "quick-fix");
    await page.keyboard.press("Enter");
    await save(page);
    await fileHas(path.join(ws, "typo.prose"), "  model: sonnet\n");
    await page.waitForSelector(".squiggly-error", { state: "detached", timeout: TIMEOUT });
  });

  await step(page, "explain diagnostic", async () => {
    await openFile(page, "review.prose");
    await goTo(page, 8, 33);
    await command(page, "OpenProse: Explain Diagnostic");
    await page.waitForSelector('.tab[aria-label*="E002.md"]', { timeout: TIMEOUT });
    await until("the explanation's text", async () => (await page.locator(".editor-group-container").last().innerText()).includes("escape"));
    await shots.take(page, "explain");
    await command(page, "View: Close All Editors");
  });

  await step(page, "syntax tree", async () => {
    await openFile(page, "hello.prose");
    await command(page, "OpenProse: Show Syntax Tree");
    await page.waitForSelector('.tab[aria-label*="hello.prose.tree"]', { timeout: TIMEOUT });
    await until("the tree's text", async () => (await page.locator(".editor-group-container").last().innerText()).includes("SOURCE_FILE"));
    await shots.take(page, "syntax-tree");
    await command(page, "View: Close All Editors");
  });

  await step(page, "language configuration", async () => {
    await openFile(page, "scratch.prose");
    await page.keyboard.press("Control+End");
    await page.keyboard.type("agent poet:");
    await page.keyboard.press("Escape");
    await page.keyboard.press("Enter");
    await page.keyboard.type("prompt: ");
    await page.keyboard.press("Escape");
    // The new line is tokenized (`prompt` coloured) before the quotes.
    await until("line 3's tokens", async () => {
      const span = page.locator(".view-line span span", { hasText: /^prompt:?$/ }).last();
      return !/\bmtk1\b/.test(await span.getAttribute("class"));
    });
    await page.keyboard.type('"""', { delay: 50 });
    await shots.take(page, "language-configuration");
    await save(page);
    // Indented after the `:`, and `"""` closed as it was typed.
    await fileHas(path.join(ws, "scratch.prose"), 'agent poet:\n  prompt: """"""');
  });

  await step(page, "job task lens (expanded prompt)", async () => {
    await openFile(page, "team.jobs.json");
    const lens = page.locator(".codelens-decoration a", { hasText: "Show expanded prompt" });
    await lens.first().waitFor({ state: "visible", timeout: TIMEOUT });
    await lens.first().click();
    await page.waitForSelector('.tab[aria-label*="plan-task (expanded prompt)"]', { timeout: TIMEOUT });
    // The view's own editor group: the text expanded, no JSON.
    const view = page.locator(".editor-group-container", { has: page.locator('.tab.active[aria-label*="plan-task (expanded prompt)"]') });
    await until("the expanded prompt's text", async () => {
      // Monaco renders spaces as no-break spaces.
      const text = (await view.locator(".view-lines").first().innerText()).replace(/\u00a0/g, " ");
      return ["Read AGENTS.md first.", "Be brief.", "Write the plan."].every((l) => text.includes(l)) && !text.includes("$rules");
    });
    await shots.take(page, "task-prompt");
    await command(page, "View: Close All Editors");
  });

  // Running programs needs the server's run API (docs/lsp.md, "Running
  // programs"): these steps run as soon as the server advertises prose.run.
  const commands = await serverCommands(serverBinary);
  if (!commands.includes("prose.run")) {
    steps.skip("run program (code lens)", `the server ${serverBinary} does not advertise prose.run yet (the runner is not merged)`);
  } else {
    await step(page, "run program (code lens)", async () => {
      await openFile(page, "hello.prose");
      const lens = page.locator(".codelens-decoration a", { hasText: "Run program" });
      await lens.first().waitFor({ state: "visible", timeout: TIMEOUT });
      await shots.take(page, "run-lens");
      await lens.first().click();
      await until("the run's events in the output channel", async () => {
        const text = await panelText(page);
        return text.includes("Run succeeded") || text.includes("Run failed");
      }, 120_000);
      const text = await panelText(page);
      assert(text.includes("Started hello.prose with backend mock"), `run_started in the output:\n${text}`);
      assert(text.includes("Binding greeting written"), `binding_written in the output:\n${text}`);
      assert(text.includes("Run succeeded"), `run_finished in the output:\n${text}`);
      const runs = path.join(ws, ".prose", "runs");
      const [runId] = fs.readdirSync(runs);
      assert(fs.existsSync(path.join(runs, runId, "bindings", "greeting.md")), `bindings/greeting.md under ${runs}/${runId}`);
      await shots.take(page, "run-output");
    });
  }

  // A job task's Dry run and Run task lenses (docs/lsp.md, "Running job tasks").
  if (!commands.includes("prose.runTask")) {
    steps.skip("run task (code lens)", `the server ${serverBinary} does not advertise prose.runTask yet`);
  } else {
    await step(page, "run task (code lens)", async () => {
      await command(page, "View: Close All Editors");
      await openFile(page, "team.jobs.json");
      const dry = page.locator(".codelens-decoration a", { hasText: "Dry run" });
      await dry.first().waitFor({ state: "visible", timeout: TIMEOUT });
      await dry.first().click();
      // The channel shows its last lines: the plan's end, then cleared so
      // that the run's first events stay in view.
      await until("the task's plan in the output channel", async () => (await panelText(page)).includes("no criteria: the task succeeded when its session has answered 1 request at least, 1 at most; nothing was run."));
      await page.locator('.part.panel .action-label[aria-label^="Clear Output"]').first().click();
      await until("the output channel cleared", async () => !(await panelText(page)).includes("nothing was run."));
      const lens = page.locator(".codelens-decoration a", { hasText: "Run task" });
      await lens.first().click();
      await until("the task's events in the output channel", async () => {
        const text = await panelText(page);
        return text.includes("Task plan-task succeeded") || text.includes("Task plan-task failed");
      }, 120_000);
      const text = await panelText(page);
      assert(text.includes("Started team.jobs.json with backend mock"), `run_started in the output:\n${text}`);
      assert(text.includes("Task plan-task of team.jobs.json: one session on gpt-5.2 (single model)"), `task_started in the output:\n${text}`);
      assert(text.includes("Task plan-task succeeded"), `task_finished in the output:\n${text}`);
      await shots.take(page, "run-task-output");
    });
  }
}

/** A prose.server.path that does not exist, set in the Settings editor: an
 * error with a button to the setting. */
async function missingServer(page) {
  await step(page, "missing server", async () => {
    await command(page, "View: Close All Editors");
    await command(page, "Preferences: Open User Settings");
    await page.waitForSelector(".settings-editor", { timeout: TIMEOUT });
    await page.keyboard.type("prose.server.path");
    // A machine-overridable setting: in code-server it is on the Remote tab.
    await page.locator(".settings-editor .settings-tabs-widget .action-label", { hasText: "Remote" }).first().click();
    const item = page.locator(".settings-editor .setting-item-contents", { hasText: "Server: Path" });
    await item.first().waitFor({ state: "visible", timeout: TIMEOUT });
    const input = item.first().locator("input").first();
    await input.fill("/nonexistent/prose-lsp");
    await input.press("Tab");
    const toast = page.locator(".notification-toast", { hasText: "prose.server.path points at /nonexistent/prose-lsp" });
    await toast.first().waitFor({ timeout: TIMEOUT });
    const status = page.locator('[id$="prose.status"]').first();
    await until("the status bar item to show the server stopped", async () => (await status.locator(".codicon-error").count()) > 0);
    assert((await page.locator(".notification-toast").allInnerTexts()).length === 1, "one notification: the missing server");
    await shots.take(page, "missing-server");
    // Close the Settings editor; the button opens it again on the setting.
    await page.locator(".tabs-container .tab.active .tab-actions .action-label").first().click();
    await page.waitForSelector(".settings-editor", { state: "detached", timeout: TIMEOUT });
    await toast.locator(".monaco-button", { hasText: "Open Setting" }).first().click();
    await page.waitForSelector(".settings-editor", { timeout: TIMEOUT });
    await until("the search for the setting", async () => (await page.locator(".settings-editor .search-container").innerText()).includes("prose.server.path"));
  });
}

await runTest(steps, main);
