// The status bar item: the server's state, and the running program.

import * as vscode from "vscode";
import { Runs } from "./runs";

export type ServerState =
  | { kind: "starting" }
  | { kind: "running"; detail: string }
  | { kind: "stopped"; reason: string };

export class Status implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private server: ServerState = { kind: "starting" };

  constructor(private readonly runs: Runs) {
    this.item = vscode.window.createStatusBarItem("prose.status", vscode.StatusBarAlignment.Left, 10);
    this.item.name = "OpenProse";
    runs.onDidChange(() => this.render());
    this.render();
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }

  set(state: ServerState): void {
    this.server = state;
    this.render();
  }

  private render(): void {
    const runs = this.runs.runs();
    const restricted = vscode.workspace.isTrusted ? "" : " (restricted)";
    const tooltip = new vscode.MarkdownString(undefined, true);
    if (runs.length > 0) {
      const first = runs[0];
      const more = runs.length > 1 ? ` +${runs.length - 1}` : "";
      this.item.text = `$(sync~spin) Running ${first.program}${more}`;
      this.item.command = "prose.client.stopRun";
      tooltip.appendMarkdown(`Running ${runs.map((r) => `\`${r.program}\` (${r.runId})`).join(", ")}.\n\nClick to stop.`);
      this.item.backgroundColor = undefined;
    } else {
      this.item.command = "prose.client.showOutput";
      switch (this.server.kind) {
        case "starting":
          this.item.text = `$(loading~spin) Prose${restricted}`;
          tooltip.appendMarkdown("The OpenProse language server is starting.");
          this.item.backgroundColor = undefined;
          break;
        case "running":
          this.item.text = `$(check) Prose${restricted}`;
          tooltip.appendMarkdown(`The OpenProse language server is running (${this.server.detail}).`);
          this.item.backgroundColor = undefined;
          break;
        case "stopped":
          this.item.text = `$(error) Prose${restricted}`;
          tooltip.appendMarkdown(`The OpenProse language server is not running: ${this.server.reason}`);
          this.item.command = "prose.client.restartServer";
          this.item.backgroundColor = new vscode.ThemeColor("statusBarItem.errorBackground");
          break;
      }
      if (restricted) {
        tooltip.appendMarkdown("\n\nThis workspace is not trusted: programs do not run, and workspace values of restricted settings are ignored.");
      }
    }
    this.item.tooltip = tooltip;
  }
}
