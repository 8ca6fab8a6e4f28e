-- prose-lsp's Neovim configuration, headless, against the real server:
-- diagnostics, hover, completion, rename, formatting, the run handlers and
-- (once the server has them) the code lenses. Works on Neovim 0.7 (the
-- start_client fallback) and current Neovim (vim.lsp.config / vim.lsp.enable).
--
--   PROSE_LSP_BINARY=target/debug/prose-lsp PROSE_NVIM_WORKSPACE=DIR \
--     nvim --headless -u NONE -i NONE -n -c "luafile editors/tests/neovim/test.lua"
--
-- DIR is a copy of editors/tests/fixtures/workspace. Prints
-- "N passed, N failed, N skipped" last; exits 1 when a check failed.

local t = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h") .. "/harness.lua")(function(t)
  return { cmd = { t.binary }, settings = { profile = "default", runner = { backend = "mock" } } }
end)
local prose, ws, check, skip, wait, text = t.prose, t.ws, t.check, t.skip, t.wait, t.text
local events = require("prose.events")
local TIMEOUT = t.TIMEOUT

local function open(name)
  vim.cmd("edit! " .. vim.fn.fnameescape(ws .. "/" .. name))
  local bufnr = vim.api.nvim_get_current_buf()
  wait("the prose client to attach to " .. name, function()
    return prose.client(bufnr) ~= nil and prose.client(bufnr).initialized ~= false
  end)
  return bufnr
end

local function request(method, params)
  local responses = vim.lsp.buf_request_sync(0, method, params, TIMEOUT)
  for _, response in pairs(responses or {}) do
    if response.err then
      error(method .. ": " .. vim.inspect(response.err))
    end
    return response.result
  end
  error(method .. ": no response")
end

local function at(line, character)
  return { textDocument = { uri = vim.uri_from_bufnr(0) }, position = { line = line, character = character } }
end

check("filetype detection", function()
  vim.cmd("edit! " .. vim.fn.fnameescape(ws .. "/hello.prose"))
  assert(vim.bo.filetype == "prose", "filetype of hello.prose: " .. vim.bo.filetype)
end)

check("client capabilities declare proseInputRequest", function()
  local bufnr = open("hello.prose")
  local client = prose.client(bufnr)
  assert(client.config.capabilities.experimental.proseInputRequest == true, vim.inspect(client.config.capabilities.experimental))
end)

check("diagnostics", function()
  local bufnr = open("review.prose")
  wait("diagnostics", function()
    return #vim.diagnostic.get(bufnr) > 0
  end)
  local d = vim.diagnostic.get(bufnr)
  assert(#d == 1, "one diagnostic: " .. vim.inspect(d))
  assert(d[1].code == "E002", "code: " .. vim.inspect(d[1].code))
  assert(d[1].lnum == 7 and d[1].col == 31 and d[1].end_col == 33, "range: " .. vim.inspect(d[1]))
  assert(d[1].message:find("Unknown escape sequence `\\q`", 1, true), "message: " .. d[1].message)
  assert(d[1].severity == vim.diagnostic.severity.ERROR, "severity")
end)

check("hover", function()
  open("agents.prose")
  local result = request("textDocument/hover", at(13, 2))
  local value = type(result.contents) == "table" and (result.contents.value or "") or tostring(result.contents)
  assert(value:find("Runs one subagent", 1, true), "hover: " .. value)
end)

check("completion after session:", function()
  local bufnr = open("agents.prose")
  local last = vim.api.nvim_buf_line_count(bufnr)
  vim.api.nvim_buf_set_lines(bufnr, last, last, false, { "session: " })
  local result = request("textDocument/completion", at(last, 9))
  local items = result.items or result
  local labels = {}
  for _, item in ipairs(items) do
    labels[item.label] = true
  end
  assert(labels.researcher and labels.writer, "labels: " .. vim.inspect(vim.tbl_keys(labels)))
  vim.cmd("edit!")
end)

check("rename", function()
  local bufnr = open("agents.prose")
  vim.api.nvim_win_set_cursor(0, { 3, 8 })
  vim.lsp.buf.rename("scholar")
  wait("the rename", function()
    return text(bufnr):find("agent scholar:", 1, true) ~= nil
  end)
  local t = text(bufnr)
  assert(t:find("let notes = session: scholar", 1, true), t)
  assert(not t:find("researcher", 1, true), t)
  vim.cmd("edit!")
end)

check("formatting", function()
  local bufnr = open("messy.prose")
  if vim.lsp.buf.format then
    vim.lsp.buf.format({ bufnr = bufnr, timeout_ms = TIMEOUT })
  else
    vim.lsp.buf.formatting_sync(nil, TIMEOUT)
  end
  local expected = 'agent helper:\n  model: haiku\n  prompt: "You help"\n\nsession: helper\n  prompt: "Say hello"\n'
  assert(text(bufnr) == expected, "formatted:\n" .. text(bufnr))
  vim.cmd("edit!")
end)

check("run events go to prose://runs and the status", function()
  prose.on_run_event(nil, { version = 1, type = "run_started", run_id = "r1", seq = 0, time = "2026-11-25T14:00:00.123Z",
    program = "hello.prose", run_dir = "/w/.prose/runs/r1", backend = "mock", resumed = false, dry_run = false, inputs = {} })
  assert(prose.status() == "Running hello.prose", "status: " .. prose.status())
  prose.on_run_event(nil, { version = 1, type = "binding_written", run_id = "r1", seq = 1, time = "2026-11-25T14:00:01.000Z",
    session_id = "s1@3", name = "greeting", path = "bindings/greeting.md", excerpt = "Hello" })
  prose.on_run_event(nil, { version = 1, type = "run_finished", run_id = "r1", seq = 2, time = "2026-11-25T14:00:02.000Z",
    status = "succeeded", duration_ms = 2000, outputs = { message = "Hello" } })
  local lines = vim.api.nvim_buf_get_lines(prose.runs_buffer(), 0, -1, false)
  local want = {
    "[14:00:00.123] Started hello.prose with backend mock (run r1, /w/.prose/runs/r1)",
    '[14:00:01.000] s1@3 Binding greeting written to bindings/greeting.md: "Hello"',
    '[14:00:02.000] Run succeeded in 2.0s; outputs: message = "Hello"',
  }
  assert(vim.deep_equal(lines, want), vim.inspect(lines))
  assert(prose.status() == "", "status after the run: " .. prose.status())
end)

check("a job task's events read as prose jobs run shows them", function()
  local e = { version = 1, run_id = "r2", time = "2026-11-25T14:00:00.123Z" }
  local function line(fields)
    return events.format(vim.tbl_extend("force", e, fields))
  end
  local got = {
    line({ seq = 1, type = "task_started", entry = "team.jobs.json", task = "plan-task", mode = "double", task_model = "gpt-5.2", driving_model = "" }),
    line({ seq = 2, type = "tool_called", session_id = "s2@7", name = "job_boolean_true", argument = "it holds", role = "driving" }),
    line({ seq = 3, type = "criteria_checked", check = "condition", result = false, reason = "not yet", attempt = 1 }),
    line({ seq = 4, type = "retry", action = "RetryWithNewSession", attempt = 2, max_attempts = 3, reason = "not yet" }),
    line({ seq = 5, type = "task_finished", task = "plan-task", outcome = "succeeded", reason = "done" }),
  }
  local want = {
    "[14:00:00.123] Task plan-task of team.jobs.json: task session on gpt-5.2, a driving session on the backend's default model for each condition",
    '[14:00:00.123] s2@7 driving called job_boolean_true: "it holds"',
    "[14:00:00.123] ✗ criteria condition (attempt 1): not yet",
    "[14:00:00.123] ↻ RetryWithNewSession: attempt 2 of 3: not yet",
    "[14:00:00.123] Task plan-task succeeded: done",
  }
  assert(vim.deep_equal(got, want), vim.inspect(got))
end)

check("input requests are answered from the prompt", function()
  local real = vim.fn.input
  vim.fn.input = function(opts)
    assert(opts.prompt:find("topic", 1, true), opts.prompt)
    return "typesetting"
  end
  local answer = prose.on_input_request(nil, { runId = "r1", name = "topic", description = "What to research" })
  vim.fn.input = function(opts)
    return opts.cancelreturn
  end
  local cancelled = prose.on_input_request(nil, { runId = "r1", name = "topic", description = "" })
  vim.fn.input = real
  assert(vim.deep_equal(answer, { value = "typesetting" }), vim.inspect(answer))
  assert(cancelled == vim.NIL, vim.inspect(cancelled))
end)

check(":ProseSyntaxTree and :ProseExplain", function()
  open("review.prose")
  vim.cmd("ProseSyntaxTree")
  wait("the syntax tree buffer", function()
    local buf = vim.fn.bufnr("prose://syntax-tree")
    return buf ~= -1 and (vim.api.nvim_buf_get_lines(buf, 0, 1, false)[1] or ""):find("^SOURCE_FILE@") ~= nil
  end)
  vim.cmd("only")
  open("review.prose")
  vim.api.nvim_win_set_cursor(0, { 8, 31 })
  vim.cmd("ProseExplain")
  wait("the explanation of E002", function()
    local buf = vim.fn.bufnr("prose://explain/E002")
    return buf ~= -1 and text(buf):find("escape", 1, true) ~= nil
  end)
  vim.cmd("only")
end)

-- Job entries: a task's "Show expanded prompt" lens (docs/lsp.md, "Job entries").
check("job entry: a task's lens shows its expanded prompt", function()
  local bufnr = open("team.jobs.json")
  assert(vim.bo.filetype == "json", "filetype: " .. vim.bo.filetype)
  wait("the Show expanded prompt lens", function()
    return t.has_lens(bufnr, "Show expanded prompt")
  end)
  vim.api.nvim_win_set_cursor(0, { 6, 4 })
  t.run_lens("Show expanded prompt")
  wait("the task prompt buffer", function()
    local buf = vim.fn.bufnr("prose://task-prompt/plan-task")
    return buf ~= -1 and text(buf) == "Read AGENTS.md first.\nBe brief.\nWrite the plan.\n"
  end)
  vim.cmd("only")
end)

-- Prompt files: "Show what the model receives" (docs/lsp.md, "What the model receives").
check("prompt file: the lens shows what the model receives", function()
  local bufnr = open("task.prompt.md")
  wait("the Show what the model receives lens", function()
    return t.has_lens(bufnr, "Show what the model receives")
  end)
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  t.run_lens("Show what the model receives")
  -- Neovim with window/showDocument opens the file the server wrote;
  -- Neovim 0.7 gets a scratch buffer.
  wait("the model view", function()
    for _, name in ipairs({ "prose://model-view", ws .. "/.prose/model-view/task.prompt.md.view.md" }) do
      local buf = vim.fn.bufnr(name)
      if buf ~= -1 and vim.api.nvim_buf_is_loaded(buf) then
        local shown = text(buf)
        if shown:find('"path": "hello.prose"', 1, true) and shown:find("Summarise the program", 1, true) then
          return true
        end
      end
    end
    return false
  end)
  vim.cmd("silent! only")
end)

-- Run lenses come with the server's run API (docs/lsp.md, "Running programs").
local bufnr = open("hello.prose")
local client = prose.client(bufnr)
local caps = client.server_capabilities or client.resolved_capabilities
local commands = (caps.executeCommandProvider or {}).commands or {}
if not vim.tbl_contains(commands, "prose.run") then
  skip("code lenses", "the server does not run programs yet (the runner is not merged)")
else
  check("code lenses", function()
    wait("the Run program lens", function()
      return t.has_lens(bufnr, "Run program")
    end)
  end)
  check("run program from its lens (mock backend)", function()
    -- Only this run's events (the handler checks above wrote some).
    local runs = prose.runs_buffer()
    vim.api.nvim_buf_set_lines(runs, 0, -1, false, {})
    vim.api.nvim_win_set_cursor(0, { 1, 0 })
    t.run_lens("Run program")
    wait("the run to finish", function()
      return text(runs):find("Run succeeded", 1, true) ~= nil
    end)
    assert(text(runs):find("Started hello.prose with backend mock", 1, true), text(runs))
    assert(text(runs):find("Binding greeting written", 1, true), text(runs))
    local bindings = vim.fn.glob(ws .. "/.prose/runs/*/bindings/greeting.md", false, true)
    assert(#bindings == 1, "bindings/greeting.md on disk: " .. vim.inspect(bindings))
  end)
end

-- A job task's lenses (docs/lsp.md, "Running job tasks").
if not vim.tbl_contains(commands, "prose.runTask") then
  skip("job task lenses", "the server does not run job tasks yet")
else
  check("job task: its Dry run lens shows the plan", function()
    local entry = open("team.jobs.json")
    wait("the Run task lens", function()
      return t.has_lens(entry, "Run task")
    end)
    vim.api.nvim_win_set_cursor(0, { 6, 4 })
    t.run_lens("Dry run")
    wait("the plan buffer", function()
      local buf = vim.fn.bufnr("prose://plan")
      return buf ~= -1 and text(buf):find("task `plan-task` of team.jobs.json", 1, true) ~= nil
    end)
    vim.cmd("only")
  end)
  check("job task: its Run task lens runs it (mock backend)", function()
    local entry = open("team.jobs.json")
    wait("the Run task lens", function()
      return t.has_lens(entry, "Run task")
    end)
    local runs = prose.runs_buffer()
    vim.api.nvim_buf_set_lines(runs, 0, -1, false, {})
    vim.api.nvim_win_set_cursor(0, { 6, 4 })
    t.run_lens("Run task")
    wait("the run to finish", function()
      return text(runs):find("Run succeeded", 1, true) ~= nil
    end)
    assert(text(runs):find("Started team.jobs.json with backend mock", 1, true), text(runs))
    assert(text(runs):find("Task plan-task of team.jobs.json: one session on gpt-5.2 (single model)", 1, true), text(runs))
    assert(text(runs):find("Task plan-task succeeded", 1, true), text(runs))
  end)
end

t.finish()
