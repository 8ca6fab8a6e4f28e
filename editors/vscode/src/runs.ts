// Running programs through the server's run API (docs/lsp.md, "Running
// programs"): the commands Run program, Dry run and Stop run, the output
// channel fed by `prose/runEvent`, and the input box behind `prose/inputRequest`.

import * as vscode from "vscode";
import { ExecuteCommandRequest, LanguageClient } from "vscode-languageclient/node";
import { formatEvent, isFinal, programName, RunEvent } from "./events";

/** A run in progress, as its events told us. */
export interface ActiveRun {
  runId: string;
  program: string;
  runDir: string;
}

export interface InputRequestParams {
  runId: string;
  name: string;
  description: string;
}

export class Runs implements vscode.Disposable {
  readonly output: vscode.OutputChannel;
  private readonly active = new Map<string, ActiveRun>();
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when a run starts or ends. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly client: () => LanguageClient | undefined) {
    this.output = vscode.window.createOutputChannel("OpenProse Runs");
  }

  dispose(): void {
    this.output.dispose();
    this.changed.dispose();
  }

  /** The runs in progress, oldest first. */
  runs(): ActiveRun[] {
    return [...this.active.values()];
  }

  /** Wires the run notifications and requests of a (new) client. */
  attach(client: LanguageClient): vscode.Disposable[] {
    return [
      client.onNotification("prose/runEvent", (e: RunEvent) => this.onEvent(e)),
      client.onRequest("prose/inputRequest", (p: InputRequestParams) => this.askInput(p)),
    ];
  }

  /** Forgets every run (the server that ran them stopped). */
  clear(): void {
    if (this.active.size > 0) {
      this.active.clear();
      this.update();
    }
  }

  onEvent(e: RunEvent): void {
    this.output.appendLine(formatEvent(e));
    if (e.type === "run_started") {
      // A run started from the code lens goes through the server's own
      // command: show its events all the same.
      if (!e.dry_run) {
        this.output.show(true);
      }
      this.active.set(e.run_id, {
        runId: e.run_id,
        program: programName(e),
        runDir: typeof e.run_dir === "string" ? e.run_dir : "",
      });
      this.update();
    } else if (isFinal(e)) {
      this.active.delete(e.run_id);
      this.update();
    }
  }

  private update(): void {
    void vscode.commands.executeCommand("setContext", "prose.runActive", this.active.size > 0);
    this.changed.fire();
  }

  async askInput(p: InputRequestParams): Promise<{ value: string } | null> {
    const run = this.active.get(p.runId);
    const value = await vscode.window.showInputBox({
      title: `Input ${p.name}${run ? ` for ${run.program}` : ""}`,
      prompt: p.description || `The value of the input ${p.name}`,
      ignoreFocusOut: true,
    });
    return value === undefined ? null : { value };
  }

  /** The `.prose` document a command is about: its argument, else the active editor's. */
  private async target(arg: unknown): Promise<vscode.Uri | undefined> {
    if (arg instanceof vscode.Uri) {
      return arg;
    }
    const editor = vscode.window.activeTextEditor;
    if (editor && editor.document.languageId === "prose") {
      return editor.document.uri;
    }
    void vscode.window.showWarningMessage("OpenProse: open a .prose program to run it.");
    return undefined;
  }

  /** Says why running is off in an untrusted workspace; false when it is. */
  async trusted(): Promise<boolean> {
    if (vscode.workspace.isTrusted) {
      return true;
    }
    const manage = "Manage Workspace Trust";
    const choice = await vscode.window.showWarningMessage(
      "OpenProse: running programs is disabled because this workspace is not trusted.",
      manage,
    );
    if (choice === manage) {
      await vscode.commands.executeCommand("workbench.trust.manage");
    }
    return false;
  }

  private async execute<T>(command: string, uri: vscode.Uri): Promise<T | undefined> {
    const client = this.client();
    if (!client) {
      void vscode.window.showErrorMessage("OpenProse: the language server is not running.");
      return undefined;
    }
    const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (document?.isDirty) {
      // The runner reads programs from disk.
      await document.save();
    }
    try {
      return (await client.sendRequest(ExecuteCommandRequest.type, {
        command,
        arguments: [{ uri: client.code2ProtocolConverter.asUri(uri) }],
      })) as T;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      void vscode.window.showErrorMessage(`OpenProse: ${message}`);
      return undefined;
    }
  }

  /** The program to run, once the workspace is known to be trusted. */
  private async runnable(arg: unknown): Promise<vscode.Uri | undefined> {
    return (await this.trusted()) ? this.target(arg) : undefined;
  }

  async run(arg?: unknown): Promise<void> {
    const uri = await this.runnable(arg);
    if (!uri) {
      return;
    }
    this.output.show(true);
    const result = await this.execute<{ runId: string; runDir: string }>("prose.run", uri);
    if (result) {
      this.output.appendLine(`Run ${result.runId}: state in ${result.runDir}`);
    }
  }

  async dryRun(arg?: unknown): Promise<void> {
    const uri = await this.runnable(arg);
    if (!uri) {
      return;
    }
    const result = await this.execute<{ plan: string }>("prose.dryRun", uri);
    this.showPlan([{ uri: uri.toString() }], result);
  }

  /**
   * The plan a dry run answered (`prose.dryRun`, or a job task's
   * `prose.dryRunTask` from its lens), in the output channel.
   */
  showPlan(args: unknown[], result: unknown): void {
    const plan = (result as { plan?: unknown } | undefined)?.plan;
    if (typeof plan !== "string") {
      return;
    }
    const arg = (args[0] ?? {}) as { uri?: unknown; task?: unknown };
    const where = typeof arg.uri === "string" ? vscode.workspace.asRelativePath(vscode.Uri.parse(arg.uri)) : "the document";
    const what = typeof arg.task === "string" && arg.task !== "" ? `task ${arg.task} of ${where}` : where;
    this.output.appendLine(`Dry run of ${what}:`);
    this.output.appendLine(plan);
    this.output.show(true);
  }

  async stop(runId?: unknown): Promise<void> {
    let id = typeof runId === "string" ? runId : undefined;
    if (!id) {
      const runs = this.runs();
      if (runs.length === 0) {
        void vscode.window.showInformationMessage("OpenProse: no program is running.");
        return;
      }
      if (runs.length === 1) {
        id = runs[0].runId;
      } else {
        const pick = await vscode.window.showQuickPick(
          runs.map((r) => ({ label: r.program, description: r.runId, runId: r.runId })),
          { title: "Stop which run?" },
        );
        id = pick?.runId;
      }
    }
    const client = this.client();
    if (!id || !client) {
      return;
    }
    try {
      await client.sendRequest(ExecuteCommandRequest.type, { command: "prose.cancelRun", arguments: [{ runId: id }] });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      void vscode.window.showErrorMessage(`OpenProse: ${message}`);
    }
  }
}
