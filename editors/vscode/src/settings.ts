// The settings passed to the server (docs/lsp.md, "Editor settings"): in
// `initializationOptions` and, through vscode-languageclient, as the `prose`
// section of `workspace/configuration`.

import * as vscode from "vscode";

export interface ServerSettings {
  profile?: string;
  severity?: Record<string, string>;
  runner?: Record<string, unknown>;
  trusted: boolean;
}

function nonEmpty<T>(value: T | undefined): value is T {
  if (value === undefined || value === null) {
    return false;
  }
  if (typeof value === "string") {
    return value !== "";
  }
  if (Array.isArray(value)) {
    return value.length > 0;
  }
  return true;
}

/**
 * The settings object for the server. VS Code itself returns only the user's
 * values of restricted settings (package.json `restrictedConfigurations`) while
 * the workspace is untrusted.
 */
export function serverSettings(): ServerSettings {
  const config = vscode.workspace.getConfiguration("prose");
  const out: ServerSettings = { trusted: vscode.workspace.isTrusted };
  const profile = config.get<string>("profile");
  if (nonEmpty(profile)) {
    out.profile = profile;
  }
  const severity = config.get<Record<string, string>>("severity");
  if (severity && Object.keys(severity).length > 0) {
    out.severity = { ...severity };
  }
  const runner: Record<string, unknown> = {};
  for (const key of ["backend", "executable", "command", "args", "baseUrl", "env"]) {
    const value = config.get(`runner.${key}`);
    if (nonEmpty(value)) {
      runner[key] = value;
    }
  }
  if (Object.keys(runner).length > 0) {
    out.runner = runner;
  }
  return out;
}
