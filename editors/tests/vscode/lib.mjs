// Helpers for the real-editor tests: code-server (VS Code's web build) started
// on 127.0.0.1 with the built .vsix installed, driven through headless Chromium
// by playwright-core. Everything a test starts is stopped by `cleanup()`, also
// on failure and on SIGINT/SIGTERM (playwright's own signal handlers are off).

import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const here = path.dirname(fileURLToPath(import.meta.url));
export const testsDir = path.dirname(here);
export const repo = path.resolve(testsDir, "..", "..");
export const codeServerBin = path.join(testsDir, "code-server", "node_modules", ".bin", "code-server");
export const chromiumPath = process.env.CHROMIUM ?? "/usr/bin/chromium";

const cleanups = [];
/** Runs `fn` at cleanup, last registered first. */
export function onCleanup(fn) {
  cleanups.push(fn);
}
export async function cleanup() {
  while (cleanups.length > 0) {
    const fn = cleanups.pop();
    try {
      await fn();
    } catch (error) {
      console.error(`cleanup: ${error}`);
    }
  }
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, async () => {
    await cleanup();
    process.exit(130);
  });
}

/** A fresh folder under editors/.cache/e2e. */
export function scratch(name) {
  const dir = path.join(repo, "editors", ".cache", "e2e", `${name}-${process.pid}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  onCleanup(() => {
    if (!process.env.PROSE_E2E_KEEP) {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
  return dir;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Kills a process group started with `detached: true`. */
function killGroup(child, signal = "SIGTERM") {
  if (child.exitCode !== null || child.signalCode !== null) {
    return;
  }
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

function waitExit(child, ms) {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve(true);
  }
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

export function installExtension(vsix, extensionsDir, env) {
  const r = spawnSync(codeServerBin, ["--extensions-dir", extensionsDir, "--install-extension", vsix], {
    env,
    encoding: "utf8",
    timeout: 120_000,
  });
  if (r.status !== 0) {
    throw new Error(`installing ${vsix} failed: ${r.stdout}\n${r.stderr}`);
  }
}

/**
 * Starts code-server on `workspace`. `trust`: whether workspace trust is on
 * (off by default, as a developer's trusted machine).
 */
export async function startCodeServer({ name, vsix, workspace, trust = false, userSettings = {} }) {
  const root = scratch(`code-server-${name}`);
  const dirs = Object.fromEntries(
    ["user-data", "extensions", "config", "data", "cache", "tmp", "home"].map((d) => {
      const p = path.join(root, d);
      fs.mkdirSync(p, { recursive: true });
      return [d, p];
    }),
  );
  const env = {
    ...process.env,
    HOME: dirs.home,
    TMPDIR: dirs.tmp,
    XDG_CONFIG_HOME: dirs.config,
    XDG_DATA_HOME: dirs.data,
    XDG_CACHE_HOME: dirs.cache,
    PROSE_HOME: dirs.home,
  };
  fs.mkdirSync(path.join(dirs["user-data"], "User"), { recursive: true });
  fs.writeFileSync(
    path.join(dirs["user-data"], "User", "settings.json"),
    JSON.stringify(
      {
        "security.workspace.trust.enabled": trust,
        "security.workspace.trust.startupPrompt": "never",
        "workbench.startupEditor": "none",
        "workbench.tips.enabled": false,
        "workbench.enableExperiments": false,
        "telemetry.telemetryLevel": "off",
        "extensions.autoUpdate": false,
        "extensions.autoCheckUpdates": false,
        "editor.minimap.enabled": false,
        "window.commandCenter": false,
        "chat.commandCenter.enabled": false,
        "workbench.secondarySideBar.defaultVisibility": "hidden",
        "editor.fontSize": 15,
        ...userSettings,
      },
      null,
      2,
    ),
  );
  installExtension(vsix, dirs.extensions, env);
  const port = await freePort();
  const args = [
    "--auth", "none",
    "--bind-addr", `127.0.0.1:${port}`,
    "--disable-telemetry",
    "--disable-update-check",
    "--user-data-dir", dirs["user-data"],
    "--extensions-dir", dirs.extensions,
  ];
  if (!trust) {
    args.push("--disable-workspace-trust");
  }
  args.push(workspace);
  const log = fs.openSync(path.join(root, "code-server.log"), "w");
  const child = spawn(codeServerBin, args, { env, detached: true, stdio: ["ignore", log, log] });
  onCleanup(async () => {
    killGroup(child, "SIGTERM");
    if (!(await waitExit(child, 5000))) {
      killGroup(child, "SIGKILL");
    }
    // The extension host and the language server are children of the group.
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      // gone
    }
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const r = await fetch(`${url}/healthz`);
      if (r.ok) {
        break;
      }
    } catch {
      // not up yet
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`code-server did not start: ${fs.readFileSync(path.join(root, "code-server.log"), "utf8")}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { url, root, dirs, logFile: path.join(root, "code-server.log") };
}

/** Opens `folder` in a headless Chromium page. */
export async function openBrowser(url, folder) {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  onCleanup(() => browser.close());
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(`${url}/?folder=${encodeURIComponent(folder)}`);
  await page.waitForSelector(".monaco-workbench", { timeout: 60_000 });
  return { browser, page };
}

/** The .vsix named on the command line (exits with a usage message if none). */
export function vsixArgument(script) {
  const vsix = path.resolve(process.argv[2] ?? "");
  if (!fs.existsSync(vsix)) {
    console.error(`usage: node ${script} VSIX (no file ${vsix})`);
    process.exit(2);
  }
  return vsix;
}

/** The prose-lsp binary the tests use. */
export const serverBinary = path.resolve(process.env.PROSE_LSP_BINARY ?? path.join(repo, "target", "debug", "prose-lsp"));

/** Runs `main`, always cleans up, prints the summary and exits. */
export async function runTest(steps, main) {
  try {
    await main();
  } catch (error) {
    steps.fail("setup", error);
  } finally {
    await cleanup();
  }
  process.exit(steps.summary());
}
