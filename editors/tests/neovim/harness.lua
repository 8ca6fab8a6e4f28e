-- What the headless Neovim tests share: set-up from the environment, checks
-- that count and print, waits, and the closing line and exit status.
--
--   local t = dofile(".../harness.lua")(cmd_after_binary)  -- see below

return function(setup)
  local here = vim.fn.fnamemodify(debug.getinfo(2, "S").source:sub(2), ":p:h")
  local t = {
    here = here,
    plugin = vim.fn.fnamemodify(here .. "/../../neovim", ":p"),
    binary = assert(os.getenv("PROSE_LSP_BINARY"), "PROSE_LSP_BINARY"),
    ws = assert(os.getenv("PROSE_NVIM_WORKSPACE"), "PROSE_NVIM_WORKSPACE"),
    TIMEOUT = 30000,
    results = { passed = 0, failed = 0, skipped = 0 },
  }
  local version = vim.version()
  local nvim = string.format("nvim %d.%d.%d", version.major, version.minor, version.patch)

  vim.opt.rtp:prepend(t.plugin)
  vim.cmd("filetype on")
  t.prose = require("prose")
  t.prose.setup(setup(t))

  -- print() in headless Neovim does not always end its line.
  function t.say(line)
    io.stdout:write(line .. "\n")
  end

  function t.check(name, fn)
    local ok, err = pcall(fn)
    if ok then
      t.results.passed = t.results.passed + 1
      t.say(string.format("ok      [%s] %s", nvim, name))
    else
      t.results.failed = t.results.failed + 1
      t.say(string.format("FAILED  [%s] %s: %s", nvim, name, tostring(err)))
    end
  end

  function t.skip(name, why)
    t.results.skipped = t.results.skipped + 1
    t.say(string.format("skipped [%s] %s: %s", nvim, name, why))
  end

  function t.wait(what, cond)
    if not vim.wait(t.TIMEOUT, cond, 50) then
      error("timed out waiting for " .. what, 2)
    end
  end

  --- The lines of a buffer as one text, each ended by a newline.
  function t.text(bufnr)
    return table.concat(vim.api.nvim_buf_get_lines(bufnr or 0, 0, -1, false), "\n") .. "\n"
  end

  --- Runs the lens titled `title` on the cursor's line (Neovim asks which
  --- when a line has two).
  function t.run_lens(title)
    local select = vim.ui.select
    vim.ui.select = function(items, _, on_choice)
      for i, item in ipairs(items) do
        if vim.inspect(item):find(title, 1, true) then
          return on_choice(item, i)
        end
      end
      on_choice(nil, nil)
    end
    vim.lsp.codelens.run()
    vim.ui.select = select
  end

  --- Whether the buffer has a lens titled `title`.
  function t.has_lens(bufnr, title)
    for _, lens in ipairs(vim.lsp.codelens.get(bufnr)) do
      if lens.command and lens.command.title:find(title, 1, true) then
        return true
      end
    end
    return false
  end

  --- Prints the closing line, stops the clients and exits (1 when a check failed).
  function t.finish()
    local r = t.results
    t.say(string.format("%d passed, %d failed, %d skipped", r.passed, r.failed, r.skipped))
    local clients = vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()
    for _, c in pairs(clients) do
      if vim.fn.has("nvim-0.11") == 1 then
        c:stop()
      else
        c.stop()
      end
    end
    vim.wait(2000, function()
      return #(vim.lsp.get_clients and vim.lsp.get_clients() or vim.lsp.get_active_clients()) == 0
    end, 50)
    vim.cmd(r.failed > 0 and "cquit 1" or "qall!")
  end

  return t
end
