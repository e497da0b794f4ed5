#!/usr/bin/env python3
"""Establish the expected counts of retained fixtures (fixtures/expected.json) without the analyser.

Each count is read twice, independently of dynamo-diff: from the workload's own oracle.json (where the workload
says it) and by grep over the trace's metadata lines, run in the fixture directory. The two must agree, or
nothing is written. The `how` of each count is the exact command, so anyone can re-run it.

    uv run python tools/expected_counts.py NAME [NAME ...]      # add or refresh these fixtures' entries
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
FIXTURES = REPO / "fixtures"
META = "grep -hv '^\t' raw/*.log"
METRICS = f"{META} | grep '{{\"compilation_metrics\"'"
IDS = 'grep -o \'"frame_id": [0-9]*, "frame_compile_id": [0-9]*\' | sort -u'
# Prints `completed` / `no_graph` per successful compilation_metrics, tracking output graphs per compile id.
SEQUENCE = (
    'awk \'match($0, /"frame_id": [0-9]+, "frame_compile_id": [0-9]+/) { k = substr($0, RSTART, RLENGTH) } '
    '/\\{"dynamo_output_graph"/ { g[k] = 1 } '
    '/\\{"compilation_metrics"/ { if ($0 ~ /"fail_type": null/) { if (g[k]) print "completed"; '
    'else if ($0 ~ /"has_guarded_code": true/) print "no_graph" } g[k] = 0 }\''
)
GREPS: dict[str, str] = {
    # A compilation starts with dynamo_start; one refused at the recompile limit has only its compilation_metrics.
    # Per file (a rank's ids repeat on the other ranks), summed: each dynamo_start of a first attempt, plus the ids
    # that only have compilation_metrics (a compilation refused at the recompile limit never starts).
    "observed_compilation_identities": (
        "for f in raw/*.log; do a=$(grep -v '^\t' \"$f\" | grep '{\"dynamo_start\"' | grep -vc '\"attempt\": [1-9]'); "
        "b=$(comm -13 <(grep -v '^\t' \"$f\" | grep '{\"dynamo_start\"' | "
        f"{IDS}) <(grep -v '^\t' \"$f\" | grep '{{\"compilation_metrics\"' | {IDS}) | wc -l); echo $((a + b)); "
        "done | awk '{s += $1} END {print s}'"
    ),
    "failed": f'{METRICS} | grep -c \'"fail_type": "\'',
    # In file order: a compilation_metrics without a failure is completed when an output graph of its id came
    # since that id's previous metrics (an empty graph too), else with guarded code it has no graph.
    "completed": f"{META} | {SEQUENCE} | awk '$1 == \"completed\"' | wc -l",
    "no_graph_observed": f"{META} | {SEQUENCE} | awk '$1 == \"no_graph\"' | wc -l",
    "unknown_outcomes": (
        "for f in raw/*.log; do comm -23 <(grep -v '^\t' \"$f\" | grep '{\"dynamo_start\"' | "
        f"{IDS}) <(grep -v '^\t' \"$f\" | grep '{{\"compilation_metrics\"' | {IDS}) | wc -l; done "
        "| awk '{s += $1} END {print s}'"
    ),
    "confirmed_recompilation_identities": f'{META} | grep -c \'"name": "recompile_reasons"\'',
    "graph_break_records": f'{META} | grep -c \'"name": "dynamo_graph_break_reason"\'',
    # Per file (docs/SEMANTICS.md, "Ranks": a summed count of sites is the sum of each rank's), summed.
    "unique_graph_break_sites": (
        'for f in raw/*.log; do grep -h -A1 \'"name": "dynamo_graph_break_reason"\' "$f" '
        "| grep -o 'Graph break in user code at .*' | sort -u | wc -l; done | awk '{s += $1} END {print s}'"
    ),
    "compiler_limit_events": f'{METRICS} | grep -c \'"fail_reason": "Dynamo recompile limit exceeded\'',
    "cache_hits": f'{META} | grep -c \'"name": "\\(fx_graph\\|aotautograd\\)_cache_hit"\'',
    "cache_misses": f'{META} | grep -c \'"name": "\\(fx_graph\\|aotautograd\\)_cache_miss"\'',
}


def oracle_value(key: str, expect: dict[str, Any]) -> tuple[int, str] | None:
    """What the workload itself says, where it says it (a multi-rank oracle says it per rank: grep only)."""
    if "compilations" not in expect:
        return None
    unfinished = len(expect.get("unfinished", []))
    if key == "observed_compilation_identities" and "compilations" in expect:
        return expect["compilations"], f"oracle expect.compilations = {expect['compilations']}"
    if key == "failed":
        return expect.get("failures", 0), f"oracle expect.failures (absent = 0) = {expect.get('failures', 0)}"
    if key == "no_graph_observed":
        return expect.get("no_graph", 0), f"oracle expect.no_graph (absent = 0) = {expect.get('no_graph', 0)}"
    if key == "completed" and "compilations" in expect:
        value = expect["compilations"] - expect.get("failures", 0) - expect.get("no_graph", 0) - unfinished
        return value, f"oracle expect.compilations - failures - no_graph - unfinished = {value}"
    if key == "unknown_outcomes":
        return unfinished, f"oracle expect.unfinished (compilations never finished, absent = none) = {unfinished}"
    if key == "confirmed_recompilation_identities":
        return expect.get("recompiles", 0), f"oracle expect.recompiles (absent = 0) = {expect.get('recompiles', 0)}"
    if key == "graph_break_records":
        value = expect.get("graph_breaks", 0)
        return value, f"oracle expect.graph_breaks (absent = 0) = {value}"
    if key == "compiler_limit_events":
        value = expect.get("recompile_limit_hits", 0)
        return value, f"oracle expect.recompile_limit_hits (absent = 0) = {value}"
    return None


def fx_part(name: str, key: str, expect: dict[str, Any]) -> str:
    """Cache counts hold FX graph and AOTAutograd decisions; the workload states the FX graph part: check it."""
    said = f"fx_graph_cache_{key.split('_')[1]}"
    if said not in expect:
        return ""
    decision = "hit" if key == "cache_hits" else "miss"
    command = f'{META} | grep -c \'"name": "fx_graph_cache_{decision}"\''
    found = grep(name, command)
    if found != expect[said]:
        raise SystemExit(
            f"{name} {key}: the oracle says {expect[said]} FX graph cache {decision}(es), grep finds {found}"
        )
    return f"oracle expect.{said} = {found} (the FX graph part: {command} -> {found}); "


def grep(name: str, command: str) -> int:
    proc = subprocess.run(
        ["bash", "-c", command], cwd=FIXTURES / "captures" / name, capture_output=True, text=True, check=False
    )
    return int(proc.stdout.strip() or "0")


def entry(name: str) -> dict[str, Any]:
    expect = json.loads((FIXTURES / "captures" / name / "oracle.json").read_text(encoding="utf-8"))["expect"]
    total: dict[str, Any] = {}
    for key, command in GREPS.items():
        found = grep(name, command)
        said = oracle_value(key, expect)
        how = f"grep in fixtures/captures/{name}: {command} -> {found}"
        if key in ("cache_hits", "cache_misses"):
            how = fx_part(name, key, expect) + how
        if said is not None:
            if said[0] != found:
                raise SystemExit(f"{name} {key}: the oracle says {said[0]} ({said[1]}), grep finds {found}")
            how = f"{said[1]}; {how}"
        total[key] = {"value": found, "how": how}
    return {"total": total}


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("names", nargs="+")
    args = parser.parse_args()
    path = FIXTURES / "expected.json"
    document = json.loads(path.read_text(encoding="utf-8"))
    for name in args.names:
        document["fixtures"][name] = entry(name)
        print(f"{name}: " + ", ".join(f"{k} {v['value']}" for k, v in document["fixtures"][name]["total"].items()))
    document["fixtures"] = dict(sorted(document["fixtures"].items()))
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
