// The language client: which documents go to the server, what it is told at
// start-up, and the client capability the run API needs.

import * as vscode from "vscode";
import {
  ClientCapabilities,
  DocumentSelector,
  FeatureState,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  StaticFeature,
} from "vscode-languageclient/node";
import { FoundServer } from "./server";
import { serverSettings } from "./settings";
import { SHOW_TASK_PROMPT } from "./views";

/**
 * Every document kind of docs/languages.md, from the start: the server answers
 * for the kinds it supports, so a kind that gains features needs no release of
 * the extension. Only files and unsaved buffers: virtual documents (the syntax
 * tree, an explanation) stay out.
 */
export function documentSelector(): DocumentSelector {
  const selector: DocumentSelector = [];
  for (const scheme of ["file", "untitled"]) {
    selector.push({ scheme, language: "prose" });
    selector.push({ scheme, language: "prose-dialect" });
    selector.push({ scheme, language: "markdown" });
  }
  for (const language of ["json", "jsonc"]) {
    for (const pattern of ["**/*.jobs.json", "**/jobs.json"]) {
      selector.push({ scheme: "file", language, pattern });
    }
  }
  return selector;
}

/** Declares `experimental.proseInputRequest`: this client answers `prose/inputRequest`. */
class InputRequestCapability implements StaticFeature {
  fillClientCapabilities(capabilities: ClientCapabilities): void {
    capabilities.experimental = { ...(capabilities.experimental ?? {}), proseInputRequest: true };
  }
  initialize(): void {}
  getState(): FeatureState {
    return { kind: "static" };
  }
  clear(): void {}
}

/** The server's commands of the Dry run lenses (a program's, a job task's). */
const DRY_RUNS = ["prose.dryRun", "prose.dryRunTask"];

/**
 * `showTaskPrompt` carries out the server's `prose.showTaskPrompt` (a job
 * task's lens) and shows its answer; `showPlan` shows the plan a Dry run
 * lens's command answered; the server's other commands go to the server as
 * they are.
 */
export function createClient(
  server: FoundServer,
  outputChannel: vscode.OutputChannel,
  showTaskPrompt: (args: unknown[]) => Promise<unknown>,
  showPlan: (args: unknown[], result: unknown) => void,
): LanguageClient {
  const extraArgs = vscode.workspace.getConfiguration("prose").get<string[]>("server.extraArgs") ?? [];
  // No `transport`: vscode-languageclient would append `--stdio` (accepted, but
  // not needed).
  const executable = { command: server.command, args: extraArgs };
  const serverOptions: ServerOptions = { run: executable, debug: executable };
  const clientOptions: LanguageClientOptions = {
    documentSelector: documentSelector(),
    outputChannel,
    initializationOptions: serverSettings(),
    middleware: {
      executeCommand: async (command, args, next) => {
        if (command === SHOW_TASK_PROMPT) {
          return showTaskPrompt(args);
        }
        const result = await next(command, args);
        if (DRY_RUNS.includes(command)) {
          showPlan(args, result);
        }
        return result;
      },
      workspace: {
        // The server pulls the `prose` section: answer with the same object as
        // `initializationOptions` (known keys only, empty values left out), not
        // VS Code's raw section with its `server` and `trace` entries.
        configuration: async (params, token, next) => {
          const result = await next(params, token);
          if (!Array.isArray(result)) {
            return result;
          }
          return params.items.map((item, i) => (item.section === "prose" ? serverSettings() : result[i]));
        },
      },
    },
  };
  const client = new LanguageClient("prose", "OpenProse Language Server", serverOptions, clientOptions);
  client.registerFeature(new InputRequestCapability());
  return client;
}
