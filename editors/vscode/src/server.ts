// Finding the `prose-lsp` executable: the `prose.server.path` setting, else the
// binary bundled in the extension, else `prose-lsp` on PATH.

import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as vscode from "vscode";

export const SERVER_NAME = process.platform === "win32" ? "prose-lsp.exe" : "prose-lsp";

/** Where the server was found, and how (shown in the status bar's tooltip). */
export interface FoundServer {
  command: string;
  source: "setting" | "bundled" | "PATH";
}

/** Why no server could be found: a message for the user. */
export interface MissingServer {
  message: string;
}

/** Expands `~` and makes a relative path relative to the first workspace folder. */
export function resolveSettingPath(value: string): string {
  let p = value.trim();
  if (p === "~" || p.startsWith("~/") || p.startsWith("~\\")) {
    p = path.join(os.homedir(), p.slice(1));
  }
  if (!path.isAbsolute(p)) {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (folder && folder.uri.scheme === "file") {
      p = path.join(folder.uri.fsPath, p);
    }
  }
  return p;
}

function isExecutableFile(p: string): boolean {
  try {
    const stat = fs.statSync(p);
    if (!stat.isFile()) {
      return false;
    }
    if (process.platform !== "win32") {
      fs.accessSync(p, fs.constants.X_OK);
    }
    return true;
  } catch {
    return false;
  }
}

/** The first `name` on PATH. */
export function onPath(name: string, envPath = process.env.PATH ?? ""): string | undefined {
  for (const dir of envPath.split(path.delimiter)) {
    if (dir === "") {
      continue;
    }
    const candidate = path.join(dir, name);
    if (isExecutableFile(candidate)) {
      return candidate;
    }
  }
  return undefined;
}

/**
 * The server to start. `settingValue` is `prose.server.path` as VS Code gives it
 * (in an untrusted workspace VS Code gives only the user's value: the setting is
 * restricted).
 */
export function findServer(settingValue: string, extensionPath: string): FoundServer | MissingServer {
  if (settingValue.trim() !== "") {
    const p = resolveSettingPath(settingValue);
    if (isExecutableFile(p)) {
      return { command: p, source: "setting" };
    }
    return {
      message: `The setting prose.server.path points at ${p}, which is not an executable file.`,
    };
  }
  const bundled = path.join(extensionPath, "server", SERVER_NAME);
  if (isExecutableFile(bundled)) {
    return { command: bundled, source: "bundled" };
  }
  const found = onPath(SERVER_NAME);
  if (found) {
    return { command: found, source: "PATH" };
  }
  return {
    message:
      "Cannot find the prose-lsp language server: this extension has no bundled binary for this platform and prose-lsp is not on PATH. Install it (cargo install --path crates/prose-lsp) or set prose.server.path.",
  };
}

/** Shows `missing` with a button that opens the setting. */
export async function reportMissing(missing: MissingServer): Promise<void> {
  const open = "Open Setting";
  const choice = await vscode.window.showErrorMessage(`OpenProse: ${missing.message}`, open);
  if (choice === open) {
    await vscode.commands.executeCommand("workbench.action.openSettings", "prose.server.path");
  }
}
