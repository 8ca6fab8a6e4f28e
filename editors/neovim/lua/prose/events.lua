-- Run events (docs/runner.md, "Events", version 1) as lines of text.
local M = {}

local function str(v)
  if v == nil or v == vim.NIL then
    return ""
  end
  if type(v) == "string" then
    return v
  end
  return vim.fn.json_encode(v)
end

local function quoted(v)
  return vim.fn.json_encode(str(v))
end

local function seconds(ms)
  if type(ms) == "number" then
    return string.format("%.1fs", ms / 1000)
  end
  return "?s"
end

local function pairs_text(obj)
  if type(obj) ~= "table" then
    return ""
  end
  local keys = vim.tbl_keys(obj)
  table.sort(keys)
  local parts = {}
  for _, k in ipairs(keys) do
    table.insert(parts, k .. " = " .. quoted(obj[k]))
  end
  return table.concat(parts, ", ")
end

local describe = {
  run_started = function(e)
    local what = e.dry_run and "Dry run of" or (e.resumed and "Resumed" or "Started")
    local inputs = pairs_text(e.inputs)
    return string.format("%s %s with backend %s (run %s, %s)%s", what, str(e.program), str(e.backend),
      str(e.run_id), str(e.run_dir), inputs ~= "" and ("; inputs: " .. inputs) or "")
  end,
  input_requested = function(e)
    return "Input requested: " .. str(e.name)
  end,
  input_received = function(e)
    return "Input " .. str(e.name) .. " = " .. quoted(e.excerpt)
  end,
  session_started = function(e)
    local binding = str(e.binding) ~= "" and (" -> " .. str(e.binding)) or ""
    local agent = str(e.agent) ~= "" and (" " .. str(e.agent)) or ""
    return string.format("%s%s%s started at line %s: %s", str(e.kind), agent, binding, str(e.line), quoted(e.prompt_excerpt))
  end,
  session_finished = function(e)
    return string.format("%s finished in %s: %s", str(e.kind), seconds(e.duration_ms), quoted(e.output_excerpt))
  end,
  session_failed = function(e)
    return string.format("%s failed (attempt %s%s): %s", str(e.kind), str(e.attempt), e.will_retry and ", will retry" or "", str(e.error))
  end,
  session_reused = function(e)
    return string.format("%s reused from the earlier run: %s", str(e.kind), quoted(e.output_excerpt))
  end,
  binding_written = function(e)
    return string.format("Binding %s written to %s: %s", str(e.name), str(e.path), quoted(e.excerpt))
  end,
  condition_evaluated = function(e)
    return string.format("Condition **%s** (line %s) is %s", str(e.condition), str(e.line), e.result and "true" or "false")
  end,
  choice_made = function(e)
    return string.format("Choice **%s** (line %s) took option %s", str(e.criteria), str(e.line), quoted(e.option))
  end,
  branch_started = function(e)
    return "Branch started" .. (str(e.name) ~= "" and (": " .. str(e.name)) or "")
  end,
  branch_finished = function(e)
    return "Branch finished" .. (str(e.name) ~= "" and (": " .. str(e.name)) or "") .. " (" .. str(e.status) .. ")"
  end,
  warning = function(e)
    return "Warning: " .. str(e.message)
  end,
  error = function(e)
    return "Error" .. (e.line and (" at line " .. str(e.line)) or "") .. ": " .. str(e.message)
  end,
  cancelled = function(e)
    return "Cancelled: " .. str(e.reason)
  end,
  run_finished = function(e)
    local outputs = pairs_text(e.outputs)
    local err = str(e.error) ~= "" and (": " .. str(e.error)) or ""
    return string.format("Run %s in %s%s%s", str(e.status), seconds(e.duration_ms), err,
      outputs ~= "" and ("; outputs: " .. outputs) or "")
  end,
  -- A job task's own events (docs/runner.md, "Job task events").
  task_started = function(e)
    local function model(m)
      return str(m) ~= "" and str(m) or "the backend's default model"
    end
    local sessions = e.mode == "double"
        and string.format("task session on %s, a driving session on %s for each condition", model(e.task_model), model(e.driving_model))
        or string.format("one session on %s (single model)", model(e.task_model))
    return string.format("Task %s of %s: %s", str(e.task), str(e.entry), sessions)
  end,
  tool_called = function(e)
    return string.format("%s called %s: %s", str(e.role), str(e.name), quoted(e.argument))
  end,
  availability_checked = function(e)
    return string.format("%s availability %s: %s", e.result and "✓" or "✗", str(e.check), str(e.reason))
  end,
  criteria_checked = function(e)
    return string.format("%s criteria %s (attempt %s): %s", e.result and "✓" or "✗", str(e.check), str(e.attempt), str(e.reason))
  end,
  retry = function(e)
    return string.format("↻ %s: attempt %s of %s: %s", str(e.action), str(e.attempt), str(e.max_attempts), str(e.reason))
  end,
  task_finished = function(e)
    return string.format("Task %s %s: %s", str(e.task), str(e.outcome), str(e.reason))
  end,
}

--- One line for an event; unknown types show their type and fields.
function M.format(e)
  local time = str(e.time):match("T(%d%d:%d%d:%d%d[%.%d]*)") or str(e.time)
  local where = {}
  for _, k in ipairs({ "session_id", "branch" }) do
    if str(e[k]) ~= "" then
      table.insert(where, str(e[k]))
    end
  end
  local prefix = "[" .. time .. "]" .. (#where > 0 and (" " .. table.concat(where, " ")) or "")
  local f = describe[e.type]
  if f then
    return prefix .. " " .. f(e)
  end
  return prefix .. " " .. str(e.type)
end

--- The file name of a run_started event's program.
function M.program_name(e)
  local program = str(e.program)
  return program:match("[^/\\]+$") or program
end

return M
