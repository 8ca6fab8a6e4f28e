-- prose-lsp for vim.lsp.config (Neovim 0.11+), in the shape of nvim-lspconfig's
-- lsp/*.lua entries: with editors/neovim on the runtimepath,
--
--   vim.lsp.enable("prose")
--
-- starts prose-lsp for OpenProse programs, Pattern Dialect files, Markdown
-- prompt and instruction files and job entries. Override with
-- vim.lsp.config("prose", { cmd = { "/path/to/prose-lsp" } }).
local config = require("prose").config()
config.name = nil
return config
