// Workspace trust in a real VS Code (code-server with trust enabled): a
// workspace whose .vscode/settings.json points prose.server.path at its own
// script must not get that script started until the user trusts it.
//
//   node editors/tests/vscode/trust.mjs VSIX
//
// The user-level prose.server.path (which VS Code honours in restricted mode)
// is a wrapper that records what the client sends, so the test also sees
// `trusted: false` in initializationOptions (and the server's lens says
// `Run disabled: workspace not trusted`); after trust is granted the
// workspace's script runs and sees `trusted: true`.

import * as fs from "node:fs";
import * as path from "node:path";
import { openBrowser, runTest, scratch, serverBinary, startCodeServer, testsDir, vsixArgument } from "./lib.mjs";
import { assert, command, openFile, Shots, Steps, TIMEOUT, until } from "./ui.mjs";

const vsix = vsixArgument("trust.mjs");
const shots = new Shots(path.join(testsDir, "artifacts", "vscode-trust"));
const steps = new Steps(shots);

/** A server wrapper that appends what the client sends to `log` (and, if given, creates `marker`). */
function wrapper(file, log, marker) {
  const lines = ["#!/bin/sh"];
  if (marker) {
    lines.push(`echo started > '${marker}'`);
  }
  lines.push(`tee -a '${log}' | '${serverBinary}' "$@"`);
  fs.writeFileSync(file, `${lines.join("\n")}\n`, { mode: 0o755 });
}

async function main() {
  const tools = scratch("trust-tools");
  const ws = scratch("trust-workspace");
  fs.copyFileSync(path.join(testsDir, "fixtures", "workspace", "review.prose"), path.join(ws, "review.prose"));
  const marker = path.join(tools, "MARKER");
  const userLog = path.join(tools, "user-server.log");
  const wsLog = path.join(tools, "workspace-server.log");
  wrapper(path.join(tools, "user-server.sh"), userLog);
  fs.mkdirSync(path.join(ws, ".vscode"));
  wrapper(path.join(ws, ".vscode", "server.sh"), wsLog, marker);
  fs.writeFileSync(
    path.join(ws, ".vscode", "settings.json"),
    JSON.stringify({ "prose.server.path": path.join(ws, ".vscode", "server.sh") }, null, 2),
  );
  const cs = await startCodeServer({
    name: "trust",
    vsix,
    workspace: ws,
    trust: true,
    userSettings: {
      "git.enabled": false,
      "prose.server.path": path.join(tools, "user-server.sh"),
    },
  });
  const { page } = await openBrowser(cs.url, ws);
  await page.waitForSelector(".explorer-folders-view", { timeout: TIMEOUT });

  // Restricted mode: the user's server runs, the workspace's does not.
  await steps.step(page, "untrusted: the user's server with trusted=false, no marker, Run disabled with the reason", async () => {
    await openFile(page, "review.prose");
    await page.waitForSelector(".squiggly-error", { timeout: TIMEOUT });
    await until("the initialize request in the user server's log", () => fs.existsSync(userLog) && fs.readFileSync(userLog, "utf8").includes('"initialize"'));
    const init = fs.readFileSync(userLog, "utf8");
    assert(/"trusted"\s*:\s*false/.test(init), `initializationOptions.trusted is false while untrusted:\n${init.slice(0, 2000)}`);
    assert(!fs.existsSync(marker), "the workspace's prose.server.path must not run in an untrusted workspace");
    // The server's lens says why nothing runs.
    const lens = page.locator(".codelens-decoration", { hasText: "Run disabled: workspace not trusted" });
    await lens.first().waitFor({ state: "visible", timeout: TIMEOUT });
    const status = await page.locator('[id$="prose.status"]').first().innerText();
    assert(status.includes("restricted"), `the status bar says restricted: ${status}`);
    // The editor title's Run button says why it is off, and clicking it explains.
    const run = page.locator('.editor-actions .action-item a[aria-label*="Run Program (disabled: this workspace is not trusted)"]');
    await run.first().waitFor({ timeout: TIMEOUT });
    await shots.take(page, "untrusted");
    await run.first().click();
    const toast = page.locator(".notification-toast", { hasText: "running programs is disabled because this workspace is not trusted" });
    await toast.first().waitFor({ timeout: TIMEOUT });
    assert((await toast.first().innerText()).includes("Manage Workspace Trust"), "the message offers Manage Workspace Trust");
    await shots.take(page, "untrusted-run");
    await page.keyboard.press("Escape");
  });

  // Granting trust restarts the client with the workspace's settings.
  await steps.step(page, "trusted: the workspace's server started with trusted=true", async () => {
    await command(page, "Workspaces: Manage Workspace Trust");
    const trustButton = page.locator(".workspace-trust-editor .monaco-button", { hasText: /^Trust$/ });
    await trustButton.first().waitFor({ state: "visible", timeout: TIMEOUT });
    await shots.take(page, "trust-editor");
    await trustButton.first().click();
    await until("the workspace's server to start (marker file)", () => fs.existsSync(marker));
    await until("trusted: true in the workspace server's initialize", () => fs.existsSync(wsLog) && /"trusted"\s*:\s*true/.test(fs.readFileSync(wsLog, "utf8")));
    await command(page, "View: Close All Editors");
    await openFile(page, "review.prose");
    await page.waitForSelector(".squiggly-error", { timeout: TIMEOUT });
    // Trusted: the lens is the run's own (the program has an error).
    const lens = page.locator(".codelens-decoration", { hasText: "1 error blocks the run" });
    await lens.first().waitFor({ state: "visible", timeout: TIMEOUT });
    await shots.take(page, "trusted");
  });
}

await runTest(steps, main);
