-- Scenarios run in a real Neovim (0.7 and later) after a setup (the README's snippet, or a
-- config the test gives). Each writes what it saw to FORMSCRIPT_OUT as JSON and quits.
-- Inputs (environment): FORMSCRIPT_SCENARIO, FORMSCRIPT_OUT, FORMSCRIPT_FILES (paths joined
-- by "\n"), and the scenario's own variables, named below.
local out = os.getenv("FORMSCRIPT_OUT")
local files = vim.split(os.getenv("FORMSCRIPT_FILES") or "", "\n", { plain = true, trimempty = true })
local result = { errors = {} }
local runner -- the coroutine running the scenario: it sleeps so that Neovim's loop runs keys

local function finish()
  local handle = io.open(out, "w")
  handle:write(vim.fn.json_encode(result))
  handle:close()
  vim.cmd("qa!")
end

local function resume()
  local ok, err = coroutine.resume(runner)
  if not ok then
    table.insert(result.errors, tostring(err))
    finish()
  elseif coroutine.status(runner) == "dead" then
    finish()
  end
end

--- Let Neovim's loop run (typed keys, server messages) for *ms* milliseconds.
local function sleep(ms)
  vim.defer_fn(resume, ms)
  coroutine.yield()
end

--- Sleep until *test* holds (at most *ms*); whether it does.
local function wait_until(test, ms)
  local waited = 0
  while not test() do
    if waited >= ms then return false end
    sleep(25)
    waited = waited + 25
  end
  return true
end

local function formscript_clients(bufnr)
  local get = vim.lsp.get_clients or vim.lsp.get_active_clients
  local found = {}
  for _, client in ipairs(get()) do
    if client.name == "formscript" and (bufnr == nil or vim.lsp.buf_is_attached(bufnr, client.id)) then
      table.insert(found, client)
    end
  end
  return found
end

local function diagnostics(bufnr)
  local seen = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    local lsp = (d.user_data or {}).lsp or {}
    table.insert(seen, {
      lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
      severity = d.severity, message = d.message, code = d.code or lsp.code,
    })
  end
  table.sort(seen, function(a, b)
    if a.lnum ~= b.lnum then return a.lnum < b.lnum end
    if a.col ~= b.col then return a.col < b.col end
    return tostring(a.code) < tostring(b.code)
  end)
  return seen
end

local function open(path)
  vim.cmd("edit " .. vim.fn.fnameescape(path))
  local bufnr = vim.api.nvim_get_current_buf()
  wait_until(function() return #formscript_clients(bufnr) > 0 end, 20000)
  return bufnr
end

local function wait_diagnostics(bufnr, test)
  test = test or function(d) return #d > 0 end
  return wait_until(function() return test(vim.diagnostic.get(bufnr)) end, 20000)
end

--- The server processes Neovim started (its children running formscript).
local function server_processes()
  local lines = vim.fn.systemlist({ "ps", "-o", "args=", "--ppid", tostring(vim.fn.getpid()) })
  local count = 0
  for _, line in ipairs(lines) do
    if line:find("formscript", 1, true) then count = count + 1 end
  end
  return count
end

local function hover(bufnr, line, byte)
  vim.api.nvim_win_set_cursor(0, { line + 1, byte })
  local params = vim.lsp.util.make_position_params(0, "utf-16")
  local responses = vim.lsp.buf_request_sync(bufnr, "textDocument/hover", params, 10000)
  for _, response in pairs(responses or {}) do
    if response.result then return response.result.contents.value end
    if response.err then table.insert(result.errors, vim.inspect(response.err)) end
  end
  return nil
end

local scenarios = {}

--- Open every file; per buffer: its formscript clients, diagnostics; the server processes.
function scenarios.roots()
  result.buffers = {}
  for _, path in ipairs(files) do
    local bufnr = open(path)
    local waited = wait_diagnostics(bufnr)
    local ids = {}
    for _, client in ipairs(formscript_clients(bufnr)) do
      table.insert(ids, client.id)
      ids.root = client.config.root_dir
    end
    table.insert(result.buffers, {
      clients = ids, root = ids.root, waited = waited, diagnostics = diagnostics(bufnr),
    })
    ids.root = nil
  end
  result.clients = #formscript_clients()
  result.processes = server_processes()
  local line = tonumber(os.getenv("FORMSCRIPT_HOVER_LINE") or "")
  if line then
    vim.cmd("buffer " .. vim.fn.bufnr(files[1]))
    result.hover = hover(vim.fn.bufnr(files[1]), line, tonumber(os.getenv("FORMSCRIPT_HOVER_BYTE")))
  end
end

--- Open the file, then write FORMSCRIPT_CONFIG_TEXT to FORMSCRIPT_CONFIG_PATH, touch the buffer
--- (an edit that changes nothing the lint sees), and see the diagnostics change.
function scenarios.config_change()
  local bufnr = open(files[1])
  wait_diagnostics(bufnr)
  result.before = diagnostics(bufnr)
  local before = vim.inspect(result.before)
  local handle = io.open(os.getenv("FORMSCRIPT_CONFIG_PATH"), "w")
  handle:write(os.getenv("FORMSCRIPT_CONFIG_TEXT"))
  handle:close()
  local how = os.getenv("FORMSCRIPT_TOUCH") or "edit"
  if how == "write" then
    vim.cmd("write")
  else -- a blank line added at the end, as typing would
    vim.api.nvim_buf_set_lines(bufnr, -1, -1, false, { "" })
  end
  result.changed = wait_until(function() return vim.inspect(diagnostics(bufnr)) ~= before end, 15000)
  result.after = diagnostics(bufnr)
end

--- Type FORMSCRIPT_TYPE at the end of line FORMSCRIPT_LINE (0-based; appended as a new line
--- when FORMSCRIPT_NEW_LINE is set) in insert mode, ask the omnifunc for completions, accept
--- the one labelled FORMSCRIPT_LABEL, leave insert mode and report the buffer.
function scenarios.complete()
  local bufnr = open(files[1])
  wait_diagnostics(bufnr, function() return true end)
  vim.bo[bufnr].omnifunc = "v:lua.vim.lsp.omnifunc"
  vim.o.completeopt = "menuone,noselect" -- the menu shows even for one item; the pick selects
  local line = tonumber(os.getenv("FORMSCRIPT_LINE"))
  local typed = os.getenv("FORMSCRIPT_TYPE") or ""
  if os.getenv("FORMSCRIPT_NEW_LINE") then
    vim.api.nvim_buf_set_lines(bufnr, line, line, false, { typed })
  else
    local current = vim.api.nvim_buf_get_lines(bufnr, line, line + 1, false)[1]
    vim.api.nvim_buf_set_lines(bufnr, line, line + 1, false, { current .. typed })
  end
  local text = vim.api.nvim_buf_get_lines(bufnr, line, line + 1, false)[1]
  vim.api.nvim_win_set_cursor(0, { line + 1, #text })
  local label = os.getenv("FORMSCRIPT_LABEL")
  result.offered = {}
  local accepted = false
  -- in insert mode at the end of the line: <C-x><C-o> asks; then pick the item by its label
  local function formscript_pick()
    local info = vim.fn.complete_info({ "items" })
    for index, item in ipairs(info.items or {}) do
      table.insert(result.offered, { abbr = item.abbr, word = item.word })
      if item.abbr == label then
        accepted = true
        vim.api.nvim_select_popupmenu_item(index - 1, true, true, {})
        return
      end
    end
  end
  result.done = {}
  vim.api.nvim_create_autocmd("CompleteDone", { buffer = bufnr, callback = function()
    table.insert(result.done, { reason = vim.v.event.reason, item = vim.v.completed_item })
  end })
  local function keys(text) vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(text, true, false, true), "t", false) end
  keys("A" .. string.rep("<Left>", tonumber(os.getenv("FORMSCRIPT_BACK") or "0")) .. "<C-x><C-o>")
  result.popup = wait_until(function()
    return vim.fn.pumvisible() == 1 and #vim.fn.complete_info({ "items" }).items > 0
  end, 10000)
  result.mode = vim.fn.mode()
  formscript_pick()
  sleep(200)
  keys("<Esc>")
  sleep(200)
  result.accepted = accepted
  result.lines = vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
  vim.cmd("write")
end

--- Pick the code action titled FORMSCRIPT_ACTION from vim.lsp.buf.code_action's menu (as a user
--- would from vim.ui.select); record the messages the server shows and the buffers open after.
function scenarios.action()
  local bufnr = open(files[1])
  wait_diagnostics(bufnr)
  result.messages = {}
  local shown = vim.lsp.handlers["window/showMessage"]
  vim.lsp.handlers["window/showMessage"] = function(err, params, ctx, config)
    table.insert(result.messages, params.message)
    return shown(err, params, ctx, config)
  end
  local wanted = os.getenv("FORMSCRIPT_ACTION")
  result.titles = {}
  vim.ui.select = function(items, opts, on_choice)
    for index, item in ipairs(items) do
      local action = item.action or item[2] or item
      table.insert(result.titles, action.title)
      if action.title == wanted then
        return on_choice(item, index)
      end
    end
    on_choice(nil, nil)
  end
  local before = #vim.api.nvim_list_bufs()
  vim.lsp.buf.code_action()
  result.shown = wait_until(function()
    return #result.messages > 0 or #vim.api.nvim_list_bufs() > before
  end, 20000)
  sleep(300)
  result.buffers = {}
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if buf ~= bufnr and vim.api.nvim_buf_get_name(buf) ~= "" then
      table.insert(result.buffers, {
        name = vim.api.nvim_buf_get_name(buf),
        lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false),
      })
    end
  end
end

runner = coroutine.create(function()
  scenarios[os.getenv("FORMSCRIPT_SCENARIO")]()
end)
vim.schedule(resume)
