-- Drives Neovim 0.7 headless against the formscript language server: opens a fixture,
-- waits for diagnostics, asks for a hover, and writes what it saw as JSON.
-- Inputs (environment): FORMSCRIPT_PYTHON, FORMSCRIPT_FIXTURE, FORMSCRIPT_OUT,
-- FORMSCRIPT_HOVER_LINE (0-based) and FORMSCRIPT_HOVER_BYTE (0-based byte column);
-- FORMSCRIPT_FILETYPE (default yaml).
local python = os.getenv("FORMSCRIPT_PYTHON")
local fixture = os.getenv("FORMSCRIPT_FIXTURE")
local out = os.getenv("FORMSCRIPT_OUT")
local result = { errors = {} }

local function finish()
  local file = io.open(out, "w")
  file:write(vim.fn.json_encode(result))
  file:close()
  vim.cmd("qa!")
end

local ok, err = pcall(function()
  vim.cmd("edit " .. vim.fn.fnameescape(fixture))
  vim.bo.filetype = os.getenv("FORMSCRIPT_FILETYPE") or "yaml"
  local bufnr = vim.api.nvim_get_current_buf()
  local client_id = vim.lsp.start_client({
    name = "formscript",
    cmd = { python, "-m", "formscript.lsp" },
    root_dir = vim.fn.fnamemodify(fixture, ":h"),
    init_options = { ignore = { "FSX002" } },
  })
  if not client_id then
    error("the language server did not start")
  end
  vim.lsp.buf_attach_client(bufnr, client_id)
  local got = vim.wait(20000, function()
    return #vim.diagnostic.get(bufnr) > 0
  end, 50)
  result.waited = got
  local client = vim.lsp.get_client_by_id(client_id)
  result.offset_encoding = client and client.offset_encoding or nil
  result.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local lsp = (d.user_data or {}).lsp or {}
    table.insert(result.diagnostics, {
      lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
      severity = d.severity, message = d.message, source = d.source,
      code = d.code or lsp.code,
    })
  end
  local line = tonumber(os.getenv("FORMSCRIPT_HOVER_LINE"))
  local byte = tonumber(os.getenv("FORMSCRIPT_HOVER_BYTE"))
  vim.api.nvim_win_set_cursor(0, { line + 1, byte })
  local params = vim.lsp.util.make_position_params()
  result.hover_position = params.position
  local responses = vim.lsp.buf_request_sync(bufnr, "textDocument/hover", params, 10000)
  for _, response in pairs(responses or {}) do
    if response.result then
      result.hover = response.result.contents.value
      result.hover_range = response.result.range
    elseif response.err then
      table.insert(result.errors, vim.inspect(response.err))
    end
  end
  vim.lsp.stop_client(client_id)
end)
if not ok then
  table.insert(result.errors, tostring(err))
end
finish()
