-- Filetypes of prose-lsp's document kinds (docs/languages.md): `prose` and
-- `dialect`; job entries stay `json`, prompt and instruction files `markdown`.
require("prose").filetypes()
