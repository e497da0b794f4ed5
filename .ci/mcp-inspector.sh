#!/usr/bin/env bash
# The MCP Inspector (a third-party MCP client, npm package @modelcontextprotocol/inspector) for the MCP server
# test in tests/mcp/test_inspector.py. Installs the pinned version into the CI cache (.ci/cache-dir.sh) once (Node 24 from
# .ci/node24.sh: the inspector needs Node >= 22.19) and writes mcp-inspector/run there, a wrapper that runs
# it with that Node. Idempotent; a second run only checks the cache. Prints the wrapper's path.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
version="${MCP_INSPECTOR_VERSION:-2.12.0}"
node_dir="$(bash "$here/.ci/node24.sh")"
cache="$(bash "$here/.ci/cache-dir.sh")"
target="$cache/mcp-inspector-$version"
bin="$target/node_modules/.bin/mcp-inspector"
if [ ! -x "$bin" ]; then
  tmp="$target.tmp-$$"
  rm -rf "$tmp"
  mkdir -p "$tmp"
  (cd "$tmp" && echo '{"private": true}' >package.json \
    && PATH="$node_dir/bin:$PATH" npm install --silent --no-audit --no-fund --save-exact \
      "@modelcontextprotocol/inspector@$version" >/dev/null)
  rm -rf "$target"
  mv "$tmp" "$target"
fi
wrapper="$cache/mcp-inspector/run"
mkdir -p "$(dirname "$wrapper")"
cat >"$wrapper.tmp" <<WRAP
#!/usr/bin/env bash
# Written by .ci/mcp-inspector.sh: the MCP Inspector $version on Node 24.
export PATH="$node_dir/bin:\$PATH"
exec "$bin" "\$@"
WRAP
chmod +x "$wrapper.tmp"
mv "$wrapper.tmp" "$wrapper"
"$wrapper" --version >/dev/null
echo "$wrapper"
