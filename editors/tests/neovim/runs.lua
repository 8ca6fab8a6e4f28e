-- The Neovim configuration's side of the run API, against the stand-in for
-- the server's run API (editors/tests/fake-runner/server.mjs, a proxy in front
-- of the real prose-lsp): the Run program lens, the input prompt, events in
-- prose://runs, the statusline text, :ProseStop and :ProseDryRun, and the
-- arguments sent. On Neovim 0.7 and current.
--
--   PROSE_LSP_BINARY=... PROSE_NVIM_WORKSPACE=DIR FAKE_RUNNER_LOG=FILE \
--     nvim --headless -u NONE -i NONE -n -c "luafile editors/tests/neovim/runs.lua"

local t = dofile(vim.fn.fnamemodify(debug.getinfo(1, "S").source:sub(2), ":p:h") .. "/harness.lua")(function(t)
  local fake = vim.fn.fnamemodify(t.here .. "/../fake-runner/server.mjs", ":p")
  return { cmd = { "node", fake, t.binary } }
end)
local prose, ws, check, wait = t.prose, t.ws, t.check, t.wait
local log = assert(os.getenv("FAKE_RUNNER_LOG"), "FAKE_RUNNER_LOG")

local function runs_text()
  return table.concat(vim.api.nvim_buf_get_lines(prose.runs_buffer(), 0, -1, false), "\n")
end
local function sent(command)
  local found = {}
  for _, line in ipairs(vim.fn.readfile(log)) do
    local m = vim.fn.json_decode(line)
    if m.method == "workspace/executeCommand" and m.params.command == command then
      table.insert(found, m.params.arguments)
    end
  end
  return found
end

vim.cmd("edit! " .. vim.fn.fnameescape(ws .. "/hello.prose"))
local bufnr = vim.api.nvim_get_current_buf()
local uri = vim.uri_from_bufnr(bufnr)
wait("the prose client", function()
  return prose.client(bufnr) ~= nil
end)

check("settings are sent as JSON objects, even when empty", function()
  local client = prose.client(bufnr)
  assert(vim.fn.json_encode(client.config.init_options) == "{}", vim.fn.json_encode(client.config.init_options))
  assert(vim.fn.json_encode(client.config.settings.prose) == "{}", vim.fn.json_encode(client.config.settings))
end)

check("run from the lens, with an input prompt", function()
  wait("the Run program lens", function()
    return t.has_lens(bufnr, "Run program")
  end)
  local input = vim.fn.input
  vim.fn.input = function(opts)
    assert(opts.prompt:find("Input topic", 1, true), opts.prompt)
    return "typesetting"
  end
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  t.run_lens("Run program")
  wait("the binding event", function()
    return runs_text():find("Binding greeting written", 1, true) ~= nil
  end)
  vim.fn.input = input
  assert(runs_text():find('Input topic = "typesetting"', 1, true), runs_text())
  assert(prose.status() == "Running hello.prose", prose.status())
  local run = sent("prose.run")[1]
  assert(run and run[1].uri == uri, vim.inspect(run))
end)

check(":ProseStop cancels the run", function()
  vim.cmd("ProseStop")
  wait("the run to end", function()
    return runs_text():find("Run cancelled", 1, true) ~= nil
  end)
  assert(prose.status() == "", prose.status())
  local cancel = sent("prose.cancelRun")[1]
  assert(cancel and cancel[1].runId:match("^20261125%-140000%-%d+$"), vim.inspect(cancel))
end)

check(":ProseDryRun shows the plan", function()
  vim.cmd("buffer " .. bufnr)
  vim.cmd("ProseDryRun")
  wait("the plan buffer", function()
    local plan = vim.fn.bufnr("prose://plan")
    return plan ~= -1 and vim.api.nvim_buf_get_lines(plan, 0, 1, false)[1] == '1. session "Say hello in one short sentence" -> greeting'
  end)
end)

t.finish()
