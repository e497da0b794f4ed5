#!/usr/bin/env bash
# Where CI keeps its heavy installs (Node 24, code-server, the MCP Inspector, the benchmark's venvs): outside the
# clone, so that every clone on a machine reuses them (each is keyed by its version inside). DYNAMO_DIFF_CI_CACHE
# overrides the place. Makes the directory and prints its absolute path. tests/mcp/test_inspector.py and
# tools/bench/side_by_side.py use the same rule.
set -euo pipefail
cache="${DYNAMO_DIFF_CI_CACHE:-$HOME/.cache/dynamo-diff-ci}"
mkdir -p "$cache"
cd "$cache" && pwd -P
