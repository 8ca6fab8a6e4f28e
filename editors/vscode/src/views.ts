// Read-only views the server fills: Show syntax tree (`prose/syntaxTree`),
// Explain diagnostic (`prose/explain`) and a job task's expanded prompt
// (`prose.showTaskPrompt`), as virtual documents.

import * as vscode from "vscode";
import { ExecuteCommandRequest, LanguageClient } from "vscode-languageclient/node";

export const TREE_SCHEME = "prose-syntax-tree";
export const EXPLAIN_SCHEME = "prose-explain";
export const TASK_PROMPT_SCHEME = "prose-task-prompt";

/** The server's command of a job task's "Show expanded prompt" lens (docs/lsp.md). */
export const SHOW_TASK_PROMPT = "prose.showTaskPrompt";

/** What `prose.showTaskPrompt` answers. */
interface TaskPrompt {
  uri: string;
  task: string;
  text: string;
}

/**
 * A job task's fully expanded prompt beside its entry. The lens's command goes
 * to the server (`workspace/executeCommand`) through `show`, which keeps the
 * answer for the view and opens it; an error (a prompt that cannot be
 * expanded) is shown with the server's message.
 */
export class TaskPromptProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly texts = new Map<string, string>();

  constructor(private readonly client: () => LanguageClient | undefined) {}

  dispose(): void {
    this.changed.dispose();
  }

  /** The view of `task` of the entry `entry` (a URI string). */
  static viewOf(entry: string, task: string): vscode.Uri {
    const name = task.replace(/[/\\]/g, "_");
    return vscode.Uri.from({ scheme: TASK_PROMPT_SCHEME, path: `/${name} (expanded prompt)`, query: entry, fragment: task });
  }

  provideTextDocumentContent(view: vscode.Uri): string {
    return this.texts.get(view.toString()) ?? "";
  }

  async show(args: unknown[]): Promise<TaskPrompt | undefined> {
    const client = this.client();
    if (!client) {
      void vscode.window.showWarningMessage("OpenProse: the language server is not running.");
      return undefined;
    }
    let answer: TaskPrompt;
    try {
      answer = await client.sendRequest(ExecuteCommandRequest.type, { command: SHOW_TASK_PROMPT, arguments: args });
    } catch (error) {
      void vscode.window.showErrorMessage(`OpenProse: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
    const view = TaskPromptProvider.viewOf(answer.uri, answer.task);
    this.texts.set(view.toString(), answer.text);
    this.changed.fire(view);
    const document = await vscode.workspace.openTextDocument(view);
    await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
    return answer;
  }
}

/** The syntax tree of a program, kept current while it is edited. */
export class SyntaxTreeProvider implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly shown = new Map<string, vscode.Uri>();
  private readonly subscription: vscode.Disposable;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly client: () => LanguageClient | undefined) {
    this.subscription = vscode.workspace.onDidChangeTextDocument((e) => {
      const view = this.shown.get(e.document.uri.toString());
      if (view) {
        clearTimeout(this.timer);
        this.timer = setTimeout(() => this.changed.fire(view), 200);
      }
    });
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.subscription.dispose();
    this.changed.dispose();
  }

  /** The view's URI for a program. */
  static viewOf(program: vscode.Uri): vscode.Uri {
    const name = program.path.split("/").pop() ?? "program";
    return vscode.Uri.from({ scheme: TREE_SCHEME, path: `/${name}.tree`, query: program.toString() });
  }

  async provideTextDocumentContent(view: vscode.Uri): Promise<string> {
    const program = vscode.Uri.parse(view.query);
    this.shown.set(program.toString(), view);
    const client = this.client();
    if (!client) {
      return "The OpenProse language server is not running.";
    }
    try {
      return await client.sendRequest<string>("prose/syntaxTree", {
        textDocument: { uri: client.code2ProtocolConverter.asUri(program) },
      });
    } catch (error) {
      return `No syntax tree: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  async show(): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.document.languageId !== "prose") {
      void vscode.window.showWarningMessage("OpenProse: open a .prose program to see its syntax tree.");
      return;
    }
    const view = SyntaxTreeProvider.viewOf(editor.document.uri);
    this.changed.fire(view);
    const document = await vscode.workspace.openTextDocument(view);
    await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: true, preserveFocus: true });
  }
}

/** A diagnostic code's documentation, as Markdown. */
export class ExplainProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly client: () => LanguageClient | undefined) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const code = uri.path.replace(/^\//, "").replace(/\.md$/, "");
    const client = this.client();
    if (!client) {
      return "The OpenProse language server is not running.";
    }
    const answer = await client.sendRequest<{ code: string; markdown: string } | null>("prose/explain", { code });
    return answer ? answer.markdown : `# ${code}\n\nThere is no diagnostic with the code ${code}.`;
  }

  /** The `prose` diagnostics under the cursor of the active editor. */
  private static atCursor(): vscode.Diagnostic[] {
    const editor = vscode.window.activeTextEditor;
    if (!editor) {
      return [];
    }
    const position = editor.selection.active;
    return vscode.languages
      .getDiagnostics(editor.document.uri)
      .filter((d) => d.source === "prose" && d.range.contains(position) && d.code !== undefined);
  }

  private static codeOf(d: vscode.Diagnostic): string {
    const code = d.code;
    if (typeof code === "object" && code !== null) {
      return String(code.value);
    }
    return String(code);
  }

  /** Explains `code`, else the diagnostic under the cursor, else a code typed in. */
  async explain(code?: unknown): Promise<void> {
    let chosen = typeof code === "string" ? code : undefined;
    if (!chosen) {
      const here = ExplainProvider.atCursor();
      if (here.length === 1) {
        chosen = ExplainProvider.codeOf(here[0]);
      } else if (here.length > 1) {
        const pick = await vscode.window.showQuickPick(
          here.map((d) => ({ label: ExplainProvider.codeOf(d), description: d.message })),
          { title: "Explain which diagnostic?" },
        );
        chosen = pick?.label;
      } else {
        chosen = await vscode.window.showInputBox({
          title: "Explain a diagnostic",
          prompt: "A diagnostic code, such as E002 or W005",
          validateInput: (v) => (/^[A-Za-z]+[0-9]+$/.test(v.trim()) ? undefined : "A code is letters then digits, such as E002"),
        });
      }
    }
    if (!chosen) {
      return;
    }
    const uri = vscode.Uri.from({ scheme: EXPLAIN_SCHEME, path: `/${chosen.trim().toUpperCase()}.md` });
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(document, "markdown");
    await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: true });
  }
}

/**
 * "Show what the model receives" for the active prompt file: the server's
 * `prose.showModelView` command writes the view under `.prose/model-view/`
 * and opens it (`window/showDocument`); the code lens runs the same command.
 */
export async function showModelView(client: () => LanguageClient | undefined): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  const current = client();
  if (!editor || !current) {
    void vscode.window.showWarningMessage("OpenProse: open a prompt file to see what the model receives.");
    return;
  }
  try {
    await current.sendRequest(ExecuteCommandRequest.type, {
      command: "prose.showModelView",
      arguments: [{ uri: current.code2ProtocolConverter.asUri(editor.document.uri) }],
    });
  } catch (error) {
    void vscode.window.showWarningMessage(`OpenProse: ${error instanceof Error ? error.message : String(error)}`);
  }
}
