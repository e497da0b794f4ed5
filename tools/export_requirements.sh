#!/usr/bin/env bash
# Regenerate the committed, hash-pinned requirement exports (no download addresses are recorded).
set -euo pipefail
cd "$(dirname "$0")/.."
uv export --quiet --all-packages --all-extras --no-emit-workspace --no-emit-project \
  --group dev --group type --group ci --format requirements-txt -o requirements/dev.txt
uv export --quiet --only-group lint --no-emit-workspace --no-emit-project -o requirements/lint.txt
