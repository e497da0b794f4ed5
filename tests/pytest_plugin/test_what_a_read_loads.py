"""What the pytest plugin loads to count a test's trace: the first test that compiled imports the analyser in the
user's test process (docs/PERFORMANCE.md, "The pytest plugin"), so reading a trace through the service loads the
capture's models and the reader, not the comparison, the matcher, the renderers, the JSON Schemas or the recording
of a run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

TRACE = Path(__file__).resolve().parents[2] / "fixtures/captures/graph_break/raw"

PROBE = """
import json, sys
from dynamo_diff_schema import DynamoDiffError, short_id  # as the plugin does, at the first test that compiled
from dynamo_diff_service import Service
capture = Service.at(sys.argv[2], guest=True).read_path(sys.argv[1], label="t")
print(json.dumps({"modules": sorted(m for m in sys.modules if m.startswith("dynamo_diff")),
                  "compilations": sum(len(r.compilations) for r in capture.ranks)}))
"""

NOT_LOADED = (
    "dynamo_diff_match",
    "dynamo_diff_compare.",  # the package itself is a name table
    "dynamo_diff_schema.comparison",
    "dynamo_diff_schema.documents",
    "dynamo_diff_schema.pages",
    "dynamo_diff_schema.results",
    "dynamo_diff_schema.run_report",
    "dynamo_diff_schema.snapshot",
    "dynamo_diff_store.recording",
    "dynamo_diff_service._source",
    "dynamo_diff_service._export",
    "dynamo_diff_service._condense",
)


def test_reading_a_trace_loads_the_reader_and_the_captures_models_only(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(TRACE), str(tmp_path / "store")], capture_output=True, text=True, check=True
    )
    found = json.loads(done.stdout)
    oracle = json.loads((TRACE.parent / "oracle.json").read_text())
    assert found["compilations"] == oracle["counters"]["frames"]["ok"]  # it did read the trace
    modules = found["modules"]
    assert "dynamo_diff_store.analysis._classify" in modules and "dynamo_diff_schema.capture" in modules
    assert [m for m in modules if m.startswith(NOT_LOADED)] == []
