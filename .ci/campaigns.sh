#!/usr/bin/env bash
# The hardening campaigns (docs/RELIABILITY.md) in smoke mode: each bounded well under a minute; any failure fails.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
for campaign in fuzz_readers path_attacks crash_consistency concurrency tampering resource_bounds; do
  printf '\n--- campaign %s (smoke)\n' "$campaign"
  if ! timeout 300 uv run python "tools/campaigns/$campaign.py" --smoke; then
    echo "campaign $campaign FAILED"
    status=1
  fi
done
exit $status
