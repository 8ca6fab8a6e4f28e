// The OpenProse extension: starts prose-lsp, restarts it when its settings
// or the workspace's trust change, and registers the extension's commands.

import * as vscode from "vscode";
import { DidChangeConfigurationNotification, LanguageClient, State } from "vscode-languageclient/node";
import { createClient } from "./client";
import { Runs } from "./runs";
import { findServer, FoundServer, reportMissing } from "./server";
import { serverSettings } from "./settings";
import { Status } from "./status";
import { EXPLAIN_SCHEME, ExplainProvider, showModelView, SyntaxTreeProvider, TASK_PROMPT_SCHEME, TaskPromptProvider, TREE_SCHEME } from "./views";

class Extension implements vscode.Disposable {
  private client: LanguageClient | undefined;
  private clientSubscriptions: vscode.Disposable[] = [];
  private readonly serverOutput: vscode.OutputChannel;
  readonly runs: Runs;
  readonly status: Status;
  /** Restarts are queued so two never interleave. */
  private queue: Promise<void> = Promise.resolve();

  readonly taskPrompts: TaskPromptProvider;

  constructor(private readonly context: vscode.ExtensionContext) {
    this.serverOutput = vscode.window.createOutputChannel("OpenProse Language Server");
    this.taskPrompts = new TaskPromptProvider(() => this.client);
    this.runs = new Runs(() => this.client);
    this.status = new Status(this.runs);
  }

  current(): LanguageClient | undefined {
    return this.client;
  }

  /** Stops the running client (if any) and starts a new one. */
  restart(): Promise<void> {
    this.queue = this.queue.then(() => this.stop()).then(() => this.start());
    return this.queue;
  }

  private async start(): Promise<void> {
    this.status.set({ kind: "starting" });
    const setting = vscode.workspace.getConfiguration("prose").get<string>("server.path") ?? "";
    const found = findServer(setting, this.context.extensionPath);
    if (!("command" in found)) {
      this.status.set({ kind: "stopped", reason: found.message });
      void reportMissing(found);
      return;
    }
    const server: FoundServer = found;
    const client = createClient(
      server,
      this.serverOutput,
      (args) => this.taskPrompts.show(args),
      (args, result) => this.runs.showPlan(args, result),
    );
    this.client = client;
    this.clientSubscriptions = [
      ...this.runs.attach(client),
      client.onDidChangeState((e) => {
        if (e.newState === State.Running) {
          this.status.set({ kind: "running", detail: `${server.command}, from ${server.source}` });
        } else if (e.newState === State.Stopped) {
          this.runs.clear();
          this.status.set({ kind: "stopped", reason: "it stopped; see the output channel OpenProse Language Server" });
        }
      }),
    ];
    try {
      await client.start();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.status.set({ kind: "stopped", reason: message });
      void reportMissing({ message: `the language server ${server.command} did not start: ${message}` });
    }
  }

  /**
   * Tells a running server that the settings changed (it pulls the `prose`
   * section). Sent here rather than by vscode-languageclient's `synchronize`,
   * which would also fire while a change of `prose.server.*` stops the client.
   */
  settingsChanged(): void {
    const client = this.client;
    if (client?.isRunning()) {
      void client.sendNotification(DidChangeConfigurationNotification.type, { settings: { prose: serverSettings() } });
    }
  }

  private async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    for (const s of this.clientSubscriptions) {
      s.dispose();
    }
    this.clientSubscriptions = [];
    this.runs.clear();
    if (client) {
      try {
        await client.stop(2000);
      } catch {
        // A server that would not stop is gone with its process.
      }
    }
  }

  async dispose(): Promise<void> {
    await this.stop();
    this.taskPrompts.dispose();
    this.status.dispose();
    this.runs.dispose();
    this.serverOutput.dispose();
  }
}

let extension: Extension | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const ext = new Extension(context);
  extension = ext;
  const tree = new SyntaxTreeProvider(() => ext.current());
  const explain = new ExplainProvider(() => ext.current());
  context.subscriptions.push(
    tree,
    vscode.workspace.registerTextDocumentContentProvider(TREE_SCHEME, tree),
    vscode.workspace.registerTextDocumentContentProvider(EXPLAIN_SCHEME, explain),
    vscode.workspace.registerTextDocumentContentProvider(TASK_PROMPT_SCHEME, ext.taskPrompts),
    vscode.commands.registerCommand("prose.client.run", (uri?: unknown) => ext.runs.run(uri)),
    // The editor title's Run button in an untrusted workspace: says why.
    vscode.commands.registerCommand("prose.client.runDisabled", () => ext.runs.trusted()),
    vscode.commands.registerCommand("prose.client.dryRun", (uri?: unknown) => ext.runs.dryRun(uri)),
    vscode.commands.registerCommand("prose.client.stopRun", (runId?: unknown) => ext.runs.stop(runId)),
    vscode.commands.registerCommand("prose.client.showOutput", () => ext.runs.output.show()),
    vscode.commands.registerCommand("prose.client.restartServer", () => ext.restart()),
    vscode.commands.registerCommand("prose.client.showSyntaxTree", () => tree.show()),
    vscode.commands.registerCommand("prose.client.explainDiagnostic", (code?: unknown) => explain.explain(code)),
    vscode.commands.registerCommand("prose.client.showModelView", () => showModelView(() => ext.current())),
    // The server learns of trust at start-up (`trusted` in initializationOptions).
    vscode.workspace.onDidGrantWorkspaceTrust(() => ext.restart()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("prose.server")) {
        void ext.restart();
      } else if (e.affectsConfiguration("prose")) {
        ext.settingsChanged();
      }
    }),
  );
  await ext.restart();
}

export async function deactivate(): Promise<void> {
  const ext = extension;
  extension = undefined;
  await ext?.dispose();
}
