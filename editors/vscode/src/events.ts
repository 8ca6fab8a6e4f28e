// Run events (docs/runner.md, "Events", version 1) as lines of the output
// channel. Pure functions: tested without VS Code.

/** An event as the server sends it in `prose/runEvent`; unknown fields are kept. */
export interface RunEvent {
  version: number;
  type: string;
  run_id: string;
  seq: number;
  time: string;
  session_id?: string;
  branch?: string;
  [field: string]: unknown;
}

function str(value: unknown): string {
  if (value === undefined || value === null) {
    return "";
  }
  return typeof value === "string" ? value : JSON.stringify(value);
}

function quoted(value: unknown): string {
  return JSON.stringify(str(value));
}

function seconds(ms: unknown): string {
  return typeof ms === "number" ? `${(ms / 1000).toFixed(1)}s` : "?s";
}

function names(object: unknown): string {
  if (object === null || typeof object !== "object") {
    return "";
  }
  return Object.entries(object as Record<string, unknown>)
    .map(([k, v]) => `${k} = ${quoted(v)}`)
    .join(", ");
}

/** The text after the prefix, for each known type; `undefined` for unknown ones. */
function describe(e: RunEvent): string | undefined {
  switch (e.type) {
    case "run_started": {
      const what = e.dry_run ? "Dry run of" : e.resumed ? "Resumed" : "Started";
      const inputs = names(e.inputs);
      return `${what} ${str(e.program)} with backend ${str(e.backend)} (run ${e.run_id}, ${str(e.run_dir)})${inputs ? `; inputs: ${inputs}` : ""}`;
    }
    case "input_requested":
      return `Input requested: ${str(e.name)}${e.description ? ` (${str(e.description)})` : ""}`;
    case "input_received":
      return `Input ${str(e.name)} = ${quoted(e.excerpt)}`;
    case "session_started": {
      const agent = e.agent ? ` ${str(e.agent)}` : "";
      const model = e.model ? ` (${str(e.model)})` : "";
      const binding = e.binding ? ` -> ${str(e.binding)}` : "";
      return `${str(e.kind)}${agent}${model}${binding} started at line ${str(e.line)}: ${quoted(e.prompt_excerpt)}`;
    }
    case "session_finished":
      return `${str(e.kind)} finished in ${seconds(e.duration_ms)}${e.binding ? ` -> ${str(e.binding)}` : ""}: ${quoted(e.output_excerpt)}`;
    case "session_failed":
      return `${str(e.kind)} failed (attempt ${str(e.attempt)}${e.will_retry ? ", will retry" : ""}): ${str(e.error)}`;
    case "session_reused":
      return `${str(e.kind)} reused from the earlier run${e.binding ? ` -> ${str(e.binding)}` : ""}: ${quoted(e.output_excerpt)}`;
    case "binding_written":
      return `Binding ${str(e.name)} written to ${str(e.path)}: ${quoted(e.excerpt)}`;
    case "condition_evaluated":
      return `Condition **${str(e.condition)}** (line ${str(e.line)}) is ${e.result ? "true" : "false"}`;
    case "choice_made":
      return `Choice **${str(e.criteria)}** (line ${str(e.line)}) took option ${quoted(e.option)}`;
    case "branch_started":
      return `Branch started${e.name ? `: ${str(e.name)}` : ""}`;
    case "branch_finished":
      return `Branch finished${e.name ? `: ${str(e.name)}` : ""} (${str(e.status)})`;
    case "warning":
      return `Warning: ${str(e.message)}`;
    case "error":
      return `Error${e.line !== undefined ? ` at line ${str(e.line)}` : ""}: ${str(e.message)}`;
    case "cancelled":
      return `Cancelled: ${str(e.reason)}`;
    case "run_finished": {
      const outputs = names(e.outputs);
      const error = e.error ? `: ${str(e.error)}` : "";
      return `Run ${str(e.status)} in ${seconds(e.duration_ms)}${error}${outputs ? `; outputs: ${outputs}` : ""}`;
    }
    // A job task's own events (docs/runner.md, "Job task events").
    case "task_started": {
      const model = (m: unknown) => (str(m) ? str(m) : "the backend's default model");
      const sessions =
        e.mode === "double"
          ? `task session on ${model(e.task_model)}, a driving session on ${model(e.driving_model)} for each condition`
          : `one session on ${model(e.task_model)} (single model)`;
      return `Task ${str(e.task)} of ${str(e.entry)}: ${sessions}`;
    }
    case "tool_called":
      return `${str(e.role)} called ${str(e.name)}: ${quoted(e.argument)}`;
    case "availability_checked":
      return `${e.result ? "✓" : "✗"} availability ${str(e.check)}: ${str(e.reason)}`;
    case "criteria_checked":
      return `${e.result ? "✓" : "✗"} criteria ${str(e.check)} (attempt ${str(e.attempt)}): ${str(e.reason)}`;
    case "retry":
      return `↻ ${str(e.action)}: attempt ${str(e.attempt)} of ${str(e.max_attempts)}: ${str(e.reason)}`;
    case "task_finished":
      return `Task ${str(e.task)} ${str(e.outcome)}: ${str(e.reason)}`;
    default:
      return undefined;
  }
}

/** The time of day of an RFC 3339 timestamp (`14:00:00.123`), or the text as is. */
function clock(time: string): string {
  const m = /T(\d\d:\d\d:\d\d(?:\.\d+)?)/.exec(time);
  return m ? m[1] : time;
}

/** One line of the output channel for `e`. Unknown types are shown with their fields. */
export function formatEvent(e: RunEvent): string {
  const where = [e.session_id, e.branch].filter((x) => x).join(" ");
  const prefix = `[${clock(str(e.time))}]${where ? ` ${where}` : ""}`;
  const text = describe(e);
  if (text !== undefined) {
    return `${prefix} ${text}`;
  }
  const { version: _v, type, run_id: _r, seq: _s, time: _t, session_id: _i, branch: _b, ...rest } = e;
  return `${prefix} ${type} ${JSON.stringify(rest)}`;
}

/** Whether `e` ends its run. */
export function isFinal(e: RunEvent): boolean {
  return e.type === "run_finished";
}

/** The program's file name of a `run_started` event. */
export function programName(e: RunEvent): string {
  const program = str(e.program);
  const parts = program.split(/[\\/]/);
  return parts[parts.length - 1] || program;
}
