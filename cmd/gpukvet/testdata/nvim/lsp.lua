-- lsp.lua drives `gpukvet lsp` through Neovim's built-in LSP client
-- (Neovim 0.7, headless), as a user would: it opens the kernel file given on
-- the command line, waits for gpukvet's diagnostics, applies the quick fix
-- offered for the divergence finding through Neovim's own code-action
-- machinery, fixes the race by editing the buffer, and stops the server.
-- It writes a transcript to $GPUKVET_TRANSCRIPT and exits non-zero on the
-- first failed expectation. cmd/gpukvet/nvim_test.go runs it.
local transcript = assert(io.open(os.getenv("GPUKVET_TRANSCRIPT"), "w"))
local timeout = tonumber(os.getenv("GPUKVET_TIMEOUT_MS") or "120000")
local race_line = tonumber(os.getenv("GPUKVET_RACE_LINE"))
local barrier_line = tonumber(os.getenv("GPUKVET_BARRIER_LINE"))

local function log(fmt, ...)
  transcript:write(string.format(fmt, ...) .. "\n")
  transcript:flush()
end

local function fail(fmt, ...)
  log("FAIL: " .. fmt, ...)
  transcript:close()
  vim.cmd("cquit 1")
end

local exit_code = nil
local client_id = vim.lsp.start_client({
  name = "gpukvet",
  cmd = { os.getenv("GPUKVET_BIN"), "lsp", "-debounce=50ms" },
  root_dir = os.getenv("GPUKVET_ROOT"),
  handlers = {
    ["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
      log("<- textDocument/publishDiagnostics %s: %d", vim.fn.fnamemodify(vim.uri_to_fname(result.uri), ":t"), #result.diagnostics)
      for _, d in ipairs(result.diagnostics) do
        local href = d.codeDescription and d.codeDescription.href or "-"
        log("     line %d: [%s %s] %s (%s)", d.range.start.line + 1, d.source, d.code, d.message, href)
      end
      vim.lsp.handlers["textDocument/publishDiagnostics"](err, result, ctx, config)
    end,
  },
  on_exit = function(code)
    exit_code = code
  end,
})
if not client_id then
  fail("gpukvet lsp did not start")
end
local bufnr = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(bufnr, client_id)
log("opened %s; gpukvet lsp attached", vim.fn.expand("%:t"))

local function find(code)
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    if d.code == code then
      return d
    end
  end
end

local function wait(what, cond)
  local start = vim.loop.hrtime()
  if not vim.wait(timeout, cond, 50) then
    fail("timed out waiting for %s", what)
  end
  log("   %s after %d ms", what, (vim.loop.hrtime() - start) / 1e6)
end

-- 1. The findings arrive, at the right lines.
wait("races and divergence diagnostics", function()
  return find("races") ~= nil and find("divergence") ~= nil
end)
local race, div = find("races"), find("divergence")
if race.lnum + 1 ~= race_line then
  fail("races diagnostic at line %d, want %d", race.lnum + 1, race_line)
end
if div.lnum + 1 ~= barrier_line then
  fail("divergence diagnostic at line %d, want %d", div.lnum + 1, barrier_line)
end
log("ok: races at line %d, divergence at line %d, source %s", race.lnum + 1, div.lnum + 1, race.source)

-- 2. The quick fix, chosen as a user would from the code-action menu.
vim.ui.select = function(items, opts, on_choice)
  for i, item in ipairs(items) do
    local action = item[2] or item.action or item
    log("   code action %d: %s (%s)", i, action.title, action.kind or "-")
  end
  on_choice(items[1], 1)
end
vim.api.nvim_win_set_cursor(0, { div.lnum + 1, div.col })
log("-> textDocument/codeAction at line %d", div.lnum + 1)
vim.lsp.buf.code_action()
wait("the quick fix applied", function()
  return table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), "\n"):find("if i < n {", 1, true) ~= nil
end)
wait("the divergence diagnostic gone", function()
  return find("divergence") == nil and find("races") ~= nil
end)
log("ok: quick fix applied; the divergence finding is gone, the race remains")

-- 3. Fix the race by hand: a barrier between the write and the read.
race = find("races")
vim.api.nvim_buf_set_lines(bufnr, race.lnum, race.lnum, false, { "\tt.Barrier()" })
log("-> edited: t.Barrier() inserted above line %d", race.lnum + 1)
wait("no diagnostics", function()
  return #vim.diagnostic.get(bufnr) == 0
end)
log("ok: no findings left")

-- 4. Shutdown and exit.
vim.lsp.stop_client(client_id)
wait("the server's exit", function()
  return exit_code ~= nil
end)
if exit_code ~= 0 then
  fail("server exited with code %d, want 0", exit_code)
end
log("ok: server shut down, exit code 0")
transcript:close()
vim.cmd("qall!")
