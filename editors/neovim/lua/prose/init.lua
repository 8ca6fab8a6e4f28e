-- prose-lsp for Neovim: the language server for OpenProse programs and the
-- other document kinds of docs/languages.md, the run API's handlers
-- (`prose/runEvent`, `prose/inputRequest`), code lenses and commands.
--
-- Neovim 0.11+: require("prose").setup() calls vim.lsp.config / vim.lsp.enable
-- (or put lsp/prose.lua on the runtimepath and call vim.lsp.enable("prose")).
-- Neovim 0.7-0.10: the same setup() starts the server with vim.lsp.start_client.

local events = require("prose.events")

local M = {}

--- Runs in progress, by run id: { program = "hello.prose", run_dir = "..." }.
M.runs = {}

local defaults = {
  cmd = { "prose-lsp" },
  -- Every kind the server handles; the server answers for what it supports.
  filetypes = { "prose", "dialect", "markdown", "json", "jsonc" },
  root_markers = { "prose.toml", ".prose", ".git" },
  -- The `prose` settings section (docs/lsp.md, "Editor settings").
  settings = {},
}

local function is_job_entry(name)
  return name:match("%.jobs%.json$") ~= nil or name:match("[/\\]jobs%.json$") ~= nil or name == "jobs.json"
end

--- Whether a buffer of `filetype` named `name` goes to the server: JSON only
--- for job entries.
function M.wants(filetype, name)
  if filetype == "json" or filetype == "jsonc" then
    return is_job_entry(name)
  end
  return true
end

--- The buffer that shows run events.
function M.runs_buffer()
  local name = "prose://runs"
  local buf = vim.fn.bufnr(name)
  if buf == -1 then
    buf = vim.api.nvim_create_buf(true, true)
    vim.api.nvim_buf_set_name(buf, name)
    vim.bo[buf].buftype = "nofile"
    vim.bo[buf].swapfile = false
    vim.api.nvim_buf_set_lines(buf, 0, -1, false, {})
  end
  return buf
end

local function append(lines)
  local buf = M.runs_buffer()
  local count = vim.api.nvim_buf_line_count(buf)
  local first = vim.api.nvim_buf_get_lines(buf, 0, 1, false)[1]
  if count == 1 and first == "" then
    vim.api.nvim_buf_set_lines(buf, 0, 1, false, lines)
  else
    vim.api.nvim_buf_set_lines(buf, count, count, false, lines)
  end
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_buf(win) == buf then
      vim.api.nvim_win_set_cursor(win, { vim.api.nvim_buf_line_count(buf), 0 })
    end
  end
end

--- `prose/runEvent`: one line per event in the prose://runs buffer.
function M.on_run_event(_, event)
  if type(event) ~= "table" then
    return
  end
  append(vim.split(events.format(event), "\n", { plain = true }))
  if event.type == "run_started" then
    M.runs[event.run_id] = { program = events.program_name(event), run_dir = event.run_dir }
  elseif event.type == "run_finished" then
    M.runs[event.run_id] = nil
  end
  vim.cmd("redrawstatus")
end

--- `prose/inputRequest`: asks for the value; cancelling cancels the run.
function M.on_input_request(_, params)
  local cancelled = "\1cancelled\1"
  local prompt = string.format("Input %s%s: ", params.name,
    (params.description and params.description ~= "") and (" (" .. params.description .. ")") or "")
  local ok, value = pcall(vim.fn.input, { prompt = prompt, cancelreturn = cancelled })
  if not ok or value == cancelled then
    return vim.NIL
  end
  return { value = value }
end

--- For the statusline: "Running hello.prose", or "".
function M.status()
  for _, run in pairs(M.runs) do
    return "Running " .. run.program
  end
  return ""
end

local function capabilities()
  local caps = vim.lsp.protocol.make_client_capabilities()
  caps.experimental = vim.tbl_extend("force", caps.experimental or {}, { proseInputRequest = true })
  return caps
end

local function handlers()
  return {
    ["prose/runEvent"] = M.on_run_event,
    ["prose/inputRequest"] = M.on_input_request,
  }
end

--- Keeps code lenses (Run program, Dry run) current in a buffer.
local function enable_codelens(client, bufnr)
  local caps = client.server_capabilities or client.resolved_capabilities or {}
  if not (caps.codeLensProvider or caps.code_lens) then
    return
  end
  if vim.lsp.codelens.enable then
    vim.lsp.codelens.enable(true, { bufnr = bufnr })
    return
  end
  local group = vim.api.nvim_create_augroup("prose-codelens-" .. bufnr, { clear = true })
  vim.api.nvim_create_autocmd({ "BufEnter", "CursorHold", "InsertLeave", "BufWritePost" }, {
    group = group,
    buffer = bufnr,
    callback = function()
      vim.lsp.codelens.refresh()
    end,
  })
  vim.lsp.codelens.refresh()
end

local function on_attach(client, bufnr)
  enable_codelens(client, bufnr)
end

--- `t`, or an empty dict when it is empty: an empty Lua table would be sent
--- as the JSON array `[]`.
local function object(t)
  if next(t) == nil then
    return vim.empty_dict()
  end
  return t
end

--- The client configuration, for vim.lsp.config (0.11+) and start_client.
function M.config(opts)
  opts = vim.tbl_deep_extend("force", defaults, opts or {})
  local settings = object(opts.settings)
  return {
    name = "prose",
    cmd = opts.cmd,
    filetypes = opts.filetypes,
    root_markers = opts.root_markers,
    -- 0.11+: a buffer is attached only when this calls on_dir.
    root_dir = function(bufnr, on_dir)
      local name = vim.api.nvim_buf_get_name(bufnr)
      if M.wants(vim.bo[bufnr].filetype, name) then
        on_dir(M.root(name, opts.root_markers))
      end
    end,
    capabilities = capabilities(),
    handlers = handlers(),
    init_options = settings,
    settings = { prose = settings },
    on_attach = on_attach,
  }
end

--- The root for a file: the nearest folder holding one of `markers`, else the file's folder.
function M.root(name, markers)
  local dir = vim.fn.fnamemodify(name ~= "" and name or vim.fn.getcwd() .. "/x", ":p:h")
  local current = dir
  while true do
    for _, marker in ipairs(markers) do
      local p = current .. "/" .. marker
      if vim.fn.filereadable(p) == 1 or vim.fn.isdirectory(p) == 1 then
        return current
      end
    end
    local parent = vim.fn.fnamemodify(current, ":h")
    if parent == current then
      return dir
    end
    current = parent
  end
end

--- The prose client attached to a buffer (0 = current).
function M.client(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  local clients = vim.lsp.get_clients and vim.lsp.get_clients({ bufnr = bufnr }) or vim.lsp.buf_get_clients(bufnr)
  for _, client in pairs(clients) do
    if client.name == "prose" then
      return client
    end
  end
  return nil
end

-- Neovim 0.7-0.10: one client per root, started with start_client.
local clients_by_root = {}

local function attach_fallback(config, bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  if not M.wants(vim.bo[bufnr].filetype, name) then
    return
  end
  local root = M.root(name, config.root_markers)
  local id = clients_by_root[root]
  if id == nil or vim.lsp.get_client_by_id(id) == nil then
    local start = vim.tbl_extend("force", config, {
      root_dir = root,
      workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    })
    start.root_markers = nil
    start.filetypes = nil
    id = vim.lsp.start_client(start)
    clients_by_root[root] = id
  end
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
end

--- client:request on 0.11+, client.request before.
local function request(client, method, params, handler, bufnr)
  if vim.fn.has("nvim-0.11") == 1 then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end
M.request = request

local function execute(command, arguments, on_result)
  local client = M.client(0)
  if not client then
    vim.notify("prose: no prose-lsp client for this buffer", vim.log.levels.WARN)
    return
  end
  request(client, "workspace/executeCommand", { command = command, arguments = arguments }, function(err, result)
    if err then
      vim.notify("prose: " .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
    elseif on_result then
      on_result(result)
    end
  end, vim.api.nvim_get_current_buf())
end

local function show_scratch(name, lines, filetype)
  local buf = vim.fn.bufnr(name)
  if buf == -1 then
    buf = vim.api.nvim_create_buf(true, true)
    vim.api.nvim_buf_set_name(buf, name)
    vim.bo[buf].buftype = "nofile"
  end
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  if filetype then
    vim.bo[buf].filetype = filetype
  end
  vim.cmd("vsplit")
  vim.api.nvim_win_set_buf(0, buf)
  return buf
end

--- A job task's fully expanded prompt (`prose.showTaskPrompt`, docs/lsp.md)
--- in a scratch buffer `prose://task-prompt/TASK`.
function M.show_task_prompt(client, arguments, bufnr)
  request(client, "workspace/executeCommand", { command = "prose.showTaskPrompt", arguments = arguments }, function(err, result)
    if err then
      vim.notify("prose: " .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
      return
    end
    show_scratch("prose://task-prompt/" .. result.task, vim.split(result.text, "\n", { plain = true }))
  end, bufnr)
end

--- A dry run's plan (`prose.dryRun`, or a job task's `prose.dryRunTask`)
--- in the scratch buffer `prose://plan`.
function M.show_plan(client, command, bufnr)
  request(client, "workspace/executeCommand", { command = command.command, arguments = command.arguments }, function(err, result)
    if err then
      vim.notify("prose: " .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
      return
    end
    show_scratch("prose://plan", vim.split(result.plan or "", "\n", { plain = true }))
  end, bufnr)
end

--- What the model receives from a prompt file (`prose.showModelView`,
--- docs/lsp.md). The server writes the view under .prose/model-view/ and
--- opens it (window/showDocument); a Neovim without showDocument (0.7) gets
--- the text in a scratch buffer `prose://model-view` instead.
function M.show_model_view(client, arguments, bufnr)
  request(client, "workspace/executeCommand", { command = "prose.showModelView", arguments = arguments }, function(err, result)
    if err then
      vim.notify("prose: " .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
      return
    end
    local caps = vim.lsp.protocol.make_client_capabilities()
    local shows = caps.window and caps.window.showDocument and caps.window.showDocument.support
    if (not shows or result.uri == vim.NIL) and result.markdown then
      show_scratch("prose://model-view", vim.split(result.markdown, "\n", { plain = true }), "markdown")
    end
  end, bufnr)
end

--- The handlers of the lenses whose answer is shown ("Show expanded
--- prompt", "Dry run", "Show what the model receives"): Neovim runs a
--- lens's command through vim.lsp.commands before asking the server. The
--- run lenses ("▶ Run program", "▶ Run task") go to the server as they
--- are: their events come as prose/runEvent.
local function lens_commands()
  local function client_of(ctx)
    return vim.lsp.get_client_by_id(ctx.client_id) or M.client(ctx.bufnr)
  end
  vim.lsp.commands["prose.showTaskPrompt"] = function(command, ctx)
    local client = client_of(ctx)
    if client then
      M.show_task_prompt(client, command.arguments, ctx.bufnr)
    end
  end
  for _, id in ipairs({ "prose.dryRun", "prose.dryRunTask" }) do
    vim.lsp.commands[id] = function(command, ctx)
      local client = client_of(ctx)
      if client then
        M.show_plan(client, command, ctx.bufnr)
      end
    end
  end
  vim.lsp.commands["prose.showModelView"] = function(command, ctx)
    local client = client_of(ctx)
    if client then
      M.show_model_view(client, command.arguments, ctx.bufnr)
    end
  end
end

local function commands()
  local function uri()
    return { { uri = vim.uri_from_bufnr(0) } }
  end
  lens_commands()
  vim.api.nvim_create_user_command("ProseTaskPrompt", function(args)
    local client = M.client(0)
    if not client then
      vim.notify("prose: no prose-lsp client for this buffer", vim.log.levels.WARN)
      return
    end
    M.show_task_prompt(client, { { uri = vim.uri_from_bufnr(0), task = args.args } }, 0)
  end, { nargs = 1, desc = "Show the expanded prompt of a task of this job entry" })
  vim.api.nvim_create_user_command("ProseRun", function()
    if vim.bo.modified then
      vim.cmd("write")
    end
    execute("prose.run", uri(), function(result)
      vim.notify(string.format("prose: run %s started (%s)", result.runId, result.runDir))
    end)
  end, { desc = "Run the OpenProse program of this buffer" })
  vim.api.nvim_create_user_command("ProseDryRun", function()
    execute("prose.dryRun", uri(), function(result)
      show_scratch("prose://plan", vim.split(result.plan or "", "\n", { plain = true }))
    end)
  end, { desc = "Show the execution plan of this program" })
  vim.api.nvim_create_user_command("ProseStop", function(args)
    local id = args.args ~= "" and args.args or next(M.runs)
    if not id then
      vim.notify("prose: no program is running")
      return
    end
    execute("prose.cancelRun", { { runId = id } })
  end, { nargs = "?", desc = "Stop a run (the only one, or the run id given)" })
  vim.api.nvim_create_user_command("ProseRuns", function()
    vim.cmd("vsplit")
    vim.api.nvim_win_set_buf(0, M.runs_buffer())
  end, { desc = "Show the events of runs" })
  vim.api.nvim_create_user_command("ProseSyntaxTree", function()
    local client = M.client(0)
    if not client then
      return
    end
    request(client, "prose/syntaxTree", { textDocument = { uri = vim.uri_from_bufnr(0) } }, function(err, tree)
      if err then
        vim.notify("prose: " .. err.message, vim.log.levels.ERROR)
        return
      end
      show_scratch("prose://syntax-tree", vim.split(tree, "\n", { plain = true }))
    end, 0)
  end, { desc = "Show the syntax tree of this program" })
  vim.api.nvim_create_user_command("ProseModelView", function()
    local client = M.client(0)
    if not client then
      vim.notify("prose: no prose-lsp client for this buffer", vim.log.levels.WARN)
      return
    end
    M.show_model_view(client, uri(), vim.api.nvim_get_current_buf())
  end, { desc = "Show what the model receives from this prompt file" })
  vim.api.nvim_create_user_command("ProseExplain", function(args)
    local code = args.args
    if code == "" then
      local line = vim.api.nvim_win_get_cursor(0)[1] - 1
      for _, d in ipairs(vim.diagnostic.get(0, { lnum = line })) do
        if d.source == "prose" and d.code then
          code = tostring(d.code)
          break
        end
      end
    end
    if code == "" then
      vim.notify("prose: no diagnostic on this line; give a code: :ProseExplain E002")
      return
    end
    local client = M.client(0)
    if not client then
      return
    end
    request(client, "prose/explain", { code = code }, function(err, answer)
      if err or answer == nil or answer == vim.NIL then
        vim.notify("prose: no diagnostic with the code " .. code, vim.log.levels.WARN)
        return
      end
      show_scratch("prose://explain/" .. answer.code, vim.split(answer.markdown, "\n", { plain = true }), "markdown")
    end, 0)
  end, { nargs = "?", desc = "Explain a diagnostic code (default: the one on this line)" })
end

--- Filetype detection: vim.filetype.add, and autocommands where Neovim
--- still uses filetype.vim (before 0.8).
function M.filetypes()
  vim.filetype.add({ extension = { prose = "prose", dialect = "dialect" } })
  if vim.fn.has("nvim-0.8") == 0 then
    local group = vim.api.nvim_create_augroup("prose-filetypes", { clear = true })
    for ext, ft in pairs({ prose = "prose", dialect = "dialect" }) do
      vim.api.nvim_create_autocmd({ "BufRead", "BufNewFile" }, {
        group = group,
        pattern = "*." .. ext,
        command = "setfiletype " .. ft,
      })
    end
  end
end

--- Sets up filetypes, the server and the commands.
--- opts: { cmd = {...}, filetypes = {...}, root_markers = {...}, settings = { profile = ..., severity = ... } }
function M.setup(opts)
  M.filetypes()
  local config = M.config(opts)
  commands()
  if vim.lsp.config and vim.lsp.enable then
    vim.lsp.config("prose", config)
    vim.lsp.enable("prose")
    return
  end
  local group = vim.api.nvim_create_augroup("prose-lsp", { clear = true })
  vim.api.nvim_create_autocmd("FileType", {
    group = group,
    pattern = config.filetypes,
    callback = function(args)
      attach_fallback(config, args.buf)
    end,
  })
  -- Buffers already open.
  for _, bufnr in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(bufnr) and vim.tbl_contains(config.filetypes, vim.bo[bufnr].filetype) then
      attach_fallback(config, bufnr)
    end
  end
end

return M
