// Driving VS Code's UI the way a person does: Quick Open, the command palette,
// Go to Line, keyboard shortcuts. Each wait has a generous timeout.

import * as fs from "node:fs";
import * as path from "node:path";

export const TIMEOUT = 60_000;

/** Screenshots go to editors/tests/artifacts/vscode/NN-name.png. */
export class Shots {
  constructor(dir) {
    this.dir = dir;
    this.n = 0;
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
  }
  async take(page, name) {
    this.n += 1;
    const file = path.join(this.dir, `${String(this.n).padStart(2, "0")}-${name}.png`);
    await page.screenshot({ path: file });
    return file;
  }
}

export async function openFile(page, name) {
  // Quick Open re-renders its list while it filters: retry when Enter met a
  // list in flux.
  for (let attempt = 1; ; attempt++) {
    try {
      await page.keyboard.press("Control+P");
      const input = page.locator(".quick-input-widget input");
      await input.waitFor({ state: "visible", timeout: TIMEOUT });
      await input.fill(name);
      await page.waitForSelector(`.quick-input-list .monaco-list-row.focused[aria-label*="${name}"]`, { timeout: TIMEOUT });
      await page.keyboard.press("Enter");
      await page.waitForSelector(`.tab.active[aria-label*="${name}"]`, { timeout: 15_000 });
      break;
    } catch (error) {
      if (attempt === 3) {
        throw error;
      }
      await page.keyboard.press("Escape");
    }
  }
  // Focus the editor at the start of the file with the keyboard: a click at
  // the top of the text would land on a code lens (and run it).
  await page.locator(".editor-instance .monaco-editor textarea").first().focus();
  await page.keyboard.press("Control+Home");
}

/** Runs a command by its title from the command palette. */
export async function command(page, title) {
  await page.keyboard.press("F1");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible", timeout: TIMEOUT });
  await input.fill(`>${title}`);
  const row = page.locator(`.quick-input-list .monaco-list-row`, { hasText: title }).first();
  await row.waitFor({ state: "visible", timeout: TIMEOUT });
  await page.keyboard.press("Enter");
}

/** Moves the cursor to a 1-based line and column. */
export async function goTo(page, line, column) {
  await page.keyboard.press("Control+G");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible", timeout: TIMEOUT });
  await input.fill(`:${line}:${column}`);
  await page.keyboard.press("Enter");
  await page.waitForSelector(".quick-input-widget", { state: "hidden", timeout: TIMEOUT });
}

export async function save(page) {
  await page.keyboard.press("Control+S");
  await page.waitForSelector(".tab.active.dirty", { state: "detached", timeout: TIMEOUT });
}

/** Polls `fn` until it returns a truthy value. */
export async function until(what, fn, ms = TIMEOUT) {
  const deadline = Date.now() + ms;
  let last;
  for (;;) {
    try {
      last = await fn();
      if (last) {
        return last;
      }
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what} (last: ${last})`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Waits until `file` holds `expected` (after a save). */
export async function fileHas(file, expected) {
  return until(`${path.basename(file)} to contain ${JSON.stringify(expected)}`, () =>
    fs.readFileSync(file, "utf8").includes(expected),
  );
}

/**
 * The text of the bottom panel (Problems, Output), with every run of white
 * space as one space: the Output view is an editor that renders spaces as
 * no-break spaces and wraps long lines.
 */
export async function panelText(page) {
  return (await page.locator(".part.panel").innerText()).replace(/\s+/g, " ");
}

export function assert(condition, message) {
  if (!condition) {
    throw new Error(`assertion failed: ${message}`);
  }
}

/**
 * Named steps of a test: each passes or fails on its own (a failure saves a
 * screenshot and closes popups), `summary()` prints the closing line.
 */
export class Steps {
  constructor(shots) {
    this.shots = shots;
    this.passed = 0;
    this.failed = 0;
    this.skipped = 0;
  }
  async step(page, name, fn) {
    try {
      await fn();
      this.passed += 1;
      console.log(`ok      ${name}`);
    } catch (error) {
      this.fail(name, error);
      await this.shots.take(page, `FAILED-${name}`).catch(() => {});
      await page.keyboard.press("Escape").catch(() => {});
      await page.keyboard.press("Escape").catch(() => {});
    }
  }
  fail(name, error) {
    this.failed += 1;
    console.log(`FAILED  ${name}: ${error?.stack && name === "setup" ? error.stack : (error?.message ?? error)}`);
  }
  skip(name, why) {
    this.skipped += 1;
    console.log(`skipped ${name}: ${why}`);
  }
  /** Prints "N passed, N failed, N skipped"; the exit status for it. */
  summary() {
    console.log(`${this.passed} passed, ${this.failed} failed, ${this.skipped} skipped`);
    return this.failed > 0 ? 1 : 0;
  }
}
