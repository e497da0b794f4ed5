"""Live tests run real torch.compile workloads under `dynamo-diff capture`. They need torch and tlparse installed
by pip (never by uv): `uv run --group ci tox -e live` sets that up and sets DYNAMO_DIFF_LIVE=1. Without it these
tests are not collected, so the default `uv run pytest` stays torch-free."""

from __future__ import annotations

import os

collect_ignore_glob = [] if os.environ.get("DYNAMO_DIFF_LIVE") == "1" else ["test_*.py"]
